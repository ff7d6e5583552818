"""cdbtui: the Plantilla de Momentos de Iniciativa of CdB Engine, live in the terminal."""
