"""`StyledLines`: what the Line-API widgets of the sheet share to paint their lines
cheaply: the widget's own style and its component classes' styles, each computed
once per stylesheet update instead of once per line painted.

`Widget.rich_style` walks the widget's ancestors to blend their backgrounds on every
call; a repaint asks for it once per line, which made it one of the larger costs of
a keypress (benchmarks/tui.py).  Textual calls `notify_style_update` on a node whose
styles change (a new theme, a pseudo-class such as :focus, a CSS reload): both
caches are dropped there.
"""

from __future__ import annotations

from rich.style import Style


class StyledLines:
    """Mixin for a `Widget` painting its own lines (`render_line`): `base_style` and
    `component_style(name)`, cached until the next `notify_style_update`."""

    _line_base_style: Style | None = None
    _line_component_styles: dict[str, Style] | None = None

    @property
    def base_style(self) -> Style:
        """`self.rich_style`, computed once per stylesheet update."""
        style = self._line_base_style
        if style is None:
            style = self._line_base_style = self.rich_style  # type: ignore[attr-defined]
        return style

    def component_style(self, name: str) -> Style:
        """The partial rich style of the component class `name`, cached likewise."""
        styles = self._line_component_styles
        if styles is None:
            styles = self._line_component_styles = {}
        style = styles.get(name)
        if style is None:
            style = styles[name] = self.get_component_rich_style(name, partial=True)  # type: ignore[attr-defined]
        return style

    def notify_style_update(self) -> None:
        self._line_base_style = None
        self._line_component_styles = None
        super().notify_style_update()  # type: ignore[misc]
