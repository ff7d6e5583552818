"""What players see of a storyteller fight: hidden PNJ absent (from the list, the
order, whose go or declaration it is, the attack being resolved, the log), a
private PNJ's numbers as "?" (text) or null (JSON), and a declaration secret until
performed (only the done actions of a declaration reach them); one filter,
`players.players_fight`."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Fight
from cdbtui.engine.session import Session
from cdbtui.engine.text import fold
from cdbtui.export import build_report, export_html, export_markdown
from cdbtui.players import (
    narr_player_lines,
    narr_players_fight,
    narr_players_json,
    pc_rows,
    player_banner,
    player_headline,
    player_queue,
    player_view,
    players_fight,
)
from cdbtui.view.narrador import narr_rows

try:
    from _narr_fights import played, step
except ImportError:  # tests/narrador made a package
    from ._narr_fights import played, step

#: A private PNJ's numbers players never get.
NUMBERS = ("initiative", "rating", "aim")


def by_name(state: dict, name: str) -> dict:
    return next(c for c in state["combatants"] if c["name"] == name)


def names_in(text: str, names) -> set[str]:
    folded = fold(text)
    return {n for n in names if re.search(rf"(?<!\w){re.escape(fold(n))}(?!\w)", folded)}


def player_texts(fight: Fight) -> list[str]:
    """Everything players may be shown of `fight`, as text."""
    view = player_view(fight, log_lines=10_000)
    texts = [view.headline, view.queue, view.banner.turn, view.banner.note, view.banner.actor,
             view.banner.later, view.banner.on_deck]
    texts += [str(e) for e in view.log]
    texts += narr_player_lines(fight, log_lines=10_000)
    texts.append(json.dumps(narr_players_json(fight), ensure_ascii=False))
    texts.append(export_markdown(fight, for_players=True))
    texts.append(export_html(fight, for_players=True))
    return texts


def public_declaration(text: str) -> bool:
    """A Declarado cell players may read: done chips only (✓), a delay, a total
    defense already used, or nothing."""
    if text in ("", "—", "retrasa", "por declarar") or text.startswith("Defensa total"):
        return True
    return all(chip.startswith("✓") for chip in text.split(" · "))


def assert_no_undone_declaration(fight: Fight, line: str = "") -> None:
    state = narr_players_json(fight)
    for c in state["combatants"]:
        assert all(d["done"] for d in c["declared"]), (line, c["name"], c["declared"])
        assert c["full_defense"] is None or c["defenses"] > 0, (line, c["name"])
        assert c["next_defense_penalty"] is None, line
    if state["attack"] is not None:
        assert state["attack"]["options"] is None, line
    for row in narr_rows(narr_players_fight(fight), for_players=True):
        assert public_declaration(row.declared), (line, row)
    for row in build_report(fight, for_players=True).roster:
        assert public_declaration(row.declared), (line, row)


# ---------------------------------------------------------------- the filter


def test_players_fight_dispatches_and_is_idempotent():
    fight = played(step("maton actua a kara exitos=1"), hidden=("Cadáver",), private=("Matón",)).fight
    seen = players_fight(fight)
    assert seen == narr_players_fight(fight)
    assert players_fight(seen) == seen
    assert pc_rows(fight) == ()
    assert player_view(fight).fight.rules == "narrador"


def test_a_hidden_pnj_is_absent_from_the_list_the_order_and_the_log():
    fight = played(step("maton actua a kara exitos=1"), hidden=("Cadáver",)).fight
    state = narr_players_json(fight)
    assert [c["name"] for c in state["combatants"]] == ["Kara", "Víctor", "Matón"]
    assert state["order"] == ["Kara", "Matón", "Víctor"]
    assert "T1 · Le toca a Matón (13)" in state["log"]
    for text in player_texts(fight):
        assert names_in(text, ["Cadáver"]) == set(), text


def test_while_a_hidden_pnj_acts_players_see_the_next_visible_go():
    fight = played(step("maton actua a kara exitos=1"), hidden=("Matón",)).fight
    assert fight.actor == "Matón" and fight.narr.attack is not None
    state = narr_players_json(fight)
    assert state["actor"] == "Víctor" and state["attack"] is None
    assert player_headline(fight) == "Turno 1 · Acción ↓ · Actúa: Víctor (10)"
    assert player_queue(fight) == "Orden: Kara → Víctor → Cadáver"
    banner = player_banner(fight)
    assert (banner.turn, banner.note, banner.actor) == ("Turno 1", "Acción ↓", "Víctor")
    for text in player_texts(fight):
        assert names_in(text, ["Matón"]) == set(), text


def test_while_a_hidden_pnj_declares_players_see_the_next_declarer():
    fight = played(step("siguiente"), hidden=("Cadáver",)).fight
    assert fight.narr.declarer == "Cadáver"
    assert narr_players_json(fight)["declarer"] == "Víctor"
    assert narr_player_lines(fight)[0] == "Turno 1 · Declaración ↑ · Declara: Víctor (10)"


def test_a_private_pnj_s_numbers_are_null_in_the_json_and_question_marks_in_the_text():
    fight = played(step("maton actua a kara exitos=1"), private=("Matón",)).fight
    maton = by_name(narr_players_json(fight), "Matón")
    assert all(maton[key] is None for key in NUMBERS)
    assert set(maton["willpower"].values()) == {None} and set(maton["health"].values()) == {None}
    assert [(d["action"], d["pool"], d["penalty"], d["dice"], d["done"]) for d in maton["declared"]] == [
        ("disparos-multiples", None, None, None, True)]
    assert all(w["ammo"] is None and w["shots"] is None for w in maton["weapons"])
    assert maton["status"] == "declared"
    rows = {row.name: row for row in narr_rows(narr_players_fight(fight), for_players=True)}
    assert (rows["Matón"].initiative, rows["Matón"].willpower, rows["Matón"].health) == ("?", "?", "?")
    assert rows["Matón"].declared == "✓Disparo ?"
    assert rows["Kara"].health == "·······" and rows["Kara"].initiative == "13"  # a PJ's are its own
    text = "\n".join(narr_player_lines(fight))
    assert "XXX" not in text and "17/17" not in text
    attack = narr_players_json(fight)["attack"]
    assert attack["attacker"] == "Matón" and attack["successes"] is None and attack["damage"] is None


def test_the_players_fight_holds_none_of_a_private_pnj_s_numbers():
    fight = played(step("maton actua a kara exitos=1"), private=("Matón",)).fight
    sheet = players_fight(fight).find("Matón").sheet
    assert (sheet.lethal, sheet.willpower, sheet.points, sheet.rating, sheet.initiative) == (0, 0, 0, 0, None)
    assert sheet.weapons[0].ammo == 0 and sheet.declared[0].pool is None


# ---------------------------------------------------------------- declarations are secret until done


def test_during_the_declaration_players_see_who_declared_but_not_what():
    fight = played(step("declara maton disparos-multiples 2")).fight
    rows = {row.name: row for row in narr_rows(narr_players_fight(fight), for_players=True)}
    assert rows["Matón"].declared == "" and rows["Matón"].state == "declaró"
    assert rows["Kara"].declared == "por declarar" and rows["Kara"].marked
    assert {c["name"]: c["declared"] for c in narr_players_json(fight)["combatants"]} == {
        "Kara": [], "Víctor": [], "Matón": [], "Cadáver": []}
    assert_no_undone_declaration(fight)


def test_a_declared_action_shows_once_performed():
    fight = played(step("declara kara disparo esquiva")).fight
    assert by_name(narr_players_json(fight), "Kara")["declared"] == []
    fight = played(step("kara actua a maton exitos=2")).fight
    assert [d["action"] for d in by_name(narr_players_json(fight), "Kara")["declared"]] == ["disparo"]
    fight = played(step("kara defiende esquiva exitos=2")).fight
    assert [d["action"] for d in by_name(narr_players_json(fight), "Kara")["declared"]] == ["disparo", "esquiva"]
    rows = {row.name: row for row in narr_rows(narr_players_fight(fight), for_players=True)}
    assert rows["Kara"].declared == "✓Disparo 6→4 · ✓Esquiva 7→4 (def.)"
    assert rows["Matón"].declared == "✓Disparo 5→2"  # its second shot is still to come
    assert_no_undone_declaration(fight)


def test_a_total_defense_shows_once_used():
    fight = played(step("declara kara defensa-total esquiva")).fight
    kara = by_name(narr_players_json(fight), "Kara")
    assert kara["full_defense"] is None and kara["declared"] == []
    fight = played(step("kara aborta gasta esquiva exitos=3")).fight
    kara = by_name(narr_players_json(fight), "Kara")
    assert kara["aborted"] is True and [d["done"] for d in kara["declared"]] == [True]
    assert kara["willpower"]["spent_this_turn"] is True


def test_a_delay_shows_once_its_place_has_passed():
    session = played(step("siguiente"))
    for line in ("declara cadaver golpe", "declara victor retrasa", "declara maton disparo",
                 "declara kara disparo"):
        session.execute(line)
    assert session.fight.find("Víctor").sheet.status == "delaying"
    assert by_name(narr_players_json(session.fight), "Víctor")["status"] == "declared"
    session.execute("kara actua a maton exitos=0")
    assert by_name(narr_players_json(session.fight), "Víctor")["status"] == "declared"
    session.execute("maton actua a kara exitos=0")
    assert session.fight.actor == "Cadáver"
    assert by_name(narr_players_json(session.fight), "Víctor")["status"] == "delaying"
    rows = {row.name: row for row in narr_rows(narr_players_fight(session.fight), for_players=True)}
    assert rows["Víctor"].declared == "retrasa"


def test_the_whole_example_never_shows_an_undone_declaration():
    for count in range(1, step("estado victor +desequilibrado") + 1):
        session = played(count, hidden=("Cadáver",), private=("Matón",))
        assert_no_undone_declaration(session.fight, str(count))
        for text in player_texts(session.fight):
            assert names_in(text, ["Cadáver"]) == set(), (count, text)


# ---------------------------------------------------------------- a property

CAST = (
    "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4",
    "arma Kara revolver-ligero",
    "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2,pelea:2",
    "arma Víctor cuchillo",
    "alta Sombra des=3 ast=3 fue=2 res=2 fv=3 rasgos=pelea:3,esquivar:2 oculto",
    "arma Sombra cuchillo",
    "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3 privado",
    "arma Matón pistola-ligera",
)
NAMES = ("kara", "victor", "sombra", "maton")
#: "@": whoever declares or acts now (as actor), the target of the attack (as target).
NOW = "@"


def resolve(fight: Fight, a: str, b: str) -> tuple[str, str]:
    """The names of a step, "@" read from the fight (so that the walk gets past the
    declaration and into attacks and defenses)."""
    part = fight.narr
    if a == NOW:
        a = fold((part.declarer if part is not None else None) or fight.actor or "kara")
    if b == NOW:
        b = fold(part.attack.target) if part is not None and part.attack is not None else "kara"
    return a, b


def lines_for(fight: Fight, a: str, b: str, n: int) -> list[str]:
    """The commands a step draws from: those of the fight's phase (so that the walk
    gets through whole turns), then those that work at any time."""
    phase = fight.narr.phase if fight.narr is not None else "initiative"
    by_phase = {
        "initiative": [f"iniciativa {a} {n}", "tirar", "tirar", "siguiente", "siguiente"],
        "declare": [
            f"declara {a} disparo", f"declara {a} golpe esquiva", f"declara {a} disparos-multiples 2",
            f"declara {a} defensa-total esquiva", f"declara {a} retrasa", f"declara {a} recarga",
            f"declara {a} golpe:4 bloqueo:5", f"declara {a} patada esquiva esquiva", "siguiente"],
        "act": [
            f"{a} actua a {b} exitos={n % 4}", f"{a} actua", f"{a} actua golpe a {b}", f"{a} actua a {b}",
            f"{b} defiende esquiva exitos={n % 3}", f"{b} defiende bloqueo exitos=1",
            f"{b} aborta tira exitos={n % 2} esquiva", f"{b} aborta gasta esquiva exitos=1",
            f"dano {b} {n % 4 + 1} letal", f"dano {b} {n % 3 + 1} contundente", f"{a} fin", f"{a} retrasa",
            f"{a} actua golpe a {b} exitos={n % 3}", "siguiente"],
    }.get(phase, [])
    return by_phase * 3 + [
        "turno", "deshacer", f"estado {b} +derribado", f"estado {b} +aturdido", f"fv {a} -1",
        f"cobertura {b} 2", f"nota {a} vigila a {b}", f"presa {a} {b}", f"suelta {a}", f"oponentes {b} 3",
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from((*NAMES, NOW, NOW)), st.sampled_from((*NAMES, NOW, NOW)),
                          st.integers(0, 15), st.integers(0, 40)), max_size=40))
def test_random_commands_never_show_players_the_hidden_sombra_nor_an_undone_declaration(steps):
    session = Session.new("Depósito", "narrador")
    for line in CAST:
        session.execute(line)
    for a, b, n, pick in steps:
        choices = lines_for(session.fight, *resolve(session.fight, a, b), n)
        line = choices[pick % len(choices)]
        try:
            session.execute(line)
        except Refusal:
            continue
        fight = session.fight
        for text in player_texts(fight):
            assert names_in(text, ["Sombra"]) == set(), (line, text)
        assert_no_undone_declaration(fight, line)
        state = narr_players_json(fight)
        if fight.find("Matón") is not None:  # (a walk of «deshacer» may take the cast back)
            maton = by_name(state, "Matón")
            assert all(maton[key] is None for key in NUMBERS), line
            assert set(maton["health"].values()) == {None}, line
            assert all(d["pool"] is None for d in maton["declared"]), line
        assert state["actor"] in (None, *state["order"]), line
        seen = players_fight(fight)
        assert players_fight(seen) == seen, line
