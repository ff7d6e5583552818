"""Copies, names as a DJ types them, and all or nothing (issue 11), through the shell.

`alta NAME … copias=N` adds «NAME 1» … «NAME N» in one command, or none of them;
a name is found as the DJ types it (exact wins, then a unique prefix of any word,
several unquoted words); `grupo desde` copies every name or none; `cdbtui do` with
several lines stops at the first failing one, the save as it was before that line.
Every refusal: exit 1 (2 for `grupo`, a usage error as `grupo baja`), one Spanish
line on stderr, the save byte for byte unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fights import play
from shell import cdbtui

from cdbtui.engine.session import Session
from cdbtui.engine.setting_up import COPIES

TABLE = [
    "alta Aldric ac=6 ini=2 bando=pj",
    'alta "Brunilda Peñaflor" ac=5 ini=1 bando=pj',
    "alta Íñigo ac=5 bando=pj",
    'alta "La Viuda Negra" ac=4 bando=pnj',
    'alta "Soldado 1" ac=4',
    'alta "Soldado 12" ac=4',
]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A save with the names a DJ mistypes: accents, several words, a number prefix."""
    path = tmp_path / "mesa.toml"
    assert cdbtui("new", str(path), "--seed", "11").returncode == 0
    result = cdbtui("do", str(path), *TABLE)
    assert result.returncode == 0, result.stderr
    return path


def state(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def names(path: Path) -> list[str]:
    return [c["name"] for c in state(path)["combatants"]]


def refused(path: Path, *lines: str, says: str | tuple[str, ...] = ()) -> str:
    """`cdbtui do PATH LINES…` is refused: exit 1, one line, the save unchanged."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), *lines)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("cdbtui: «")
    assert "Traceback" not in result.stderr and "error interno" not in result.stderr
    assert result.stdout == ""
    for word in (says,) if isinstance(says, str) else says:
        assert word in result.stderr, result.stderr
    assert path.read_bytes() == before
    return result.stderr


# ---------------------------------------------------------------- copies


def test_copias_adds_numbered_combatants_each_its_own_column_with_the_same_stats(table):
    result = cdbtui("do", str(table), "alta Orco ac=5 ini=1 agi=2 hab=3 talentos=punteria-zen"
                    " copias=4")
    assert result.returncode == 0, result.stderr
    data = state(table)
    orcs = [c for c in data["combatants"] if c["name"].startswith("Orco")]
    assert [c["name"] for c in orcs] == ["Orco 1", "Orco 2", "Orco 3", "Orco 4"]
    assert {c["ac_per_turn"] for c in orcs} == {5}
    assert all(c["start"] is None and c["side"] == "pnj" for c in orcs)
    assert "Orco 1" in result.stdout and "Alta de Orco 4 (PNJ, 5 AC, copia 4 de 4)" in result.stdout


def test_each_copy_has_its_own_log_line_naming_it(table):
    session = Session.new()
    session.execute("alta Orco ac=5 copias=3")
    setup = [e for e in session.fight.log if e.text.startswith("Alta de")]
    assert [[m.name for m in e.about] for e in setup] == [["Orco 1"], ["Orco 2"], ["Orco 3"]]


def test_copies_take_their_start_moments_one_by_one_or_together(table):
    assert cdbtui("do", str(table), "alta Orco ac=5 copias=3").returncode == 0
    assert cdbtui("do", str(table), 'momento "Orco 2" 4', "tirar juntos \"Orco 1\" \"Orco 3\"").returncode == 0
    starts = {c["name"]: c["start"] for c in state(table)["combatants"]}
    assert starts["Orco 2"] == 4 and starts["Orco 1"] == starts["Orco 3"] is not None


def test_copies_can_join_a_fight_in_progress(table):
    assert cdbtui("do", str(table), "tirar", "empezar").returncode == 0
    assert cdbtui("do", str(table), "alta Orco ac=5 copias=2", 'momento "orco 1" 2',
                  'momento "orco 2" 1').returncode == 0
    starts = {c["name"]: c["start"] for c in state(table)["combatants"]}
    assert (starts["Orco 1"], starts["Orco 2"]) == (2, 1)


def test_hidden_copies_stay_hidden_from_the_players(table):
    assert cdbtui("do", str(table), "alta Sombra ac=5 copias=3 oculto").returncode == 0
    players = cdbtui("export", str(table), "--jugadores")
    assert players.returncode == 0, players.stderr
    assert "Sombra" not in players.stdout
    dj = cdbtui("export", str(table)).stdout
    assert all(f"Alta de Sombra {n}" in dj for n in (1, 2, 3))


def test_revealing_one_copy_shows_only_that_one_from_then_on(table):
    result = cdbtui("do", str(table), "alta Sombra ac=5 copias=3 oculto", 'revelar "Sombra 2"')
    assert result.returncode == 0, result.stderr
    players = cdbtui("export", str(table), "--jugadores").stdout
    assert "Sombra 1" not in players and "Sombra 3" not in players
    assert "Alta de Sombra" not in players  # what happened while hidden stays hidden
    assert "Sombra 2" in players


def test_copies_work_for_hordes(table):
    assert cdbtui("do", str(table), "alta Ratas ac=3 miembros=10 copias=2").returncode == 0
    assert {c["name"] for c in state(table)["combatants"]} >= {"Ratas 1", "Ratas 2"}


def test_copies_save_and_replay_as_one_command(table):
    assert cdbtui("do", str(table), "alta Orco ac=5 copias=3", "deshacer").returncode == 0
    assert not any(n.startswith("Orco") for n in names(table))
    assert cdbtui("do", str(table), "rehacer").returncode == 0
    assert [n for n in names(table) if n.startswith("Orco")] == ["Orco 1", "Orco 2", "Orco 3"]


def test_copias_refused_as_a_whole_when_one_name_clashes_naming_it(table):
    assert cdbtui("do", str(table), 'alta "Orco 3" ac=5').returncode == 0
    err = refused(table, "alta Orco ac=5 copias=4", says=("«Orco 3»", "ninguna copia"))
    assert "Orco 1" not in err and "Orco 1" not in names(table)


def test_copias_refused_naming_every_clash(table):
    err = refused(table, "alta Soldado ac=5 copias=12", says=("«Soldado 1»", "«Soldado 12»"))
    assert "«Soldado 2»" not in err


def test_copias_one_is_refused(table):
    refused(table, "alta Orco ac=5 copias=1", says=("copias=", "quita copias="))


def test_copias_zero_is_refused_not_read_as_a_single_one(table):
    refused(table, "alta Orco ac=5 copias=0", says=("copias=", "quita copias="))


@pytest.mark.parametrize("count", [0 - 2, COPIES[1] + 1])
def test_copias_out_of_range_is_refused(table, count):
    refused(table, f"alta Orco ac=5 copias={count}", says=f"entre {COPIES[0]} y {COPIES[1]}")


def test_copias_of_a_huge_number_is_refused(table):
    refused(table, "alta Orco ac=5 copias=100000000000", says="copias")


def test_copias_up_to_the_limit_is_accepted(table):
    assert cdbtui("do", str(table), f"alta Orco ac=5 copias={COPIES[1]}").returncode == 0
    assert f"Orco {COPIES[1]}" in names(table)


def test_copias_with_a_typed_start_moment_is_refused(table):
    refused(table, "alta Orco ac=5 copias=3 momento=4", says=("momento=", "tirar juntos"))


def test_copias_with_a_bad_stat_adds_none(table):
    refused(table, "alta Orco ac=0 copias=3", says="AC")


def test_copias_with_a_reserved_word_adds_none(table):
    refused(table, "alta \"Orco turno\" ac=5 copias=3", says="palabra de órdenes")


def test_copias_in_english(table):
    assert cdbtui("do", str(table), "add Goblin ac=4 copies=2").returncode == 0
    assert {"Goblin 1", "Goblin 2"} <= set(names(table))


def test_the_tui_form_line_still_adds_one():
    session = Session.new()
    from cdbtui.engine import commands as cmd

    line = cmd.Add(name="Ana", ac=5, side="pj", start=3).line()
    session.execute(line)
    assert [c.name for c in session.fight.combatants] == ["Ana"]
    assert cmd.Add(name="Orco", ac=5, copies=3).line().endswith(" copias=3")
    session.execute(cmd.Add(name="Orco", ac=5, copies=3).line())
    assert [c.name for c in session.fight.combatants] == ["Ana", "Orco 1", "Orco 2", "Orco 3"]


def test_grupo_alta_with_copias_is_refused(tmp_path):
    folder = ["--saves", str(tmp_path / "s")]
    result = cdbtui(*folder, "grupo", "alta", "Orco", "ac=5", "copias=3")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "copias=" in result.stderr
    assert not (tmp_path / "s" / "_grupo.toml").exists()


# ---------------------------------------------------------------- names as typed


def test_a_unique_prefix_of_any_word_finds_the_name(table):
    result = cdbtui("do", str(table), "momento viuda 3")
    assert result.returncode == 0, result.stderr
    assert "La Viuda Negra empieza en el momento 3" in result.stdout


def test_an_unquoted_name_of_several_words(table):
    result = cdbtui("do", str(table), "estado la viuda +agarrado", "dano brunilda peñaflor 2")
    assert result.returncode == 0, result.stderr
    people = {c["name"]: c for c in state(table)["combatants"]}
    assert "agarrado" in people["La Viuda Negra"]["conditions"]
    assert "Brunilda Peñaflor: 2 casilla(s)" in result.stdout


def test_accents_and_case_are_optional_when_typing(table):
    result = cdbtui("do", str(table), "momento inigo 2", "momento BRUNILDA PENAFLOR 1")
    assert result.returncode == 0, result.stderr
    assert "Íñigo empieza en el momento 2" in result.stdout
    assert "Brunilda Peñaflor empieza en el momento 1" in result.stdout


def test_an_exact_name_wins_over_a_longer_one(table):
    result = cdbtui("do", str(table), 'momento "Soldado 1" 3', "momento soldado 12 5")
    assert result.returncode == 0, result.stderr
    starts = {c["name"]: c["start"] for c in state(table)["combatants"]}
    assert (starts["Soldado 1"], starts["Soldado 12"]) == (3, 5)


def test_an_unquoted_exact_name_wins_too(table):
    result = cdbtui("do", str(table), "momento soldado 1 4")
    assert result.returncode == 0, result.stderr
    assert "Soldado 1 empieza en el momento 4" in result.stdout


def test_an_ambiguous_prefix_is_refused_listing_the_candidates(table):
    refused(table, "momento soldado 3", says=("«soldado» es ambiguo", "Soldado 1", "Soldado 12"))


def test_an_ambiguous_number_prefix_is_refused_listing_the_candidates(table):
    refused(table, "dano sold 1 4", says=("ambiguo", "Soldado 1, Soldado 12"))


def test_an_ambiguous_copy_name_is_refused(table):
    assert cdbtui("do", str(table), "alta Orco ac=5 copias=2").returncode == 0
    refused(table, "estado orco +agarrado", says=("«orco» es ambiguo", "Orco 1", "Orco 2"))


def test_nobody_by_that_name_is_refused(table):
    refused(table, "momento zacarias 3", says="No hay nadie llamado «zacarias»")


# ---------------------------------------------------------------- grupo desde, all or nothing


@pytest.fixture
def folder(tmp_path: Path) -> list[str]:
    return ["--saves", str(tmp_path / "saves")]


def roster_file(folder: list[str]) -> Path:
    return Path(folder[1]) / "_grupo.toml"


def test_grupo_desde_finds_names_as_typed(table, folder):
    result = cdbtui(*folder, "grupo", "desde", str(table), "Aldric", "Brunilda Peñaflor", "iñigo",
                    "viuda")
    assert result.returncode == 0, result.stderr
    listed = cdbtui(*folder, "grupo").stdout.splitlines()
    assert [line.split()[1] for line in listed] == ["Aldric", '"Brunilda', "Íñigo", '"La']


def test_grupo_desde_copies_nothing_when_one_name_fails(table, folder):
    result = cdbtui(*folder, "grupo", "desde", str(table), "Aldric", "Brunilda Peñaflor", "zacarias")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "«zacarias» no está" in result.stderr and "no se ha copiado nadie" in result.stderr
    assert result.stdout == ""
    assert not roster_file(folder).exists()


def test_grupo_desde_leaves_an_existing_roster_byte_for_byte(table, folder):
    assert cdbtui(*folder, "grupo", "alta", "Sven", "ac=5").returncode == 0
    before = roster_file(folder).read_bytes()
    result = cdbtui(*folder, "grupo", "desde", str(table), "Aldric", "soldado", "nadie")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "«soldado» es ambiguo" in result.stderr and "«nadie» no está" in result.stderr
    assert roster_file(folder).read_bytes() == before


def test_grupo_desde_refuses_a_name_with_extra_words(table, folder):
    result = cdbtui(*folder, "grupo", "desde", str(table), "Aldric el Viejo")
    assert result.returncode == 1 and "«Aldric el Viejo» no está" in result.stderr
    assert not roster_file(folder).exists()


def test_grupo_desde_copies_nothing_when_a_new_fight_would_refuse_one(table, folder, monkeypatch):
    """The roster never holds a PJ a new fight would refuse: that one fails them all."""
    from attrs import evolve

    from cdbtui import roster

    made = roster.member_from_combatant
    monkeypatch.setattr(roster, "member_from_combatant",
                        lambda c: evolve(made(c), ac=0) if c.name == "Íñigo" else made(c))
    result = cdbtui(*folder, "grupo", "desde", str(table), "Aldric", "iñigo")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "Íñigo: " in result.stderr and "no se ha copiado nadie" in result.stderr
    assert not roster_file(folder).exists()


def test_grupo_desde_the_same_one_twice_is_one_member(table, folder):
    assert cdbtui(*folder, "grupo", "desde", str(table), "Aldric", "aldric").returncode == 0
    assert len(cdbtui(*folder, "grupo").stdout.splitlines()) == 1


# ---------------------------------------------------------------- cdbtui do, several lines


def test_do_stops_at_the_first_failing_line_keeping_the_ones_before(table):
    result = cdbtui("do", str(table), "alta Orco ac=5 copias=2", "momento viuda 3")
    assert result.returncode == 0
    after_good = table.read_bytes()
    result = cdbtui("do", str(table), "alta Trasgo ac=3 copias=2", "alta Orco ac=5 copias=2",
                    "momento aldric 4")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "«alta Orco ac=5 copias=2»" in result.stderr and "«Orco 1»" in result.stderr
    now = names(table)
    assert {"Trasgo 1", "Trasgo 2"} <= set(now)  # the line before stays, saved
    assert state(table)["combatants"][0]["start"] is None  # the line after never ran
    # the save is what the first line made of it: undoing it gives the earlier save back
    assert cdbtui("do", str(table), "deshacer").returncode == 0
    assert names(table) == [*(n for n in names_of(after_good, table))]


def names_of(data: bytes, scratch: Path) -> list[str]:
    copy = scratch.with_name("copia.toml")
    copy.write_bytes(data)
    return names(copy)


def test_do_failing_line_leaves_the_save_as_before_that_line(table):
    assert cdbtui("do", str(table), "alta Orco ac=5 copias=2").returncode == 0
    middle = table.with_name("middle.toml")
    middle.write_bytes(table.read_bytes())
    assert cdbtui("do", str(middle), "momento viuda 3").returncode == 0
    expected = middle.read_bytes()
    result = cdbtui("do", str(table), "momento viuda 3", "estado soldado +agarrado",
                    "momento aldric 1")
    assert result.returncode == 1 and "«estado soldado +agarrado»" in result.stderr
    assert "ambiguo" in result.stderr and result.stderr.count("\n") == 1
    assert state(table) == state(middle)
    assert table.read_bytes() == expected


def test_do_from_stdin_stops_at_the_first_failing_line(table):
    script = "# preparación\nalta Orco ac=5 copias=3\n\nmomento la viuda 2\nalta Orco ac=5 copias=2\nempezar\n"
    result = cdbtui("do", str(table), "-", stdin=script)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "«alta Orco ac=5 copias=2»" in result.stderr
    data = state(table)
    assert data["turn"] == 0  # «empezar» never ran
    people = {c["name"]: c for c in data["combatants"]}
    assert people["La Viuda Negra"]["start"] == 2 and "Orco 3" in people


def test_do_from_stdin_refusing_the_first_line_changes_nothing(table):
    before = table.read_bytes()
    result = cdbtui("do", str(table), "-", stdin="alta Soldado ac=4 copias=2\nmomento aldric 3\n")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "«Soldado 1»" in result.stderr
    assert table.read_bytes() == before


def test_tirar_juntos_with_the_copies_name_rolls_one_die_for_all_of_them():
    """COMMANDS.md: `alta NAME … copias=N` … `tirar juntos` rolls one for all."""
    s = play("alta Orco ac=5 ini=1 copias=4", "alta Mike ac=7 bando=pj", "tirar juntos Orco")
    starts = {c.name: c.start for c in s.fight.combatants}
    assert starts["Mike"] is None
    assert len({starts[f"Orco {i}"] for i in range(1, 5)}) == 1 and starts["Orco 1"] is not None
    one_by_one = play("alta Orco ac=5 ini=1 copias=3", "tirar Orco")
    assert all(c.start is not None for c in one_by_one.fight.combatants)
