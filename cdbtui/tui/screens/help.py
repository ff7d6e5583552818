"""The help screen: the keys, the marks of the sheet and the rule decisions."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from ...view import DECISIONS, LEGEND

KEYS_HELP = (
    ("⏎", "maniobra del seleccionado (filtra escribiendo)"),
    ("1–9", "el seleccionado gasta esas AC en una acción libre"),
    ("e / c", "esquivar / ponerse a cubierto (reacciones, en cualquier momento)"),
    ("r", "retrasar la acción (otra vez: actuar ahora)"),
    ("w", "quedarse a la espera (escribe el desencadenante)"),
    ("f", "fin: declina las AC que le quedan"),
    ("espacio", "avanzar la cuenta atrás"),
    ("t", "turno nuevo (se propone solo cuando todos terminan)"),
    ("u / ctrl+z, ctrl+y", "deshacer, rehacer"),
    ("← → / h l", "mover la selección (tras cada orden vuelve a quien actúa)"),
    ("d / s", "daño / estado (condición) del seleccionado"),
    ("a", "añadir combatiente (también a mitad de combate)"),
    ("G / A", "guardar al seleccionado en el grupo de PJ / añadir el grupo al combate"),
    ("i", "momentos iniciales: escribir o tirar 1d6+INI, empezar"),
    (":", "línea de órdenes (todas las de COMMANDS.md, con Tab para completar)"),
    ("ctrl+p", "paleta de órdenes"),
    ("q / ctrl+q", "salir (todo queda guardado tras cada orden)"),
)

COMMANDS_HELP = """\
`alta NOMBRE ac=N [ini=N] [agi=N] [ate=N] [mov=N] [bando=pj|pnj] [oculto]` ·
`baja NOMBRE` · `momento NOMBRE N` · `tirar [NOMBRE…]` · `sorpresa NOMBRE…` ·
`empezar` · `NOMBRE MANIOBRA [N]` · `NOMBRE gasta N` · `NOMBRE retrasa` ·
`NOMBRE actua` · `NOMBRE espera TEXTO` · `NOMBRE interrumpe MANIOBRA` ·
`NOMBRE fin` · `siguiente` · `turno` · `deshacer` · `rehacer` ·
`estado NOMBRE +COND` · `dano NOMBRE N [rd=N] [fatiga]` · `cambiar A B` ·
`NOMBRE MANIOBRA a BLANCO` · `NOMBRE bloqueo a ATACANTE` · `NOMBRE liderazgo gde=N` ·
`bono LÍDER a COMPAÑERO` · `duelo A B [A+N]` · `monta JINETE MONTURA` · `desmonta JINETE` ·
`curar NOMBRE N [fatiga]` · `descanso` · `alta … miembros=M aguante=N` · `rapida si|no`"""


def help_markdown() -> str:
    """The help text, built from the same tables the sheet and the engine use."""
    keys = "\n".join(f"- `{k}` — {v}" for k, v in KEYS_HELP)
    marks = "\n".join(f"- `{k}` — {v}" for k, v in LEGEND)
    decisions = "\n".join(f"- **{k}**: {v}" for k, v in DECISIONS)
    return (
        "# Ayuda\n\n## Teclas\n\n" + keys
        + "\n\n## Marcas de la plantilla\n\n" + marks
        + "\n- atenuado: ha terminado este turno\n- tachado: fuera de combate"
        + "\n\n## Órdenes\n\n" + COMMANDS_HELP
        + "\n\n## Decisiones de reglas\n\n" + decisions + "\n"
    )


class HelpScreen(ModalScreen[None]):
    """Ayuda: teclas, marcas y decisiones."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "cerrar", key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Markdown(help_markdown())
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)
