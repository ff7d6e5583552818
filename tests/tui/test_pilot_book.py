"""What the book changes on the sheet, from the keyboard: the picker's effects and
talent costs, a condition halving AC, an out-of-combat combatant skipped."""

from __future__ import annotations

from cdbtui.engine.catalog import catalog
from cdbtui.engine.model import Status
from cdbtui.store import load
from cdbtui.tui.screens.picker import ManeuverPicker

from helpers import keys, state
from screen_text import screen_text

SIZE = (120, 36)


async def test_the_picker_offers_only_what_the_selected_can_do_with_its_costs(make_app):
    app = make_app([
        "alta Bruce ac=6 bando=pj talentos=artista-marcial momento=6",
        "alta Kato ac=6 bando=pnj momento=5",
        "empezar",
    ])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "enter")
        picker = app.screen
        assert isinstance(picker, ManeuverPicker)
        costs = {ch.id: ch.cost for ch in picker.choices}
        assert costs["agarron"] == 3  # 4, or 3 with Artista Marcial
        assert not any("gun-kata" in catalog("cdb").get(i).talents for i in costs)
        await pilot.press(*"punetazo")
        await pilot.pause()
        summary = catalog("cdb").get("punetazo").summary
        assert summary and summary[:40] in screen_text(app)  # the book's effect, under it
        await keys(pilot, "escape", "right")  # Kato: no talents, Agarrón at 4
        assert app.selected == "Kato"
        await keys(pilot, "enter")
        costs = {ch.id: ch.cost for ch in app.screen.choices}
        assert costs["agarron"] == 4 and "proyectar" not in costs


async def test_a_talent_only_maneuver_typed_anyway_says_why(make_app):
    app = make_app(["alta Kato ac=6 momento=5", "empezar"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "colon")
        await pilot.press(*"kato proyectar")
        await keys(pilot, "enter")
        assert any("Artista Marcial" in n.message for n in app._notifications)
        assert state(app, "Kato") == (5, 6)


async def test_agarrado_halves_the_ac_on_the_sheet(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.select("Sven")
        await keys(pilot, "s")  # "estado Sven +" on the command line
        await pilot.press(*"agarrado")
        await keys(pilot, "enter")
        assert app.fight.find("Sven").ac == 3  # 5 halved, rounded up
        assert "Sven 3" in screen_text(app)  # the name on the sheet carries the AC left
        assert load(app.path).fight.find("Sven").conditions == ("agarrado",)


async def test_a_combatant_out_of_combat_is_skipped_by_the_countdown(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.select("Sven")
        await keys(pilot, "d")  # "dano Sven " on the command line
        await pilot.press(*"13")
        await keys(pilot, "enter")
        assert app.fight.find("Sven").status is Status.OUT
        await keys(pilot, "7")  # Mike spends all: the countdown goes on
        assert app.selected == "Soldado 1"
        await keys(pilot, "6")  # Soldado 1 spends all at 6
        assert app.fight.moment == 4  # 5 was Sven's: skipped
        assert [c.name for c in app.fight.combatants if c.status is Status.OUT] == ["Sven"]


async def test_house_rules_from_a_file_on_the_command_line(make_app, tmp_path, monkeypatch):
    house = tmp_path / "casa.toml"
    house.write_text('[[maneuver]]\nid = "cabezazo"\nname = "Cabezazo"\ncost = 2\n'
                     'attack = true\nsummary = "Daño BD + 1"\n', "utf-8")
    monkeypatch.chdir(tmp_path)  # typed as a path relative to where cdbtui runs
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "colon")
        await pilot.press(*f"casa {house.name}")
        await keys(pilot, "enter")
        assert "cabezazo" in app.fight.house
        await keys(pilot, "enter")  # the picker of Mike offers it
        assert "cabezazo" in [ch.id for ch in app.screen.choices]
        await pilot.press(*"cabezazo")
        await keys(pilot, "enter", "escape")  # an attack (the house says): no target
        assert state(app, "Mike") == (5, 5)
    assert load(app.path).fight.house == app.fight.house
