"""The storyteller system's pure view: `cdbtui show --json` (SYSTEMS.md §3.4, to the
letter, plus the computed "dice" and "attack") and the text board (`cdbtui show`,
SYSTEMS.md §3.1), at several steps of the worked example played through the
session with the lines of NARR_SYNTAX.md."""

from __future__ import annotations

import json

from attrs import evolve

from cdbtui.engine.model import Combatant, Note
from cdbtui.engine.narrador.model import NarrSheet, NWeapon
from cdbtui.view import board_text, state_json
from cdbtui.view.narrador import narr_board_text, narr_rows, narr_state_json

try:
    from _narr_fights import each_step, played, step
except ImportError:  # tests/narrador made a package
    from ._narr_fights import each_step, played, step

#: The fields of SYSTEMS.md §3.4, in its order.
TOP = ["rules", "turn", "phase", "order", "actor", "declarer", "combatants"]
COMBATANT = ["name", "initiative", "rating", "status", "declared", "full_defense", "defenses",
             "next_defense_penalty", "aborted", "willpower", "health", "conditions", "aim", "cover",
             "opponents", "weapons"]
DECLARED = ["action", "pool", "penalty", "defense", "done"]
WEAPON = ["name", "ammo", "magazine", "chamber", "shots", "rate"]


def by_name(state: dict, name: str) -> dict:
    return next(c for c in state["combatants"] if c["name"] == name)


def at(line: str):
    """The fight right after `line` of the example."""
    return played(step(line)).fight


def maton_acting():
    """SYSTEMS.md §3.1's sheet: turn 1, Matón's first shot at Kara waits for her defense."""
    return at("maton actua a kara exitos=1")


def test_the_dispatch_sends_narrador_fights_to_their_own_view():
    fight = maton_acting()
    assert state_json(fight) == narr_state_json(fight)
    assert board_text(fight) == narr_board_text(fight)
    assert board_text(fight, log_lines=0) == narr_board_text(fight, log_lines=0)


def test_the_json_has_every_field_of_the_contract_and_the_shared_ones_first():
    state = narr_state_json(maton_acting())
    assert list(state)[:3] == ["schema", "name", "rules"]
    assert set(TOP) <= set(state) and {"schema", "name", "log", "attack"} <= set(state)
    for c in state["combatants"]:
        assert set(COMBATANT) <= set(c), c["name"]
        assert {"side", "hidden", "private", "notes"} <= set(c)
        assert set(c["willpower"]) == {"rating", "points", "spent_this_turn"}
        assert set(c["health"]) == {"levels", "lethal", "bashing", "penalty"}
        for d in c["declared"]:
            assert set(DECLARED) | {"dice"} <= set(d)
        for w in c["weapons"]:
            assert set(WEAPON) <= set(w)
    json.dumps(state)


def test_kara_is_the_example_of_the_contract():
    state = narr_state_json(maton_acting())
    assert (state["rules"], state["turn"], state["phase"]) == ("narrador", 1, "act")
    assert state["order"] == ["Kara", "Matón", "Víctor", "Cadáver"]
    assert state["actor"] == "Matón" and state["declarer"] is None
    kara = {k: v for k, v in by_name(state, "Kara").items() if k in COMBATANT}
    kara["declared"] = [{k: v for k, v in d.items() if k in DECLARED} for d in kara["declared"]]
    kara["weapons"] = [{k: v for k, v in w.items() if k in WEAPON} for w in kara["weapons"]]
    assert kara == {
        "name": "Kara", "initiative": 13, "rating": 6, "status": "acted",
        "declared": [
            {"action": "disparo", "pool": 6, "penalty": -2, "defense": False, "done": True},
            {"action": "esquiva", "pool": 7, "penalty": -3, "defense": True, "done": False},
        ],
        "full_defense": None, "defenses": 0, "next_defense_penalty": -3, "aborted": False,
        "willpower": {"rating": 5, "points": 5, "spent_this_turn": False},
        "health": {"levels": 7, "lethal": 0, "bashing": 0, "penalty": 0},
        "conditions": [], "aim": 0, "cover": 0, "opponents": 1,
        "weapons": [{"name": "revolver-ligero", "ammo": 5, "magazine": 6, "chamber": False, "shots": 1,
                     "rate": 3}],
    }


def test_the_dice_are_live_pool_slot_and_health():
    state = narr_state_json(maton_acting())
    assert [d["dice"] for d in by_name(state, "Kara")["declared"]] == [4, 4]
    maton = by_name(state, "Matón")  # Lesionado −1 after Kara's shot
    assert [(d["action"], d["pool"], d["penalty"], d["dice"], d["done"]) for d in maton["declared"]] == [
        ("disparos-multiples", 5, -2, 2, True), ("disparos-multiples", 5, -3, 1, False)]
    assert maton["health"] == {"levels": 7, "lethal": 3, "bashing": 0, "penalty": -1}
    assert by_name(state, "Víctor")["declared"] == [
        {"action": "fuego-automatico", "pool": 17, "penalty": 0, "defense": False, "done": False, "dice": 17,
         "target": None}]
    glock = by_name(state, "Matón")["weapons"][0]
    assert (glock["name"], glock["ammo"], glock["magazine"], glock["chamber"], glock["shots"], glock["rate"]) \
        == ("pistola-ligera", 17, 17, True, 1, 4)


def test_the_attack_being_resolved_with_the_target_s_options():
    attack = narr_state_json(maton_acting())["attack"]
    assert {k: attack[k] for k in ("attacker", "target", "action", "successes", "damage", "ranged", "lethal",
                                   "defended")} == {
        "attacker": "Matón", "target": "Kara", "action": "disparos-multiples", "successes": 1, "damage": 4,
        "ranged": True, "lethal": True, "defended": None}
    assert attack["options"] == [{"how": "defend", "action": "esquiva", "dice": 4}]  # no block vs a gun
    second = narr_state_json(at("maton actua a kara exitos=1"))
    assert second["attack"]["options"][0]["dice"] == 4
    # the second shot: her declared dodge is used, one more defense rolls 7 − 4 = 3
    fight = played(step("kara defiende esquiva exitos=2") + 1).fight
    state = narr_state_json(fight)
    assert state["attack"]["options"] == [{"how": "defend", "action": "esquiva", "dice": 3}]
    assert by_name(state, "Kara")["defenses"] == 1 and by_name(state, "Kara")["next_defense_penalty"] == -4
    assert narr_state_json(at("dano maton 3 letal"))["attack"] is None


def test_an_attack_on_one_who_cannot_defend_says_why():
    state = narr_state_json(at("victor actua a cadaver exitos=6"))
    assert state["attack"]["options"] == []
    assert "Cadáver" in state["attack"]["no_defense"]
    board = narr_board_text(at("victor actua a cadaver exitos=6"))
    assert "Cadáver no declaró defensa (sin Fuerza de Voluntad)" in board


def test_the_phases_through_turn_1():
    state = narr_state_json(played(0).fight)
    assert (state["turn"], state["phase"], state["order"], state["actor"], state["declarer"]) == \
        (1, "initiative", [], None, None)
    state = narr_state_json(at("iniciativa Víctor 10"))
    assert state["order"] == ["Kara", "Matón", "Víctor"]
    state = narr_state_json(at("siguiente"))
    assert (state["phase"], state["declarer"], state["actor"]) == ("declare", "Cadáver", None)
    assert {c["name"]: c["status"] for c in state["combatants"]} == {
        "Kara": "to_declare", "Víctor": "to_declare", "Matón": "to_declare", "Cadáver": "to_declare"}
    state = narr_state_json(at("declara victor fuego-automatico"))
    assert state["declarer"] == "Matón" and by_name(state, "Víctor")["status"] == "declared"
    state = narr_state_json(at("declara kara disparo esquiva"))
    assert (state["phase"], state["actor"], state["declarer"]) == ("act", "Kara", None)


def test_turn_2_total_defense_and_the_abort_by_a_point():
    state = narr_state_json(at("maton actua a kara exitos=2"))
    kara = by_name(state, "Kara")
    assert kara["full_defense"] == ["esquiva"] and kara["next_defense_penalty"] == 0
    assert kara["declared"][0]["dice"] == 7
    assert state["attack"]["options"][0] == {"how": "abort", "action": "esquiva", "dice": 7}
    state = narr_state_json(at("kara aborta gasta esquiva exitos=3"))
    kara = by_name(state, "Kara")
    assert kara["aborted"] is True and kara["defenses"] == 1
    assert kara["willpower"] == {"rating": 5, "points": 4, "spent_this_turn": True}


def test_the_end_of_the_example():
    session = played()
    # the last in turn 2's order has acted: the turn is over (SYSTEMS §3.4 `over`)
    over = narr_state_json(session.fight)
    assert (over["turn"], over["phase"], over["actor"], over["declarer"]) == (2, "over", None, None)
    assert {c["status"] for c in over["combatants"]} == {"acted"}
    session.execute("turno")
    state = narr_state_json(session.fight)
    assert (state["turn"], state["phase"], state["order"]) == (3, "initiative", [])
    victor = by_name(state, "Víctor")
    assert victor["health"] == {"levels": 7, "lethal": 0, "bashing": 2, "penalty": -1}
    assert [c["id"] for c in victor["conditions"]] == ["desequilibrado"]
    cadaver = by_name(state, "Cadáver")
    assert cadaver["health"]["lethal"] == 6 and cadaver["health"]["penalty"] == -5
    assert [c["id"] for c in cadaver["conditions"]] == ["derribado"]
    assert by_name(state, "Kara")["willpower"]["spent_this_turn"] is False
    assert by_name(state, "Víctor")["weapons"][0]["ammo"] == 42


def test_every_step_gives_a_json_of_the_contract_and_a_board():
    for line, fight in each_step():
        state = narr_state_json(fight)
        json.dumps(state)
        assert set(TOP) <= set(state), line
        assert state["phase"] in ("initiative", "declare", "act", "over"), line
        for c in state["combatants"]:
            assert set(COMBATANT) <= set(c), line
            assert c["status"] in ("to_declare", "declared", "delaying", "acted", "stunned", "out"), line
        if state["actor"] is not None:
            assert state["actor"] in state["order"] and state["phase"] == "act", line
        if state["declarer"] is not None:
            assert state["declarer"] in state["order"] and state["phase"] == "declare", line
        narr_board_text(fight)


# ---------------------------------------------------------------- the text board


def test_the_board_of_systems_3_1():
    lines = narr_board_text(maton_acting(), log_lines=2).splitlines()
    assert lines[0] == "Depósito · Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)"
    table = lines[2:7]
    assert table[0].split() == ["Ini", "Nombre", "Declarado", "FV", "Salud", "Estado"]
    assert table[1].split() == ["13", "Kara", "✓Disparo", "6→4", "·", "Esquiva", "7→4", "(def.)", "●●●●●",
                                "·······", "actuó"]
    assert table[2].startswith("▶13")
    assert table[2].split() == ["▶13", "Matón", "✓Disparo", "5→2", "·", "Disparo", "5→1", "●●●",
                                "XXX····", "−1", "actúa"]
    assert table[3].split() == ["10", "Víctor", "F.", "automático", "17", "●●●●", "·······"]
    assert table[4].split() == ["8", "Cadáver", "Golpe", "4", "—", "·······"]
    start = table[0].index("Nombre")
    assert all(row[start - 1] == " " and row[start] != " " for row in table)
    assert "Tirada: Matón → Kara · Disparos Múltiples 1 de 2" in lines
    assert "Kara puede: Esquiva (declarada, 2.ª de 2) → 4 dados" in lines
    assert any(line.startswith("Armas: ") and "Pistola Ligera Glock 17 17/17+1 · 1/4 este turno" in line
               for line in lines)
    assert lines[-1].startswith("T1 · Matón: Disparos Múltiples a Kara")
    assert lines[-3] == ""


def test_the_headers_of_the_other_phases():
    assert narr_board_text(played(0).fight).splitlines()[0] == "Depósito · Narrador · Turno 1 · Iniciativa"
    head = narr_board_text(at("iniciativa Víctor 10")).splitlines()[0]
    assert head == "Depósito · Narrador · Turno 1 · Iniciativa · falta: Cadáver"
    head = narr_board_text(at("iniciativa Cadáver 8")).splitlines()[0]
    assert head == "Depósito · Narrador · Turno 1 · Iniciativa · «siguiente» empieza la declaración"
    lines = narr_board_text(at("declara cadaver golpe")).splitlines()
    assert lines[0] == "Depósito · Narrador · Turno 1 · Declaración ↑ · Declara: Víctor (10)"
    rows = {row.name: row for row in narr_rows(at("declara cadaver golpe"))}
    assert rows["Kara"].declared == "por declarar" and rows["Matón"].declared == "por declarar"
    assert rows["Víctor"].marked and rows["Víctor"].state == "declara"
    assert rows["Cadáver"].declared == "Golpe 4" and rows["Cadáver"].state == "declaró"


def test_extra_defenses_total_defense_willpower_and_bashing_marks():
    rows = {row.name: row for row in narr_rows(at("kara defiende esquiva exitos=1"))}
    assert rows["Kara"].declared == "✓Disparo 6→4 · ✓Esquiva 7→4 (def.) · +def 2"
    rows = {row.name: row for row in narr_rows(at("declara kara defensa-total esquiva"))}
    assert rows["Kara"].declared == "Defensa total: Esquiva 7·6·5…"
    rows = {row.name: row for row in narr_rows(at("kara aborta gasta esquiva exitos=3"))}
    assert rows["Kara"].willpower == "●●●●◎"
    assert "abortó" in rows["Kara"].state
    rows = {row.name: row for row in narr_rows(played().fight)}
    assert rows["Víctor"].health == "//····· −1"
    assert "desequilibrado (+1 dif)" in rows["Víctor"].state
    assert rows["Cadáver"].health == "XXXXXX· −5" and "derribado (−2 ini)" in rows["Cadáver"].state
    assert rows["Cadáver"].willpower == "—"


def test_every_typed_text_is_shown_literally():
    fight = at("declara kara disparo esquiva")
    evil = "Ninja\x1b[31m\u202e"  # the parser refuses it; a save written by hand may not
    ninja = Combatant(evil, 0, sheet=NarrSheet(rating=3, initiative=3, status="declared",
                                               weapons=(NWeapon("daga\x1b[2J"),)))
    fight = evolve(fight, name="Dep\x07ósito", combatants=(*fight.combatants, ninja),
                   narr=evolve(fight.narr, order=(*fight.narr.order, evil)))
    kara = fight.find("Kara")
    fight = fight.replace(evolve(kara, notes=(Note("ojo\x1b]52;c;x\x07"),)))
    fight = fight.note(f"{evil} entra", about=[evil])
    text = narr_board_text(fight)
    for bad in ("\x1b", "\x07", "\u202e"):
        assert bad not in text
    assert "Ninja\\x1b[31m\\u202e" in text
    assert "Nota: Kara: ojo\\x1b]52;c;x\\x07" in text
    assert "daga\\x1b[2J" in text
