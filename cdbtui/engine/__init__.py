"""The rules engine: pure attrs state, commands and their application. No I/O, no Textual."""
