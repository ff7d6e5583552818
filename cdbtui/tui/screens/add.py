"""The form that adds a combatant (also mid-fight): every option of `alta`, one line.

Each field is one option of `alta` (COMMANDS.md; `keys.ADD_SYNTAX`).  The form only
checks what it must to build a line (a name, the AC); `add_line` writes the one
`alta …` command line, sent through `app.run_line`.  The rules (a unique name, AC in
range, known talents, copias…) are the engine's: a refused line shows the engine's
Spanish refusal here and the form stays open with what was typed.

Enter adds from any field, as the hint says: the side's list and the checkboxes
here leave Enter to the form (`FormSelect`, `FormCheckbox`); Space opens the list and
ticks a box.  The fields scroll, the hints and the error line stay in view.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.events import DescendantFocus
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.validation import Integer
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from ...engine.catalog import TALENT_ES
from ...engine.commands import quote
from ...engine.errors import Refusal
from ...engine.model import Fight
from ...engine.parser import parse
from ...engine.rules import apply
from ...engine.text import fold, slug
from ..text import plain


@frozen
class Field:
    """One typed option of `alta`: its key on the command line, label and placeholder."""

    key: str
    label: str
    placeholder: str = ""
    integer: bool = True
    #: The help line shown while the field has focus.
    help: str = ""


#: The typed fields, two by two in the form's (and Tab's) order, Talentos on a row of
#: its own; the side's list comes before Talentos, the two checkboxes last.
FIELDS = (
    Field("ac", "AC por turno", "7", help="AC por turno (obligatorio)"),
    Field("ini", "INI", "0", help="INI: se suma al 1d6 del momento inicial"),
    Field("agi", "Agilidad", "0"),
    Field("ate", "Atención", "0"),
    Field("mov", "MOV", "0"),
    Field("momento", "Momento inicial", "vacío: luego",
          help="Momento inicial: el total de 1d6+INI; vacío para tirarlo o escribirlo luego"),
    Field("hab", "Habilidad", "0"),
    Field("copias", "Copias", "1",
          help="Copias: N combatientes «Nombre 1» … «Nombre N» con los mismos datos"),
    Field("vida", "Vida", "3,3,2,2,1", integer=False,
          help="Vida: casillas por categoría de herida, separadas por comas"),
    Field("talentos", "Talentos", "p. ej. artista-marcial, gun-kata", integer=False),
    Field("miembros", "Miembros", "vacío: uno solo",
          help="Miembros: un grupo u horda en una sola columna"),
    Field("aguante", "Aguante", "1",
          help="Aguante (horda): el Daño que deja fuera de combate a un miembro"),
)
NAME_HELP = "Nombre: único en el combate (con copias: Soldado 1, Soldado 2…)"
SIDE_HELP = "Bando: Espacio abre la lista (PNJ, PJ o una facción del combate)"
HIDDEN_HELP = "Oculto: Espacio marca; los jugadores no lo ven hasta «revelar»"
PRIVATE_HELP = "Privado: Espacio marca; los jugadores ven sus números como ?"
HINT = "⏎ añadir · Tab campo · Espacio marca o abre · Esc cancelar"


# ---------------------------------------------------------------- the line (pure)

def _talent_matches(typed: str) -> list[str]:
    """The talent ids that `typed` (an id, a book name, or a prefix of one) may mean."""
    key = slug(typed)
    if key in TALENT_ES:
        return [key]
    return [tid for tid, name in TALENT_ES.items()
            if tid.startswith(key) or slug(name).startswith(key)]


def expand_talents(text: str) -> str:
    """The talents as the command line takes them: each unique prefix (or book name)
    made its id; an unknown or ambiguous one stays as typed, for the engine to refuse
    naming it."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    out = []
    for item in items:
        found = _talent_matches(item)
        out.append(found[0] if len(found) == 1 else item)
    return ",".join(out)


def talent_candidates(text: str) -> list[str]:
    """The talent ids the last comma-separated item may become (all when it is
    empty), leaving out those already typed before it."""
    *before, last = text.split(",")
    taken = {found[0] for item in before if len(found := _talent_matches(item)) == 1}
    pool = _talent_matches(last) if last.strip() else list(TALENT_ES)
    return [tid for tid in pool if tid not in taken]


def talent_suggestion(text: str) -> str | None:
    """`text` with its last talent finished, when the typed prefix names only one
    (an ambiguous prefix suggests nothing: the help line lists the candidates)."""
    last = text.rpartition(",")[2].lstrip()
    if not last:
        return None
    found = talent_candidates(text)
    if len(found) != 1 or not found[0].startswith(fold(last)) or found[0] == fold(last):
        return None
    return text + found[0][len(last):]


def add_line(name: str, values: Mapping[str, str], *, side: str = "pnj",
             hidden: bool = False, private: bool = False) -> str:
    """The `alta` command line of the form's fields (`values`: typed text by key;
    an empty field is left out, so the engine's default applies)."""
    parts = ["alta", quote(name.strip())]
    for field in FIELDS:
        text = values.get(field.key, "").strip()
        if field.key == "talentos":
            text = expand_talents(text)
        elif field.key == "copias" and text == "1":
            text = ""  # one combatant: no copias (copias=1 is refused)
        if text:
            parts.append(f"{field.key}={quote(text)}")
    parts.append(f"bando={quote(side)}")
    if hidden:
        parts.append("oculto")
    if private:
        parts.append("privado")
    return " ".join(parts)


def refusal_of(fight: Fight, line: str) -> str | None:
    """Why the engine refuses `line` on `fight` (None if it would not): the form
    shows it after `run_line` said no."""
    try:
        apply(fight, parse(line, fight))
    except Refusal as refusal:
        return str(refusal)
    return None


def side_options(fight: Fight | None) -> list[tuple[str, str]]:
    """PNJ, PJ, then the factions already in the fight."""
    factions = sorted({c.side for c in fight.combatants} - {"pj", "pnj"}) if fight else []
    return [("PNJ", "pnj"), ("PJ", "pj"), *((side, side) for side in factions)]


# ---------------------------------------------------------------- widgets

class TalentSuggester(Suggester):
    """Finishes the talent being typed (`talent_suggestion`); → accepts."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return talent_suggestion(value)


class FormSelect(Select, inherit_bindings=False):
    """A Select that leaves Enter to its form: Space (or ↓ ↑) opens its list."""

    BINDINGS = [Binding("space,down,up", "show_overlay", "abrir la lista", show=False)]


class FormCheckbox(Checkbox, inherit_bindings=False):
    """A Checkbox that leaves Enter to its form: only Space ticks it."""

    BINDINGS = [Binding("space", "toggle_button", "marcar", show=False)]


class AddForm(ModalScreen[None]):
    """Alta de combatiente: every option of `alta`; Enter adds from any field."""

    BINDINGS = [
        Binding("escape", "cancel", "cancelar", key_display="esc"),
        Binding("ctrl+s", "submit", "añadir", key_display="^s"),
        # Reached from the list and the checkboxes (an Input submits by itself).
        Binding("enter", "submit", "añadir", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="add-form", classes="dialog"):
            yield Static("Añadir combatiente", classes="title")
            with VerticalScroll(id="add-fields", can_focus=False):  # Tab: fields only
                with Grid(id="add-grid"):
                    yield Label("Nombre")
                    yield Input(placeholder="p. ej. Soldado 3", id="add-name", compact=True,
                                classes="wide")
                    for field in FIELDS:
                        if field.key == "talentos":  # the list sits beside Vida
                            yield Label("Bando")
                            sides = [(plain(label), value)
                                     for label, value in side_options(self.app.fight)]
                            yield FormSelect(sides, value="pnj",
                                             allow_blank=False, id="add-bando", compact=True)
                        yield Label(field.label)
                        yield self._box(field)
                    yield Label("Oculto")
                    yield FormCheckbox("a jugadores", id="add-oculto", compact=True)
                    yield Label("Privado")
                    yield FormCheckbox("números: ?", id="add-privado", compact=True)
            yield Static("", id="add-help", classes="hint")
            yield Static("", id="add-error", classes="error")
            yield Static(HINT, id="add-hint", classes="hint")

    def _box(self, field: Field) -> Input:
        options: dict = {"placeholder": field.placeholder, "id": f"add-{field.key}",
                          "compact": True}
        if field.integer:
            options.update(type="integer", validators=[Integer(minimum=-999, maximum=999)])
        if field.key == "talentos":
            options.update(suggester=TalentSuggester(), classes="wide")
        return Input(**options)

    def on_mount(self) -> None:
        self.query_one("#add-name", Input).focus()

    def _error(self, text: str) -> None:
        self.query_one("#add-error", Static).update(plain(text))

    # ------------------------------------------------------------ the help line

    def _help_for(self, widget: Widget) -> str:
        key = (widget.id or "").removeprefix("add-")
        if key == "talentos":
            value = self.query_one("#add-talentos", Input).value
            found = talent_candidates(value)
            listed = ", ".join(found) if found else "ninguno empieza así"
            return f"Talentos (→ completa): {listed}"
        fixed = {"name": NAME_HELP, "bando": SIDE_HELP, "oculto": HIDDEN_HELP,
                 "privado": PRIVATE_HELP}
        if key in fixed:
            return fixed[key]
        field = next((f for f in FIELDS if f.key == key), None)
        return (field.help or field.label) if field is not None else ""

    def _show_help(self, widget: Widget | None) -> None:
        self.query_one("#add-help", Static).update(plain(self._help_for(widget) if widget else ""))

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        self._show_help(event.widget)

    @on(Input.Changed, "#add-talentos")
    def talents_changed(self) -> None:
        self._show_help(self.focused)

    # ------------------------------------------------------------ adding

    @on(Input.Submitted)
    def action_submit(self) -> None:
        name = self.query_one("#add-name", Input).value.strip()
        if not name:
            self._fail("Falta el nombre", "#add-name")
            return
        if not self.query_one("#add-ac", Input).value.strip():
            self._fail("Falta AC por turno", "#add-ac")
            return
        values = {f.key: self.query_one(f"#add-{f.key}", Input).value for f in FIELDS}
        line = add_line(
            name, values,
            side=str(self.query_one("#add-bando", Select).value),
            hidden=self.query_one("#add-oculto", Checkbox).value,
            private=self.query_one("#add-privado", Checkbox).value,
        )
        if self.app.run_line(line):
            self.dismiss(None)
        elif self.is_active:  # not behind a question the line asked
            why = refusal_of(self.app.fight, line) if self.app.fight is not None else None
            self._error(why or "No se pudo añadir: mira el aviso")

    def _fail(self, text: str, box: str) -> None:
        self._error(text)
        self.query_one(box, Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
