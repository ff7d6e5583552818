"""RULES.md §7: the seeds' worked example, played through command lines.

Every expected marker / AC below is read off the table in RULES.md §7 (cells left
blank there keep the value of the row above), not off the engine's output.
"""

from __future__ import annotations

import pytest

from cdbtui.engine.model import Fight, Status
from cdbtui.engine.session import Session

S1, S2 = '"Soldado 1"', '"Soldado 2"'
SHOOT = "disparar-armas-largas"
COVER = "ponerse-a-cubierto"

#: The cast with no Agilidad/Atención (every tie falls to the later keys).
DEFAULTS = [
    "alta Mike ac=7 bando=pj",
    "alta Sven ac=5 bando=pj",
    f"alta {S1} ac=6",
    f"alta {S2} ac=5",
    "momento Mike 7",
    "momento Sven 5",
    f"momento {S1} 6",
    f"momento {S2} 4",
    "empezar",
]

#: (moment of the row, command lines, expected marker / AC after the row).
#: Names: M = Mike, V = Sven, S1, S2.
TABLE = [
    (7, [f"Mike {SHOOT}", f"{S1} {COVER}"],
     {"Mike": (4, 4), "Sven": (5, 5), "Soldado 1": (5, 5), "Soldado 2": (4, 5)}),
    (5, [f"Sven {SHOOT}", f"{S2} {COVER}", f"{S1} {SHOOT}"],
     {"Sven": (2, 2), "Soldado 1": (2, 2), "Soldado 2": (3, 4)}),
    (4, [f"Mike {COVER}"], {"Mike": (3, 3)}),
    (3, [f"{S2} {SHOOT}", "Mike apuntar"], {"Soldado 2": (0, 1), "Mike": (1, 1)}),
    (2, [f"{S1} apuntar", f"Sven {SHOOT}"], {"Soldado 1": (0, 0), "Sven": (0, 0)}),
    (1, [f"Mike {SHOOT}"], {"Mike": (0, 0)}),
    (0, [f"{S2} {SHOOT}"], {"Soldado 2": (-1, 0)}),
]

#: What each carries into turn 2 (RULES.md §7 table: "carries n").
CARRIES = {"Mike": 2, "Sven": 1, "Soldado 2": 2}


@pytest.fixture(params=["defaults", "demo"])
def cast(request, session) -> Session:
    """The §7 cast twice: without Agilidad/Atención, and with the demo's values."""
    if request.param == "defaults":
        return session(*DEFAULTS)
    return request.getfixturevalue("demo")


def marks(fight: Fight) -> dict[str, tuple[int, int]]:
    return {c.name: (c.marker, c.ac) for c in fight.combatants}


def play_turn_one(s: Session, rows=TABLE) -> None:
    expected = {"Mike": (7, 7), "Sven": (5, 5), "Soldado 1": (6, 6), "Soldado 2": (4, 5)}
    assert marks(s.fight) == expected
    assert s.fight.moment == 7
    for moment, lines, changes in rows:
        assert s.fight.moment == moment, f"the countdown should be at {moment}"
        assert not s.fight.turn_over
        for line in lines:
            s.execute(line)
        expected.update(changes)
        assert marks(s.fight) == expected, f"after moment {moment}"


def test_turn_one_follows_the_table_row_by_row(cast):
    s = cast
    play_turn_one(s)
    fight = s.fight
    assert fight.turn_over
    for c in fight.combatants:
        assert c.status is Status.DONE
        remaining = CARRIES.get(c.name)
        assert (c.carried.remaining if c.carried else None) == remaining, c.name


def test_moment_six_is_skipped_because_nobody_is_there(cast):
    s = cast
    s.execute(f"Mike {SHOOT}")
    assert s.fight.moment == 6  # Soldado 1 starts at 6 and has not acted yet
    s.execute(f"{S1} {COVER}")
    assert s.fight.moment == 5  # "Tras esto pasamos al Momento 6 … no le corresponde actuar a nadie"


def test_turn_two_completes_the_carried_shots_when_the_countdown_reaches_them(cast):
    s = cast
    play_turn_one(s)
    s.execute("turno")
    f = s.fight
    assert f.turn == 2 and not f.turn_over
    # Moment 7: Mike completes his shot at once (2 AC): marker 5, 7 − 2 = 5 AC.
    mike = f.find("Mike")
    assert (mike.marker, mike.ac, mike.carried) == (5, 5, None)
    assert mike.attacks == 1  # the shot counts in the turn it completes
    assert any("completa Disparar Armas Largas" in e.text and "Mike" in e.text for e in f.log)
    # Moment 6 belongs to Soldado 1; Sven and Soldado 2 have not been reached yet.
    assert f.moment == 6
    assert f.find("Sven").carried.remaining == 1
    assert f.find("Soldado 2").carried.remaining == 2
    s.execute("siguiente")  # Soldado 1 does not act now: it becomes a holder
    f = s.fight
    assert f.find("Soldado 1").status is Status.HOLDING
    # Moment 5: Sven (who has not acted) completes his shot first: 5 − 1 = 4, 5 − 1 = 4 AC.
    assert f.moment == 5
    sven = f.find("Sven")
    assert (sven.marker, sven.ac, sven.carried) == (4, 4, None)
    assert f.find("Soldado 2").carried.remaining == 2
    s.execute("siguiente")  # Mike, at 5 with AC, does not act: holder too
    f = s.fight
    # Moment 4: Soldado 2 completes: 4 − 2 = 2, 5 − 2 = 3 AC.
    assert f.moment == 4
    soldier = f.find("Soldado 2")
    assert (soldier.marker, soldier.ac, soldier.carried) == (2, 3, None)
    assert f.find("Soldado 1").carried is None
    assert (f.find("Soldado 1").marker, f.find("Soldado 1").ac) == (4, 6)  # holder followed


def test_alternative_mike_keeps_his_last_ac_and_starts_aiming_at_zero(cast):
    s = cast
    rows = TABLE[:5]  # up to moment 2; at moment 1 Mike keeps his AC instead of shooting
    play_turn_one(s, rows)
    assert s.fight.moment == 1
    s.execute("Mike retrasa")  # keeps the AC for a dodge
    f = s.fight
    assert f.moment == 0
    assert (f.find("Mike").marker, f.find("Mike").ac) == (0, 1)
    aim_before = f.find("Mike").aim
    assert aim_before == 1  # the Apuntar at moment 3, not used by any attack yet
    s.execute("Mike apuntar")  # 2 AC, only 1 left: carried, 1 to go
    mike = s.fight.find("Mike")
    assert (mike.marker, mike.ac, mike.carried.remaining) == (-1, 0, 1)
    assert mike.aim == aim_before  # not finished yet: no bonus for it this turn
    s.execute(f"{S2} {SHOOT}")
    assert s.fight.turn_over
    s.execute("turno")
    mike = s.fight.find("Mike")
    # Completed at start − 1 = 6 (the book's "5, no en el 6" miscounts; RULES.md §7).
    assert (mike.marker, mike.ac, mike.carried) == (6, 6, None)
    assert mike.aim == aim_before + 1  # successive turns: the bonus grows by 1
    assert mike.attacks == 0
