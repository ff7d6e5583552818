"""What players see of a C-System fight (SYSTEMS.md §2.1 "Player view"): hidden PNJ
absent (from the list, the order, whose go it is, the log), a private PNJ's numbers
as "?" (text) or null (JSON); one filter, `players.players_fight`."""

from __future__ import annotations

import json
import re

from attrs import evolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdbtui.engine.csystem.model import CsCondition, CsPart, Prompt, Weapon
from cdbtui.engine.model import Fight, LogKind, Note, Role
from cdbtui.engine.text import fold
from cdbtui.export import export_html, export_markdown
from cdbtui.players import (
    cs_player_lines,
    cs_players_fight,
    cs_players_json,
    player_banner,
    player_headline,
    player_queue,
    player_view,
    players_fight,
)
from cdbtui.view.csystem import cs_rows

try:
    from _cs_fights import combatant, each_step, played, step9, with_pending
except ImportError:  # tests/csystem made a package
    from ._cs_fights import combatant, each_step, played, step9, with_pending

#: The numbers of a private PNJ that players never get.
NUMBERS = ("initiative", "level", "left", "defense", "vitality", "vitality_max", "composure",
           "energy", "criticals", "aim")


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
    texts += cs_player_lines(fight, log_lines=10_000)
    texts.append(json.dumps(cs_players_json(fight), ensure_ascii=False))
    texts.append(export_markdown(fight, for_players=True))
    texts.append(export_html(fight, for_players=True))
    return texts


# ---------------------------------------------------------------- hidden PNJ


def test_players_fight_dispatches_and_is_idempotent():
    fight = with_pending(step9(private=True, hidden=("Doctor Ruina",)))
    seen = players_fight(fight)
    assert seen == cs_players_fight(fight)
    assert players_fight(seen) == seen


def test_a_hidden_pnj_is_absent_from_the_list_the_order_and_the_log():
    fight = step9(hidden=("Doctor Ruina",))
    state = cs_players_json(fight)
    assert [c["name"] for c in state["combatants"]] == ["Centella", "Titán", "Sicario 1"]
    assert state["order"] == ["Sicario 1", "Centella", "Titán"]
    assert by_name(state, "Titán")["place"] == 3
    assert not any("Ruina" in line for line in state["log"])
    assert "T1 · Centella: Apuntar (■) → +2" in state["log"]
    for text in player_texts(fight):
        assert "Ruina" not in text


def test_while_a_hidden_pnj_acts_players_see_the_next_visible_go():
    fight = step9(hidden=("Doctor Ruina",))
    ruina = fight.find("Doctor Ruina")
    centella = fight.find("Centella")
    fight = evolve(fight, actor="Doctor Ruina").replace(
        evolve(ruina, sheet=evolve(ruina.sheet, acted=False, begun=True)),
        evolve(centella, sheet=evolve(centella.sheet, acted=False)))
    seen = players_fight(fight)
    assert seen.actor == "Centella"
    assert player_headline(fight) == "Turno 1 · Actúa: Centella"
    assert cs_players_json(fight)["actor"] == "Centella"
    assert player_queue(fight) == "Orden: Sicario 1 → Centella → Titán"
    banner = player_banner(fight)
    assert banner.actor == "Centella" and banner.on_deck == "luego: Titán"
    # the hidden one acting last: the turn is over for the players
    fight = fight.replace(evolve(fight.find("Centella"), sheet=evolve(centella.sheet, acted=True)),
                          evolve(fight.find("Titán"), sheet=evolve(fight.find("Titán").sheet, acted=True)))
    assert players_fight(fight).actor is None
    assert player_headline(fight) == "Turno 1 · turno terminado"


def test_nothing_players_read_follows_a_hidden_one():
    fight = step9(hidden=("Doctor Ruina",))
    centella = fight.find("Centella")
    sheet = evolve(centella.sheet, after="Doctor Ruina",
                   conditions=(CsCondition("apresado", "Doctor Ruina"),),
                   weapons=(Weapon("lanza de Doctor Ruina"),))
    fight = fight.replace(evolve(centella, sheet=sheet, notes=(Note("vigila a Doctor Ruina"),)))
    c = by_name(cs_players_json(fight), "Centella")
    assert c["after"] is None and c["notes"] == []
    assert c["conditions"] == [{"id": "apresado", "value": None, "ends": None}]
    for text in player_texts(fight):
        assert "Ruina" not in text


# ---------------------------------------------------------------- private PNJ


def test_a_private_pnj_s_numbers_are_null_in_the_json():
    fight = with_pending(step9(private=True))
    state = cs_players_json(fight)
    for name in ("Sicario 1", "Doctor Ruina"):
        c = by_name(state, name)
        assert all(c[key] is None for key in NUMBERS), name
        assert all(w["ammo"] is None and w["magazine"] is None and w["fired"] is None
                   for w in c["weapons"])
        assert all(cond["value"] is None and cond["ends"] is None for cond in c["conditions"])
        assert c["pending"] is None
        # what the table saw stays
        assert c["acted"] is True and c["place"] is not None
    assert by_name(state, "Sicario 1")["conditions"] == [{"id": "tumbado", "value": None, "ends": None}]
    assert by_name(state, "Sicario 1")["used"] == ["complex", "simple"]
    # a PJ's numbers are its player's own
    assert by_name(state, "Centella")["vitality"] == 24
    assert by_name(state, "Titán")["defense"] == {"ranged": 17, "melee": 17}


def test_a_private_pnj_s_numbers_are_question_marks_in_the_text():
    fight = with_pending(step9(private=True))
    rows = {row.name: row for row in cs_rows(players_fight(fight), for_players=True)}
    sicario = rows["Sicario 1"]
    assert (sicario.initiative, sicario.level, sicario.left, sicario.defense, sicario.vitality) == \
        ("?", "?", "?", "?", "?/?")
    assert rows["Centella"].vitality == "24/32"
    text = "\n".join(cs_player_lines(fight))
    assert "3/16" not in text and "43/48" not in text and "22/30" not in text
    assert "Pendiente" not in text  # a private PNJ's prompt would tell its Vitalidad
    assert "Sicario 1 tumbado" in text
    assert cs_player_lines(fight)[0] == "Turno 1 · Actúa: Titán"


def test_the_players_fight_holds_none_of_a_private_pnj_s_numbers():
    fight = with_pending(step9(private=True))
    sheet = players_fight(fight).find("Sicario 1").sheet
    real = fight.find("Sicario 1").sheet
    assert sheet.vitality != real.vitality and sheet.con == 0 and sheet.dex == 0
    assert sheet.initiative is None and sheet.pending == ()
    assert sheet.weapons[0].ammo == 0 and sheet.weapons[0].name == "subfusil"


def test_a_private_pnj_s_log_entries_with_numbers_are_left_out():
    fight = step9(private=True)
    fight = fight.note("Sicario 1: Ráfaga corta (■): 20 vs 19", kind=LogKind.ACTION, about=["Sicario 1"])
    fight = fight.note("Sicario 1 se pone a cubierto", kind=LogKind.ACTION, about=["Sicario 1"])
    log = cs_players_json(fight)["log"]
    assert "T1 · Sicario 1 se pone a cubierto" in log
    assert not any("20 vs 19" in line for line in log)


def test_the_players_view_data_for_csystem():
    view = player_view(step9())
    assert view.headline == "Turno 1 · Actúa: Titán"
    assert view.pcs == ()
    assert view.fight.rules == "csystem"


# ---------------------------------------------------------------- a property

VISIBLE = ("Centella", "Titán", "Ana", "Bea")
HIDDEN = ("Sombra", "Espectro", "Ninja Gris")
CONDITIONS = ("tumbado", "sangrando", "herido", "a-cubierto", "ensordecido", "deslumbrado")


@st.composite
def fights(draw) -> Fight:
    visible = draw(st.lists(st.sampled_from(VISIBLE), min_size=1, max_size=4, unique=True))
    hidden = draw(st.lists(st.sampled_from(HIDDEN), min_size=1, max_size=3, unique=True))
    names = draw(st.permutations(visible + hidden))
    cast = []
    for name in names:
        others = [n for n in names if n != name]
        conditions = tuple(
            CsCondition(cid, draw(st.sampled_from([None, "2", *others])), draw(st.none() | st.integers(0, 5)))
            for cid in draw(st.lists(st.sampled_from(CONDITIONS), max_size=3, unique=True)))
        cast.append(combatant(
            name,
            side="pj" if name in visible and draw(st.booleans()) else "pnj",
            hidden=name in hidden,
            private=draw(st.booleans()),
            level=draw(st.integers(1, 12)), dex=draw(st.integers(0, 8)), con=draw(st.integers(1, 8)),
            vitality_max=40, vitality=draw(st.integers(-12, 40)),
            initiative=draw(st.integers(1, 40)),
            after=draw(st.none() | st.sampled_from(others)) if others else None,
            acted=draw(st.booleans()),
            used=tuple(draw(st.lists(st.sampled_from(["complex", "simple"]), max_size=2))),
            conditions=conditions,
            weapons=(Weapon(draw(st.sampled_from(["pistola", *(f"daga de {o}" for o in others)])),
                            magazine=15, ammo=draw(st.integers(0, 15))),),
            pending=tuple(Prompt(r, nd=draw(st.integers(10, 30)))
                          for r in draw(st.lists(st.sampled_from(["dolor", "critica"]), max_size=2))),
        ))
    fight = Fight(name="Azotea", rules="csystem", turn=draw(st.integers(0, 3)),
                  combatants=tuple(cast), actor=draw(st.none() | st.sampled_from(names)),
                  cs=CsPart(order=tuple(draw(st.permutations(names)))))
    for who in cast:  # notes naming anyone
        if draw(st.booleans()):
            fight = fight.replace(evolve(fight.find(who.name),
                                         notes=(Note(f"vigila a {draw(st.sampled_from(names))}"),)))
    for _ in range(draw(st.integers(0, 8))):
        actor, other = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        kind = draw(st.sampled_from(list(LogKind)))
        if draw(st.booleans()):
            fight = fight.note(f"{actor}: ataca a {other}: 20 vs 18", kind=kind,
                               about=[actor, (other, Role.TARGET)])
        else:
            fight = fight.note(f"{actor} grita «{other}, cuidado»", kind=kind, about=[actor],
                               free=f"{other}, cuidado")
    return fight


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights())
def test_players_never_read_a_hidden_name_nor_a_private_pnj_s_numbers(fight):
    hidden = {c.name for c in fight.combatants if c.hidden}
    for text in player_texts(fight):
        assert names_in(text, hidden) == set(), text
    state = cs_players_json(fight)
    assert {c["name"] for c in state["combatants"]}.isdisjoint(hidden)
    assert set(state["order"]).isdisjoint(hidden)
    assert state["actor"] not in hidden
    for c in state["combatants"]:
        if c["private"] and c["side"] != "pj":
            assert all(c[key] is None for key in NUMBERS)
            assert c["pending"] is None
            assert all(cond["value"] is None for cond in c["conditions"])
            assert all(w["ammo"] is None for w in c["weapons"])
    seen = players_fight(fight)
    assert players_fight(seen) == seen


# ---------------------------------------------------------------- through the engine


def test_the_example_with_a_hidden_ruina_and_a_private_sicario_never_leaks():
    """SYNTAX.md's script with `oculto` on Doctor Ruina and `privado` on Sicario 1:
    after every line, nothing players read names Ruina, and Sicario 1's numbers are
    null / "?" (its Vitalidad 16 → 3 → 2 never shows)."""
    for line, fight in each_step(hidden=("Doctor Ruina",), private=("Sicario 1",)):
        for text in player_texts(fight):
            assert names_in(text, ["Doctor Ruina", "Ruina"]) == set(), (line, text)
            assert not re.search(r"(?<!\d)(3|2|16)/16", text), (line, text)
        state = cs_players_json(fight)
        assert "Doctor Ruina" not in state["order"]
        if fight.find("Sicario 1") is None:
            continue
        sicario = by_name(state, "Sicario 1")
        assert all(sicario[key] is None for key in NUMBERS), line
        assert sicario["pending"] is None


def test_while_the_hidden_ruina_acts_players_see_sicario_s_go():
    fight = played(3, hidden=("Doctor Ruina",)).fight  # Ruina's go, turn 1
    assert fight.actor == "Doctor Ruina"
    assert player_headline(fight) == "Turno 1 · Actúa: Sicario 1"
    fight = played(24, hidden=("Doctor Ruina",)).fight  # turn 3 begins with Ruina
    assert fight.actor == "Doctor Ruina"
    assert players_fight(fight).actor == "Sicario 1"
    lines = cs_player_lines(fight)
    assert lines[0] == "Turno 3 · Actúa: Sicario 1"
    assert any(line.startswith("▶1") and "Sicario 1" in line for line in lines)


def test_the_players_see_their_own_prompts():
    session = played(11)
    session.execute("ruina ataca titan tirada=31 dano=9 tipo=energia")  # the pain roll waits
    lines = cs_player_lines(session.fight)
    assert "Pendiente: Titán · tirada de dolor: CON vs ND 24" in lines
    assert by_name(cs_players_json(session.fight), "Titán")["pending"] == {"roll": "dolor", "nd": 24}


CAST = (
    "alta Centella bando=pj nh=5 des=6 ale=4 per=8 con=5 rd=3",
    "arma Centella pistola modos=sa cargador=15 dano=2d6",
    "alta Titán bando=pj nh=1 des=3 ale=2 per=4 con=7 rd=2",
    "arma Titán puños dano=3d6",
    "alta Sombra nh=3 des=5 ale=3 per=5 con=4 rd=1 oculto",
    "arma Sombra cuchillo dano=1d6",
    "alta Matón nh=2 des=3 ale=2 per=3 con=6 rd=2 privado",
    "arma Matón escopeta modos=simple cargador=2 dano=4d6",
    "tirar",
    "empezar",
)
NAMES = ("centella", "titan", "sombra", "maton")


def lines_for(actor: str, other: str, n: int) -> list[str]:
    """The commands the property draws from, those that re-place someone after
    another included (`estado X +ensordecido`, `iniciativa X N`, `X retrasa tras Y`)."""
    return [
        f"{actor} ataca {other} tirada={10 + n} dano={n}",
        f"{actor} apuntar", f"{actor} mover", f"{actor} esquivar 5", f"{actor} cubrirse simple",
        f'{actor} simple "grita a {other}"', f"{actor} fin", f"{actor} retrasa final",
        f"dano {other} {n}", f"dolor {other} {10 + n}", f"critica {other} corte +sangrando:1",
        f"estado {other} +deslumbrado", f"estado {other} +tumbado", f"cura {other} 2",
        f"nota {actor} vigila a {other}", "siguiente", "turno", "deshacer",
        f"orden {actor} tras {other}", f"orden {actor} antes {other}", f"cambiar {actor} {other}",
        f"{actor} recarga", f"estado {other} -tumbado",
        f"estado {actor} +ensordecido", f"iniciativa {actor} {n}", f"{actor} retrasa tras {other}",
    ]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(0, 20),
                          st.integers(0, 24)), max_size=25))
def test_random_commands_never_show_players_the_hidden_sombra(steps):
    from cdbtui.engine.errors import Refusal
    from cdbtui.engine.session import Session

    session = Session.new("Azotea", "csystem")
    for line in CAST:
        session.execute(line)
    for actor, other, n, pick in steps:
        line = lines_for(actor, other, n)[pick]
        try:
            session.execute(line)
        except Refusal:
            continue
        fight = session.fight
        for text in player_texts(fight):
            assert names_in(text, ["Sombra"]) == set(), (line, text)
        if fight.find("Matón") is not None:  # (a walk of «deshacer» may take the cast back)
            maton = by_name(cs_players_json(fight), "Matón")
            assert all(maton[key] is None for key in NUMBERS), line


def _fight_with_sombra_ahead():
    """CAST with the initiatives typed: Centella 29, Sombra 26, Titán 20, Matón 10;
    Centella's go."""
    from cdbtui.engine.session import Session

    session = Session.new("Azotea", "csystem")
    for line in CAST[:-2]:
        session.execute(line)
    for line in ("iniciativa Centella 29", "iniciativa Sombra 26", "iniciativa Titán 20",
                 "iniciativa Matón 10", "empezar"):
        session.execute(line)
    return session


def test_becoming_ensordecido_behind_a_hidden_one_does_not_name_it():
    session = _fight_with_sombra_ahead()
    session.execute("estado centella +ensordecido")  # 29 → 24: after Sombra (26)
    for text in player_texts(session.fight):
        assert "Sombra" not in text, text


def test_a_gm_initiative_change_behind_a_hidden_one_does_not_name_it():
    session = _fight_with_sombra_ahead()
    session.execute("iniciativa centella 24")
    for text in player_texts(session.fight):
        assert "Sombra" not in text, text


def test_lowering_one_s_place_behind_a_hidden_one_does_not_name_it():
    session = _fight_with_sombra_ahead()
    session.execute("centella retrasa tras sombra")
    for text in player_texts(session.fight):
        assert "Sombra" not in text, text
