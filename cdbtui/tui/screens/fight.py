"""The main screen: header, sheet, side panel, log and footer, and the DJ's keys.

Every key builds a command line and hands it to `app.run_line`; the screen keeps
no game state.  The bindings come from the one table of keys (`cdbtui.keys`);
`check_action` asks the engine (`engine.options`) whether each applies now for the
selected combatant and hides those that do not, so the footer lists only them; such
a key pressed anyway says why (`on_key`).  `/` opens the name finder on the line
above the footer (`view.finder.matches`): each letter jumps the selection, ⏎ or
Esc end it, and once one combatant is left any other key is a key for it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.actions import SkipAction, parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from ...engine import options as engine_options
from ...engine.commands import quote
from ...engine.errors import Refusal
from ...engine.model import ACTIVE, Fight
from ...engine.options import YES, Options, Verdict
from ...engine.queries import is_incapacitated
from ...keys import When, all_keys, footer_keys
from ...printable import literal
from ...roster import member_from_combatant, party_lines, put_member, roster_path
from ...store import SaveError
from ...view import selection_order, status_line
from ...view.finder import matches, step as advance_in
from ..compositing import CroppedScreen
from ..text import plain, tell
from ..widgets.fightlog import FightLog
from ..widgets.panel import SidePanel, legend_markup
from ..widgets.sheet import SheetView
from ..widgets.keybar import KeyBar

#: Why a key that needs them does not apply.
NO_FIGHT = "No hay ningún combate abierto"
NOBODY = "Nadie seleccionado: usa ←/→ para elegir"

#: The table's binding of each key name ("u", "ctrl+z"…), to say why it does not apply.
_BY_KEY = {name: key for key in all_keys() for name in key.keys.split(",")}
#: When each action applies (by its name, as `check_action` receives it).
_WHEN = {key.action_name: key.when for key in all_keys()}
#: Below this terminal height the legend starts folded (`L` shows it).
LEGEND_ROWS = 40


def ac_left(fight: Fight) -> tuple[tuple[str, int], ...]:
    """(name, AC) of those in play who could still spend AC this turn (not done, not
    out, not incapacitated), in the sheet's order: what «turno» would throw away."""
    order = {name: index for index, name in enumerate(selection_order(fight))}
    left = [c for c in fight.combatants
            if c.status in ACTIVE and c.ac > 0 and not is_incapacitated(c)]
    left.sort(key=lambda c: order.get(c.name, len(order)))
    return tuple((c.name, c.ac) for c in left)


def ac_left_question(fight: Fight) -> str | None:
    """"Quedan AC: Sven 2, Mike 1." or None when nobody has any left."""
    left = ac_left(fight)
    if not left:
        return None
    return "Quedan AC: " + ", ".join(f"{name} {ac}" for name, ac in left) + "."


def _other_rules(fight: Fight | None) -> bool:
    """A fight of another ruleset (C-System, storyteller): it has a screen of its own."""
    return fight is not None and fight.rules in ("csystem", "narrador")


class FightScreen(CroppedScreen):
    """The live Plantilla."""

    #: The rulesets whose fights this screen shows (`CdbApp._fight_screen`).
    RULESETS: ClassVar[tuple[str, ...]] = ("cdb", "walkure")

    BINDINGS = [
        Binding(key.keys, key.action, key.label, show=key.shown is not None,
                key_display=key.shown, id=key.id, priority=key.priority)
        for key in footer_keys()
    ]

    #: The answers of `applies` for (fight, selected), by (action, parameters).
    _verdicts: tuple[Fight | None, str | None, dict] = (None, None, {})
    #: The last answer of `engine.options` for (fight, name): asked once per state.
    _options: tuple[Fight | None, str | None, Options | None] = (None, None, None)
    #: What has been typed after `/` (None: not finding), and the selection before.
    _query: str | None = None
    _origin: str | None = None
    #: The DJ's own choice of legend (None: by the terminal's height).
    _legend_shown: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="fight-header")
        with Horizontal(id="main"):
            yield SheetView(id="sheet")
            with Vertical(id="side"):
                yield SidePanel(id="panel")
                yield Static(legend_markup(), id="legend")
        yield FightLog(id="log")
        yield Static("", id="finder")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = "Plantilla"
        self.query_one("#log").border_title = "Registro"
        self.query_one("#finder").display = False
        self.query_one(SheetView).focus()
        self._fold_legend()
        self._ready = True
        if getattr(self.app, "fight", None) is not None:  # swapped in for an open fight
            self.show(self.app.fight, self.app.selected)

    #: Composed and mounted: `show` paints (a screen swapped in by the app for a CdB
    #: fight after a C-System one is shown once mounted).
    _ready = False

    def on_resize(self) -> None:
        self._fold_legend()

    def _fold_legend(self) -> None:
        """The legend folded under `LEGEND_ROWS` rows, unless the DJ chose (`L`)."""
        shown = self._legend_shown
        if shown is None:
            shown = self.app.size.height >= LEGEND_ROWS
        legend = self.query_one("#legend", Static)
        if legend.has_class("-folded") == shown:
            legend.set_class(not shown, "-folded")
            legend.update(legend_markup() if shown else "[b]Leyenda[/b] [$text-muted](L)[/]")

    # ------------------------------------------------------------ state in

    #: The header's text as last shown: a repaint only when it changes (a dirty line
    #: at the top of the screen makes Textual's compositor redraw everything down to
    #: the lowest dirty line).
    _header: str | None = None

    def show(self, fight: Fight | None, selected: str | None) -> None:
        if not self._ready or _other_rules(fight):
            return
        header = status_line(fight) if fight is not None else "Sin combate abierto"
        if header != self._header:
            self._header = header
            self.query_one("#fight-header", Static).update(plain(header), layout=False)
        self.query_one(SheetView).show(fight, selected)
        self.query_one(SidePanel).show(fight, selected)
        self.query_one(FightLog).show(fight.log if fight is not None else ())
        self.keys_after_frame()

    def show_selection(self, fight: Fight | None, selected: str | None) -> None:
        if not self._ready or _other_rules(fight):
            return
        self.query_one(SheetView).select(selected)
        self.query_one(SidePanel).show(fight, selected)
        self.keys_after_frame()

    def footer_entries(self):
        return footer_keys()

    def on_sheet_view_clicked(self, message: SheetView.Clicked) -> None:
        self.app.select(message.name)

    # ------------------------------------------------------------ which keys apply

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that apply now run and are shown in the footer (`cdbtui.keys`)."""
        return bool(self.applies(action, parameters))

    def applies(self, action: str, parameters: tuple[object, ...] = ()) -> Verdict:
        """Whether the key running `action` applies now, and why not: the engine's
        answer for the selected combatant (`engine.options`), never a rule of its own.
        Asked once per state and selection (Textual asks every binding each time it
        lists the active ones: the footer, each key)."""
        fight = getattr(self.app, "fight", None)
        selected = self.app.selected
        known_fight, known_selected, memo = self._verdicts
        if known_fight is not fight or known_selected != selected:
            memo = {}
            self._verdicts = (fight, selected, memo)
        key = (action, parameters)
        verdict = memo.get(key)
        if verdict is None:
            verdict = memo[key] = self._applies(action, parameters)
        return verdict

    def _applies(self, action: str, parameters: tuple[object, ...]) -> Verdict:
        when = _WHEN.get(action)
        if when is None or when is When.ALWAYS:
            return YES
        fight: Fight | None = getattr(self.app, "fight", None)
        if fight is None:
            return Verdict(False, NO_FIGHT)
        if _other_rules(fight):  # this screen is being swapped for the ruleset's own
            return Verdict(False, NO_FIGHT)
        if when is When.FIGHT:
            return YES
        if when is When.ADVANCE:
            return engine_options.advance(fight)
        if when is When.NEW_TURN:
            return engine_options.new_turn(fight)
        who = fight.find(self.app.selected or "")
        if who is None:
            return Verdict(False, NOBODY)
        if when is When.SELECTED:
            return YES
        try:
            if when is When.SPEND:
                return engine_options.spend(fight, who.name, int(parameters[0])).verdict
            if when is When.REACT:
                return engine_options.maneuver_option(fight, who.name, str(parameters[0])).verdict
        except Refusal as refusal:  # a reaction this ruleset does not have
            return Verdict(False, str(refusal))
        can = self._options_of(fight, who.name)
        if when is When.MANEUVER:
            return YES if can.act or can.react else can.act  # the picker offers reactions
        if when is When.HOLD:
            return YES if can.act_now else can.hold
        if when is When.WAIT:
            return can.wait
        if when is When.DECLINE:
            return can.decline
        return YES

    def _options_of(self, fight: Fight, name: str) -> Options:
        cached_fight, cached_name, cached = self._options
        if cached is None or cached_fight is not fight or cached_name != name:
            cached = engine_options.options(fight, name, maneuvers=False)
            self._options = (fight, name, cached)
        return cached

    def on_key(self, event: events.Key) -> None:
        """A key of the table that does not apply now says why (instead of nothing)."""
        if self._query is not None and self._finding(event):
            event.stop()
            event.prevent_default()
            return
        key = _BY_KEY.get(event.key)
        if key is None:
            return
        verdict = self.applies(key.action_name, parse_action(key.action)[2])
        if not verdict:
            event.stop()
            event.prevent_default()
            tell(self.app, verdict.why, severity="warning")

    # ------------------------------------------------------------ the finder (`/`)

    def _names(self) -> tuple[str, ...]:
        fight = self.app.fight
        return selection_order(fight) if fight is not None else ()

    def action_find(self) -> None:
        self._query, self._origin = "", self.app.selected
        self._show_finder(())

    def _finding(self, event: events.Key) -> bool:
        """A key typed into the finder; False: it is not the finder's (one combatant
        found, and the key is for it)."""
        query = self._query or ""
        if event.key == "escape":
            self._end_finder()
            self.app.select(self._origin)
            return True
        if event.key == "enter":
            self._end_finder()
            return True
        if event.key in ("left", "right"):  # (its binding stood aside: `action_move`)
            self._end_finder()
            self.app.move_selection(-1 if event.key == "left" else 1)
            return True
        names = self._names()  # (the sheet's order: sorted once per key)
        if event.key == "backspace":
            self._query = query[:-1]
            self._jump(matches(self._query, names))
            return True
        found = matches(query, names) if query else ()
        if event.is_printable and event.character:
            longer = matches(query + event.character, names)
            if longer or not event.character.isalnum():
                self._query = query + event.character
                self._jump(longer or found)
                return True
        if len(found) == 1:
            self._end_finder()
            return False
        why = "nadie más se llama así" if event.is_printable else "¿a quién? Tab elige"
        self.query_one("#finder", Static).update(Content.assemble(
            ("Buscar: ", "bold"), literal(query), (f"  {why}", "$warning"),
            ("  (⏎ elegir · Esc cancelar)", "$text-muted")))
        return True

    def _jump(self, found: tuple[str, ...]) -> None:
        if found:
            self.app.select(found[0])
        self._show_finder(found)

    def _show_finder(self, found: tuple[str, ...]) -> None:
        finder = self.query_one("#finder", Static)
        finder.display = True
        query = self._query or ""
        if not query:
            tail: tuple = ("unas letras del nombre", "$text-muted")
        elif not found:
            tail = ("nadie se llama así", "$warning")
        else:
            shown = " · ".join(found[:6]) + (" …" if len(found) > 6 else "")
            tail = ("→ " + literal(shown), "bold" if len(found) == 1 else "")
        finder.update(Content.assemble(("Buscar: ", "bold"), literal(query), "  ", tail,
                                       ("  (⏎ elegir · Esc cancelar)", "$text-muted")))

    def _end_finder(self) -> None:
        self._query = None
        self.query_one("#finder", Static).display = False

    # ------------------------------------------------------------ actions: keys → lines

    def _who(self) -> str | None:
        name = self.app.selected
        if not name:
            self.app.notify(NOBODY, severity="warning")
        return name

    def _for_selected(self, template: str, *, edit: bool = False) -> None:
        """Run `template` (with `{name}` quoted in) for the selected combatant, or
        open it on the `:` line for the DJ to finish (`edit`)."""
        name = self._who()
        if not name:
            return
        line = template.format(name=quote(name))
        if edit:
            self.app.open_command_line(line)
        else:
            self.app.run_line(line)

    def action_maneuver(self) -> None:
        name = self._who()
        if name:
            self.app.open_picker(name)

    def action_spend(self, amount: int) -> None:
        self._for_selected(f"{{name}} gasta {amount}")

    def action_react(self, maneuver: str) -> None:
        self._for_selected(f"{{name}} {maneuver}")

    def action_hold(self) -> None:
        """Hold the action, or, for a holder who may (the engine says), act now."""
        fight, name = self.app.fight, self.app.selected
        who = fight.find(name) if fight is not None and name else None
        act_now = who is not None and self._options_of(fight, who.name).act_now
        self._for_selected("{name} actua" if act_now else "{name} retrasa")

    def action_wait(self) -> None:
        self._for_selected("{name} espera ", edit=True)

    def action_damage(self) -> None:
        self._for_selected("dano {name} ", edit=True)

    def action_condition(self) -> None:
        self._for_selected("estado {name} +", edit=True)

    def action_done(self) -> None:
        self._for_selected("{name} fin")

    def action_next(self) -> None:
        self.app.run_line("siguiente")

    def action_new_turn(self) -> None:
        self.app.ask_new_turn()

    def action_undo(self) -> None:
        self.app.run_line("deshacer")

    def action_redo(self) -> None:
        self.app.run_line("rehacer")

    def action_move(self, step: int) -> None:
        """←/→, h/l (priority keys: the sheet's own scrolling never takes them); while
        finding, the keys go to `on_key`: h and l are letters of the name, ← and →
        close the finder and move."""
        if self._query is not None:
            raise SkipAction()
        self.app.move_selection(step)

    def action_walk(self, step: int) -> None:
        """Tab: the queue's next; while finding, the next name found."""
        if self._query is not None:  # finding: Tab walks what was found, nothing else
            found = matches(self._query, self._names()) if self._query else ()
            if found:
                self.app.select(advance_in(found, self.app.selected, step))
            return
        self.app.walk_queue(step)

    def action_legend(self) -> None:
        self._legend_shown = self.query_one("#legend").has_class("-folded")
        self._fold_legend()

    def action_leave(self) -> None:
        self.app.leave_fight()

    def action_add(self) -> None:
        self.app.open_add_form()

    def action_party_save(self) -> None:
        """Keep the selected combatant's sheet in the party roster for new fights (a
        PNJ only once the DJ says so)."""
        fight, name = self.app.fight, self._who()
        who = fight.find(name) if fight is not None and name else None
        if who is None:
            return
        if not who.is_pc:
            from .confirm import Confirm

            def answer(yes: bool | None) -> None:
                if yes:
                    self._save_member(who)

            self.app.push_screen(Confirm(f"{who.name} es un PNJ.",
                                         "¿Guardarlo en el grupo de PJ?"), answer)
            return
        self._save_member(who)

    def _save_member(self, who) -> None:
        try:
            new = put_member(self.app.saves_dir, member_from_combatant(who))
        except SaveError as error:
            tell(self.app, str(error), severity="error")
            return
        verb = "añadido al" if new else "actualizado en el"
        tell(self.app, f"{who.name} {verb} grupo de PJ ({roster_path(self.app.saves_dir)})")

    def action_party_add(self) -> None:
        """Add the party members missing from this fight (each an `alta`, undoable)."""
        fight = self.app.fight
        try:
            lines = party_lines(self.app.saves_dir, tuple(c.name for c in fight.combatants))
        except SaveError as error:
            tell(self.app, str(error), severity="error")
            return
        if not lines:
            self.app.notify("No falta nadie del grupo (o el grupo está vacío: «G» guarda un PJ)",
                            severity="warning")
            return
        for line in lines:
            if not self.app.run_line(line):
                break

    def action_initiative(self) -> None:
        """The start moments' dialog; on a combatant without one, its «momento» line."""
        fight, name = self.app.fight, self.app.selected
        who = fight.find(name) if fight is not None and name else None
        if who is not None and who.start is None:
            self.app.open_command_line(f"momento {quote(who.name)} ")
            return
        self.app.open_setup()

    def action_command_line(self) -> None:
        self.app.open_command_line("")

    def action_help(self) -> None:
        self.app.open_help()
