"""The one domain error: a refused command, whose message is the Spanish line shown."""


class Refusal(Exception):
    """A command the rules (or the parser) refuse; `str()` is the user-facing sentence."""

    def __str__(self) -> str:
        return self.args[0] if self.args else "Orden rechazada"
