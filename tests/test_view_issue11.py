"""Issue 11 in the pure view and the players' filter: the reaction window in the JSON
and the DJ's header, notes and durations in the JSON, the panel and the text board,
hidden columns marked on the DJ's sheet, and what players may read of notes and of a
revealed or hidden combatant (RULES.md §3, §5).

States are built both by the engine's commands and, where a test needs a field the
commands set, by hand (`attrs.evolve`), so that the view is tested on the model alone.
"""

from __future__ import annotations

import json

from attrs import evolve
from fights import EXAMPLE_TURN_1, demo_lines, play

from shell import cdbtui

from cdbtui.engine.model import Expiry, LogKind, Note, Role
from cdbtui.export import build_report, export_html, export_markdown
from cdbtui.players import player_log, player_view, players_fight, shown_to_players
from cdbtui.view import (
    HIDDEN_MARK,
    board_text,
    build_sheet,
    panel_rows,
    panel_title,
    sheet_lines,
    state_json,
    status_line,
)

#: The seeds' table up to Soldado 1's cover at 7 (RULES.md §7): the countdown is at 5.
MID_TURN = (*demo_lines(), *EXAMPLE_TURN_1[:2])


def _with(fight, name: str, **changes):
    """`fight` with one combatant changed by hand."""
    return fight.replace(evolve(fight.find(name), **changes))


def _rows(fight, name: str) -> list[tuple[str, str]]:
    return [(row.label, row.value) for row in panel_rows(fight.find(name), fight)]


# ---------------------------------------------------------------- the reaction window


def test_the_json_gives_the_open_window_and_null_when_closed():
    s = play(*MID_TURN)
    assert (s.fight.window.moment, s.fight.moment) == (7, 5)
    assert state_json(s.fight)["window"] == 7
    s.execute("siguiente")  # anything but an answer closes it
    assert s.fight.window is None and state_json(s.fight)["window"] is None
    assert state_json(play(*demo_lines()).fight)["window"] is None


def test_the_json_window_is_plain_json():
    fight = play(*MID_TURN).fight
    assert json.loads(json.dumps(state_json(fight)))["window"] == 7


def test_cdbtui_show_json_gives_the_window_notes_and_expires(tmp_path):
    """The issue's first example through the shell: X holds at 7, Y shoots X at 7 and
    the countdown jumps to 4 by itself; the window stays at 7 for X's dodge."""
    path = tmp_path / "f.toml"
    assert cdbtui("new", str(path)).returncode == 0
    done = cdbtui("do", str(path), "alta X ac=6 momento=7 agi=5", "alta Y ac=6 momento=7",
                  "alta Z ac=6 momento=4", "empezar", "x retrasa", "y disparar-armas-largas a x",
                  "nota x cojea turnos=2", "estado x +aturdido turnos=1")
    assert done.returncode == 0, done.stderr
    state = json.loads(cdbtui("show", str(path), "--json").stdout)
    assert (state["window"], state["moment"]) == (7, 4)
    x = state["combatants"][0]
    assert x["notes"] == [{"text": "cojea", "turns_left": 2}]
    assert (x["conditions"], x["expires"]) == (["aturdido"], {"aturdido": 1})
    assert cdbtui("do", str(path), "x esquivar").returncode == 0
    state = json.loads(cdbtui("show", str(path), "--json").stdout)
    assert state["combatants"][0]["marker"] == 6 and state["window"] == 7
    assert cdbtui("do", str(path), "siguiente").returncode == 0
    assert json.loads(cdbtui("show", str(path), "--json").stdout)["window"] is None


def test_the_djs_header_shows_where_a_reaction_lands_while_the_window_is_open():
    fight = play(*MID_TURN).fight
    line = status_line(fight)
    assert line.startswith("Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1 · reacciones a M7")
    # An action with nobody skipped: the window is at the current moment, and open.
    same = play("alta Ana ac=6 momento=7", "alta Bea ac=6 momento=7", "empezar", "ana gasta 1")
    assert same.fight.window is not None and same.fight.window.moment == same.fight.moment == 7
    assert "reacciones a M7" in status_line(same.fight)
    same.execute("siguiente")  # closes it
    assert "reacciones" not in status_line(same.fight)
    assert "reacciones" not in status_line(play(*demo_lines()).fight)


def test_the_players_never_see_the_window():
    fight = play(*MID_TURN).fight
    seen = players_fight(fight)
    assert seen.window is None
    view = player_view(fight)
    assert "reacciones" not in " ".join([view.headline, view.queue, view.banner.note])


def test_a_reaction_typed_after_the_shot_is_logged_at_the_shots_moment():
    """The book's table: Soldado 1 takes cover at 7, right after Mike's shot."""
    fight = play(*MID_TURN).fight
    assert str(fight.log[-2]) == "T1 M7 · Soldado 1: Ponerse a Cubierto, reacción (1 AC) → momento 5"
    soldier = fight.find("Soldado 1")
    assert (soldier.marker, soldier.ac) == (5, 5)


# ---------------------------------------------------------------- notes and durations


def _noted(fight):
    """Sven aturdido until the end of turn 2, with a note for this turn and one for good."""
    return _with(fight, "Sven", conditions=("derribado", "aturdido"),
                 expires=(Expiry("aturdido", 2),),
                 notes=(Note("cojea", 1), Note("lleva la llave")))


def test_the_json_gives_notes_with_the_turns_left_and_when_conditions_expire():
    fight = _noted(play(*demo_lines()).fight)
    sven = next(c for c in state_json(fight)["combatants"] if c["name"] == "Sven")
    assert sven["conditions"] == ["derribado", "aturdido"]
    assert sven["expires"] == {"aturdido": 2}
    assert sven["notes"] == [{"text": "cojea", "turns_left": 1},
                             {"text": "lleva la llave", "turns_left": None}]
    mike = next(c for c in state_json(fight)["combatants"] if c["name"] == "Mike")
    assert (mike["notes"], mike["expires"]) == ([], {})


def test_turns_left_count_the_current_turn():
    fight = evolve(_noted(play(*demo_lines()).fight), turn=2)
    sven = next(c for c in state_json(fight)["combatants"] if c["name"] == "Sven")
    assert sven["notes"][0] == {"text": "cojea", "turns_left": 0}  # would have ended with turn 1
    assert ("Estados", "derribado, aturdido · 1 turno") in _rows(fight, "Sven")


def test_before_the_fight_durations_count_from_turn_1():
    s = play("alta Ana ac=5 momento=5", "nota ana cojea turnos=1", "estado ana +aturdido turnos=2")
    (ana,) = state_json(s.fight)["combatants"]
    assert ana["notes"] == [{"text": "cojea", "turns_left": 1}] and ana["expires"] == {"aturdido": 2}
    assert ("Estados", "aturdido · 2 turnos") in _rows(s.fight, "Ana")
    s.execute("empezar")
    assert ("Notas", "cojea · 1 turno") in _rows(s.fight, "Ana")


def test_durations_by_the_engine_count_down_turn_by_turn():
    s = play(*demo_lines(), "nota sven cojea turnos=2", "estado sven +aturdido turnos=2")
    sven = lambda: next(c for c in state_json(s.fight)["combatants"] if c["name"] == "Sven")  # noqa: E731
    assert sven()["notes"] == [{"text": "cojea", "turns_left": 2}]
    assert sven()["expires"] == {"aturdido": 2} and sven()["conditions"] == ["aturdido"]
    s.execute("turno")
    assert sven()["notes"] == [{"text": "cojea", "turns_left": 1}]
    assert ("Estados", "aturdido · 1 turno") in _rows(s.fight, "Sven")
    s.execute("turno")
    assert (sven()["notes"], sven()["expires"], sven()["conditions"]) == ([], {}, [])


def test_the_panel_shows_conditions_with_what_is_left_and_every_note():
    rows = _rows(_noted(play(*demo_lines()).fight), "Sven")
    assert ("Estados", "derribado, aturdido · 2 turnos") in rows
    at = rows.index(("Notas", "cojea · 1 turno"))
    assert rows[at - 1][0] == "Estados" and rows[at + 1] == ("", "lleva la llave")
    assert not any(label == "Notas" for label, _ in _rows(play(*demo_lines()).fight, "Sven"))


def test_the_text_board_shows_durations_and_notes():
    text = board_text(_noted(play(*demo_lines()).fight))
    assert ("Sven (PJ) · AC 5/5 · inicio 5 · marcador 5 · por actuar"
            " · estados derribado, aturdido (2 turnos) · notas cojea (1 turno); lleva la llave") in text


# ---------------------------------------------------------------- hidden columns


def test_the_djs_sheet_marks_a_hidden_column_and_the_panel_says_oculto():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=6 oculto", "empezar").fight
    sheet = build_sheet(fight)
    ninja = next(c for c in sheet.columns if c.name == "Ninja")
    assert ninja.hidden and ninja.label == f"{HIDDEN_MARK}Ninja"
    assert not any(c.hidden for c in sheet.columns if c.name != "Ninja")
    assert f"{HIDDEN_MARK}Ninja" in sheet_lines(sheet)[0]
    assert panel_title(fight.find("Ninja")) == "Ninja · PNJ · oculto"
    assert panel_title(fight.find("Mike")) == "Mike · PJ"
    # The mark takes its own room: the name is never cut for it.
    assert ninja.width == len("Ninja") + 5


def test_the_players_sheet_has_no_mark_and_no_hidden_column():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=6 oculto", "empezar").fight
    sheet = build_sheet(players_fight(fight), for_players=True)
    assert [c.name for c in sheet.columns] == ["Mike", "Soldado 1", "Sven", "Soldado 2"]
    assert HIDDEN_MARK not in "\n".join(sheet_lines(sheet))


def test_a_revealed_combatant_loses_its_mark():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=6 oculto", "empezar").fight
    shown = _with(fight, "Ninja", hidden=False)
    ninja = next(c for c in build_sheet(shown).columns if c.name == "Ninja")
    assert not ninja.hidden and ninja.label == "Ninja"
    assert next(c for c in state_json(shown)["combatants"] if c["name"] == "Ninja")["hidden"] is False


# ---------------------------------------------------------------- what players read


def _note_entry(fight, name: str, text: str):
    """A note's log line as the engine makes it: a `LogKind.NOTE` about its combatant."""
    return fight.note(f"{name}: nota «{text}»", kind=LogKind.NOTE, about=[name])


def test_a_private_pnjs_note_is_never_read_by_players():
    fight = play(*demo_lines()).fight
    fight = _note_entry(fight, "Soldado 2", "tiene miedo")  # privado in the demo
    fight = _note_entry(fight, "Sven", "cojea")
    texts = [e.text for e in player_log(fight)]
    assert "Soldado 2: nota «tiene miedo»" not in texts
    assert "Sven: nota «cojea»" in texts
    # A private PNJ's other lines without numbers still show, as before.
    assert shown_to_players(fight.note("Soldado 2 retrasa su acción", kind=LogKind.ACTION,
                                       about=["Soldado 2"]).log[-1])


def test_a_hidden_pnjs_note_is_never_read_by_players():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=6 oculto", "empezar").fight
    fight = _note_entry(fight, "Ninja", "acecha")
    assert not any("Ninja" in e.text for e in player_log(fight))


def test_players_fight_carries_no_note_of_a_private_pnj():
    fight = _with(play(*demo_lines()).fight, "Soldado 2", notes=(Note("tiene miedo"),))
    fight = _with(fight, "Sven", notes=(Note("cojea"),))
    seen = players_fight(fight)
    assert seen.find("Soldado 2").notes == ()
    assert seen.find("Sven").notes == (Note("cojea"),)


def test_revealing_shows_what_follows_and_keeps_what_came_before_hidden():
    """The log keeps the flags each entry was made with (RULES.md §5 "Hidden combatants")."""
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=8 oculto", "empezar",
                 "ninja gasta 2 se acerca").fight
    revealed = _with(fight, "Ninja", hidden=False).note(
        "Ninja aparece", kind=LogKind.CONDITION, about=["Ninja"])
    revealed = _with(revealed, "Ninja").note("Ninja: Otra acción (1 AC)", kind=LogKind.ACTION,
                                             about=["Ninja"])
    texts = [e.text for e in player_log(revealed)]
    assert "Ninja aparece" in texts and "Ninja: Otra acción (1 AC)" in texts
    assert not any("se acerca" in t or "Alta de Ninja" in t for t in texts)
    assert "Ninja" in [c.name for c in players_fight(revealed).combatants]
    assert "Ninja" in [c.name for c in build_report(revealed, for_players=True).roster]


def test_hiding_again_leaves_what_players_already_read():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=8", "empezar",
                 "ninja gasta 2 se acerca").fight
    hidden = _with(fight, "Ninja", hidden=True).note("Ninja: Otra acción (1 AC)",
                                                     kind=LogKind.ACTION, about=["Ninja"])
    texts = [e.text for e in player_log(hidden)]
    assert "Ninja: se acerca (2 AC) → momento 6" in texts
    assert "Ninja: Otra acción (1 AC)" not in texts
    assert "Ninja" not in [c.name for c in players_fight(hidden).combatants]


def test_the_mention_of_a_note_is_its_combatant_as_actor():
    fight = _note_entry(play(*demo_lines()).fight, "Soldado 2", "tiene miedo")
    (mention,) = fight.log[-1].about
    assert (mention.name, mention.role, mention.private) == ("Soldado 2", Role.ACTOR, True)


# ---------------------------------------------------------------- the export


def test_the_djs_export_lists_notes_and_durations_in_the_roster():
    fight = _noted(play(*demo_lines()).fight)
    md = export_markdown(fight)
    assert "| Sven | PJ | 5 | 5 | — | — | derribado, aturdido (2 turnos), nota: cojea (1 turno), nota: lleva la llave |" in md


def test_the_players_export_never_shows_a_private_or_hidden_combatants_notes():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=6 oculto", "empezar").fight
    fight = _with(fight, "Soldado 2", notes=(Note("tiene miedo"),))
    fight = _with(fight, "Ninja", notes=(Note("acecha"),))
    fight = _with(fight, "Sven", notes=(Note("cojea"),))
    fight = _note_entry(_note_entry(fight, "Soldado 2", "tiene miedo"), "Ninja", "acecha")
    for export in (export_markdown, export_html):
        players = export(fight, for_players=True)
        assert "tiene miedo" not in players and "acecha" not in players
        assert "nota: cojea" in players
        dj = export(fight)
        assert "tiene miedo" in dj and "acecha" in dj


def test_a_damage_roll_answering_a_shot_is_bold_at_the_shots_moment():
    """test_export's fight: the damage typed right after the shot and the cover is in
    the reaction window (RULES.md §3), so it is logged at M7, in bold by its kind."""
    fight = play(*demo_lines(), "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto',
                 "dano sven 3 rd=1", "dano mike 1 rd=3").fight
    md = export_markdown(fight).splitlines()
    assert "- `M7` **Sven: 2 casilla(s) de heridas (daño 3 − RD 1)**" in md
    assert "- `M7` **Mike: daño 1 − RD 3 < 0, sin efecto**" in md
    assert export_html(fight).count("<strong>") == 2


def test_players_read_no_moments_when_a_reaction_lands_while_hidden_pnj_act():
    """test_export's case with the window closed by a hidden PNJ's own action at 6, so
    that Mike's reaction is at 6, a moment the players' countdown never shows (8 → 4)."""
    fight = play("alta Mike ac=7 bando=pj", "alta Ninja ac=6 oculto", "alta Sombra ac=6 oculto",
                 "momento Mike 8", "momento Ninja 6", "momento Sombra 6", "empezar",
                 "mike gasta 3", "ninja gasta 1", "mike esquivar").fight
    assert fight.moment == 6 and str(fight.log[-1]) == "T1 M6 · Mike: Esquivar, reacción (1 AC) → momento 4"
    assert players_fight(fight).moment == 4  # where Mike stands: 6 never shows
    players = export_markdown(fight, for_players=True)
    assert "- Mike: Esquivar, reacción (1 AC) → momento 4" in players.splitlines()
    assert "`M" not in players


def test_a_note_naming_a_hidden_combatant_is_read_by_no_player():
    from cdbtui.export import export_markdown
    fight = play("alta Mike ac=6 bando=pj momento=7", 'alta "La Viuda Negra" ac=6 momento=4 oculto',
                 "nota Mike vigila a La Viuda Negra", "nota Mike cojea", "empezar").fight
    seen = players_fight(fight)
    assert [n.text for n in seen.find("Mike").notes] == ["cojea"]
    players = export_markdown(fight, for_players=True)
    assert "Viuda" not in players and "cojea" in players
    assert "vigila a La Viuda Negra" in export_markdown(fight)  # the DJ's export keeps it
