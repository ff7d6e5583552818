"""Where the app's stylesheet and theme come from.

The styles live in `screens.tcss` at the repository root (STYLE.md).  Run from a
checkout, it is found next to the package; installed, setuptools puts it under
`<prefix>/share/cdbtui/` (pyproject `data-files`).  The theme follows the
terminal's background when it says so in `COLORFGBG`, else Textual's dark theme.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from pathlib import Path

DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


def css_path() -> Path:
    """The path of `screens.tcss`: the checkout's, else the installed copy."""
    repo = Path(__file__).resolve().parents[2] / "screens.tcss"
    if repo.exists():
        return repo
    prefixes = [sysconfig.get_path("data"), sys.prefix, getattr(site, "USER_BASE", None)]
    for prefix in prefixes:
        if prefix:
            candidate = Path(prefix) / "share" / "cdbtui" / "screens.tcss"
            if candidate.exists():
                return candidate
    return repo


def theme_for_terminal(environ: dict[str, str] | None = None) -> str:
    """Light theme on a terminal that reports a light background, dark otherwise."""
    environ = os.environ if environ is None else environ
    chosen = environ.get("CDBTUI_THEME")
    if chosen:
        return chosen
    colours = environ.get("COLORFGBG", "")
    background = colours.rsplit(";", 1)[-1] if colours else ""
    return LIGHT_THEME if background in ("7", "15") else DARK_THEME
