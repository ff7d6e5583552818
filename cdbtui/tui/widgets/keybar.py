"""The footer of every screen: the keys that apply now, painted as one line.

Textual's `Footer` makes one widget per key and recomposes them whenever the
bindings change, which on the fight screen is after every keypress (the keys shown
depend on the selected combatant and the countdown): re-styling those widgets was a
quarter of an app start and much of each keypress's work.  `KeyBar` shows the same
thing (each action's first binding: its key and its label, the command palette's key
at the right) as a single Line-API widget that repaints only when the list changes.
A click on a key presses it.
"""

from __future__ import annotations

from attrs import frozen
from rich.segment import Segment
from textual import events
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from .styled import StyledLines
from ...printable import literal


@frozen
class BarKey:
    """One key of the bar: what it shows, and the key a click presses."""

    key: str
    display: str
    label: str
    enabled: bool = True
    palette: bool = False


def bar_keys(screen: Screen) -> tuple[BarKey, ...]:
    """The keys `screen` shows now: those whose binding is shown, one per action (the
    first), then the command palette's if the app has one."""
    app = screen.app
    seen: set[str] = set()
    keys: list[BarKey] = []
    palette_key = app.COMMAND_PALETTE_BINDING if app.ENABLE_COMMAND_PALETTE else None
    palette: BarKey | None = None
    for name, active in screen.active_bindings.items():
        binding = active.binding
        if name == palette_key:
            palette = BarKey(binding.key, app.get_key_display(binding), binding.description,
                             active.enabled, palette=True)
            continue
        if not binding.show or binding.action in seen:
            continue
        seen.add(binding.action)
        keys.append(BarKey(binding.key, app.get_key_display(binding), binding.description,
                           active.enabled))
    if palette is not None:
        keys.append(palette)
    return tuple(keys)


class KeyBar(StyledLines, Widget, can_focus=False):
    """The keys that apply now, docked at the bottom (a cheap `Footer`)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--label", "keybar--disabled"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keybar--label {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .keybar--disabled {
            text-style: dim;
        }
    }
    """

    _keys: tuple[BarKey, ...] = ()
    #: (first column, last column + 1, key) of each key painted, for clicks.
    _spans: tuple[tuple[int, int, str], ...] = ()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        keys = bar_keys(screen)
        if keys != self._keys:
            self._keys = keys
            self.refresh()

    @property
    def keys(self) -> tuple[BarKey, ...]:
        """The keys shown now (tests read them)."""
        return self._keys

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.base_style
        if y != 0 or width <= 0:
            return Strip.blank(width, base)
        key_style = base + self.component_style("keybar--key")
        label_style = base + self.component_style("keybar--label")
        dim = self.component_style("keybar--disabled")
        left: list[Segment] = []
        spans: list[tuple[int, int, str]] = []
        column = 0
        main = [k for k in self._keys if not k.palette]
        palette = next((k for k in self._keys if k.palette), None)
        right: list[Segment] = []
        right_width = 0
        if palette is not None:
            right = [Segment("▏", label_style),
                     Segment(f" {literal(palette.display)} ", key_style),
                     Segment(f"{literal(palette.label)} ", label_style)]
            right_width = sum(segment.cell_length for segment in right)
        room = width - right_width
        for key in main:
            shown_key = f" {literal(key.display)} "
            shown_label = f"{literal(key.label)} " if key.label else ""
            size = len(shown_key) + len(shown_label)
            if column + size > room:
                break
            extra = dim if not key.enabled else None
            left.append(Segment(shown_key, key_style + extra if extra else key_style))
            if shown_label:
                left.append(Segment(shown_label, label_style + extra if extra else label_style))
            spans.append((column, column + size, key.key))
            column += size
        segments = left
        if right and room >= column:
            segments = [*left, Segment(" " * (room - column), base), *right]
            spans.append((room, width, palette.key))
        self._spans = tuple(spans)
        return Strip(segments).crop_extend(0, width, base)

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key.split(",")[0])
                return
