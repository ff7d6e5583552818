"""The structured log in saves (schema 3) and the migration of older saves.

A log entry keeps its kind and the combatants it is about, each with the flags it had
when the entry was made; saves write them as inline tables and read them strictly.
A schema-2 save (tests/data/v2-emboscada.toml, made by tests/data/make_v2_save.py with
cdbtui before schema 3) loads by replaying its history, migrates on first write
keeping the original as NAME.toml.v2, and is filtered for players from the data.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from attrs import evolve
from fights import demo_lines, play

from cdbtui import follow, library, store
from cdbtui.engine.model import LogEntry, LogKind, Mention, Role
from cdbtui.export import export_markdown
from cdbtui.files import SaveError
from cdbtui.funnel import SaveFile
from cdbtui.players import player_log

V2 = Path(__file__).parent / "data" / "v2-emboscada.toml"


def texts_for_players(fight) -> list[str]:
    return [e.text for e in player_log(fight)]


# ---------------------------------------------------------------- the entries


def test_entries_record_their_kind_and_whom_they_are_about():
    fight = play(*demo_lines()[:-1], "alta Ninja ac=6 agi=5 momento=5 oculto", "empezar",
                 "mike disparar-armas-largas a ninja", "dano ninja 2", '"soldado 2" esquivar').fight
    shot, hit, dodge = fight.log[-3:]
    assert shot.kind is LogKind.ACTION
    assert shot.about == (Mention("Mike"), Mention("Ninja", Role.TARGET, hidden=True))
    assert hit.kind is LogKind.DAMAGE and hit.about == (Mention("Ninja", hidden=True),)
    assert dodge.kind is LogKind.REACTION
    assert dodge.about == (Mention("Soldado 2", private=True),)
    assert fight.log[0].kind is LogKind.SETUP and fight.log[0].about == ()
    assert any(e.kind is LogKind.TURN and e.text == "— Turno 1 —" for e in fight.log)


def test_a_removed_combatant_keeps_its_flags_in_its_entries():
    fight = play("alta Ninja ac=6 oculto", "baja ninja").fight
    assert fight.log[-1].text == "Baja de Ninja"
    assert fight.log[-1].about == (Mention("Ninja", hidden=True),)


def test_a_private_pj_is_not_private_in_the_log():
    fight = play("alta Sven ac=5 bando=pj privado").fight
    assert fight.log[-1].about == (Mention("Sven"),)
    assert "Alta de Sven (PJ, 5 AC)" in texts_for_players(fight)


# ---------------------------------------------------------------- schema 3


def test_the_log_is_saved_as_inline_tables_and_read_back_equal():
    session = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=5 oculto", "empezar",
                   "mike disparar-armas-largas a ninja")
    text = store.dumps(session)
    assert "schema = 4\n" in text
    line = next(x for x in text.splitlines() if x.startswith("    {") and "a Ninja" in x)
    assert line.strip() == (
        '{turn = 1, moment = 7, kind = "action", text = "Mike: Disparar Armas Largas a Ninja'
        ' (3 AC) → momento 4", about = ["Mike", {name = "Ninja", role = "target",'
        ' hidden = true}]},'
    )
    loaded = store.loads(text)
    assert loaded.fight == session.fight
    assert loaded.fight.log[-1].about[1] == Mention("Ninja", Role.TARGET, hidden=True)
    assert store.dumps(loaded) == text


@pytest.mark.parametrize(("old", "new", "message"), [
    ('kind = "action"', 'kind = "baile"', "entrada no válida"),
    ('about = ["Mike"', 'about = [{name = "Mike", rol = "x"}', "entrada no válida"),
    ('about = ["Mike"', 'about = [{name = 3}', "entrada no válida"),
    ('about = ["Mike"', 'about = [""', "entrada no válida"),
    ('about = ["Mike"', 'about = [3', "entrada no válida"),
    ('role = "target"', 'role = "jefe"', "entrada no válida"),
    ('hidden = true}', 'hidden = "sí"}', "entrada no válida"),
    ('about = ["Mike"', 'about = "Mike", otra = ["Mike"', "entrada no válida"),
])
def test_log_entries_are_read_strictly(old, new, message):
    session = play(*demo_lines()[:-1], "alta Ninja ac=6 momento=5 oculto", "empezar",
                   "mike disparar-armas-largas a ninja")
    text = store.dumps(session)
    assert old in text
    with pytest.raises(SaveError, match=message):
        store.loads(text.replace(old, new, 1))


def test_a_schema_2_save_may_not_hold_structured_entries():
    text = V2.read_text("utf-8").replace('text = "— Turno 1 —"', 'kind = "turn", text = "— Turno 1 —"')
    with pytest.raises(SaveError, match="entrada no válida"):
        store.loads(text)


# ---------------------------------------------------------------- schema 2


def test_a_schema_2_save_loads_by_replaying_its_history():
    loaded = store.read(V2)
    assert loaded.schema == 2 and not loaded.edited and loaded.notes == []
    fight = loaded.session.fight
    by_text = {e.text: e for e in fight.log}
    assert by_text["Alta de Ninja (Clan (sombra), 6 AC)"].about == (Mention("Ninja", hidden=True),)
    assert by_text["Alta de Ninja (PJ, 3 AC)"].about == (Mention("Ninja"),)
    assert by_text["Ninja: 2 casilla(s) de heridas (daño 2 − RD 0)"].kind is LogKind.DAMAGE
    # The very states the engine makes: undo works all the way back.
    session = loaded.session
    assert session.verify()
    while session.can_undo:
        session.undo()
    assert session.fight.combatants == ()


def test_a_schema_2_save_is_filtered_for_players_from_the_data():
    fight = store.load(V2).fight
    texts = texts_for_players(fight)
    assert [t for t in texts if "Ninja" in t] == ["Alta de Ninja (PJ, 3 AC)"]
    assert not any("Sombra" in t or "Soldado 2" in t for t in texts)
    assert "Mike: Disparar Armas Largas (3 AC) → momento 4" in texts
    players = export_markdown(fight, for_players=True)
    assert "Clan" not in players and "Sombra" not in players and "`M" not in players
    assert "Alta de Ninja (PJ, 3 AC)" in players


def test_a_schema_2_save_is_migrated_on_first_write_keeping_the_original(tmp_path):
    path = tmp_path / "emboscada.toml"
    shutil.copy(V2, path)
    original = path.read_bytes()
    save_file = SaveFile.open(path)
    assert save_file.pending == "migrate" and "formato anterior (2)" in save_file.notes[0]
    assert path.read_bytes() == original  # reading writes nothing
    before = save_file.session.fight
    save_file.play("mike fin")
    assert (tmp_path / "emboscada.toml.v2").read_bytes() == original
    document = tomllib.loads(path.read_text("utf-8"))
    assert document["schema"] == 4 and document["summary"]["hidden"] == 1
    resumed = store.read(path)
    assert resumed.schema == 4 and not resumed.edited
    assert resumed.session.fight == save_file.session.fight
    assert resumed.session.undo().fight == before
    # The follower (the player view's source) reads the migrated file the same way.
    follower = follow.Follower(path)
    assert follower.poll() and follower.session.fight == save_file.session.fight


def test_the_fight_list_trusts_a_schema_2_summary_and_counts_its_hidden_pnj(tmp_path):
    path = tmp_path / "emboscada.toml"
    shutil.copy(V2, path)
    entry = library.describe(path)
    assert entry.problem is None
    assert (entry.combatants, entry.hidden, entry.count_text) == (6, 1, "5 (+1 oculto)")


def test_a_hand_edited_schema_2_save_recovers_its_log_from_the_text():
    text = V2.read_text("utf-8")
    edited = text.replace('name = "Sven"', 'name = "Sven el Rojo"', 1)
    loaded = store.read_text(edited)
    assert loaded.edited and not loaded.session.can_undo
    fight = loaded.session.fight
    by_text = {e.text: e for e in fight.log}
    # Names found in the text, longest first; the roster's flags as they are now.
    assert by_text["Soldado 2: Esquivar, reacción (1 AC) → momento 3"].about == (
        Mention("Soldado 2", private=True),)
    assert by_text["Soldado 2: Esquivar, reacción (1 AC) → momento 3"].kind is LogKind.REACTION
    assert by_text["Mike empieza en el momento 7"].kind is LogKind.SETUP
    assert by_text["Ninja: 2 casilla(s) de heridas (daño 2 − RD 0)"].kind is LogKind.DAMAGE
    # The removed hidden Ninja: its entries (before the new Ninja's «Alta») are unknown,
    # so hidden; the visible Ninja's own entry is the roster's.
    assert by_text["Ninja: Esquivar, reacción (1 AC) → momento 4"].about == (
        Mention("Ninja", hidden=True, private=True),)
    assert by_text["Alta de Ninja (PJ, 3 AC)"].about == (Mention("Ninja"),)
    texts = texts_for_players(fight)
    assert [t for t in texts if "Ninja" in t] == ["Alta de Ninja (PJ, 3 AC)"]
    assert not any("Sombra" in t for t in texts)
    assert "Sven el Rojo" not in " ".join(texts)  # the text says «Sven»: no longer a name


def test_a_schema_2_history_that_does_not_lead_to_its_state_restarts_there():
    text = V2.read_text("utf-8")
    changed = text.replace('"Mike disparar-armas-largas",', '"Mike gasta 3",', 1)
    assert changed != text
    loaded = store.read_text(changed)
    assert loaded.edited and "historial" in loaded.notes[0]
    assert not loaded.session.can_undo
    assert loaded.session.fight.log[-1].about == (Mention("Sombra", hidden=True),)


def test_recover_log_treats_a_name_only_in_a_removal_as_hidden():
    fight = play("alta Mike ac=7 bando=pj momento=5", "alta Orco ac=4 momento=3", "empezar",
                 "mike gasta 1 mira al orco", "baja orco").fight
    plain = evolve(fight, log=tuple(LogEntry(e.turn, e.moment, e.text, e.warning) for e in fight.log))
    recovered = store.recover_log(plain)
    assert recovered.log[-1].about == (Mention("Orco", hidden=True, private=True),)
    assert [e.text for e in player_log(recovered) if "rco" in e.text] == []
    assert [e.text for e in player_log(fight) if "rco" in e.text] == [
        "Alta de Orco (PNJ, 4 AC)", "Mike: mira al orco (1 AC) → momento 4",
        "Baja de Orco"]  # the engine knew it was visible
