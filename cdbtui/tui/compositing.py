"""From a key to the terminal: what the fight screens do so a key shows at once.

Measured in the real terminal (benchmarks/tui.py, "real terminal"), an arrow key
cost cdbtui half as much again as a minimal Textual app, in three places:

* **Rendering what is not shown.**  A key usually changes three lines (the old and
  new selected column's header, the panel's title).  Textual's compositor
  (`textual._compositor`, pinned with textual) renders every widget whose
  *container* overlaps those lines (the footer and the log far below included),
  each one whole, to keep the few lines that changed.  `CroppedCompositor` keeps
  Textual's update and renders only the widgets whose visible part meets its rows
  and columns, each for those rows only, at its whole visible width (the
  compositor cuts each line at the edges of the visible regions, so a strip must
  cover the region's width).  Every cell of an update comes from the same widget and
  line as before: a widget left out has no cell in it, a line left out is not in it.
* **The frame waiting for the interpreter.**  Textual writes a frame from a thread
  of its own; while the app goes on with Python work after queueing the frame,
  that thread waits for the interpreter lock for up to the switch interval (5 ms by
  default).  `quick_frames` makes the interval 0.1 ms: the frame is written as soon
  as it is ready, at the cost of a few lock hand-overs per frame.
* **Work after the frame.**  Work only the footer needs (which keys apply) runs a
  moment after the frame (`CroppedScreen.keys_after_frame`), not between the frame
  being queued and being written.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from textual._compositor import Compositor
from textual.actions import parse as parse_action
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.timer import Timer

#: The interpreter's switch interval while a cdbtui app runs (`quick_frames`), in s.
SWITCH_INTERVAL = 0.0001
#: How long after a key's frame `CroppedScreen.keys_after_frame` checks the keys, in s:
#: after the frame is written, within the same frame of a 60 Hz screen for a DJ.
AFTER_FRAME = 0.02


def quick_frames() -> None:
    """Let Textual's writer thread write each frame as soon as it is queued."""
    sys.setswitchinterval(SWITCH_INTERVAL)


class CroppedCompositor(Compositor):
    """Textual's compositor rendering, for a partial update, only what it shows."""

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        if not crop or crop == self.size.region:
            yield from super()._get_renders(crop)  # a full update: every widget whole
            return
        crop_x, crop_y, crop_right, crop_bottom = crop.x, crop.y, crop.right, crop.bottom
        intersection = Region.intersection
        #: Per row of the crop, the spans (x, end) of the widgets rendered so far.
        taken: dict[int, list[tuple[int, int]]] = {}
        for widget, (region, clip) in self.visible_widgets.items():  # front to back
            x, y, width, height = intersection(region, clip)
            top = max(y, crop_y)
            bottom = min(y + height, crop_bottom)
            if bottom <= top or x >= crop_right or x + width <= crop_x:
                continue
            left, right = max(x, crop_x), min(x + width, crop_right)
            rows = range(top, bottom)
            # The first strip of a cell wins (`_render_chops`): a widget whose part in
            # the crop the widgets in front of it cover (a container behind its
            # children) gives the update nothing.
            if all(_covers(taken.get(row, ()), left, right) for row in rows):
                continue
            for row in rows:
                taken.setdefault(row, []).append((x, x + width))
            shown = Region(x, top, width, bottom - top)
            # (region, clip) as `_render_chops` takes them: both the part shown, so
            # their intersection is where these strips go.
            yield shown, shown, widget.render_lines(Region(x - region.x, top - region.y, width, bottom - top))


class CroppedScreen(Screen):
    """A `Screen` whose partial updates render only what they show (`CroppedCompositor`)
    and whose footer is refreshed a moment after a key's frame, only when the keys that
    apply change (`keys_after_frame`).

    A subclass says which keys its footer shows (`footer_entries`) and whether each
    applies (`applies`, the engine's answer)."""

    _binding_signature: tuple = ()
    _keys_timer: Timer | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = CroppedCompositor()

    def footer_entries(self) -> Iterable:
        """The key entries (`cdbtui.keys`) this screen's footer may show."""
        raise NotImplementedError

    def applies(self, action: str, parameters: tuple[object, ...] = ()) -> object:
        raise NotImplementedError

    def keys_after_frame(self) -> None:
        """Check the footer's keys `AFTER_FRAME` s from now, once for a burst of calls
        (a key held down checks them when the burst ends)."""
        if self._keys_timer is not None:
            self._keys_timer.stop()
        self._keys_timer = self.set_timer(AFTER_FRAME, self._keys_checked)

    def _keys_checked(self) -> None:
        self._keys_timer = None
        self._refresh_bindings_if_changed()

    def _refresh_bindings_if_changed(self) -> None:
        """Refresh the footer only when the set of keys that apply changes.

        A refresh makes Textual ask `check_action` of every binding again and the
        footer (`KeyBar`) repaint; most commands leave the same keys applicable.
        """
        signature = tuple(bool(self.applies(key.action_name, parse_action(key.action)[2]))
                          for key in self.footer_entries() if key.shown is not None)
        if signature != self._binding_signature:
            self._binding_signature = signature
            self.refresh_bindings()


def _covers(spans, left: int, right: int) -> bool:
    """Whether the spans (x, end) together cover every column from `left` to `right`."""
    for start, end in sorted(spans):
        if start > left:
            return False
        left = max(left, end)
        if left >= right:
            return True
    return left >= right
