"""The Textual apps: the DJ's live sheet (`CdbApp`) and the players' view.

`CdbApp` owns the one piece of mutable state of the TUI: the `Session` and its
save path.  The current fight flows down through the `fight` reactive; every key,
dialog and palette entry ends in `run_line(line)`, which is the only way the
fight changes: `Session.execute`, the autosave (`SaveFile.record`: a fsynced
journal entry, so quitting any way loses nothing), the new state pushed down, the
selection kept on the combatant who acted while it still may (`view.finder`) or
moved to the head of the queue, and any `Refusal` shown as a Spanish
notification.  No rule is decided here.  A fight opened from the start screen
goes back to it with `q` (`leave_fight`); ctrl+q quits.
"""

from __future__ import annotations

from collections.abc import Callable
import gc
import time
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.reactive import var
from textual.screen import Screen

from ..engine import commands as cmd
from ..engine.errors import Refusal
from ..engine.model import Fight, Status
from ..engine.parser import parse
from ..engine.rules import queue
from ..engine.session import DO, REDO, UNDO, HistoryMismatch, Session
from ..printable import literal
from ..files import SaveError
from ..funnel import CONFIRM, Reloaded, SaveFile, house_file_line
from ..view import selection_order
from ..view.rulesets import is_csystem, is_narrador
from ..view.finder import after_command, step, tab_order
from .commands import FightCommands, Palette
from .compositing import quick_frames
from .styles import css_path, theme_for_terminal
from .text import tell


class CdbApp(App[int]):
    """The GM's app: open a save, run a fight from the keyboard, autosave every command."""

    CSS_PATH = css_path()
    TITLE = "cdbtui"
    COMMANDS = App.COMMANDS | {FightCommands}
    ENABLE_COMMAND_PALETTE = True
    #: Textual's own keys, in Spanish (ctrl+c says how to quit instead of copying;
    #: with its own binding for the palette, Textual adds no "palette" one).
    BINDINGS = [
        Binding("ctrl+q", "quit", "salir", show=False, priority=True),
        Binding("ctrl+c", "help_quit", show=False, system=True),
        Binding("ctrl+p", "command_palette", "paleta", show=False, priority=True,
                tooltip="Abrir la paleta de órdenes"),
    ]

    fight: var[Fight | None] = var(None, always_update=True, init=False)
    selected: var[str | None] = var(None, init=False)

    def __init__(self, path: Path | None = None, *, saves_dir: Path | None = None) -> None:
        super().__init__()
        self.path = Path(path) if path is not None else None
        self.saves_dir = Path(saves_dir) if saves_dir is not None else Path("saves")
        self.session = Session.new()
        self.save_file: SaveFile | None = None
        self.timings: list[float] = []  # seconds spent in run_line, for the benchmark
        self._previous: Fight | None = None
        #: The fight was opened from the start screen: `q` goes back to it.
        self.from_start = path is None

    async def on_mount(self) -> None:
        from .screens.fight import FightScreen
        from .screens.start import StartScreen

        quick_frames()
        self.theme = theme_for_terminal()
        await self.push_screen(FightScreen())
        if self.path is None:
            self.push_screen(StartScreen(self.saves_dir), self._opened_from_start)
        else:
            self.open_save(self.path)

    # ------------------------------------------------------------ opening

    def _opened_from_start(self, path: Path | None) -> None:
        if path is None:
            self.exit(0)
        elif not self.open_save(path):
            self.back_to_list()

    def leave_fight(self) -> None:
        """`q`: back to the fight list if the fight was opened from it (the save is
        closed tidy: everything was durable already), else quit."""
        if not self.from_start:
            self.exit(0)
            return
        self.back_to_list()

    def back_to_list(self) -> None:
        """Close the open save and show the start screen again (on that save)."""
        from .screens.start import StartScreen

        path = self.path
        self.close_save()
        self.save_file = None
        self.path = None
        self.session = Session.new()
        self.sub_title = ""
        self.set_reactive(CdbApp.selected, None)
        self.fight = None
        self.push_screen(StartScreen(self.saves_dir, select=path), self._opened_from_start)

    # ------------------------------------------------------------ Textual's own, in Spanish

    def action_help_quit(self) -> None:
        """ctrl+c (Textual's «Do you want to quit?»): how to quit, in Spanish."""
        back = " · q vuelve a la lista de combates" if self.from_start else ""
        self.notify(f"Pulsa [b]ctrl+q[/b] para salir (todo está guardado){back}",
                    title="¿Quieres salir?")

    def action_command_palette(self) -> None:
        """ctrl+p: the palette, with its prompt in Spanish."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(Palette(id="--command-palette", placeholder="Busca una orden…"))

    def get_system_commands(self, screen: Screen):
        """Textual's entries of the palette, in Spanish; those that only make sense
        to a developer (keys panel, maximize, screenshot) are left out."""
        yield SystemCommand("Tema", "Cambiar los colores de la interfaz", self.search_themes)
        yield SystemCommand("Salir", "Salir de cdbtui (todo está guardado)", self.action_quit)

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        self.push_screen(Palette(providers=[ThemeProvider], placeholder="Busca un tema…"))

    def open_save(self, path: Path) -> bool:
        """Load `path` and show it; a bad file is a notification, never a crash."""
        try:
            save_file = SaveFile.open(path)
        except SaveError as error:
            tell(self, str(error), severity="error", timeout=8)
            return False
        self.close_save()
        save_file.cleanup_leftovers()
        self.save_file = save_file
        self.path = Path(path)
        self.session = save_file.session
        self.sub_title = literal(str(self.path))
        self._show(self.session.fight, follow=True)
        for note in save_file.notes:
            tell(self, note, severity="warning", timeout=10)
        if not self.session.fully_known:
            self._warm_history(self.session)
        # The loaded history is long-lived: keep the cyclic GC from walking it on
        # every keypress (a full collection over 200 combatants × the history
        # costs tens of milliseconds, a visible hitch).
        gc.collect()
        gc.freeze()
        return True

    def _warm_history(self, session: Session) -> None:
        """Replay the loaded history in a thread, so the first undo after opening a
        save is instant instead of replaying it then (0.3 s at 200 combatants)."""
        base, lines = session.base, list(session.lines)

        def work() -> None:
            states = Session(base, lines).states
            self.call_from_thread(self._adopt, session, lines, states)

        self.run_worker(work, thread=True, group="warm", exit_on_error=False)

    def _adopt(self, session: Session, lines: list[str], states: list[Fight]) -> None:
        if session is self.session:  # not another save opened meanwhile
            try:
                session.adopt(lines, states)
            except HistoryMismatch as mismatch:  # the saved history leads elsewhere
                tell(self, str(mismatch), severity="warning", timeout=10)
            gc.freeze()  # long-lived too: out of the cyclic GC's way (see open_save)

    def close_save(self) -> None:
        """Rewrite the open save whole (no journal left), as on quitting."""
        if self.save_file is not None:
            problem = self.save_file.close()  # everything is durable already
            if problem:
                tell(self, problem, severity="warning", timeout=10)

    # ------------------------------------------------------------ the funnel

    def run_line(self, line: str, *, confirmed: bool = False,
                 refused: Callable[[], None] | None = None) -> bool:
        """Run one command line through the session; save; push the new state down.

        A line the engine warns about (abandoning a carried maneuver, attacking while
        surprised) asks the DJ first; it then runs only on «sí».  A refused line is
        told, and `refused` (if given) runs: the `:` line opens again with it.
        """
        began = time.perf_counter()
        before = self.session.fight
        try:
            if self.save_file is not None:
                # Run and make durable under the save's lock: acknowledged on
                # screen only once it is on disk (SaveFile.play).
                outcome = self.save_file.play(line, confirmed=confirmed)
            else:
                outcome = self.session.execute(house_file_line(line))
        except Reloaded as reloaded:
            # Another program (say `cdbtui do`) wrote the save: the file's state is
            # taken instead of playing on from ours, and the key is not run.
            self.session = self.save_file.session
            self._show(self.session.fight, follow=True)
            tell(self, str(reloaded), severity="warning", timeout=8)
            return False
        except SaveError as error:
            # Not durable, so not done: the fight on screen stays as on disk.
            tell(self, str(error), severity="error", timeout=12)
            return False
        except Refusal as refusal:
            tell(self, str(refusal), severity="error")
            if refused is not None:
                refused()
            return False
        except Exception as error:  # a bug must not cost the GM the fight on screen
            tell(self, f"Error interno con «{line}»: {error}", severity="error", timeout=10)
            return False
        if outcome.kind == CONFIRM:
            self._confirm_line(line, outcome.message.split("\n"))
            return False
        if self.save_file is not None:
            self.session = self.save_file.session
        csystem = is_csystem(outcome.fight)
        narrador = is_narrador(outcome.fight)
        if narrador:
            keep = self._kept_narr(before, outcome.fight)
        else:
            keep = self._kept_cs(before, outcome.fight) if csystem else self._kept(line, outcome, before)
        self._show(outcome.fight, follow=True, keep=keep)
        self.timings.append(time.perf_counter() - began)
        if outcome.kind in (UNDO, REDO):  # say what: "Deshecho: Mike disparar-armas-largas"
            tell(self, outcome.message)
        if csystem or narrador:  # C-System's next turn begins by itself; the storyteller's
            # «fin del turno» phase is on its sheet, with «t» (or an initiative) to go on
            return True
        if outcome.fight.turn_over and not before.turn_over and outcome.kind == DO:
            self._propose_new_turn(outcome.fight)
        return True

    def _kept(self, line: str, outcome, before: Fight) -> str | None:
        """Who is selected after `line` (None: the head of the queue).  The selection
        obeys the DJ: it stays through commands about someone (damage, conditions,
        notes…) unless they left it out or done; after the selected combatant's own
        deed it stays while it may still act (`after_command`); only the count
        moving on (`siguiente`, `turno`, `empezar`) sends it to the new head.  An
        undo goes back to whoever did the undone deed (the same as before it); other
        undone and redone lines count as typed again."""
        if outcome.kind == UNDO:  # back on whom the undone line was about
            before = outcome.fight
            command = _command(outcome.line, before)  # the undone line
            actor = _actor(command, before)
            if actor is not None:
                return actor
        else:
            if outcome.kind == REDO:  # as if the redone line were typed again
                line = outcome.line
            command = _command(line, before)
            actor = _actor(command, before)
            if outcome.kind == REDO and actor is not None:
                return after_command(before, outcome.fight, actor, actor)
        if not self.selected:
            return None
        if actor is not None:
            return after_command(before, outcome.fight, self.selected, actor)
        if isinstance(command, _COUNT):
            return None
        # Put out of the fight or done by it (damage, a condition): no use staying.
        now = outcome.fight.find(self.selected)
        return self.selected if now is not None and now.status not in _FINISHED else None

    def _kept_cs(self, before: Fight, after: Fight) -> str | None:
        """C-System: who is selected after a command.  A new go (the actor changed)
        selects the new actor (None); otherwise the selection stays where the DJ put
        it, while that combatant is still in the fight."""
        if before.actor != after.actor:
            return None
        selected = self.selected
        return selected if selected and after.find(selected) is not None else None

    def _kept_narr(self, before: Fight, after: Fight) -> str | None:
        """Narrador: the selection follows the declarer (declaration phase), the actor
        (action phase) and the attack's target while an attack waits (`focus_name`);
        when that does not change, it stays where the DJ put it."""
        from ..view.narrlist import focus_name  # the other rulesets' views: when a fight uses them
        now = focus_name(after)
        if now != focus_name(before) and now is not None:
            return now
        selected = self.selected
        return selected if selected and after.find(selected) is not None else now

    def _show(self, fight: Fight, *, follow: bool, keep: str | None = None) -> None:
        """Push `fight` down; `follow`: select `keep`, or else the head of the queue
        (nobody acting: the selection stays, or the first column)."""
        self._ensure_screen(fight)
        if follow and is_narrador(fight):  # whom the turn is about, or the first of the list
            from ..view.narrlist import focus_name, narr_selection_order
            names = narr_selection_order(fight)
            focus = focus_name(fight)
            if keep is not None and fight.find(keep) is not None:
                chosen = fight.find(keep).name
            elif focus is not None and fight.find(focus) is not None:
                chosen = fight.find(focus).name
            elif self.selected is not None and fight.find(self.selected) is not None:
                chosen = self.selected
            else:
                chosen = names[0] if names else None
            self.set_reactive(CdbApp.selected, chosen)
            follow = False
        if follow and is_csystem(fight):  # whose go it is, or the first of the list
            from ..view.cslist import cs_selection_order
            names = cs_selection_order(fight)
            if keep is not None and fight.find(keep) is not None:
                chosen = fight.find(keep).name
            elif fight.actor and fight.find(fight.actor) is not None:
                chosen = fight.find(fight.actor).name
            elif self.selected is not None and fight.find(self.selected) is not None:
                chosen = self.selected
            else:
                chosen = names[0] if names else None
            self.set_reactive(CdbApp.selected, chosen)
            follow = False
        if follow:
            line = queue(fight)
            if keep is not None and fight.find(keep) is not None:
                self.set_reactive(CdbApp.selected, keep)
            elif line:
                self.set_reactive(CdbApp.selected, line[0].name)
            elif self.selected is None or fight.find(self.selected) is None:
                ordered = selection_order(fight)
                self.set_reactive(CdbApp.selected, ordered[0] if ordered else None)
        self.fight = fight

    def watch_fight(self, fight: Fight | None) -> None:
        screen = self._fight_screen()
        if screen is not None:
            screen.show(fight, self.selected)

    def watch_selected(self, selected: str | None) -> None:
        screen = self._fight_screen()
        if screen is not None:
            screen.show_selection(self.fight, selected)

    def _ensure_screen(self, fight: Fight | None) -> None:
        """The fight screen of `fight`'s rules (C-System's list or CdB's grid): the
        one under the start screen is swapped when a fight of the other rules opens."""
        wanted = _screen_class(fight)
        screen = self._fight_screen(any_rules=True)
        if screen is not None and type(screen) is not wanted and screen is self.screen:
            if "narrador" in wanted.RULESETS:
                # The screen going away may still list its keys once (its footer)
                # against the storyteller fight, which its rules can't read: none apply.
                screen.check_action = _no_key_applies
            self.switch_screen(wanted())

    def _fight_screen(self, *, any_rules: bool = False):
        """The fight screen under the dialogs (a screen with `RULESETS`); a
        storyteller fight is never pushed to another ruleset's screen (nor another's
        fight to its), even while the swap of `_ensure_screen` is under way."""
        for screen in self.screen_stack:
            rulesets = getattr(screen, "RULESETS", None)
            if rulesets is not None:
                if not any_rules and self.fight is not None \
                        and ("narrador" in rulesets) != is_narrador(self.fight):
                    return None
                return screen
        return None

    # ------------------------------------------------------------ selection

    def select(self, name: str | None) -> None:
        self.selected = name

    def move_selection(self, amount: int) -> None:
        """Select the next/previous column (the sheet's order, then those without a
        start moment), wrapping around."""
        fight = self.fight
        if fight is None:
            return
        if is_narrador(fight):
            from ..view.narrlist import narr_selection_order
            names = narr_selection_order(fight)
        elif is_csystem(fight):
            from ..view.cslist import cs_selection_order
            names = cs_selection_order(fight)
        else:
            names = selection_order(fight)
        if names:
            self.selected = step(names, self.selected, amount) if self.selected in names \
                else names[0]

    def walk_queue(self, amount: int) -> None:
        """Tab / shift+Tab: the next/previous of the queue at this moment, then the
        holders and waiters (`view.finder.tab_order`); nobody: the columns."""
        fight = self.fight
        if fight is None:
            return
        if is_csystem(fight) or is_narrador(fight):
            self.move_selection(amount)
            return
        order = tab_order(fight, selection_order(fight))
        if not order:
            self.move_selection(amount)
            return
        self.selected = step(order, self.selected, amount)

    # ------------------------------------------------------------ dialogs

    def _confirm_line(self, line: str, cautions: list[str]) -> None:
        from .screens.confirm import Confirm

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_line(line, confirmed=True)

        self.push_screen(Confirm("\n".join(cautions), f"¿Seguir con «{line}»?"), answer)

    def ask_new_turn(self) -> None:
        """`t` (and the palette's «Turno nuevo»): «turno», asking first while anyone
        still has AC to spend ("Quedan AC: Sven 2, Mike 1. ¿Cerrar el turno?")."""
        from .screens.confirm import Confirm
        from .screens.fight import ac_left_question

        question = ac_left_question(self.fight) if self.fight is not None else None
        if question is None:
            self.run_line("turno")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_line("turno")

        self.push_screen(Confirm(question, "¿Cerrar el turno?"), answer)

    def _propose_new_turn(self, fight: Fight) -> None:
        from .screens.confirm import Confirm

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_line("turno")

        self.push_screen(
            Confirm(f"Todos han terminado el turno {fight.turn}.",
                    f"¿Empezar el turno {fight.turn + 1}?"),
            answer,
        )

    def open_picker(self, name: str) -> None:
        from .screens.picker import ManeuverPicker

        fight = self.fight
        if fight is None or fight.find(name) is None:
            return
        self.push_screen(ManeuverPicker(fight, name), self._run_optional)

    def open_command_line(self, text: str = "") -> None:
        from .screens.prompt import CommandLine

        if self.fight is None:
            return
        if is_csystem(self.fight):  # completed from C-System's words
            from .screens.csfight import CsCommandLine as CommandLine
        self.push_screen(CommandLine(self.fight, text), self._run_typed)

    def _run_typed(self, line: str | None) -> None:
        """A typed line: refused, it comes back on the `:` line to be mended."""
        if line:
            self.run_line(line, refused=lambda: self.open_command_line(line))

    def open_add_form(self) -> None:
        from .screens.add import AddForm

        if self.fight is not None:
            self.push_screen(AddForm())

    def open_setup(self) -> None:
        from .screens.setup import InitiativeSetup

        if self.fight is not None:
            self.push_screen(InitiativeSetup())

    def open_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen(self.fight.rules if self.fight is not None else "cdb"))

    def _run_optional(self, line: str | None) -> None:
        if line:
            self.run_line(line)


#: The commands a combatant does itself (damage, a condition, a note are done to it).
_DEEDS = (cmd.Perform, cmd.Hold, cmd.Act, cmd.Wait, cmd.Done)


#: Commands that move the count on: the selection goes to the new head of the queue.
_COUNT = (cmd.Next, cmd.NewTurn, cmd.Begin)
#: A selected combatant in these states after a command about it has nothing left to do.
_FINISHED = (Status.OUT, Status.DONE)


def _command(line: str, fight: Fight) -> cmd.Command | None:
    """What `line` means in `fight`, or None (a line that would be refused)."""
    try:
        return parse(line, fight)
    except Refusal:
        return None


def _actor(command: cmd.Command | None, fight: Fight) -> str | None:
    """The combatant whose own deed a command is (a maneuver, a free action, holding,
    acting now, waiting, interrupting, declining), or None."""
    if isinstance(command, cmd.Trigger):
        command = command.action
    if not isinstance(command, _DEEDS):
        return None
    found = fight.find(command.name)
    return found.name if found is not None else None


def _screen_class(fight: Fight | None) -> type:
    """The fight screen of `fight`'s ruleset; the other rulesets' screens are
    imported when a fight uses them (a CdB fight starts without them)."""
    if is_narrador(fight):
        from .screens.narrfight import NarrFightScreen
        return NarrFightScreen
    if is_csystem(fight):
        from .screens.csfight import CsFightScreen
        return CsFightScreen
    from .screens.fight import FightScreen
    return FightScreen


def _no_key_applies(action: str, parameters: tuple[object, ...]) -> bool:
    return False


def run_app(path: Path | None, *, saves_dir: Path | None = None) -> int:
    """`cdbtui` / `cdbtui open PATH`: run the GM's app; the exit code for the shell."""
    app = CdbApp(path, saves_dir=saves_dir)
    try:
        result = app.run()
    finally:
        app.close_save()
    return int(result or app.return_code or 0)


def run_player_view(path: Path, *, large: bool = False) -> int:
    """`cdbtui view PATH`: the read-only player view, following the save."""
    from .player import run_player_view as run

    return run(path, large=large)
