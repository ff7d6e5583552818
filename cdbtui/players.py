"""What players see: the one place that decides it (`cdbtui view`, `cdbtui serve`,
`cdbtui export --jugadores`).

Every function takes the DJ's fight as it is saved and sees it through
`players_fight`, so nothing a player reads can come from a hidden PNJ or a
private PNJ's numbers.  The player view paints the result with the sheet's own
functions (`view.sheet`, `for_players=True`).
"""

from __future__ import annotations

import re

from attrs import evolve, field, frozen

from .engine.model import STATUS_ES, Combatant, Fight, LogEntry, Status
from .engine.rules import order_key, queue
from .engine.text import fold
from .printable import literal
from .view.sheet import countdown_parts, on_sheet

def visible(fight: Fight) -> tuple[Combatant, ...]:
    """The combatants players may know about: everyone but hidden PNJ (`oculto`)."""
    return on_sheet(fight, True)


def _secret(c: Combatant) -> bool:
    """A private PNJ (`privado`): on the players' side its numbers show as `?`."""
    return c.private and not c.is_pc


def _quick_actor(fight: Fight) -> Combatant | None:
    """Iniciativa Rápida: whose go the players see.  The real actor if visible; else
    the next visible combatant in start order who has not had its go, as the
    engine would pick it (Agilidad, Atención, Habilidad, roster)."""
    actor = fight.find(fight.actor) if fight.actor else None
    if actor is None:
        return None
    if not actor.hidden:
        return actor
    waiting = [
        ((-c.start, *order_key(c, position)[1:]), c)
        for position, c in enumerate(fight.combatants)
        if not c.hidden and c.status is Status.READY and c.start is not None
    ]
    return min(waiting, key=lambda pair: pair[0])[1] if waiting else None


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
      already reached the next moment where a visible combatant acts (the highest
      marker of a visible combatant still to act): the hidden PNJ's maneuvers seem
      to happen just before that moment, and the countdown jumps from one visible
      moment to the next, as it would if the hidden PNJ were not there;
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
    ahead = [
        c.marker for c in visible(fight)
        if c.status in (Status.READY, Status.ACTED)
        and c.marker is not None and c.marker <= fight.moment
    ]
    return max(ahead) if ahead else fight.moment


def players_fight(fight: Fight) -> Fight:
    """The fight as the players see it; every other player function draws from it.

    Hidden PNJ are gone (so they take no column, no row, no queue place), the log is
    `player_log`'s, and the countdown stands at `player_moment`.  When that moment is
    below the real one, whoever follows the countdown is moved along with it the way
    the engine would: holders to that moment, waiters paying 1 AC per moment passed.
    Applying it twice changes nothing more.
    """
    seen = evolve(fight, combatants=visible(fight), log=player_log(fight))
    if not fight.started:
        return seen
    moment = player_moment(fight)
    if fight.quick:
        actor = _quick_actor(fight)
        return evolve(seen, moment=moment, actor=None if actor is None else actor.name)
    if moment is None or fight.moment is None or moment >= fight.moment:
        return evolve(seen, moment=moment)
    passed = fight.moment - moment
    moved = []
    for c in seen.combatants:
        if c.status is Status.HOLDING:
            moved.append(evolve(c, marker=moment, acting=False))
        elif c.status is Status.WAITING:
            paid = min(passed, c.ac)
            left = c.ac - paid
            moved.append(evolve(
                c, ac=left, marker=c.marker - paid,
                status=Status.WAITING if left > 0 else Status.DONE,
                trigger=c.trigger if left > 0 else None,
            ))
    return evolve(seen.replace(*moved), moment=moment)


#: How the engine logs a new combatant ("Alta de Ninja (PNJ, 6 AC)").
_ADDED = re.compile(r"^Alta de (?P<name>.+) \([^()]*\)$")


def _name_pattern(names: list[str]) -> re.Pattern[str] | None:
    """One regex finding any of `names` (folded) as whole words, longest first, so
    that "Soldado 1" is never read as "Soldado" followed by a 1."""
    if not names:
        return None
    words = sorted({fold(n) for n in names}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


def player_log(fight: Fight, limit: int | None = None) -> tuple[LogEntry, ...]:
    """The log entries players may read (the last `limit`, or all), oldest first.

    Dropped: entries naming a hidden PNJ (accents and case folded), entries naming a
    private PNJ together with a number (its AC, a die, Agilidad in a tie…; entries
    with its name and no number stay: «Soldado 2 retrasa su acción»), and entries
    naming someone added and then removed (no longer on the roster, so whether it
    was hidden is unknown: it may have been).  Entries keep their turn but lose
    their moment ("T1 · …"): it may be one the players never saw on the countdown
    (a reaction while a hidden PNJ acts, see `player_moment`).
    """
    roster = {fold(c.name) for c in fight.combatants}
    hidden = {fold(c.name) for c in fight.combatants if c.hidden}
    secret = {fold(c.name) for c in fight.combatants if _secret(c)}
    hidden |= {
        fold(match["name"]) for entry in fight.log
        if (match := _ADDED.match(entry.text)) and fold(match["name"]) not in roster
    }
    pattern = _name_pattern([*roster, *hidden])
    kept: list[LogEntry] = []
    for entry in fight.log:
        text = fold(entry.text)
        named = set(pattern.findall(text)) if pattern is not None else set()
        if named & hidden:
            continue
        if named & secret and any(ch.isdigit() for ch in pattern.sub(" ", text)):
            continue
        kept.append(entry if entry.moment is None else evolve(entry, moment=None))
    if limit is not None:
        kept = kept[-limit:] if limit > 0 else []
    return tuple(kept)


def player_headline(fight: Fight) -> str:
    """The big line of the player view: "Turno 2 · Momento 5 · Actúa: Sven"."""
    if not fight.started:
        return f"{literal(fight.name)} · preparación"
    return " · ".join(countdown_parts(players_fight(fight), whole_queue=False))


def player_queue(fight: Fight) -> str:
    """The queue at this moment for the players: "Cola: Sven → Soldado 1" (or "—")."""
    names = [literal(c.name) for c in queue(players_fight(fight))]
    return "Cola: " + (" → ".join(names) if names else "—")


@frozen
class Banner:
    """The top of the large layout: the turn, the moment in big digits, who acts.

    `moment` is "" when there is none to show (set-up, Iniciativa Rápida, turn over);
    `note` then says why.  `actor` is empty when nobody acts; `later` lists the rest
    of the queue ("luego Soldado 1").
    """

    turn: str = field(converter=literal)
    moment: str = field(converter=literal)
    note: str = field(converter=literal)
    actor: str = field(converter=literal)
    later: str = field(converter=literal)


def player_banner(fight: Fight) -> Banner:
    """What the large layout's top shows, from `players_fight`."""
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
    return Banner(turn, moment, "Momento", names[0], later)


@frozen
class PcRow:
    """One PJ in the players' strip: its AC left this turn and where it stands."""

    name: str = field(converter=literal)
    ac: int
    budget: int
    status: str = field(converter=literal)
    acting: bool = False
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
            acting=c.key == head,
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
