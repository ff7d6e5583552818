"""CSYSTEM.md §4.1 (the turn's structure) and §10 (per-turn effects, in order):
the turn end starts the next turn by itself, `turno`, `siguiente`, `fin`, and the
prompts that block a go (pain and CON rolls; not the critical table)."""

from __future__ import annotations

import pytest

from cdbtui.engine.csystem import budget, rules
from cdbtui.engine.csystem.common import get, sheet
from cdbtui.engine.csystem.defense import defense
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session


def started(*lines: str) -> Session:
    s = Session.new("T", "csystem")
    for line in lines:
        s.execute(line)
    s.execute("empezar")
    return s


def trio() -> Session:
    return started("alta A nh=1 des=5 ale=3 per=8 con=5",
                   "alta B nh=1 des=3 ale=2 per=4 con=7",
                   "alta C nh=1 des=2 ale=1 per=4 con=7",
                   "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")


def sh(s: Session, name: str):
    return sheet(get(s.fight, name))  # as it stands in this turn


def refused(s: Session, line: str, text: str | None = None) -> str:
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute(line)
    assert s.fight is before
    if text is not None:
        assert str(caught.value) == text
    return str(caught.value)


def texts(s: Session, since: int = 0) -> list[str]:
    return [e.text for e in s.fight.log[since:]]


# ---- §4.1 structure ----------------------------------------------------------------

def test_empezar_starts_turn_1_with_the_first_in_the_order():
    s = trio()
    assert s.fight.turn == 1
    assert s.fight.actor == "A"
    assert s.fight.cs.order == ("A", "B", "C")


def test_a_turn_is_one_pass_through_the_order():
    s = trio()
    s.execute("a fin")
    assert s.fight.actor == "B"
    s.execute("b fin")
    assert s.fight.actor == "C"


def test_when_the_last_go_of_the_turn_ends_the_next_turn_starts_by_itself():
    s = trio()
    for name in "abc":
        s.execute(f"{name} fin")
    assert s.fight.turn == 2
    assert s.fight.actor == "A"
    assert sh(s, "A").begun
    assert not sh(s, "B").acted and not sh(s, "C").acted


def test_the_first_go_of_the_next_turn_gets_its_start_of_go_effects_at_once():
    s = trio()
    s.execute("estado A +sangrando:2")
    for name in "abc":
        s.execute(f"{name} fin")
    assert s.fight.turn == 2 and s.fight.actor == "A"
    assert sh(s, "A").vitality == sh(s, "A").vitality_max - 2


def test_turno_ends_the_turn_early_and_those_who_have_not_had_their_go_lose_it():
    s = trio()
    s.execute("a fin")
    s.execute("turno")
    assert s.fight.turn == 2
    assert s.fight.actor == "A"
    assert sh(s, "C").goes == 0


def test_turno_starts_the_next_turn_the_same_way_with_start_of_go_effects():
    s = trio()
    s.execute("estado A +sangrando:1")
    s.execute("turno")
    assert s.fight.turn == 2 and s.fight.actor == "A"
    assert sh(s, "A").vitality == sh(s, "A").vitality_max - 1


def test_fin_ends_the_go_and_remaining_actions_are_lost():
    s = trio()
    s.execute("a simple")
    s.execute("a fin")
    assert sh(s, "A").acted
    assert s.fight.actor == "B"
    refused(s, "a compleja")


def test_siguiente_ends_the_current_go():
    s = trio()
    s.execute("siguiente")
    assert sh(s, "A").acted
    assert s.fight.actor == "B"


def test_nothing_carries_over_to_the_next_turn():
    s = trio()
    s.execute("a fin")  # A did nothing this turn
    s.execute("turno")
    assert s.fight.actor == "A"
    assert budget.left_text(budget.left(sh(s, "A"))) == "■□ o □□"


def test_acting_out_of_turn_is_refused():
    s = trio()
    refused(s, "b simple", "No es el turno de B: actúa A")


def test_combatants_who_cannot_act_still_get_their_go_and_it_ends_at_once_logging_why():
    s = trio()
    s.execute("estado B +aterrado")
    n = len(s.fight.log)
    s.execute("a fin")
    assert s.fight.actor == "C"
    assert sh(s, "B").goes == 1
    assert any("B" in t for t in texts(s, n))


def test_start_of_go_effects_happen_once_per_go_a_lowered_combatant_does_not_get_them_again():
    s = trio()
    s.execute("estado A +sangrando:2")
    s.execute("turno")  # A's go in turn 2: bleeds 2
    assert sh(s, "A").vitality == 18
    s.execute("a retrasa tras c")
    s.execute("b fin")
    s.execute("c fin")
    assert s.fight.actor == "A"
    assert sh(s, "A").vitality == 18


# ---- §10 start of a go, in order -------------------------------------------------

def test_cargar_defensa_minus_2_ends_at_the_start_of_its_next_turno_propio():
    s = started("alta A nh=1 des=5 ale=3 per=8 con=5", "arma A puños dano=1d6",
                "alta B nh=1 des=3 ale=2 per=4 con=7",
                "iniciativa A 20", "iniciativa B 10")
    base = defense(sh(s, "A")).melee
    s.execute("a cargar a b")
    assert defense(sh(s, "A")).melee == base - 2
    assert s.fight.actor == "A"
    s.execute("a fin")
    assert defense(sh(s, "A")).melee == base - 2  # still during B's go
    s.execute("b fin")
    assert s.fight.actor == "A"
    assert defense(sh(s, "A")).melee == base


def test_esquivar_bonus_ends_at_the_start_of_its_next_turno_propio():
    s = started("alta A nh=1 des=5 ale=3 per=8 con=5",
                "alta B nh=1 des=3 ale=2 per=4 con=7",
                "iniciativa A 20", "iniciativa B 10")
    base = defense(sh(s, "A")).ranged
    s.execute("a esquivar 5")
    assert defense(sh(s, "A")).ranged == base + 5
    s.execute("b fin")
    assert defense(sh(s, "A")).ranged == base


def test_desprevenido_from_surprise_ends_at_the_start_of_its_first_go():
    s = Session.new("T", "csystem")
    for line in ("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=3 ale=2 con=5",
                 "iniciativa A 20", "iniciativa B 10", "sorpresa B", "empezar"):
        s.execute(line)
    assert sh(s, "B").has("desprevenido")
    s.execute("a fin")
    assert s.fight.actor == "B"
    assert not sh(s, "B").has("desprevenido")


def test_sangrando_deals_n_damage_at_the_start_of_its_go():
    s = trio()
    s.execute("estado B +sangrando:3")
    s.execute("a fin")
    assert sh(s, "B").vitality == 28 - 3


def test_sangrando_does_not_stack_the_largest_n_is_kept():
    s = trio()
    s.execute("estado B +sangrando:1")
    s.execute("estado B +sangrando:3")
    try:  # a smaller one may be refused or ignored: the largest is kept
        s.execute("estado B +sangrando:2")
    except Refusal:
        pass
    s.execute("a fin")
    assert sh(s, "B").vitality == 28 - 3


def test_confuso_gives_a_start_of_turn_reminder():
    s = trio()
    s.execute("estado B +confuso")
    n = len(s.fight.log)
    s.execute("a fin")
    assert any("onfus" in t for t in texts(s, n))


def test_aturdido_loses_the_turn_and_the_condition_ends():
    s = trio()
    s.execute("estado B +aturdido")
    s.execute("a fin")
    assert s.fight.actor == "C"
    assert sh(s, "B").acted
    assert not sh(s, "B").has("aturdido")


def test_presa_grappler_is_reminded_to_spend_a_complex_action_or_release():
    s = started("alta A nh=1 des=5 ale=3 con=5", "arma A puños dano=1d6",
                "alta B nh=1 des=3 ale=2 con=7",
                "iniciativa A 20", "iniciativa B 10")
    s.execute("a presa a b tirada=30")
    assert sh(s, "A").has("apresado") and sh(s, "B").has("apresado")
    s.execute("a fin")
    s.execute("b fin")
    assert s.fight.actor == "A"
    last = texts(s)[-4:]
    assert any("presa" in t.lower() for t in last)


def test_start_of_go_effects_are_logged_in_order_defense_then_bleeding():
    s = started("alta A nh=1 des=5 ale=3 per=8 con=5", "arma A puños dano=1d6",
                "alta B nh=1 des=3 ale=2 per=4 con=7",
                "iniciativa A 20", "iniciativa B 10")
    s.execute("a cargar a b")
    s.execute("estado A +sangrando:1")
    s.execute("estado A +confuso")
    s.execute("a fin")
    n = len(s.fight.log)
    s.execute("b fin")
    got = texts(s, n)
    i_charge = next(i for i, t in enumerate(got) if "argar" in t)
    i_bleed = next(i for i, t in enumerate(got) if "angr" in t)
    i_confuso = next(i for i, t in enumerate(got) if "onfus" in t)
    assert i_charge < i_bleed < i_confuso


def test_durations_counted_in_turns_tick_at_the_end_of_its_turno_propio():
    s = trio()
    s.execute("estado B +deslumbrado turnos=1")
    s.execute("a fin")
    assert sh(s, "B").has("deslumbrado")  # B's go has begun
    s.execute("b fin")
    assert not sh(s, "B").has("deslumbrado")


# ---- prompts --------------------------------------------------------------------

def _pain_pending() -> Session:
    s = started("alta A nh=5 des=5 ale=3 con=5", "arma A puños dano=1d6",
                "alta B nh=1 des=3 ale=2 con=7",
                "alta C nh=1 des=2 ale=1 con=7",
                "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")
    s.execute("a ataca b tirada=40 dano=15")
    return s


def test_a_pain_prompt_blocks_the_go_of_the_one_who_must_roll_until_answered():
    s = _pain_pending()
    b = sh(s, "B")
    assert any(p.roll == "dolor" for p in b.pending)
    s.execute("a fin")
    assert s.fight.actor == "B"
    refused(s, "b simple")
    s.execute("dolor B 40")
    assert not any(p.roll == "dolor" for p in sh(s, "B").pending)
    s.execute("b simple")
    assert sh(s, "B").used == ("simple",)


def test_the_critical_table_prompt_does_not_block_a_go():
    s = _pain_pending()
    s.execute("dolor B 40")
    assert any(p.roll == "critica" for p in sh(s, "B").pending)
    s.execute("a fin")
    assert s.fight.actor == "B"
    s.execute("b simple")
    assert sh(s, "B").used == ("simple",)


def test_a_moribundo_go_waits_for_its_con_roll():
    s = trio()
    s.execute("dano B 30")  # 28 → −2: Moribundo
    assert sh(s, "B").has("moribundo")
    s.execute("a fin")
    assert s.fight.actor == "B"
    assert any(p.roll == "refleja" for p in sh(s, "B").pending)
    s.execute("refleja B 5")
    assert s.fight.actor == "C"


def test_a_new_turn_copies_no_sheet_yet_every_turns_fields_read_reset():
    """§4.1 (no carry-over): each go starts with a fresh budget.  A new turn changes no
    combatant (benchmarks/csystem.py): their turn's fields, from the turn before,
    read as reset (`common.current`) in the engine and in the JSON."""
    from cdbtui.view.csystem import cs_state_json

    s = trio()
    s.execute("a simple")
    s.execute("a fin")
    s.execute("b compleja")
    s.execute("b fin")
    before = s.fight
    s.execute("c fin")  # the last go: turn 2 begins with A's go
    after = s.fight
    assert after.turn == 2 and after.actor == "A"
    assert after.find("B") is before.find("B")  # not copied
    assert after.find("B").sheet.acted and after.find("B").sheet.used == ("complex",)  # as stored
    assert not sh(s, "B").acted and sh(s, "B").used == ()  # as it stands in turn 2
    rows = {c["name"]: c for c in cs_state_json(after)["combatants"]}
    assert (rows["B"]["acted"], rows["B"]["used"], rows["C"]["acted"]) == (False, [], False)


def test_a_save_without_the_turn_stamp_keeps_what_was_done_in_its_turn():
    """A C-System save from before `CsSheet.turn`: its sheets' turn fields belong to
    the turn it was saved in (`rules.stamped`, applied when a save is read)."""
    from attrs import evolve

    s = trio()
    s.execute("a simple")
    s.execute("a fin")
    legacy = s.fight.replace(*(evolve(c, sheet=evolve(c.sheet, turn=None)) for c in s.fight.combatants))
    loaded = rules.stamped(legacy)
    assert {c.sheet.turn for c in loaded.combatants} == {loaded.turn}
    assert loaded.find("A").sheet.acted and loaded.find("A").sheet.used == ("simple",)
