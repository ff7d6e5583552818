"""What players see: the one place that decides it (`cdbtui view`, `cdbtui serve`,
`cdbtui export --jugadores`).

Every function takes the DJ's fight as it is saved and sees it through
`players_fight`, so nothing a player reads can come from a hidden PNJ or a
private PNJ's numbers.  The player view paints the result with the sheet's own
functions (`view.sheet`, `for_players=True`); the export uses `visible`, `secret`
and `player_log`.  The countdown players see is moved with the engine's own
functions (`countdown.follow_countdown`, `next_moment`, `next_go`), never a copy.

The log is filtered from what each entry records (`LogEntry.kind` and `about`,
with the flags each combatant had when the entry was made), never from its
wording: see `shown_to_players`.  An entry with a private PNJ's numbers is left
out whole, not masked (as the player view always did).

A private PNJ's column stands on the players' sheet where it is (its name on its
start row, "?" for its AC): the rows are the countdown, which is public (its
marker stands on that row until it acts), so its start moment is shown, in the
export's roster too; its AC per turn, AC left, AC carried over, modifier and
members are its numbers, shown as "?" or not at all.

A C-System fight (`rules == "csystem"`) has no countdown: `players_fight` hands it
to `cs_players_fight` (hidden PNJ out of the list and the order, a private PNJ's
sheet stripped of its numbers, whose go it is without betraying a hidden one), and
`view.csystem` paints it (`cs_player_lines`, `cs_players_json`).

A storyteller fight (`rules == "narrador"`) goes to `narr_players_fight`: hidden
PNJ out of the list, the order, whose go or declaration it is and the attack being
resolved; a private PNJ's sheet stripped of its numbers; and a declaration is
secret until performed (STORYTELLER §4: only the done actions of a declaration
reach the players, a delay once its place has passed, a total defense once it has
defended).  The log stays what `player_log` lets through: what it already said
publicly.  `view.narrador` paints it (`narr_player_lines`, `narr_players_json`).
"""

from __future__ import annotations

from attrs import evolve, field, frozen

from .engine.countdown import fixes_moment, follow_countdown, next_go, next_moment
from .engine.csystem.common import at_turn
from .engine.csystem.model import CsCondition, CsSheet, Weapon, part_of
from .engine.model import (
    STATUS_ES,
    Combatant,
    Fight,
    LogEntry,
    LogKind,
    Note,
    Role,
    Status,
)
from .engine.narrador.model import Declared, NarrPart, NarrSheet, NCondition, NWeapon
from .engine.narrador.now import at_turn as narr_at_turn
from .engine.rules import queue
from .engine.text import fold
from .printable import literal
from .view import csystem as cs_view
from .view import narrador as narr_view
from .view.sheet import countdown_parts, on_sheet

#: What a private PNJ's number shows as, where one is shown (the export's roster).
SECRET = "?"


def visible(fight: Fight) -> tuple[Combatant, ...]:
    """The combatants players may know about: everyone but hidden PNJ (`oculto`)."""
    return on_sheet(fight, True)


def secret(c: Combatant) -> bool:
    """A private PNJ (`privado`): on the players' side its numbers show as `?` (a
    PJ's numbers are its player's own, private or not)."""
    return c.private and not c.is_pc


def _quick_actor(fight: Fight) -> Combatant | None:
    """Iniciativa Rápida: whose go the players see.  The real actor if visible; else
    the visible combatant the engine would give the next go to (`next_go`)."""
    actor = fight.find(fight.actor) if fight.actor else None
    if actor is None:
        return None
    if not actor.hidden:
        return actor
    return next_go(fight, among=lambda c: not c.hidden)


def _over_for_players(fight: Fight) -> bool:
    """The turn is over for the players once every visible combatant is done or out
    (hidden PNJ may still act: the DJ plays them while players wait for «turno»)."""
    if fight.quick:
        return _quick_actor(fight) is None
    placed = [c for c in visible(fight) if c.start is not None]
    return all(c.status in (Status.DONE, Status.OUT) for c in placed)


def player_moment(fight: Fight) -> int | None:
    """The moment of the countdown the players see: the *no-gap rule*.

    The countdown never stops, on the players' screen, at a moment where only hidden
    PNJ act; that would betray them.  So:

    * while anyone visible is in the queue, the players see the real moment;
    * when the queue holds only hidden PNJ, they see the countdown as if it had
      already reached the next moment where a visible combatant acts (where the
      engine would take the countdown without the hidden PNJ, `next_moment`): the
      hidden PNJ's maneuvers seem to happen just before that moment, and the
      countdown jumps from one visible moment to the next, as it would if the
      hidden PNJ were not there;
    * once every visible combatant is done (or out), the turn is over for the
      players: no moment at all (None), so the hidden PNJ still acting leave no
      trace; a real end of turn shows the same way;
    * if only visible holders and waiters are left (they follow the countdown), the
      real moment: they are at it, and it is the DJ stepping it with «siguiente».

    In Iniciativa Rápida the same idea applies to goes: a hidden PNJ's go is shown
    as the next visible combatant's (its start moment).  Before the fight starts,
    the real moment (None).
    """
    if not fight.started:
        return fight.moment
    if _over_for_players(fight):
        return None
    if fight.quick:
        actor = _quick_actor(fight)
        return None if actor is None else actor.start
    if fight.moment is None or any(not c.hidden for c in queue(fight)):
        return fight.moment
    ahead = next_moment(evolve(fight, combatants=visible(fight)))
    return fight.moment if ahead is None else min(ahead, fight.moment)


def players_notes(c: Combatant, fight: Fight) -> tuple[Note, ...]:
    """The notes about `c` players may read: none of a private PNJ's (the DJ's remarks
    about it are its own), and none that names someone hidden from them now («vigila a
    La Viuda Negra» would tell them she is there)."""
    if secret(c) or not c.notes:
        return ()
    return tuple(n for n in c.notes
                 if not any(m.hidden for m in fight.mentions((), free=n.text)))


def _with_players_notes(c: Combatant, fight: Fight) -> Combatant:
    notes = players_notes(c, fight)
    return c if notes == c.notes else evolve(c, notes=notes)


def players_fight(fight: Fight) -> Fight:
    """The fight as the players see it; every other player function draws from it.

    Hidden PNJ are gone (so they take no column, no row, no queue place), a private
    PNJ has no notes (RULES.md §5: the DJ's remarks about it are its own), the log is
    `player_log`'s, there is no reaction window (the DJ's: an action of a hidden PNJ
    may open one at a moment players never saw), and the countdown stands at
    `player_moment`.  When that moment is below the real one, whoever follows the
    countdown is moved along with it as the engine does (`follow_countdown`): holders
    to that moment, waiters paying 1 AC per moment passed.  Applying it twice changes
    nothing more.
    """
    if fight.rules == "csystem":
        return cs_players_fight(fight)
    if fight.rules == "narrador":
        return narr_players_fight(fight)
    combatants = tuple(_with_players_notes(c, fight) for c in visible(fight))
    seen = evolve(fight, combatants=combatants, log=player_log(fight), window=None)
    if not fight.started:
        return seen
    moment = player_moment(fight)
    if fight.quick:
        actor = _quick_actor(fight)
        return evolve(seen, moment=moment, actor=None if actor is None else actor.name)
    if moment is None or fight.moment is None or moment >= fight.moment:
        return evolve(seen, moment=moment)
    return follow_countdown(seen, moment)


# ---------------------------------------------------------------- the log


def shown_to_players(entry: LogEntry, *, targets_own_numbers: bool = False) -> bool:
    """Whether players may read a log entry, from what it records (never its wording).

    Not if it is about anyone hidden at that moment (a hidden PNJ, named in any
    role, also in a text the DJ typed; a name on no roster counts as hidden): a
    combatant revealed later (`revelar`) keeps its earlier entries hidden, one hidden
    later (`ocultar`) leaves what players already read (RULES.md §5).  Not if a
    private PNJ is its actor (the numbers in it may be the PNJ's: AC, a die,
    Agilidad in a tie…) and its text holds a number outside the names it mentions;
    with no number it stays («Soldado 2 retrasa su acción»), unless it is a note
    (`LogKind.NOTE`: a `nota` is the DJ's words about it, RULES.md §5).  A private
    PNJ as a target or named in a free text leaves the entry: the numbers are the
    actor's.  With `targets_own_numbers` (C-System: an attack's line carries the
    target's Defensa and its Vitalidad after the hit) a private PNJ as a target
    counts as its actor.
    """
    if entry.kind is LogKind.DECLARE:  # what was declared shows as it is performed
        return False
    about = entry.about
    if not about:
        return True
    if any(m.hidden for m in about):
        return False
    roles = (Role.ACTOR, Role.TARGET) if targets_own_numbers else (Role.ACTOR,)
    if not any(m.private and m.role in roles for m in about):
        return True
    return entry.kind is not LogKind.NOTE and not _has_number(entry)


def _has_number(entry: LogEntry) -> bool:
    """Whether a digit stands in the text outside the names it mentions ("Soldado 2")."""
    text = fold(entry.text)
    for name in sorted({fold(m.name) for m in entry.about}, key=len, reverse=True):
        text = text.replace(name, " ")
    return any(ch.isdigit() for ch in text)


def for_players(entry: LogEntry) -> LogEntry:
    """An entry as players read it: without its moment (it may be one the players'
    countdown never showed: a reaction while a hidden PNJ acts, see
    `player_moment`); the turn stays."""
    return entry if entry.moment is None else evolve(entry, moment=None)


def player_log(fight: Fight, limit: int | None = None) -> tuple[LogEntry, ...]:
    """The log entries players may read (`shown_to_players`; the last `limit`, or
    all), oldest first, without their moment ("T1 · …", `for_players`).  Each entry
    carries the flags its combatants had when it was made, so a combatant removed
    later, or a visible one added with a removed hidden one's name, changes nothing
    of what was already decided."""
    if limit is not None and limit <= 0:
        return ()
    strict = fight.rules == "csystem"  # see `shown_to_players`
    kept: list[LogEntry] = []
    if limit is None:
        kept = [for_players(e) for e in fight.log if shown_to_players(e, targets_own_numbers=strict)]
    else:  # the newest first, stopping once there are enough
        for entry in reversed(fight.log):
            if shown_to_players(entry, targets_own_numbers=strict):
                kept.append(for_players(entry))
                if len(kept) == limit:
                    break
        kept.reverse()
    return tuple(kept)


def player_headline(fight: Fight) -> str:
    """The big line of the player view: "Turno 2 · Momento 5 · Actúa: Sven"."""
    if fight.rules == "csystem":
        return cs_player_headline(fight)
    if fight.rules == "narrador":
        return narr_player_headline(fight)
    if not fight.started:
        return f"{literal(fight.name)} · preparación"
    return " · ".join(countdown_parts(players_fight(fight), whole_queue=False))


def player_queue(fight: Fight) -> str:
    """The queue at this moment for the players: "Cola: Sven → Soldado 1" (or "—")."""
    if fight.rules == "csystem":
        return cs_player_queue(fight)
    if fight.rules == "narrador":
        return narr_player_queue(fight)
    names = [literal(c.name) for c in queue(players_fight(fight))]
    return "Cola: " + (" → ".join(names) if names else "—")


@frozen
class Banner:
    """The top of the large layout: the turn, the moment in big digits, who acts.

    `moment` is "" when there is none to show (set-up, Iniciativa Rápida, turn over);
    `note` then says why.  `actor` is empty when nobody acts; `later` lists the rest
    of the queue ("luego Soldado 1"); `on_deck` who is on deck ("luego: Soldado 1",
    `on_deck`), for the large layout's big line.
    """

    turn: str = field(converter=literal)
    moment: str = field(converter=literal)
    note: str = field(converter=literal)
    actor: str = field(converter=literal)
    later: str = field(converter=literal)
    on_deck: str = field(default="", converter=literal)


def on_deck(seen: Fight) -> tuple[str, ...]:
    """Who acts after the head of the queue in the players' fight `seen` (from
    `players_fight`: no hidden PNJ there): the rest of the queue at this moment, or,
    when the head is alone, the queue at the next moment anyone stands at."""
    line = queue(seen)
    if len(line) > 1:
        return tuple(c.name for c in line[1:])
    if seen.quick or seen.moment is None or not line:
        return ()
    mounts = seen.mounts
    below = [c.marker for c in seen.combatants if fixes_moment(c, mounts) and c.marker < seen.moment]
    if not below:
        return ()
    ahead = max(below)
    return tuple(c.name for c in queue(evolve(seen, moment=ahead))
                 if c.marker == ahead and c.key not in mounts)


def player_banner(fight: Fight) -> Banner:
    """What the large layout's top shows, from `players_fight`."""
    if fight.rules == "csystem":
        return cs_player_banner(fight)
    if fight.rules == "narrador":
        return narr_player_banner(fight)
    seen = players_fight(fight)
    if not seen.started:
        return Banner("Preparación", "", seen.name, "", "")
    turn = f"Turno {seen.turn}"
    if seen.turn_over:
        return Banner(turn, "", "turno terminado", "", "esperando al turno siguiente")
    names = [c.name for c in queue(seen)]
    later = f"luego {', '.join(names[1:])}" if len(names) > 1 else ""
    if seen.quick:
        return Banner(turn, "", "Iniciativa rápida", names[0] if names else "", later)
    moment = "" if seen.moment is None else str(seen.moment)
    if not names:
        return Banner(turn, moment, "Momento", "", "nadie en este momento")
    deck = on_deck(seen)
    return Banner(turn, moment, "Momento", names[0], later,
                  f"luego: {', '.join(deck)}" if deck else "")


@frozen
class PcRow:
    """One PJ in the players' strip: its AC left this turn and where it stands."""

    name: str = field(converter=literal)
    ac: int
    budget: int
    status: str = field(converter=literal)
    heads_queue: bool = False
    in_queue: bool = False
    done: bool = False
    out: bool = False

    @property
    def ac_text(self) -> str:
        """"4 / 7": AC left / AC this turn."""
        return f"{self.ac} / {self.budget}"

    @property
    def pips(self) -> str:
        """AC as dots, one per AC (●●●●○○○), readable across a table; up to 12."""
        if self.budget > 12:
            return ""
        left = max(0, min(self.ac, self.budget))
        return "●" * left + "○" * (self.budget - left)


def pc_rows(fight: Fight) -> tuple[PcRow, ...]:
    """Every visible PJ in roster order, for the strip under the players' sheet.

    Only PJ (`bando=pj`): a private PNJ's numbers can never reach it.  Before the
    fight starts the AC shown are the AC per turn.
    """
    if fight.rules in ("csystem", "narrador"):
        return ()  # their PJ are in the list itself (`cs_player_lines`, `narr_player_lines`)
    seen = players_fight(fight)
    line = queue(seen)
    head = line[0].key if line else None
    in_queue = {c.key for c in line}
    rows = []
    for c in seen.combatants:
        if not c.is_pc:
            continue
        if not seen.started:
            rows.append(PcRow(c.name, c.ac_per_turn, c.ac_per_turn, "preparación"))
            continue
        budget = c.budget(max(seen.turn, 1))
        status = STATUS_ES[c.status] if c.start is not None else "sin momento inicial"
        rows.append(PcRow(
            c.name, c.ac, budget, status,
            heads_queue=c.key == head,
            in_queue=c.key in in_queue,
            done=c.status is Status.DONE,
            out=c.status is Status.OUT,
        ))
    return tuple(rows)


@frozen
class PlayerView:
    """Everything the player view paints, computed once per change of the save.

    Its texts are literal (`printable.literal`), the log's too; `fight` is the
    players' fight as data (raw names: the sheet widget builds its own cells).
    """

    fight: Fight
    headline: str
    queue: str
    banner: Banner
    pcs: tuple[PcRow, ...]
    log: tuple[LogEntry, ...]


def player_view(fight: Fight, *, log_lines: int = 20) -> PlayerView:
    """The players' whole screen as data (the widgets only paint it)."""
    seen = players_fight(fight)
    if seen.rules == "csystem":
        return cs_player_view(seen, log_lines=log_lines)
    if seen.rules == "narrador":
        return narr_player_view(seen, log_lines=log_lines)
    return PlayerView(
        fight=seen,
        headline=player_headline(seen),
        queue=player_queue(seen),
        banner=player_banner(seen),
        pcs=pc_rows(seen),
        log=tuple(_literal_entry(e) for e in seen.log[-log_lines:]) if log_lines > 0 else (),
    )


def _literal_entry(entry: LogEntry) -> LogEntry:
    """A log entry whose text is safe to paint (`literal`); the same entry if it was."""
    text = literal(entry.text)
    return entry if text == entry.text else evolve(entry, text=text)


# ---------------------------------------------------------------- C-System (SYSTEMS.md §2.1)


def _names_hidden(fight: Fight, text: str | None) -> bool:
    """Whether a text the DJ typed names someone hidden from the players now."""
    return bool(text) and any(m.hidden for m in fight.mentions((), free=text))


def _cs_public_sheet(sheet: CsSheet) -> CsSheet:
    """A private PNJ's sheet with only what players can see at the table: what it
    did this turn, its conditions (no values, no durations), its weapons (no
    ammunition), its place's marks; every number back to its default, and no
    prompt (a pain roll waiting would tell its Vitalidad fell below its CON)."""
    return CsSheet(
        after=sheet.after, shift=sheet.shift, acted=sheet.acted, used=sheet.used,
        maneuvers=sheet.maneuvers, surprised=sheet.surprised, begun=sheet.begun,
        conditions=tuple(CsCondition(c.id) for c in sheet.conditions),
        weapons=tuple(Weapon(w.name, modes=w.modes, mode=w.mode, ranged=w.ranged)
                      for w in sheet.weapons),
    )


def _cs_players_combatant(c: Combatant, fight: Fight) -> Combatant:
    """`c` as players see it: no private PNJ's numbers (`_cs_public_sheet`), no
    notes they may not read, nothing naming a hidden combatant (whom it follows, a
    condition's value, a weapon's name)."""
    sheet = c.sheet if isinstance(c.sheet, CsSheet) else CsSheet()
    if secret(c):
        sheet = _cs_public_sheet(sheet)
    after = None if sheet.after is not None and _hidden_name(fight, sheet.after) else sheet.after
    conditions = tuple(cond if not _names_hidden(fight, cond.value) else evolve(cond, value=None)
                       for cond in sheet.conditions)
    weapons = tuple(w if not _names_hidden(fight, w.name) else evolve(w, name=SECRET)
                    for w in sheet.weapons)
    if (after, conditions, weapons) != (sheet.after, sheet.conditions, sheet.weapons):
        sheet = evolve(sheet, after=after, conditions=conditions, weapons=weapons)
    notes = players_notes(c, fight)
    if sheet is c.sheet and notes == c.notes:
        return c
    return evolve(c, sheet=sheet, notes=notes)


def _hidden_name(fight: Fight, name: str) -> bool:
    """A combatant's name players must not read: a hidden one's, or one on no roster."""
    other = fight.find(name)
    return other is None or other.hidden


@at_turn
def cs_player_actor(fight: Fight) -> str | None:
    """Whose go players see: the actor if visible; while a hidden PNJ has its go,
    the visible combatant who acts next (the first in the order who has not had
    its go this turn), as if the hidden one were not there; None when no visible
    combatant is left to act this turn."""
    actor = fight.find(fight.actor) if fight.started and fight.actor else None
    if actor is None:
        return None
    if not actor.hidden:
        return actor.name
    for name in part_of(fight).order:
        c = fight.find(name)
        if c is None or c.hidden or c.key == actor.key:
            continue
        if not (isinstance(c.sheet, CsSheet) and c.sheet.acted):
            return c.name
    return None


@at_turn
def cs_players_fight(fight: Fight) -> Fight:
    """A C-System fight as the players see it (`players_fight`'s C-System branch):
    hidden PNJ gone (from the roster and the order), private PNJ's numbers gone
    (`_cs_players_combatant`: the views show "?"), the log `player_log`'s, whose go
    it is by `cs_player_actor`.  Applying it twice changes nothing more."""
    combatants = tuple(_cs_players_combatant(c, fight) for c in visible(fight))
    part = part_of(fight)
    order = tuple(name for name in part.order if not _hidden_name(fight, name))
    actor = cs_player_actor(fight)
    cs = evolve(part, order=order)
    return evolve(fight, combatants=combatants, log=player_log(fight), window=None,
                  actor=actor, cs=cs)


def cs_players_json(fight: Fight) -> dict:
    """What a players' client may be sent: `cs_state_json` of the players' fight,
    a private PNJ's numbers as null."""
    return cs_view.cs_state_json(cs_players_fight(fight), for_players=True)


def cs_player_lines(fight: Fight, *, log_lines: int = 20) -> list[str]:
    """The players' board as text lines: the big line, the list (private PNJ's
    numbers as "?"), the states, the prompts, the log they may read."""
    return cs_view.cs_lines(cs_players_fight(fight), for_players=True, log_lines=log_lines)


def cs_player_headline(fight: Fight) -> str:
    """"Turno 2 · Actúa: Centella"."""
    return cs_view.headline(cs_players_fight(fight))


def cs_player_queue(fight: Fight) -> str:
    """"Orden: Doctor Ruina → Sicario 1 → Centella → Titán" (or "—")."""
    names = [literal(name) for name in part_of(cs_players_fight(fight)).order]
    return "Orden: " + (" → ".join(names) if names else "—")


def cs_player_banner(fight: Fight) -> Banner:
    """The large layout's top for C-System: the turn, who acts, who comes next."""
    seen = cs_players_fight(fight)
    if not seen.started:
        return Banner("Preparación", "", seen.name, "", "")
    turn = f"Turno {seen.turn}"
    if seen.actor is None:
        return Banner(turn, "", "turno terminado", "", "esperando al turno siguiente")
    then = cs_view.next_after(seen)
    deck = f"luego: {then.name}" if then is not None else "luego: fin del turno"
    return Banner(turn, "", "Actúa", seen.actor, "", deck)


def cs_player_view(seen: Fight, *, log_lines: int = 20) -> PlayerView:
    """`player_view` for C-System, from the players' fight `seen`; no PJ strip (the
    PJ are rows of the list, `cs_player_lines`)."""
    return PlayerView(
        fight=seen,
        headline=cs_player_headline(seen),
        queue=cs_player_queue(seen),
        banner=cs_player_banner(seen),
        pcs=(),
        log=tuple(_literal_entry(e) for e in seen.log[-log_lines:]) if log_lines > 0 else (),
    )


# ---------------------------------------------------------------- storyteller (SYSTEMS.md §3.1)


def _narr_place_passed(fight: Fight, name: str) -> bool:
    """Whether the action phase has gone past `name`'s place (the actor is below
    it, or nobody is left to act at a place): a delay shows from then on."""
    part = fight.narr if fight.narr is not None else NarrPart()
    if part.phase != "act":
        return part.phase == "over"
    if fight.actor is None or name not in part.order or fight.actor not in part.order:
        return fight.actor is None
    return part.order.index(fight.actor) > part.order.index(name)


def _narr_public_declaration(sheet: NarrSheet, fight: Fight, name: str) -> NarrSheet:
    """What players may know of a declaration: its done actions only (the rest is
    secret until performed), a delay once its place has passed, a total defense
    once it has defended; no target that names someone hidden."""
    declared = tuple(d if d.target is None or not _hidden_name(fight, d.target) else evolve(d, target=None)
                     for d in sheet.declared if d.done)
    status = sheet.status
    if status == "delaying" and not _narr_place_passed(fight, name):
        status = "declared"
    full = sheet.full_defense and sheet.defenses > 0
    if (declared, status, full) == (sheet.declared, sheet.status, sheet.full_defense):
        return sheet
    return evolve(sheet, declared=declared, status=status, full_defense=full)


def _narr_public_sheet(sheet: NarrSheet) -> NarrSheet:
    """A private PNJ's sheet with only what players can see at the table: its place
    in the turn, what it did (no pools), its conditions (no values), its weapons (no
    ammunition), cover and opponents; every number back to its default."""
    return NarrSheet(
        status=sheet.status, cover=sheet.cover, opponents=sheet.opponents, aborted=sheet.aborted,
        full_defense=sheet.full_defense, defenses=sheet.defenses,
        declared=tuple(Declared(d.action, None, 0, defense=d.defense, done=d.done, target=d.target)
                       for d in sheet.declared),
        conditions=tuple(NCondition(c.id) for c in sheet.conditions),
        weapons=tuple(NWeapon(w.name, strength=w.strength, lethal=w.lethal, range=w.range)
                      for w in sheet.weapons),
    )


def _narr_players_combatant(c: Combatant, fight: Fight) -> Combatant:
    """`c` as players see it: its declaration as far as it is public, no private
    PNJ's numbers, no notes they may not read, nothing naming a hidden combatant."""
    sheet = c.sheet if isinstance(c.sheet, NarrSheet) else NarrSheet()
    sheet = _narr_public_declaration(sheet, fight, c.name)
    if secret(c):
        sheet = _narr_public_sheet(sheet)
    conditions = tuple(cond if not _names_hidden(fight, cond.value) else evolve(cond, value=None)
                       for cond in sheet.conditions)
    weapons = tuple(w if not _names_hidden(fight, w.name) else evolve(w, name=SECRET) for w in sheet.weapons)
    if (conditions, weapons) != (sheet.conditions, sheet.weapons):
        sheet = evolve(sheet, conditions=conditions, weapons=weapons)
    notes = players_notes(c, fight)
    if sheet is c.sheet and notes == c.notes:
        return c
    return evolve(c, sheet=sheet, notes=notes)


def _narr_status(fight: Fight, name: str) -> str:
    c = fight.find(name)
    return c.sheet.status if c is not None and isinstance(c.sheet, NarrSheet) else ""


@narr_at_turn
def narr_player_actor(fight: Fight) -> str | None:
    """Whose go players see: the actor if visible; while a hidden PNJ acts, the next
    visible one still to act at its place, as if the hidden one were not there."""
    part = fight.narr if fight.narr is not None else NarrPart()
    actor = fight.find(fight.actor) if part.phase == "act" and fight.actor else None
    if actor is None:
        return None
    if not actor.hidden:
        return actor.name
    order = part.order
    start = order.index(actor.name) + 1 if actor.name in order else 0
    for name in order[start:]:
        if not _hidden_name(fight, name) and _narr_status(fight, name) == "declared":
            return fight.find(name).name
    return None


@narr_at_turn
def narr_player_declarer(fight: Fight) -> str | None:
    """Who declares for the players: the declarer if visible; while a hidden PNJ
    declares, the next visible one to declare (the lowest still to declare)."""
    part = fight.narr if fight.narr is not None else NarrPart()
    if part.phase != "declare" or part.declarer is None:
        return None
    if not _hidden_name(fight, part.declarer):
        return part.declarer
    for name in reversed(part.order):
        if not _hidden_name(fight, name) and _narr_status(fight, name) == "to_declare":
            return fight.find(name).name
    return None


@narr_at_turn
def narr_players_fight(fight: Fight) -> Fight:
    """A storyteller fight as the players see it (`players_fight`'s branch): hidden
    PNJ gone (roster, order, actor, declarer, the attack being resolved), private
    PNJ's numbers gone, declarations only as far as performed, the log
    `player_log`'s.  Applying it twice changes nothing more."""
    part = fight.narr if fight.narr is not None else NarrPart()
    combatants = tuple(_narr_players_combatant(c, fight) for c in visible(fight))
    order = tuple(name for name in part.order if not _hidden_name(fight, name))
    attack = part.attack
    if attack is not None and (_hidden_name(fight, attack.attacker) or _hidden_name(fight, attack.target)):
        attack = None
    narr = evolve(part, order=order, declarer=narr_player_declarer(fight), attack=attack)
    return evolve(fight, combatants=combatants, log=player_log(fight), window=None,
                  actor=narr_player_actor(fight), narr=narr)


def narr_players_json(fight: Fight) -> dict:
    """What a players' client may be sent: `narr_state_json` of the players' fight
    (a private PNJ's numbers null, no undone declared action, no defense options)."""
    return narr_view.narr_state_json(narr_players_fight(fight), for_players=True)


def narr_player_lines(fight: Fight, *, log_lines: int = 20) -> list[str]:
    """The players' board as text lines: the big line, the list, the attack, the log."""
    return narr_view.narr_lines(narr_players_fight(fight), for_players=True, log_lines=log_lines)


def narr_player_headline(fight: Fight) -> str:
    """"Turno 1 · Acción ↓ · Actúa: Matón"."""
    return narr_view.headline(narr_players_fight(fight))


def narr_player_queue(fight: Fight) -> str:
    """"Orden: Kara → Matón → Víctor → Cadáver" (or "—")."""
    names = [literal(name) for name in narr_view.order_of(narr_players_fight(fight))]
    return "Orden: " + (" → ".join(names) if names else "—")


def narr_player_banner(fight: Fight) -> Banner:
    """The large layout's top: the turn, the phase, who acts or declares."""
    seen = narr_players_fight(fight)
    part = narr_view.part_of(seen)
    turn = f"Turno {seen.turn}"
    phase = narr_view.PHASE_ES.get(part.phase, part.phase)
    if part.phase == "act" and seen.actor:
        return Banner(turn, "", phase, seen.actor, "")
    if part.phase == "declare" and part.declarer:
        return Banner(turn, "", phase, part.declarer, "")
    if part.phase == "over":  # everyone has acted (SYSTEMS §3.4), as the other rulesets say it
        return Banner(turn, "", phase, "", "esperando al turno siguiente")
    return Banner(turn, "", phase, "", "")


def narr_player_view(seen: Fight, *, log_lines: int = 20) -> PlayerView:
    """`player_view` for the storyteller system, from the players' fight `seen`."""
    return PlayerView(
        fight=seen,
        headline=narr_player_headline(seen),
        queue=narr_player_queue(seen),
        banner=narr_player_banner(seen),
        pcs=(),
        log=tuple(_literal_entry(e) for e in seen.log[-log_lines:]) if log_lines > 0 else (),
    )
