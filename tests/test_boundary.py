"""The engine/UI boundary is enforced: headless modules never import Textual."""

from __future__ import annotations

import subprocess
import sys

HEADLESS = [
    "cdbtui.engine.model", "cdbtui.engine.rules", "cdbtui.engine.parser",
    "cdbtui.engine.session", "cdbtui.engine.catalog", "cdbtui.store",
    "cdbtui.view", "cdbtui.cli", "cdbtui.codec", "cdbtui.library", "cdbtui.roster",
    "cdbtui.export",
]


def test_headless_modules_do_not_import_textual_or_rich():
    code = (
        "import importlib, sys\n"
        f"for name in {HEADLESS!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"headless code imported: {result.stdout}"


def test_engine_sources_have_no_io_or_clock():
    from pathlib import Path

    engine = Path(__file__).parents[1] / "cdbtui" / "engine"
    for source in engine.glob("*.py"):
        text = source.read_text("utf-8")
        for forbidden in ("import textual", "from textual", "import time", "open(", "datetime"):
            assert forbidden not in text, f"{source.name} uses {forbidden!r}"
