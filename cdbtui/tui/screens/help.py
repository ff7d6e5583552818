"""The help screen: the keys (from the one table of keys, `cdbtui.keys`), the marks of
the sheet, the commands and the rule decisions."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from rich.markdown import Markdown
from textual.widgets import Static

from ...keys import ADD_SYNTAX, help_lines
from ...view import DECISIONS, LEGEND
from ..widgets.keybar import KeyBar

COMMANDS_HELP = f"""\
`{ADD_SYNTAX}` ·
`baja NOMBRE` · `momento NOMBRE N` · `tirar [NOMBRE…]` · `sorpresa NOMBRE…` ·
`empezar` · `NOMBRE MANIOBRA [N]` · `NOMBRE gasta N` · `NOMBRE retrasa` ·
`NOMBRE actua` · `NOMBRE espera TEXTO` · `NOMBRE interrumpe MANIOBRA` ·
`NOMBRE fin` · `siguiente` · `turno` · `deshacer` · `rehacer` ·
`NOMBRE interrumpe MANIOBRA ahora` ·
`estado NOMBRE +COND [turnos=N]` · `estado NOMBRE -COND` · `nota NOMBRE TEXTO [turnos=N]` ·
`nota NOMBRE -` · `revelar NOMBRE` · `ocultar NOMBRE` · `fatiga-cc si|no` ·
`dano NOMBRE N [rd=N] [fatiga]` · `cambiar A B` ·
`NOMBRE MANIOBRA a BLANCO` · `NOMBRE bloqueo a ATACANTE` · `NOMBRE liderazgo gde=N` ·
`bono LÍDER a COMPAÑERO` · `duelo A B [A+N]` · `monta JINETE MONTURA` · `desmonta JINETE` ·
`curar NOMBRE N [fatiga]` · `descanso` · `rapida si|no`"""


def help_markdown() -> str:
    """The help text, built from the same tables the sheet and the engine use."""
    keys = "\n".join(help_lines())
    marks = "\n".join(f"- `{k}` — {v}" for k, v in LEGEND)
    decisions = "\n".join(f"- **{k}**: {v}" for k, v in DECISIONS)
    return (
        "# Ayuda\n\n## Teclas\n\n" + keys
        + "\n\n## Marcas de la plantilla\n\n" + marks
        + "\n- atenuado: ha terminado este turno\n- tachado: fuera de combate"
        + "\n\n## Órdenes\n\n" + COMMANDS_HELP
        + "\n\n## Decisiones de reglas\n\n" + decisions + "\n"
    )


def cs_help_markdown() -> str:
    """C-System's help: its keys, the list's marks, its commands and every Decision
    of CSYSTEM.md §11 (the same tables the list and the fight screen use)."""
    from ...view import cslist
    from .csfight import CS_KEYS

    keys = "\n".join(f"- `{entry.keys}` — {entry.help}" for entry in CS_KEYS)
    marks = "\n".join(f"- `{k}` — {v}" for k, v in cslist.LEGEND)
    decisions = "\n".join(f"- **{k}**: {v}" for k, v in cslist.DECISIONS)
    return (
        "# Ayuda · C-System\n\n## Teclas\n\n" + keys
        + "\n\n## Marcas de la lista\n\n" + marks
        + "\n\n## Órdenes\n\n" + cslist.COMMANDS_HELP
        + "\n\n## Decisiones de reglas (CSYSTEM §11)\n\n" + decisions + "\n"
    )


def narr_help_markdown() -> str:
    """The storyteller help: its keys, the list's marks, its commands and every
    Decision of STORYTELLER.md §14 (the same tables the list and the screen use)."""
    from ...view import narrlist
    from .narrfight import NARR_KEYS

    keys = "\n".join(f"- `{entry.keys}` — {entry.help}" for entry in NARR_KEYS)
    marks = "\n".join(f"- `{k}` — {v}" for k, v in narrlist.LEGEND)
    decisions = "\n".join(f"- **{k}**: {v}" for k, v in narrlist.DECISIONS)
    return (
        "# Ayuda · Narrador\n\n## Teclas\n\n" + keys
        + "\n\n## Marcas de la lista\n\n" + marks
        + "\n\n## Órdenes\n\n" + narrlist.COMMANDS_HELP
        + "\n\n## Decisiones de reglas (STORYTELLER §14)\n\n" + decisions + "\n"
    )


class HelpScreen(ModalScreen[None]):
    """Ayuda: teclas, marcas y decisiones (las de las reglas del combate abierto)."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "cerrar", key_display="esc"),
    ]

    def __init__(self, rules: str = "cdb") -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        text = (cs_help_markdown() if self.rules == "csystem" else narr_help_markdown()
                if self.rules == "narrador" else help_markdown())
        with VerticalScroll(id="help", classes="dialog"):
            # Rich's Markdown in one Static: Textual's Markdown widget makes a widget
            # per block, and took seconds to open this page.
            yield Static(Markdown(text), id="help-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)
