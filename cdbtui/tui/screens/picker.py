"""The maneuver picker: type to filter, Enter to choose, a number for variable costs.

Only what the combatant can do is offered (talent-only maneuvers need the talent),
with costs after its talents (`view.maneuver_choices`) and the book's one-line
effect under each; attacks are in italics as in the book's table, reactions are
marked, and each row says what the engine would do with it now (`engine.options`:
done, carried to next turn, too few AC, only reactions now, refused and why); a row
the engine would refuse is not chosen, its reason is shown instead.  The maneuvers
the combatant did earlier in this fight come first, the most recent first, so doing
the same again is Enter twice.  An attack (or a Bloqueo) then asks for its target
in a second step: the other side, its last targets first, filtered by typing; Enter
names the highlighted one, Esc none («NOMBRE MANIOBRA [N] a BLANCO», COMMANDS.md).
It returns a command line, or None when cancelled.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.catalog import VARIABLE_ES
from ...engine.commands import quote
from ...engine.model import Fight
from ...engine.options import options
from ...engine.spending import BLOCKS
from ...view import Choice, ChoiceState, filter_choices, maneuver_choices
from ...view.picker import Target, filter_targets, target_choices
from ..text import plain


#: The style of a row's hint by what it says (`view.ChoiceState`).
HINT_STYLES = {
    ChoiceState.NOW: "$text-muted",
    ChoiceState.VARIABLE: "$text-muted",
    ChoiceState.CARRIED: "$warning",
    ChoiceState.SHORT: "$warning",
    ChoiceState.NOT_NOW: "$warning",
    ChoiceState.REFUSED: "$warning",
}


def choice_prompt(choice: Choice) -> Content:
    """One row of the list: name (italic if an attack), cost, kind and hint.

    Assembled piece by piece: the name and the summary may come from house rules
    (already literal in `Choice`), so they are never parsed as markup.
    """
    cost = f"{choice.cost}+N" if choice.variable else str(choice.cost)
    name_style = " ".join(
        style for style, applies in (("italic", choice.attack), ("$text-muted", not choice.allowed))
        if applies
    )
    parts: list[tuple[str, str]] = [(choice.name, name_style), (f"{cost} AC", "$accent")]
    if choice.recent:
        parts.append(("reciente", "$accent"))  # done earlier in this fight
    if choice.reaction:
        parts.append(("reacción", "$success"))
    if choice.attack:
        parts.append(("ataque", "$text-muted"))
    if choice.hint:
        parts.append((choice.hint, HINT_STYLES[choice.state]))
    pieces: list[str | tuple[str, str]] = []
    for index, part in enumerate(parts):
        if index:
            pieces.append("  ")
        pieces.append(part)
    if choice.summary:
        pieces += ["\n  ", (choice.summary, "$text-muted")]
    return Content.assemble(*pieces)


def target_prompt(target: Target) -> Content:
    """One row of the target step: the name (the DJ's text, never markup), then what
    tells it apart (a faction, hidden from the players, targeted before)."""
    pieces: list[str | tuple[str, str]] = [(target.label, "bold" if target.recent else "")]
    for text, style, applies in ((target.side, "$text-muted", bool(target.side)),
                                 ("oculto", "$text-muted", target.hidden),
                                 ("blanco anterior", "$accent", target.recent)):
        if applies:
            pieces += ["  ", (text, style)]
    return Content.assemble(*pieces)


class ManeuverPicker(ModalScreen[str | None]):
    """Pick a maneuver for one combatant; dismisses with the command line."""

    BINDINGS = [
        Binding("escape", "cancel", "cancelar", key_display="esc"),
        Binding("down", "cursor(1)", "abajo", show=False, priority=True),
        Binding("up", "cursor(-1)", "arriba", show=False, priority=True),
        Binding("pagedown", "cursor(10)", show=False, priority=True),
        Binding("pageup", "cursor(-10)", show=False, priority=True),
    ]

    def __init__(self, fight: Fight, name: str) -> None:
        super().__init__()
        combatant = fight.find(name)
        assert combatant is not None
        self.combatant = combatant
        self.fight = fight
        self.choices = maneuver_choices(fight, combatant)
        self.options = options(fight, name, maneuvers=False)
        self.shown: tuple[Choice, ...] = self.choices
        self.pending: Choice | None = None
        #: The target step: the maneuver chosen and its amount (None: not there yet).
        self.targeting: tuple[Choice, int | None] | None = None
        self.targets: tuple[Target, ...] = ()
        self.shown_targets: tuple[Target, ...] = ()

    def compose(self) -> ComposeResult:
        c = self.combatant
        left = f"le quedan {c.ac} AC"
        if self.options.interrupt:
            title = f"{c.name} interrumpe con… ({left})"
        elif self.options.only_react:
            title = f"{c.name} reacciona con… ({left}: ahora solo reacciones)"
        else:
            title = f"{c.name} hace… ({left})"
        with Vertical(id="picker", classes="dialog"):
            yield Static(plain(title), id="picker-title")
            yield Input(placeholder="escribe para filtrar (sin tildes vale)", id="picker-filter")
            yield OptionList(*self._options(), id="picker-list")
            yield Input(placeholder="", id="picker-amount", type="integer", classes="hidden")
            yield Static("⏎ elegir · ↑↓ moverse · Esc cancelar", id="picker-hint", classes="hint")

    def _options(self) -> list[Option]:
        return [Option(choice_prompt(ch), id=ch.id) for ch in self.shown]

    def on_mount(self) -> None:
        self.query_one("#picker-filter", Input).focus()
        option_list = self.query_one(OptionList)
        if self.shown:
            option_list.highlighted = 0

    @on(Input.Changed, "#picker-filter")
    def refilter(self, event: Input.Changed) -> None:
        if self.targeting is not None:
            self._show_targets(event.value)
            return
        self.shown = filter_choices(self.choices, event.value)
        option_list = self.query_one(OptionList)
        option_list.set_options(self._options())
        if self.shown:
            option_list.highlighted = 0

    def _show_targets(self, query: str) -> None:
        self.shown_targets = filter_targets(self.targets, query)
        option_list = self.query_one(OptionList)
        option_list.set_options([Option(target_prompt(t), id=f"target-{index}")
                                 for index, t in enumerate(self.shown_targets)])
        if self.shown_targets:
            option_list.highlighted = 0

    def action_cursor(self, step: int) -> None:
        if self.pending is not None and self.targeting is None:
            return
        option_list = self.query_one(OptionList)
        if not option_list.option_count:
            return
        current = option_list.highlighted or 0
        option_list.highlighted = max(0, min(option_list.option_count - 1, current + step))

    @on(Input.Submitted, "#picker-filter")
    def choose_highlighted(self) -> None:
        option_list = self.query_one(OptionList)
        if self.targeting is not None:
            if option_list.highlighted is None or not self.shown_targets:
                self.notify("Nadie coincide con el filtro (Esc: sin blanco)", severity="warning")
                return
            self._aim(self.shown_targets[option_list.highlighted])
            return
        if option_list.highlighted is None or not self.shown:
            self.notify("Ninguna maniobra coincide con el filtro", severity="warning")
            return
        self._choose(self.shown[option_list.highlighted])

    @on(OptionList.OptionSelected)
    def choose_clicked(self, event: OptionList.OptionSelected) -> None:
        if self.targeting is not None:
            self._aim(self.shown_targets[event.option_index])
            return
        self._choose(self.shown[event.option_index])

    def _choose(self, choice: Choice) -> None:
        if not choice.allowed:  # the engine's reason; the picker stays open
            self.notify(choice.why, severity="warning")
            return
        if choice.variable is None:
            self._then(choice, None)
            return
        self.pending = choice
        amount = self.query_one("#picker-amount", Input)
        amount.placeholder = f"{VARIABLE_ES[choice.variable]} para {choice.name}"
        amount.remove_class("hidden")
        self.query_one("#picker-filter", Input).add_class("hidden")
        self.query_one("#picker-title", Static).update(
            plain(f"{choice.name}: {choice.cost} + ¿cuántos {VARIABLE_ES[choice.variable]}?")
        )
        amount.focus()

    @on(Input.Submitted, "#picker-amount")
    def choose_amount(self, event: Input.Submitted) -> None:
        assert self.pending is not None
        try:
            amount = int(event.value)
        except ValueError:
            self.notify("Escribe un número de AC", severity="error")
            return
        self._then(self.pending, amount)

    def _then(self, choice: Choice, amount: int | None) -> None:
        """After the maneuver (and its amount): its target, if it takes one."""
        targets = target_choices(self.fight, self.combatant) if choice.targeted else ()
        if not targets:
            self.dismiss(self._line(choice, amount))
            return
        self.targeting, self.targets = (choice, amount), targets
        question = ("¿qué atacante? (bloqueo logrado: −2 a su próximo ataque)"
                    if choice.id in BLOCKS else "¿a quién?")
        self.query_one("#picker-title", Static).update(
            plain(f"{self.combatant.name}: {choice.name} {question} (Esc: sin blanco)"))
        self.query_one("#picker-amount", Input).add_class("hidden")
        box = self.query_one("#picker-filter", Input)
        box.placeholder = "escribe para filtrar el blanco"
        box.remove_class("hidden")
        box.value = ""
        box.focus()
        self._show_targets("")
        self.query_one("#picker-hint", Static).update(
            plain("⏎ elegir blanco · ↑↓ moverse · Esc sin blanco"))

    def _aim(self, target: Target) -> None:
        assert self.targeting is not None
        choice, amount = self.targeting
        self.dismiss(self._line(choice, amount, target.name))

    def _line(self, choice: Choice, amount: int | None, target: str | None = None) -> str:
        name = quote(self.combatant.name)
        verb = " interrumpe" if self.options.interrupt and not choice.reaction else ""
        extra = "" if amount is None else f" {amount}"
        aim = "" if target is None else f" a {quote(target)}"
        return f"{name}{verb} {choice.id}{extra}{aim}"

    def action_cancel(self) -> None:
        """Esc: cancel the picker; in the target step, the maneuver with no target."""
        if self.targeting is not None:
            choice, amount = self.targeting
            self.dismiss(self._line(choice, amount))
            return
        self.dismiss(None)
