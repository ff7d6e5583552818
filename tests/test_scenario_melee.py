"""A DJ's fight played line by line: melee and shooting mixed over three turns, with a
surprise round, a grapple that becomes a Presa, a Ráfaga Media carried into the next
turn, wounds, cover and an Incapacitado, checking the sheet after every command.

Cast (CdB): Kira (PJ, Artista Marcial: Agarrón and Presa cost 3), Rex (PJ, automatic
rifle: a shot costs 3, so a Ráfaga Media costs 4), and two surprised PNJ: Matón
(melee) and Tirador (pistol).  Every row says, after the line ran, the current moment
and for each combatant "marker/AC status modifier [conditions]".
"""

from __future__ import annotations

import pytest

from cdbtui.engine.model import Status

from fights import play, refused

SETUP = (
    "alta Kira ac=8 ini=3 agi=4 ate=3 bando=pj talentos=artista-marcial",
    "alta Rex ac=7 ini=2 agi=3 ate=2 bando=pj",
    "alta Matón ac=6 ini=2 agi=3 ate=1",
    "alta Tirador ac=5 ini=1 agi=2 ate=2",
    "momento Kira 8", "momento Rex 6", "momento Maton 7", "momento Tirador 5",
    "sorpresa Maton Tirador",
)
ORDER = ("Kira", "Rex", "Matón", "Tirador")
SUR, GRA, PIN, COV = "sorprendido", "agarrado", "inmovilizado", "a-cubierto"

#: (line, moment after it, expected rows in ORDER: "marker/ac status modifier [conditions]")
SCRIPT = [
    # ── Turn 1: the PNJ are surprised: ⌈6/2⌉ = 3 and ⌈5/2⌉ = 3 AC
    ("empezar", 8,
     ["8/8 ready 0", "6/7 ready 0", f"7/3 ready 0 {SUR}", f"5/3 ready 0 {SUR}"]),
    # Kira grabs Matón (Agarrón, 3 AC with Artista Marcial): her next attack is the 2nd (−1)
    ("Kira agarron a Maton", 7,
     ["5/5 acted -1", "6/7 ready 0", f"7/3 ready 0 {SUR}", f"5/3 ready 0 {SUR}"]),
    # surprised: a Reconocimiento (1) before attacking, before the DJ marks the grapple
    # (once Agarrado he could only Escapar, kick or punch: RULES.md §4); he goes to 6
    ("Maton reconocimiento", 6,
     ["5/5 acted -1", "6/7 ready 0", f"6/2 acted 0 {SUR}", f"5/3 ready 0 {SUR}"]),
    # the Agarrón worked: Matón is Agarrado, his 2 AC left halve at once (⌈2/2⌉ = 1)
    ("estado Maton +agarrado", 6,
     ["5/5 acted -1", "6/7 ready 0", f"6/1 acted 0 {SUR},{GRA}", f"5/3 ready 0 {SUR}"]),
    # Agarrón damage is Fatiga: 2 Fatigado boxes, no penalty
    ("dano Maton 2 fatiga", 6,
     ["5/5 acted -1", "6/7 ready 0", f"6/1 acted 0 {SUR},{GRA}", f"5/3 ready 0 {SUR}"]),
    # Rex (not yet acted, first at 6) fires a Ráfaga Media (3 + 1) at Tirador
    ("Rex rafaga-media 3 a Tirador", 6,
     ["5/5 acted -1", "2/3 acted -1", f"6/1 acted 0 {SUR},{GRA}", f"5/3 ready 0 {SUR}"]),
    # Tirador dives for cover as a reaction: min(5, 6) − 1 = 4
    ("Tirador ponerse-a-cubierto", 6,
     ["5/5 acted -1", "2/3 acted -1", f"6/1 acted 0 {SUR},{GRA}", f"4/2 acted 0 {SUR}"]),
    ("estado Tirador +a-cubierto", 6,
     ["5/5 acted -1", "2/3 acted -1", f"6/1 acted 0 {SUR},{GRA}", f"4/2 acted 0 {SUR},{COV}"]),
    # the burst hits anyway: 6 − RD 1 = 5 boxes, 3 Rasguño + 2 Herido: −1
    ("dano Tirador 6 rd=1", 6,
     ["5/5 acted -1", "2/3 acted -1", f"6/1 acted 0 {SUR},{GRA}", f"4/2 acted -1 {SUR},{COV}"]),
    # Matón kicks Kira (3 AC) with 1 left: invests 1, owes 2 next turn; the countdown goes to 5
    ("Maton patada a Kira", 5,
     ["5/5 acted -1", "2/3 acted -1", f"5/0 done 0 {SUR},{GRA}", f"4/2 acted -1 {SUR},{COV}"]),
    ("Kira punetazo a Maton", 4,
     ["3/3 acted -2", "2/3 acted -1", f"5/0 done 0 {SUR},{GRA}", f"4/2 acted -1 {SUR},{COV}"]),
    # Tirador shoots without a Reconocimiento (warned): 2 AC in, 1 owed
    ("Tirador disparar-armas-cortas a Rex", 3,
     ["3/3 acted -2", "2/3 acted -1", f"5/0 done 0 {SUR},{GRA}", f"2/0 done -1 {SUR},{COV}"]),
    # Kira turns the grapple into a Presa (3 AC) with her last AC
    ("Kira presa a Maton", 2,
     ["0/0 done -3", "2/3 acted -1", f"5/0 done 0 {SUR},{GRA}", f"2/0 done -1 {SUR},{COV}"]),
    ("estado Maton +inmovilizado", 2,
     ["0/0 done -3", "2/3 acted -1", f"5/0 done 0 {SUR},{GRA},{PIN}", f"2/0 done -1 {SUR},{COV}"]),
    # a second Ráfaga Media (4) with 3 AC: carried, 1 owed; the turn is over
    ("Rex rafaga-media 3 a Maton", 2,
     ["0/0 done -3", "-1/0 done -1", f"5/0 done 0 {SUR},{GRA},{PIN}", f"2/0 done -1 {SUR},{COV}"]),
    # ── Turn 2: no more surprise; Matón Inmovilizado: ⌈6/4⌉ = 2 AC
    ("turno", 8,
     ["8/8 ready 0", "6/7 ready 0", f"7/2 ready 0 {GRA},{PIN}", f"5/5 ready -1 {COV}"]),
    # Kira punches; then the carried maneuvers complete on their own: Matón's kick at 7
    # (2 AC → 5, done), Rex's burst at 6 (1 AC → 5): both count as this turn's attack
    ("Kira punetazo a Maton", 6,
     ["6/6 acted -1", "5/6 acted -1", f"5/0 done -1 {GRA},{PIN}", f"5/5 ready -1 {COV}"]),
    # Matón's kick hurt Rex: 4 boxes, Herido −1
    ("dano Rex 4", 6,
     ["6/6 acted -1", "5/6 acted -2", f"5/0 done -1 {GRA},{PIN}", f"5/5 ready -1 {COV}"]),
    # Kira holds; at 5 Tirador completes his shot (1 AC → 4) and Rex is next
    ("Kira retrasa", 5,
     ["5/6 holding -1", "5/6 acted -2", f"5/0 done -1 {GRA},{PIN}", f"4/4 acted -2 {COV}"]),
    ("Rex fin", 4,
     ["4/6 holding -1", "5/0 done -2", f"5/0 done -1 {GRA},{PIN}", f"4/4 acted -2 {COV}"]),
    # Tirador shoots Kira: a second target this turn (Rex, Kira): −1 to everything
    ("Tirador disparar-armas-cortas a Kira", 1,
     ["1/6 holding -1", "5/0 done -2", f"5/0 done -1 {GRA},{PIN}", f"1/1 acted -4 {COV}"]),
    # Kira, still holding, dodges the shot at its moment, 4 (RULES.md §3, the reaction
    # window): 4 − 1 = 3, and the count comes back up to her at 3
    ("Kira esquivar", 3,
     ["3/5 acted -1", "5/0 done -2", f"5/0 done -1 {GRA},{PIN}", f"1/1 acted -4 {COV}"]),
    ("Tirador fin", 3,
     ["3/5 acted -1", "5/0 done -2", f"5/0 done -1 {GRA},{PIN}", f"1/0 done -4 {COV}"]),
    ("Kira fin", 3,
     ["3/0 done -1", "5/0 done -2", f"5/0 done -1 {GRA},{PIN}", f"1/0 done -4 {COV}"]),
    # ── Turn 3.  Melee tires (RULES.md §6): Matón's kick, begun in turn 1 and finished
    # in turn 2, gave him a fatigue point at the end of each: 2 + 1 + 1 = 4 boxes is
    # Aturdido (−1).  Kira's 2 points are still Fatigado (no penalty).
    ("turno", 8,
     ["8/8 ready 0", "6/7 ready -1", f"7/2 ready -1 {GRA},{PIN}", f"5/5 ready -1 {COV}"]),
    # Kira lets the Presa go: Matón keeps his 2 AC this turn, ⌈6/2⌉ = 3 from the next
    ("estado Maton -inmovilizado", 8,
     ["8/8 ready 0", "6/7 ready -1", f"7/2 ready -1 {GRA}", f"5/5 ready -1 {COV}"]),
    ("Kira punetazo a Maton", 7,
     ["6/6 acted -1", "6/7 ready -1", f"7/2 ready -1 {GRA}", f"5/5 ready -1 {COV}"]),
    # Escapar (4) is never carried (RULES.md §4): with 2 AC he kicks instead, 1 owed
    ("Maton patada a Kira", 6,
     ["6/6 acted -1", "6/7 ready -1", f"5/0 done -1 {GRA}", f"5/5 ready -1 {COV}"]),
    ("Rex disparar-armas-largas a Tirador", 6,
     ["6/6 acted -1", "3/4 acted -2", f"5/0 done -1 {GRA}", f"5/5 ready -1 {COV}"]),
    # 5 − RD 1 = 4 more boxes: 9 of 3+3+2+2+1 is Incapacitado (−6): no more maneuvers
    ("dano Tirador 5 rd=1", 6,
     ["6/6 acted -1", "3/4 acted -2", f"5/0 done -1 {GRA}", f"5/0 done -6 {COV}"]),
    ("Kira fin", 3,
     ["6/0 done -1", "3/4 acted -2", f"5/0 done -1 {GRA}", f"5/0 done -6 {COV}"]),
    ("Rex fin", 3,
     ["6/0 done -1", "3/0 done -2", f"5/0 done -1 {GRA}", f"5/0 done -6 {COV}"]),
]


def row(c) -> str:
    text = f"{c.marker}/{c.ac} {c.status.value} {c.modifier}"
    return text + (f" {','.join(c.conditions)}" if c.conditions else "")


@pytest.fixture(scope="module")
def played():
    """The session after the set-up, and the rows seen after each line of the script."""
    s = play(*SETUP)
    seen = []
    for line, _, _ in SCRIPT:
        s.execute(line)
        seen.append((s.fight.moment, [row(s.fight.find(name)) for name in ORDER], s.fight))
    return s, seen


@pytest.mark.parametrize("step", range(len(SCRIPT)), ids=[f"{i:02d} {line}" for i, (line, _, _) in enumerate(SCRIPT)])
def test_the_sheet_after_every_command(played, step):
    _, seen = played
    line, moment, rows = SCRIPT[step]
    assert seen[step][:2] == (moment, rows), line


def test_the_surprise_round_warns_an_attack_without_reconocimiento():
    s = play(*SETUP, *(line for line, _, _ in SCRIPT[:11]))
    assert s.fight.moment == 4
    cautions = s.cautions("Tirador disparar-armas-cortas a Rex")
    assert any("sorprendido y ataca sin Reconocimiento" in text for text in cautions)
    assert s.cautions("Kira punetazo a Maton") == []  # not surprised


def test_the_burst_carried_over_completes_at_rexs_start_and_counts_its_target(played):
    _, seen = played
    end_of_turn_1 = seen[14][2]
    rex = end_of_turn_1.find("Rex")
    assert (rex.carried.label, rex.carried.remaining, rex.carried.target) == (
        "Ráfaga Media a Matón", 1, "Matón")
    assert end_of_turn_1.turn_over
    after_punch = seen[16][2]  # turn 2, after Kira's punch: the burst completed at 6
    rex = after_punch.find("Rex")
    assert (rex.carried, rex.attacks, rex.targets) == (None, 1, ("Matón",))
    assert any(e.text == "Rex: completa Ráfaga Media a Matón (1 AC) → momento 5" for e in after_punch.log)
    maton = after_punch.find("Matón")
    assert (maton.carried, maton.targets) == (None, ("Kira",))


def test_the_fight_ends_with_the_kick_still_owed_and_tirador_incapacitated(played):
    s, _ = played
    f = s.fight
    assert (f.turn, f.turn_over) == (3, True)
    maton = f.find("Matón")
    assert (maton.carried.label, maton.carried.remaining) == ("Patada a Kira", 1)
    assert maton.budget(4) == 3  # Agarrado only: ⌈6/2⌉
    tirador = f.find("Tirador")
    assert (tirador.wounds.marked, tirador.status) == (9, Status.DONE)
    assert f.find("Rex").wounds.penalty == -1
    assert f.find("Matón").fatigue.marked == 4  # 2 from the Agarrón, 2 from melee
    assert f.find("Kira").fatigue.marked == 2  # melee in turns 1 and 2


def test_escapar_short_of_ac_is_refused_not_carried():
    kick = max(i for i, (line, _, _) in enumerate(SCRIPT) if line == "Maton patada a Kira")
    s = play(*SETUP, *(line for line, _, _ in SCRIPT[:kick]))
    assert s.fight.find("Matón").ac == 2
    refused(s, "Maton escapar", "Escapar")


def test_every_line_of_the_fight_undoes_to_the_state_before_it(played):
    _, seen = played
    s = play(*SETUP, *(line for line, _, _ in SCRIPT))
    for index in range(len(SCRIPT) - 1, 0, -1):
        s.execute("deshacer")
        assert s.fight == seen[index - 1][2]
