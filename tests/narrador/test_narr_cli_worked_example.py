"""STORYTELLER.md §15 (two turns in a morgue, four combatants) played through the shell.

The fight is made with `cdbtui new PATH --rules narrador`, then every line of
/tmp/cs/NARR_SYNTAX.md's script goes through its own `cdbtui do PATH LINE`.  After
each line the state is read back from the save with `cdbtui.store.load(path).fight`
(`fight.narr` for the phase and the order, each combatant's `NarrSheet`), because
`cdbtui show --json` does not carry SYSTEMS.md §3.4's fields yet.  The module fixture
plays the script once and keeps, per row, the exit, stderr, the save's bytes before
and after, the fight and the log lines that row added; each test checks one row of
§15's tables.

Pools: `Declared.pool` is the base pool (traits + Precisión) and `Declared.penalty`
the slot's multiple-action penalty (SYSTEMS.md §3.5); the dice actually rolled are
read from the log line the roll wrote ("N dados").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest
from shell import cdbtui

from cdbtui import store
from _narr_now import current_sheet

SETUP = (
    "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4",
    "arma Kara revolver-ligero",
    "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2",
    "arma Víctor rifle-de-asalto",
    "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3",
    "arma Matón pistola-ligera",
    "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2",
)

#: (key, line).  Numbered keys are §15's action rows; "a"/"b" are the lines of a row
#: that takes more than one (the attack, then its defense or damage).
SCRIPT = (
    ("i1k", "iniciativa Kara 13"),
    ("i1m", "iniciativa Matón 13"),
    ("i1v", "iniciativa Víctor 10"),
    ("i1c", "iniciativa Cadáver 8"),
    ("go1", "siguiente"),
    ("d1c", "declara cadaver golpe"),
    ("d1v", "declara victor fuego-automatico"),
    ("d1m", "declara maton disparos-multiples 2"),
    ("d1k", "declara kara disparo esquiva"),
    ("1", "kara actua a maton exitos=2"),
    ("2", "maton aborta tira exitos=0 esquiva"),
    ("3", "dano maton 3 letal"),
    ("4a", "maton actua a kara exitos=1"),
    ("4", "kara defiende esquiva exitos=2"),
    ("5a", "maton actua a kara exitos=1"),
    ("5", "kara defiende esquiva exitos=1"),
    ("6a", "victor actua a cadaver exitos=6"),
    ("6", "dano cadaver 6 letal"),
    ("i2m", "iniciativa Matón 13"),
    ("i2k", "iniciativa Kara 11"),
    ("i2v", "iniciativa Víctor 8"),
    ("i2c", "iniciativa Cadáver 4"),
    ("go2", "siguiente"),
    ("d2c", "declara cadaver placaje"),
    ("d2v", "declara victor recarga"),
    ("d2k", "declara kara defensa-total esquiva"),
    ("d2m", "declara maton patada"),
    ("8", "maton actua a kara exitos=2"),
    ("9", "kara aborta gasta esquiva exitos=3"),
    ("11", "victor actua"),
    ("12a", "cadaver actua a victor exitos=1"),
    ("12", "dano victor 2 contundente"),
    ("13a", "estado cadaver +derribado"),
    ("13b", "estado victor +desequilibrado"),
)


class Row(NamedTuple):
    line: str
    returncode: int
    stderr: str
    before: bytes
    after: bytes
    fight: object
    #: The log lines this row added.
    logged: list[str]


class Played(NamedTuple):
    rows: dict[str, Row]
    broken: tuple[str, str, str] | None
    path: Path


def load(path: Path):
    return store.load(path).fight


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    """The script, one `cdbtui do` per line, stopping at the first refused line."""
    path = tmp_path_factory.mktemp("deposito") / "deposito.toml"
    made = cdbtui("new", str(path), "--rules", "narrador")
    if made.returncode != 0:
        return Played({}, ("new", "new --rules narrador", made.stderr.strip()), path)
    for line in SETUP:
        result = cdbtui("do", str(path), line)
        if result.returncode != 0:
            return Played({}, ("setup", line, result.stderr.strip()), path)
    fight = load(path)
    rows = {"setup": Row("", 0, "", b"", path.read_bytes(), fight, [])}
    for key, line in SCRIPT:
        before = path.read_bytes()
        count = len(fight.log)
        result = cdbtui("do", str(path), line)
        after = path.read_bytes()
        fight = load(path)
        rows[key] = Row(line, result.returncode, result.stderr, before, after, fight,
                        [e.text for e in fight.log[count:]])
        if result.returncode != 0:
            return Played(rows, (key, line, f"exit {result.returncode}: {result.stderr.strip()}"),
                          path)
    return Played(rows, None, path)


def row(played: Played, key: str) -> Row:
    if key not in played.rows:
        at, line, what = played.broken or ("?", "?", "?")
        pytest.fail(f"row {key} not reached: row {at} «{line}» gave {what}")
    return played.rows[key]


def at(played: Played, key: str):
    return row(played, key).fight


def sh(fight, name: str):
    c = fight.find(name)
    assert c is not None, name
    return current_sheet(fight, name)  # as it stands in this turn


def declared(fight, name: str) -> list[tuple]:
    """(action, base pool, slot penalty, defense) per declared action."""
    return [(d.action, d.pool, d.penalty, d.defense) for d in sh(fight, name).declared]


def ammo(fight, name: str) -> int:
    return sh(fight, name).weapons[0].ammo


def health(fight, name: str) -> tuple[int, int, int]:
    s = sh(fight, name)
    return s.lethal, s.bashing, s.health_penalty


def conds(fight, name: str) -> set[str]:
    return {c.id for c in sh(fight, name).conditions}


def dice_in(lines: list[str], who: str) -> list[int]:
    """The numbers of dice ("N dados") in the log lines that start with `who`."""
    return [int(n) for line in lines if line.startswith(who)
            for n in re.findall(r"(\d+) dados", line)]


# ------------------------------------------------------------------ the script itself


def test_every_line_of_the_script_is_accepted_and_saved(played):
    assert played.broken is None, played.broken
    for key, line in SCRIPT:
        r = played.rows[key]
        assert r.returncode == 0, (key, line, r.stderr)
        assert r.after != r.before, f"row {key} «{line}» saved nothing"


def test_a_new_fight_is_in_turn_1_initiative_phase(played):
    """SYSTEMS.md §3.5: a new fight is in turn 1's initiative phase."""
    fight = at(played, "setup")
    assert fight.rules == "narrador"
    assert (fight.turn, fight.narr.phase) == (1, "initiative")


def test_setup_sheets_ratings_willpower_and_loaded_weapons(played):
    """§15's cast: rating = Des + Ast; FV points = rating; Revolver 6, Rifle 42+1 = 43,
    Glock 17+1 = 18 (§9: a preset loads full, chamber included); the Cadáver has FV 0."""
    fight = at(played, "setup")
    table = {  # name: (rating, fv, points, stamina, strength, supernatural, ammo)
        "Kara": (6, 5, 5, 2, 2, False, 6),
        "Víctor": (6, 4, 4, 2, 3, False, 43),
        "Matón": (5, 3, 3, 3, 3, False, 18),
        "Cadáver": (3, 0, 0, 3, 4, True, None),
    }
    for name, (rating, fv, points, res, fue, sobre, rounds) in table.items():
        s = sh(fight, name)
        assert (s.rating, s.willpower, s.points, s.stamina, s.strength, s.supernatural) == (
            rating, fv, points, res, fue, sobre), name
        assert s.levels == 7, name
        assert (ammo(fight, name) if s.weapons else None) == rounds, name
    rifle = sh(fight, "Víctor").weapons[0]
    assert (rifle.damage, rifle.range, rifle.rate, rifle.magazine, rifle.chamber, rifle.auto) == (
        7, 150, 3, 42, True, True)
    revolver = sh(fight, "Kara").weapons[0]
    assert (revolver.damage, revolver.range, revolver.rate, revolver.magazine) == (4, 12, 3, 6)
    glock = sh(fight, "Matón").weapons[0]
    assert (glock.damage, glock.range, glock.rate, glock.magazine, glock.chamber) == (4, 20, 4, 17, True)


# ------------------------------------------------------------------ turn 1


def test_turn1_initiative_tie_at_13_goes_to_the_higher_rating(played):
    """§5.3: Kara 13 and Matón 13, rating 6 > 5: Kara first.  Order Kara, Matón, Víctor,
    Cadáver; `siguiente` starts the declaration with the lowest (Cadáver)."""
    fight = at(played, "go1")
    assert fight.narr.order == ("Kara", "Matón", "Víctor", "Cadáver")
    assert [sh(fight, n).initiative for n in fight.narr.order] == [13, 13, 10, 8]
    assert (fight.turn, fight.narr.phase, fight.narr.declarer) == (1, "declare", "Cadáver")


def test_turn1_initiative_phase_waits_until_siguiente(played):
    """§3.5: the initiative phase never ends by itself."""
    fight = at(played, "i1c")
    assert fight.narr.phase == "initiative"


def test_turn1_declaration_goes_lowest_first(played):
    """§4.2: Cadáver (8), Víctor (10), Matón (13), Kara (13, acts before Matón, so
    declares after him)."""
    assert at(played, "d1c").narr.declarer == "Víctor"
    assert at(played, "d1v").narr.declarer == "Matón"
    assert at(played, "d1m").narr.declarer == "Kara"
    fight = at(played, "d1k")
    assert (fight.narr.phase, fight.narr.declarer, fight.actor) == ("act", None, "Kara")


def test_turn1_cadaver_declares_golpe_4_dice(played):
    """Golpe: Des 2 + Pelea 2 = 4, one action, no penalty."""
    assert declared(at(played, "d1c"), "Cadáver") == [("golpe", 4, 0, False)]


def test_turn1_victor_declares_automatic_fire_17_dice(played):
    """Fuego automático: Des 4 + Armas de Fuego 3 + Precisión 10 = 17; 43 ≥ 21: allowed."""
    assert declared(at(played, "d1v"), "Víctor") == [("fuego-automatico", 17, 0, False)]


def test_turn1_maton_declares_two_shots_minus_2_and_minus_3(played):
    """§6.2 N = 2: 5 − 2 = 3 and 5 − 3 = 2."""
    got = declared(at(played, "d1m"), "Matón")
    assert [(pool, pen, d) for _, pool, pen, d in got] == [(5, -2, False), (5, -3, False)]
    assert [pool + pen for _, pool, pen, _ in got] == [3, 2]


def test_turn1_kara_declares_shot_minus_2_and_dodge_minus_3(played):
    """§6.2 N = 2: shoot 6 − 2 = 4; Esquiva (Des 3 + Esquivar 4) 7 − 3 = 4 (def.)."""
    assert declared(at(played, "d1k"), "Kara") == [("disparo", 6, -2, False),
                                                    ("esquiva", 7, -3, True)]


def test_row1_kara_shoots_maton_with_4_dice_and_spends_a_round(played):
    r = row(played, "1")
    assert ammo(r.fight, "Kara") == 5
    assert 4 in dice_in(r.logged, "Kara")
    attack = r.fight.narr.attack
    assert (attack.attacker, attack.target, attack.successes, attack.damage) == ("Kara", "Matón", 2, 4)
    assert any("dificultad 6" in line for line in r.logged)  # 8 m: short range
    assert sh(r.fight, "Kara").weapons[0].shots == 1


def test_row2_maton_fails_to_abort_keeps_his_two_shots_and_his_willpower(played):
    """§7.4.4: the roll fails: no defense, the declaration unchanged; FV points still 3."""
    fight = at(played, "2")
    m = sh(fight, "Matón")
    assert m.points == 3 and not m.spent
    assert declared(fight, "Matón") == [("disparos-multiples", 5, -2, False),
                                         ("disparos-multiples", 5, -3, False)]
    assert not any(d.done for d in m.declared)
    assert not m.aborted
    # the attack is still waiting for its damage, undefended
    assert fight.narr.attack is not None and fight.narr.attack.target == "Matón"


def test_row3_three_lethal_put_maton_at_lesionado_minus_1_not_stunned(played):
    """§11: 3 levels → Lesionado −1; 3 > Resistencia 3? no: not Aturdido; damage pool
    shown 4 + (2 − 1) = 5 dice (§7.2)."""
    r = row(played, "3")
    assert health(r.fight, "Matón") == (3, 0, -1)
    assert "aturdido" not in conds(r.fight, "Matón")
    assert r.fight.narr.attack is None
    assert r.fight.actor == "Matón"
    assert any("5 dados" in line for line in row(played, "1").logged)


def test_row4_maton_first_shot_rolls_2_dice_and_kara_dodges_with_4(played):
    """5 − 1 (wounds) − 2 = 2 dice; Kara's declared Esquiva slot 2: 7 − 3 = 4 dice, 2 ≥ 1."""
    shot, dodge = row(played, "4a"), row(played, "4")
    assert dice_in(shot.logged, "Matón")[:1] == [2]
    assert ammo(shot.fight, "Matón") == 17
    assert dice_in(dodge.logged, "Kara")[:1] == [4]
    assert dodge.fight.narr.attack is None
    assert health(dodge.fight, "Kara") == (0, 0, 0)
    assert sh(dodge.fight, "Kara").defenses == 1


def test_row5_second_shot_1_die_and_kara_extra_dodge_slot_3_with_3_dice(played):
    """5 − 1 − 3 = 1 die; §6.4 the chain's slot 3: 7 − (2 + 3 − 1) = 3 dice; 1 ≥ 1: miss.
    Glock 17 → 16, two shots ≤ Cadencia 4."""
    shot, dodge = row(played, "5a"), row(played, "5")
    assert dice_in(shot.logged, "Matón")[:1] == [1]
    assert ammo(shot.fight, "Matón") == 16
    assert sh(shot.fight, "Matón").weapons[0].shots == 2
    assert dice_in(dodge.logged, "Kara")[:1] == [3]
    assert health(dodge.fight, "Kara") == (0, 0, 0)
    assert sh(dodge.fight, "Kara").defenses == 2
    assert dodge.fight.actor == "Víctor"


def test_row6_automatic_fire_17_dice_empties_the_rifle_and_no_abort_for_fv_0(played):
    """17 dice at 8 → 6 successes; damage 7 + 5 = 12 dice; rifle 43 → 0."""
    r = row(played, "6a")
    assert dice_in(r.logged, "Víctor")[:1] == [17]
    assert any("dificultad 8" in line for line in r.logged)
    assert r.fight.narr.attack.damage == 7
    assert any("12 dados" in line for line in r.logged)
    assert ammo(r.fight, "Víctor") == 0
    assert r.fight.narr.attack.successes == 6


def test_row6_the_cadaver_cannot_abort_with_willpower_0(played, tmp_path):
    """§12: a creature with Willpower 0 cannot abort (checked on a copy of the save)."""
    copy = tmp_path / "copia.toml"
    copy.write_bytes(row(played, "6a").after)
    before = copy.read_bytes()
    result = cdbtui("do", str(copy), "cadaver aborta tira exitos=3 esquiva")
    assert result.returncode == 1
    assert result.stderr.endswith("Cadáver no tiene Fuerza de Voluntad: no puede abortar\n")
    assert copy.read_bytes() == before


def test_row6_six_lethal_stun_the_supernatural_cadaver_tullido_minus_5(played):
    """6 > Resistencia 3 + 2 = 5: Aturdido; 6 levels: Tullido −5."""
    r = row(played, "6")
    assert health(r.fight, "Cadáver") == (6, 0, -5)
    assert any("aturdido" in line.lower() for line in r.logged)


def test_row7_the_stunned_cadaver_loses_its_golpe_and_turn_2_starts(played):
    """§10: Aturdido, not acted: its Golpe is lost; the condition ends as its place
    passes; the last place passed: the turn is over (§4; SYSTEMS §3.4 `over`), and the
    next turn's first initiative starts turn 2's initiative phase."""
    r = row(played, "6")
    fight = r.fight
    assert (fight.turn, fight.narr.phase, fight.actor) == (1, "over", None)
    assert "aturdido" not in conds(fight, "Cadáver")
    assert any(line.startswith("Cadáver") and "pierde" in line for line in r.logged)
    assert not any(line.startswith("Cadáver: Golpe") for line in r.logged)
    fight = at(played, "i2m")
    assert (fight.turn, fight.narr.phase) == (2, "initiative")
    assert all(sh(fight, n).initiative is None for n in ("Kara", "Víctor", "Cadáver"))


def test_end_of_turn_1_state(played):
    """Matón −1, Glock 16, FV 3; Kara unhurt, revolver 5, FV 5; rifle 0; Cadáver −5
    (as turn 2 starts: its first initiative)."""
    fight = at(played, "i2m")
    assert (health(fight, "Matón"), ammo(fight, "Matón"), sh(fight, "Matón").points) == ((3, 0, -1), 16, 3)
    assert (health(fight, "Kara"), ammo(fight, "Kara"), sh(fight, "Kara").points) == ((0, 0, 0), 5, 5)
    assert (health(fight, "Víctor"), ammo(fight, "Víctor")) == ((0, 0, 0), 0)
    assert health(fight, "Cadáver") == (6, 0, -5)
    for name in ("Kara", "Víctor", "Matón", "Cadáver"):
        s = sh(fight, name)
        assert (s.declared, s.defenses, s.aborted, s.spent) == ((), 0, False, False), name
        assert all(w.shots == 0 for w in s.weapons), name


# ------------------------------------------------------------------ turn 2


def test_turn2_order_matón_kara_victor_cadaver(played):
    fight = at(played, "go2")
    assert fight.narr.order == ("Matón", "Kara", "Víctor", "Cadáver")
    assert [sh(fight, n).initiative for n in fight.narr.order] == [13, 11, 8, 4]
    assert (fight.turn, fight.narr.phase, fight.narr.declarer) == (2, "declare", "Cadáver")


def test_turn2_cadaver_declares_placaje_6_minus_5_wounds_is_1_die(played):
    """Placaje Fuerza 4 + Pelea 2 = 6 (the summary table's traits, §8.1); − 5 → 1 die."""
    fight = at(played, "d2c")
    assert declared(fight, "Cadáver") == [("placaje", 6, 0, False)]
    assert 6 + sh(fight, "Cadáver").health_penalty == 1


def test_turn2_victor_declares_recarga_as_the_whole_turn(played):
    fight = at(played, "d2v")
    assert [d.action for d in sh(fight, "Víctor").declared] == ["recarga"]


def test_turn2_kara_declares_total_defense_dodge_7(played):
    fight = at(played, "d2k")
    k = sh(fight, "Kara")
    assert k.full_defense
    assert [(d.action, d.pool, d.defense) for d in k.declared] == [("esquiva", 7, True)]


def test_turn2_maton_declares_patada_6_minus_1_is_5(played):
    """Patada Des 3 + Pelea 3 = 6 − 1 (wounds) = 5 dice, dif 7; the action phase starts."""
    fight = at(played, "d2m")
    assert declared(fight, "Matón") == [("patada", 6, 0, False)]
    assert (fight.narr.phase, fight.actor) == ("act", "Matón")


def test_row8_patada_5_dice_before_kara_place_her_total_defense_does_not_cover_it(played):
    """§7.6: the kick comes before Kara's place (11): `defiende` is refused."""
    r = row(played, "8")
    assert dice_in(r.logged, "Matón")[:1] == [5]
    assert any("dificultad 7" in line for line in r.logged)
    assert r.fight.narr.attack.damage == 4  # Fuerza 3 + 1
    attack = r.fight.narr.attack
    assert (attack.target, attack.successes, attack.ranged, attack.lethal) == ("Kara", 2, False, False)
    copy = played.path.with_name("copia8.toml")
    copy.write_bytes(r.after)
    result = cdbtui("do", str(copy), "kara defiende esquiva exitos=3")
    assert result.returncode == 1
    assert result.stderr.endswith("La defensa de Kara empieza en su momento (11); antes, solo abortando "
                                  "(tirada o punto de FV)\n")
    assert copy.read_bytes() == r.after


def test_row9_kara_aborts_with_a_point_dodges_with_7_and_the_kick_misses(played):
    """§7.4.2: the point is an automatic abort, the defense is still rolled: Esquiva 7
    dice (one declared action: no penalty), 3 ≥ 2: miss.  FV 5 → 4, her one point."""
    r = row(played, "9")
    k = sh(r.fight, "Kara")
    assert (k.willpower, k.points, k.spent, k.aborted) == (5, 4, True, True)
    assert dice_in(r.logged, "Kara")[-1:] == [7]
    assert health(r.fight, "Kara") == (0, 0, 0)
    assert r.fight.narr.attack is None


def test_row9_kara_gave_up_her_total_defense(played, tmp_path):
    """§7.4.5: a total defense aborted is gone: no more defenses this turn, and no
    second point this turn (§12)."""
    k = sh(at(played, "9"), "Kara")
    assert not k.full_defense
    copy = tmp_path / "copia9.toml"
    copy.write_bytes(row(played, "11").after)  # the Cadáver's place: it turns on Kara instead
    result = cdbtui("do", str(copy), "cadaver actua a kara exitos=1")
    assert result.returncode == 0, result.stderr
    before = copy.read_bytes()
    result = cdbtui("do", str(copy), "kara defiende esquiva exitos=3")
    assert result.returncode == 1
    assert result.stderr.endswith("Kara ya abandonó su acción para defenderse: no puede defenderse de más "
                                  "ataques este turno\n")
    result = cdbtui("do", str(copy), "kara aborta gasta esquiva exitos=3")
    assert result.returncode == 1
    assert copy.read_bytes() == before


def test_row10_kara_has_nothing_left_and_victor_acts(played):
    fight = at(played, "9")
    assert sh(fight, "Kara").status == "acted"
    assert fight.actor == "Víctor"


def test_row11_reload_from_empty_gives_42_not_43(played):
    """§9: the magazine was empty: 42, the +1 only with a round left in the chamber."""
    fight = at(played, "11")
    assert ammo(fight, "Víctor") == 42
    assert fight.actor == "Cadáver"


def test_row12_placaje_1_die_hits_victor_who_has_acted_and_declared_no_defense(played, tmp_path):
    """1 die at 7 → 1 success; Víctor has acted: no abort; no declared defense: hit."""
    r = row(played, "12a")
    assert dice_in(r.logged, "Cadáver")[:1] == [1]
    assert any("dificultad 7" in line for line in r.logged)
    assert r.fight.narr.attack.damage == 5  # Fuerza 4 + 1
    assert any("5 dados" in line for line in r.logged)  # Fuerza 4 + 1 + (1 − 1)
    copy = tmp_path / "copia12.toml"
    copy.write_bytes(r.after)
    result = cdbtui("do", str(copy), "victor aborta gasta esquiva exitos=3")
    assert result.returncode == 1
    assert result.stderr.endswith("Víctor ya ha actuado este turno: no puede abortar para defenderse\n")
    result = cdbtui("do", str(copy), "victor defiende esquiva exitos=3")
    assert result.returncode == 1
    assert result.stderr.endswith("Víctor no declaró ninguna defensa: tras actuar no puede defenderse\n")
    assert copy.read_bytes() == r.after


def test_row12_two_bashing_put_victor_at_lastimado_minus_1_not_stunned(played):
    """2 > Resistencia 2? no; Magullado, Lastimado → −1; the last place: turn 2 is over."""
    r = row(played, "12")
    assert health(r.fight, "Víctor") == (0, 2, -1)
    assert "aturdido" not in conds(r.fight, "Víctor")
    assert (r.fight.turn, r.fight.narr.phase) == (2, "over")


def test_row13_cadaver_on_the_ground_minus_2_initiative_next_turn(played):
    fight = at(played, "13a")
    s = sh(fight, "Cadáver")
    assert "derribado" in conds(fight, "Cadáver")
    assert s.ini_penalty == 2


def test_row13_victor_desequilibrado_for_turn_3(played):
    fight = at(played, "13b")
    assert "desequilibrado" in conds(fight, "Víctor")


def test_state_for_turn_3(played, tmp_path):
    """§15's closing line: Matón −1 (3 letal), FV 3, Glock 16; Kara unhurt, FV 4 / 5,
    revolver 5; Víctor −1 (2 contundente), desequilibrado, rifle 42; Cadáver Tullido −5,
    on the ground, −2 initiative in turn 3 (after «turno», SYSTEMS §3.5)."""
    assert (at(played, "13b").turn, at(played, "13b").narr.phase) == (2, "over")
    copy = tmp_path / "turno3.toml"
    copy.write_bytes(row(played, "13b").after)
    result = cdbtui("do", str(copy), "turno")
    assert result.returncode == 0, result.stderr
    fight = load(copy)
    assert (fight.turn, fight.narr.phase) == (3, "initiative")
    assert (health(fight, "Matón"), sh(fight, "Matón").points, ammo(fight, "Matón")) == ((3, 0, -1), 3, 16)
    k = sh(fight, "Kara")
    assert (health(fight, "Kara"), k.willpower, k.points, ammo(fight, "Kara")) == ((0, 0, 0), 5, 4, 5)
    assert not k.spent  # the one-point-per-turn limit reset at the turn's end (§13)
    assert (health(fight, "Víctor"), ammo(fight, "Víctor")) == ((0, 2, -1), 42)
    assert conds(fight, "Víctor") == {"desequilibrado"}
    assert health(fight, "Cadáver") == (6, 0, -5)
    assert conds(fight, "Cadáver") == {"derribado"}


def test_turn3_cadaver_rolls_1d10_plus_3_minus_5_minus_2(played, tmp_path):
    """§5.1/§5.2: `tirar` applies the health penalty and Derribado's −2 (then gone)."""
    copy = tmp_path / "copia13.toml"
    copy.write_bytes(row(played, "13b").after)
    result = cdbtui("do", str(copy), "tirar Cadáver")
    assert result.returncode == 0, result.stderr
    fight = load(copy)
    s = sh(fight, "Cadáver")
    assert 1 + 3 - 5 - 2 <= s.initiative <= 10 + 3 - 5 - 2
    assert s.ini_penalty == 0
    line = [e.text for e in fight.log if e.text.startswith("Iniciativa de Cadáver")][-1]
    die = int(re.search(r"(\d+) \+ 3", line).group(1))
    assert s.initiative == die + 3 - 5 - 2


def test_turn3_victor_desequilibrado_ends_with_turn_3(played, tmp_path):
    """§10: +1 difficulty the next turn (turn 3), then gone (§13)."""
    copy = tmp_path / "copia13b.toml"
    copy.write_bytes(row(played, "13b").after)
    lines = ["iniciativa Matón 9", "iniciativa Kara 8", "iniciativa Víctor 7", "iniciativa Cadáver 1",
             "siguiente", "turno"]
    result = cdbtui("do", str(copy), *lines)
    assert result.returncode == 0, result.stderr
    fight = load(copy)
    assert fight.turn == 4
    assert "desequilibrado" not in conds(fight, "Víctor")
