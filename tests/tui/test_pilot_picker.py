"""Keystrokes counted (issue 12): the picker that learns and its target step, and
Tab on an ambiguous prefix of the `:` line.  One app start drives every count; the
rules behind them are pure and tested in tests/test_picker_and_completion.py and
tests/test_completion_quotes.py.

Counts (from the fight screen, the attacker selected): a repeated maneuver 2 keys
(⏎ ⏎), an attack at a named target 6 (⏎ l a ⏎ v ⏎), the same attack at the same
target again 3 (⏎ ⏎ ⏎).
"""

from __future__ import annotations

from helpers import keys, state
from screen_text import screen_text
from textual.widgets import Input, Static

from cdbtui.engine.model import LogKind, Role
from cdbtui.tui.screens.fight import FightScreen
from cdbtui.tui.screens.picker import ManeuverPicker

SIZE = (120, 36)

#: Mike acts alone from 9 down to 2; the other side is two orcs and a hidden widow.
LINES = [
    "alta Mike ac=9 bando=pj momento=9",
    "alta Sven ac=5 bando=pj momento=2",
    'alta "Orco número 23" ac=5 momento=1',
    'alta "Orco número 28" ac=5 momento=1',
    'alta "La Viuda Negra" ac=6 momento=1 oculto',
    "empezar",
]


class Counter:
    """Presses keys one by one (letting the app settle) and counts them."""

    def __init__(self, pilot) -> None:
        self.pilot = pilot
        self.count = 0

    async def __call__(self, *presses: str) -> None:
        for key in presses:
            await self.pilot.press(key)
            self.count += 1
        await self.pilot.pause()


def actions_of(app, name: str) -> list:
    return [e for e in app.fight.log
            if e.kind is LogKind.ACTION and e.text.startswith(f"{name}: ")]


def target_of(entry) -> list[str]:
    return [m.name for m in entry.about if m.role is Role.TARGET]


async def test_keys_counted_for_a_repeat_an_attack_at_a_target_and_tab(make_app):
    app = make_app(LINES)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.select("Mike")
        assert app.run_line("Mike reconocimiento")  # his first maneuver (not counted)
        await pilot.pause()
        assert state(app, "Mike") == (8, 8)

        # ---- a repeated maneuver: ⏎ ⏎
        app.select("Mike")
        press = Counter(pilot)
        await press("enter")
        assert isinstance(app.screen, ManeuverPicker)
        assert app.screen.shown[0].id == "reconocimiento"  # used before: first
        assert "reciente" in screen_text(app)
        await press("enter")
        assert press.count == 2
        assert isinstance(app.screen, FightScreen)
        assert state(app, "Mike") == (7, 7)
        assert [e.text.split(" (")[0] for e in actions_of(app, "Mike")] == ["Mike: Reconocimiento"] * 2

        # ---- an attack at a named target: ⏎ l a ⏎ v ⏎
        app.select("Mike")
        press = Counter(pilot)
        await press("enter")
        await press("l", "a")
        assert app.screen.shown[0].id == "disparar-armas-largas"
        await press("enter")
        assert isinstance(app.screen, ManeuverPicker) and app.screen.targeting is not None
        painted = screen_text(app)
        assert "Disparar Armas Largas ¿a quién?" in painted
        assert [t.name for t in app.screen.shown_targets] == [
            "Orco número 23", "Orco número 28", "La Viuda Negra"]  # the other side only
        assert "oculto" in painted  # the DJ's screen: hidden ones offered, and marked
        await press("v")
        assert [t.name for t in app.screen.shown_targets] == ["La Viuda Negra"]
        await press("enter")
        assert press.count == 6
        assert isinstance(app.screen, FightScreen)
        assert state(app, "Mike") == (4, 4)  # 3 AC from 7
        last = actions_of(app, "Mike")[-1]
        assert "Disparar Armas Largas a La Viuda Negra" in last.text
        assert target_of(last) == ["La Viuda Negra"]

        # ---- the same attack at the same target: ⏎ ⏎ ⏎ (last target first)
        app.select("Mike")
        press = Counter(pilot)
        await press("enter")
        assert [ch.id for ch in app.screen.shown[:2]] == ["disparar-armas-largas", "reconocimiento"]
        await press("enter")
        assert app.screen.shown_targets[0].name == "La Viuda Negra"
        assert "blanco anterior" in screen_text(app)
        await press("enter")
        assert press.count == 3
        assert state(app, "Mike") == (1, 1)
        assert target_of(actions_of(app, "Mike")[-1]) == ["La Viuda Negra"]
        before = app.fight

        # ---- Tab on an ambiguous prefix lists the candidates and picks none
        await keys(pilot, "colon")
        box = app.screen.query_one(Input)
        hint = app.screen.query_one("#command-hint", Static)
        await pilot.press(*"or")
        await keys(pilot, "tab")
        assert box.value == "or"  # neither orc chosen
        painted = screen_text(app)
        assert "Orco número 23" in painted and "Orco número 28" in painted
        assert "Varias opciones" in str(hint.render())
        async def typed(text: str) -> None:  # what was typed before a Tab (not a count)
            box.value = text
            box.cursor_position = len(text)
            await keys(pilot, "tab")

        await typed("Mike dis")
        assert box.value == "Mike disparar-"  # only what all of them share
        painted = screen_text(app)
        assert "disparar-arcos" in painted and "disparar-armas-largas" in painted
        await typed(box.value + "armas-la")
        assert box.value == "Mike disparar-armas-largas "  # unique: completed
        await typed(box.value + "viu")
        assert box.value == 'Mike disparar-armas-largas a "La Viuda Negra" '
        await keys(pilot, "escape")
        assert isinstance(app.screen, FightScreen) and app.fight is before
