"""Read what is painted on a running app's screen as plain text (for Pilot tests)."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App) -> str:
    """The whole screen, one line per row, trailing spaces kept off."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)
