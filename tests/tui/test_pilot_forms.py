"""Forms that do what their hint says: the add form (every option of `alta`, Enter
adds from any field, Space ticks and opens, it fits 80×24) and the new-fight dialog
(Enter creates from any field)."""

from __future__ import annotations

from helpers import keys
from screen_text import screen_text
from textual.widgets import Checkbox, Input, Select

from cdbtui.engine.commands import Add
from cdbtui.engine.parser import parse
from cdbtui.engine.rules import apply, new_fight
from cdbtui.tui.app import CdbApp
from cdbtui.tui.screens.add import (
    FIELDS,
    AddForm,
    add_line,
    expand_talents,
    side_options,
    talent_candidates,
    talent_suggestion,
)
from cdbtui.tui.screens.newfight import NewFight

SIZE = (120, 36)


# ---------------------------------------------------------------- the line (pure)

def test_add_line_writes_every_option_and_quotes_spaces():
    values = {"ac": "6", "ini": "2", "hab": "3", "mov": "4", "momento": "5",
              "talentos": "Artista Marcial, gun-k", "vida": "4, 4,3,2,1",
              "miembros": "6", "aguante": "2", "copias": "1"}
    line = add_line("La Viuda Negra", values, side="Casa Negra", hidden=True, private=True)
    command = parse(line, new_fight("x", "cdb", 1))
    assert command == Add(
        name="La Viuda Negra", ac=6, ini=2, skill=3, mov=4, side="Casa Negra", hidden=True,
        private=True, talents=("artista-marcial", "gun-kata"), start=5,
        wounds=(4, 4, 3, 2, 1), members=6, toughness=2,
    )
    assert "copias" not in line  # one combatant: copias=1 would be refused
    assert add_line("Ana", {"ac": "5", "copias": "3"}) == "alta Ana ac=5 copias=3 bando=pnj"


def test_the_sides_offered_are_pj_pnj_and_the_fights_factions():
    fight = new_fight("x", "cdb", 1)
    for line in ("alta Ana ac=5 bando=pj", "alta Orco ac=5 bando=[Clan]", "alta Bea ac=5"):
        fight = apply(fight, parse(line, fight))
    assert side_options(fight) == [("PNJ", "pnj"), ("PJ", "pj"), ("[Clan]", "[Clan]")]


def test_talents_complete_only_an_unambiguous_prefix():
    assert talent_suggestion("artista-marcial, pun") == "artista-marcial, punteria-zen"
    assert talent_suggestion("gun") is None  # gun-kata or gun-fu: no silent pick
    assert talent_candidates("gun") == ["gun-kata", "gun-fu"]
    assert talent_candidates("gun-kata, ") == [t for t in talent_candidates("") if t != "gun-kata"]
    assert talent_suggestion("duelista") is None  # already whole
    assert expand_talents("gun, duel") == "gun,duelista"  # the ambiguous one left to refuse


# ---------------------------------------------------------------- the add form

def box(app, key: str) -> Input:
    return app.screen.query_one(f"#add-{key}", Input)


def painted(app, selector: str) -> str:
    """The text painted on screen in the region of one widget."""
    region = app.screen.query_one(selector).region
    rows = screen_text(app).split("\n")[region.y:region.bottom]
    return "\n".join(row[region.x:region.right] for row in rows)


async def open_form(pilot, name: str, ac: str = "4", **values: str) -> None:
    """`a`, then the fields filled in (typing them is the Input's business)."""
    await keys(pilot, "a")
    assert isinstance(pilot.app.screen, AddForm)
    for key, text in {"name": name, "ac": ac, **values}.items():
        box(pilot.app, key).value = text


async def test_enter_adds_from_any_field_and_space_ticks_and_opens(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # Enter on the side's list adds (it does not open the list).
        await open_form(pilot, "Ana")
        # At 120×36 the whole form fits: no scrolling, every field and the hints shown.
        assert app.screen.query_one("#add-fields").max_scroll_y == 0
        text = screen_text(app)
        for label in ("Talentos", "Habilidad", "Vida", "Miembros", "Aguante", "Copias",
                      "Oculto", "Privado", "⏎ añadir"):
            assert label in text
        app.screen.query_one("#add-bando", Select).focus()
        await keys(pilot, "enter")
        ana = app.fight.find("Ana")
        assert ana is not None and ana.ac_per_turn == 4 and ana.side == "pnj"
        assert not isinstance(app.screen, AddForm)

        # Enter on «Oculto» adds without ticking it.
        await open_form(pilot, "Bea")
        app.screen.query_one("#add-oculto", Checkbox).focus()
        await keys(pilot, "enter")
        assert app.fight.find("Bea") is not None and not app.fight.find("Bea").hidden

        # Space opens the list and ticks the boxes; every other field reaches the line.
        await open_form(pilot, "Cid Campeador", "6")
        side = app.screen.query_one("#add-bando", Select)
        side.focus()
        await keys(pilot, "space")
        assert side.expanded
        await keys(pilot, "down", "enter")  # in the open list Enter chooses
        assert not side.expanded and side.value == "pj"
        assert isinstance(app.screen, AddForm)
        for key in ("oculto", "privado"):
            app.screen.query_one(f"#add-{key}", Checkbox).focus()
            await keys(pilot, "space")
            assert app.screen.query_one(f"#add-{key}", Checkbox).value
        for key, typed in (("ini", "2"), ("hab", "3"), ("mov", "5"), ("momento", "4"),
                           ("vida", "4,4,3,2,1")):
            box(app, key).value = typed
        box(app, "talentos").focus()
        await pilot.press(*"artista-marcial, pun")
        await pilot.pause()
        assert "punteria-zen" in painted(app, "#add-help")  # the candidates
        await keys(pilot, "right")  # → accepts the suggestion
        assert box(app, "talentos").value == "artista-marcial, punteria-zen"
        await keys(pilot, "enter")
        cid = app.fight.find("Cid Campeador")
        assert cid is not None and not isinstance(app.screen, AddForm)
        assert (cid.side, cid.hidden, cid.private) == ("pj", True, True)
        assert (cid.ini, cid.skill, cid.mov, cid.start) == (2, 3, 5, 4)
        assert cid.talents == ("artista-marcial", "punteria-zen")
        assert cid.wounds.boxes == (4, 4, 3, 2, 1)

        # Hordas (miembros, aguante), and copias=3 adds three.
        await open_form(pilot, "Orcos", "5", miembros="6", aguante="2", copias="3")
        box(app, "copias").focus()
        await keys(pilot, "enter")
        orcs = [c for c in app.fight.combatants if c.name.startswith("Orcos")]
        assert [c.name for c in orcs] == ["Orcos 1", "Orcos 2", "Orcos 3"]
        assert all((c.ac_per_turn, c.members, c.toughness) == (5, 6, 2) for c in orcs)


async def test_at_80x24_the_add_form_tabs_everywhere_keeps_a_refusal_and_setup_fits(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        count = len(app.fight.combatants)
        await keys(pilot, "a")
        fields = app.screen.query_one("#add-fields")
        assert fields.max_scroll_y > 0  # it scrolls here
        expected = ["add-name", *(f"add-{f.key}" for f in FIELDS), "add-bando",
                    "add-oculto", "add-privado"]
        seen = []
        for _ in expected:
            focused = app.screen.focused
            seen.append(focused.id)
            view = fields.content_region
            assert view.y <= focused.region.y < view.bottom, focused.id  # scrolled into view
            assert "⏎ añadir" in painted(app, "#add-hint")  # the hint stays
            await keys(pilot, "tab")
        assert sorted(seen) == sorted(expected)
        assert app.screen.focused.id == "add-name"  # round again
        assert "Privado" not in screen_text(app)  # scrolled back to the top

        # A refused line: the engine's reason in the form, which keeps what was typed.
        await keys(pilot, "enter")  # no name: said, and the name keeps the focus
        assert "Falta el nombre" in painted(app, "#add-error")
        assert app.screen.focused is box(app, "name")
        await pilot.press(*"Mike")
        await keys(pilot, "enter")  # no AC: said, and the AC keeps the focus
        assert "Falta AC por turno" in painted(app, "#add-error")
        assert app.screen.focused is box(app, "ac")
        await pilot.press("4")
        box(app, "talentos").value = "gun"  # ambiguous: the engine refuses, naming it
        await keys(pilot, "enter")
        assert isinstance(app.screen, AddForm)
        assert "Talento desconocido «gun»" in painted(app, "#add-error")
        box(app, "talentos").value = ""
        await keys(pilot, "enter")
        assert "Ya hay un combatiente llamado «Mike»" in painted(app, "#add-error")
        assert any("Ya hay un combatiente llamado «Mike»" in n.message
                   for n in app._notifications)  # and as the funnel's notification
        assert isinstance(app.screen, AddForm)
        assert (box(app, "name").value, box(app, "ac").value) == ("Mike", "4")
        await keys(pilot, "escape")
        assert len(app.fight.combatants) == count

        # The set-up dialog at 80×24: twelve combatants, one row each, the hint in view.
        assert app.run_line("alta Orco ac=5 copias=8")
        app.open_setup()
        await pilot.pause()
        rows = painted(app, "#setup-rows")
        assert all(f"Orco {n} " in rows for n in range(1, 9)) and "Mike" in rows
        assert "^b empieza" in painted(app, "#setup .hint")


# ---------------------------------------------------------------- new fight

async def test_enter_on_the_rules_or_the_party_creates_the_fight(tmp_path):
    from cdbtui import roster

    saves = tmp_path / "saves"
    saves.mkdir()
    roster.put_member(saves, Add(name="Sven", ac=5, side="pj"))
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "n")
        assert isinstance(app.screen, NewFight)
        await pilot.press(*"Asalto al tren")
        await keys(pilot, "tab", "down")  # the rules: ↓ chooses Walküre
        await keys(pilot, "enter")
        assert app.path == saves / "asalto-al-tren.toml"
        assert (app.fight.name, app.fight.rules) == ("Asalto al tren", "walkure")
        assert [c.name for c in app.fight.combatants] == ["Sven"]
        answers = []
        app.push_screen(NewFight(("Sven",)), answers.append)  # the dialog again, by itself
        await pilot.pause()
        await pilot.press(*"Sin grupo")
        await keys(pilot, "tab", "tab", "space")  # Space unticks «Con el grupo»
        assert not app.screen.query_one("#with-party", Checkbox).value
        await keys(pilot, "enter")  # Enter on the checkbox creates, without ticking
        assert answers == [("Sin grupo", "cdb", False)]
