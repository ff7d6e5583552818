"""House rules (`casa`): a DJ's TOML merged into the book's catalog, per fight, as a
command of the history (undoable, saved, replayed with the same costs)."""

from __future__ import annotations

import pytest

from cdbtui import store
from cdbtui.engine.commands import HouseRules
from cdbtui.engine.errors import Refusal
from cdbtui.engine.parser import parse
from cdbtui.view import maneuver_choices
from fights import demo_lines, play

HOUSE = '''rules = "cdb"

[override.punetazo]
cost = 1
summary = "Regla de la casa: puñetazo rápido «de bar»"

[[maneuver]]
id = "cabezazo"
name = "Cabezazo"
cost = 2
attack = true
summary = "Daño BD + 1; −1 a la Defensa del que lo da"
'''


def test_house_rules_change_costs_and_add_maneuvers_for_this_fight():
    s = play(*demo_lines(), HouseRules(HOUSE).line())
    assert "nuevas: Cabezazo" in s.fight.log[-1].text
    assert "cambiadas: Puñetazo" in s.fight.log[-1].text
    s.execute("Mike punetazo")
    assert s.fight.find("Mike").ac == 6
    s.execute("Mike cabezazo")
    assert s.fight.find("Mike").ac == 4 and s.fight.find("Mike").attacks == 2
    choices = {ch.id: ch for ch in maneuver_choices(s.fight, s.fight.find("Mike"))}
    assert choices["cabezazo"].summary.startswith("Daño BD + 1")
    assert choices["punetazo"].cost == 1


def test_house_rules_are_undoable_and_can_be_dropped():
    s = play(*demo_lines(), HouseRules(HOUSE).line())
    s.undo()
    with pytest.raises(Refusal, match="cabezazo"):
        s.execute("Mike cabezazo")
    s.redo()
    s.execute("casa no")
    assert s.fight.house == "" and "catálogo del libro" in s.fight.log[-1].text
    s.execute("Mike punetazo")
    assert s.fight.find("Mike").ac == 5  # the book's 2 AC again


def test_the_canonical_line_reparses_to_the_same_rules():
    line = HouseRules(HOUSE).line()
    fight = play(*demo_lines()).fight
    assert parse(line, fight) == HouseRules(HOUSE)
    assert parse("casa no", fight) == HouseRules("")


def test_wrong_house_rules_are_refused_with_the_field():
    fight = play(*demo_lines()).fight
    with pytest.raises(Refusal, match="cost"):
        parse(HouseRules('[override.punetazo]\ncost = "tres"\n').line(), fight)
    with pytest.raises(Refusal, match="walkure|Walküre"):
        parse(HouseRules('rules = "walkure"\n').line(), fight)


def test_house_rules_survive_a_save_and_a_replay(tmp_path):
    s = play(*demo_lines(), HouseRules(HOUSE).line(), "Mike cabezazo")
    path = tmp_path / "casa.toml"
    store.save(path, s)
    loaded = store.load(path)
    assert loaded.fight == s.fight and loaded.fight.house == HOUSE
    while loaded.can_undo:
        loaded.undo()
    while loaded.can_redo:
        loaded.redo()
    assert loaded.fight == s.fight


def test_dropping_them_is_refused_while_a_house_maneuver_is_carried():
    house = HOUSE + '\n[[maneuver]]\nid = "gran-golpe"\nname = "Gran Golpe"\ncost = 6\nattack = true\n'
    s = play(*demo_lines(), HouseRules(house).line(), "Mike gasta 2", '"Soldado 1" gasta 1',
             "Mike gran-golpe")
    assert s.fight.find("Mike").carried is not None
    with pytest.raises(Refusal, match="Gran Golpe"):
        s.execute("casa no")


def test_the_cli_reads_a_house_rules_file(tmp_path):
    path = tmp_path / "f.toml"
    house = tmp_path / "casa.toml"
    house.write_text(HOUSE, "utf-8")
    store.create(path, play(*demo_lines()))

    from shell import cdbtui  # `cdbtui ARGS` through cli.main, in this process

    result = cdbtui("casa", str(path), str(house))
    assert result.returncode == 0 and "Cabezazo" in result.stdout
    assert cdbtui("do", str(path), "mike cabezazo").returncode == 0
    broken = tmp_path / "rota.toml"
    broken.write_text("[override.nada]\ncost = 1\n", "utf-8")
    before = path.read_bytes()
    refused = cdbtui("casa", str(path), str(broken))
    assert refused.returncode == 1 and "nada" in refused.stderr
    assert refused.stderr.count("\n") == 1 and path.read_bytes() == before
    assert cdbtui("casa", str(path), "no").returncode == 0
    assert store.load(path).fight.house == ""
