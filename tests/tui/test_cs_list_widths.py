"""C-System's list at any width (SYSTEMS.md §2.1): every cell of a row stands apart
from the next by at least one space, on the painted screen at 80×24 (and 120×36)
and in the pure list at every width; the Vitalidad bar stays at 120 columns.

The columns are found on the titles line as painted («#», «INI», «Nombre», «NH»,
«Este turno»/«Turno», «Queda», «Def…», «Vitalidad»/«PV»); under each title but the
first, the cell before must end before the title's column: the painted character
just left of it is a space on every row.  The bar, which has no title of its own,
must have a space before its first cell too."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parent))

import pytest
from screen_text import screen_text

from cdbtui.engine.session import Session
from cdbtui.roster import CS_DEMO_LINES
from cdbtui.store import create
from cdbtui.view.cslist import build_list
from cdbtui.view.rows import Kind

#: CSYSTEM.md §12, turn 1 up to step 9 (SYSTEMS.md §2.1's picture), then Titán's charge.
STEP_9 = (
    "centella apuntar", "centella ataca ruina tirada=31 dano=7",
    "ruina ataca centella tirada=30 dano=9 tipo=energia", "estado centella +ensordecido",
    "ruina mover", "ruina esquivar 5", "sicario rafaga-corta a titan tirada=20 dano=6+4",
    "sicario cubrirse simple",
)
CHARGE = (*STEP_9, "titan cargar a sicario tirada=21 dano=14")
STATES = {
    "inicio": (),
    "paso-9": STEP_9,
    "carga": CHARGE,
    "moribundo": (*CHARGE, "dolor sicario 20", "critica sicario x +sangrando:1", "dano sicario 10"),
    "tras": (*CHARGE, "dolor sicario 20", 'critica sicario "corte profundo" +sangrando:1',
             'titan simple "¡Centella, cúbreme!"', "ruina ataca titan tirada=31 dano=9 tipo=energia",
             "dolor titan 25", "ruina ataca titan tirada=22 dano=4 tipo=energia", "dolor titan 13",
             "ruina mover", 'sicario simple "pide refuerzos por radio"', "centella retrasa tras titan"),
}
#: The titles in their order, each with its short form.
TITLES = (("INI",), ("Nombre",), ("NH",), ("Este turno", "Turno"), ("Queda",), ("Def",),
          ("Vitalidad", "PV"))
BAR = re.compile(r"[█░▏]")


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


def session(lines) -> Session:
    s = Session.new("Azotea", "csystem", 1234)
    for line in (*CS_DEMO_LINES, *lines):
        s.execute(line)
    return s


def title_columns(titles: str) -> list[int]:
    """Where each title after «#» starts on the titles line."""
    starts, at = [], titles.index("#") + 1
    for forms in TITLES:
        found = [(titles.find(f" {form}", at), form) for form in forms]
        found = [(index + 1, form) for index, form in found if index >= 0]
        if found:
            index, form = min(found)
            starts.append(index)
            at = index + len(form)
    return starts


def gaps_missing(titles: str, rows: list[str]) -> list[str]:
    """The rows (with the column) whose cell runs into the next one."""
    columns = title_columns(titles)
    assert len(columns) >= 5, titles  # INI, Nombre, Queda, Def, Vitalidad at least
    bad = []
    for row in rows:
        for column in columns:
            if column - 1 < len(row) and row[column - 1] != " ":
                bad.append(f"{row!r} at {column}")
        bar = BAR.search(row)
        if bar is not None and row[bar.start() - 1] != " ":
            bad.append(f"{row!r}: the bar")
    return bad


def painted_list(app) -> tuple[str, list[str]]:
    """The list widget's titles line and its rows, as painted on the screen."""
    from cdbtui.tui.widgets.cslist import CsListView

    view = app.screen.query_one(CsListView)
    region = view.content_region
    lines = screen_text(app).splitlines()[region.y:region.y + region.height]
    lines = [line[region.x:region.x + region.width] for line in lines]
    names = [c.name for c in app.fight.combatants]
    rows = lines[1:1 + len(names)]  # the rows come first, one each
    assert {name for name in names for row in rows if name[:5] in row} == set(names), lines
    return lines[0], rows


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", STATES)
async def test_every_painted_cell_has_a_space_before_the_next(tmp_path, state, size):
    from cdbtui.tui.app import CdbApp

    path = tmp_path / "azotea.toml"
    create(path, session(STATES[state]))
    app = CdbApp(path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        titles, rows = painted_list(app)
        assert gaps_missing(titles, rows) == [], "\n".join([titles, *rows])


async def test_the_bar_stays_at_120_columns_in_the_spec_s_state(tmp_path):
    """SYSTEMS §2.1 step 9 at 120×36: the gaps narrow before the bar goes, and the bar
    stands under «Vitalidad», one space after the numbers."""
    from cdbtui.tui.app import CdbApp

    for state in ("inicio", "paso-9"):
        path = tmp_path / f"{state}.toml"
        create(path, session(STATES[state]))
        app = CdbApp(path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            titles, rows = painted_list(app)
            assert all("▏" in row for row in rows), "\n".join([titles, *rows])
            vit = titles.index("Vitalidad")
            for row in rows:
                assert BAR.search(row).start() < vit + len("Vitalidad") + 1, row
                assert re.search(r"\d+/\d+ [█░▏]", row), row


@pytest.mark.parametrize("state", STATES)
def test_every_width_keeps_a_space_between_cells(state):
    """The pure list (`build_list`) at every width from 20 to 170 cells."""
    fight = session(STATES[state]).fight
    for width in range(20, 171):
        for players in (False, True):
            lines = build_list(fight, None, for_players=players, width=width).lines
            titles = next(line.text for line in lines if line.kind is Kind.TITLES)
            rows = [line.text for line in lines if line.kind is Kind.ROW]
            assert gaps_missing(titles, rows) == [], (width, players, titles, rows)
