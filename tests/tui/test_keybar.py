"""The footer (`KeyBar`): the keys that apply now on one line, each action once, the
palette's key at the right, hidden keys left out, a click pressing the key."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from cdbtui.tui.widgets.keybar import KeyBar


class Bar(App):
    BINDINGS = [
        Binding("x", "count", "contar"),
        Binding("y", "count", "contar otra vez"),  # same action: shown once
        Binding("z", "hidden", "oculta"),
        Binding("w", "never", "nunca", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.hide = False

    def compose(self) -> ComposeResult:
        yield Static("hola")
        yield KeyBar()

    def action_count(self) -> None:
        self.count += 1

    def action_hidden(self) -> None:
        self.hide = True
        self.refresh_bindings()  # check_action's answers changed

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "hidden" and self.hide:
            return False
        return True


def painted(app: App) -> str:
    bar = app.screen.query_one(KeyBar)
    return "".join(segment.text for segment in bar.render_line(0))


async def test_the_bar_shows_each_action_once_and_the_palette_at_the_right():
    app = Bar()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        line = painted(app)
        assert line.startswith(" x contar  z oculta ")
        assert "contar otra vez" not in line  # one key per action
        assert "nunca" not in line  # show=False
        assert line.rstrip().endswith("palette")
        assert len(line) == 60
        # A key whose action stops applying leaves the bar.
        await pilot.press("z")
        await pilot.pause()
        assert app.hide
        assert "oculta" not in painted(app)


async def test_a_click_on_a_key_presses_it():
    app = Bar()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        await pilot.click(KeyBar, offset=(2, 0))
        await pilot.pause()
        assert app.count == 1
        await pilot.click(KeyBar, offset=(40, 0))  # past the keys, before the palette
        await pilot.pause()
        assert app.count == 1


async def test_keys_that_do_not_fit_are_left_out_whole():
    app = Bar()
    async with app.run_test(size=(24, 5)) as pilot:
        await pilot.pause()
        line = painted(app)
        assert len(line) == 24
        assert "x contar" in line
        assert "z ocul" not in line  # never half a key
