"""What the screens show, as plain data: pure functions of the fight (no Textual).

- `sheet`: the grid of moments × combatants (`build_sheet`), the headers, the legend;
- `board`: the text board of `cdbtui do`/`show` and the JSON state (`state_json`);
- `panel`: the TUI's side panel, status line and rule decisions;
- `picker`: the maneuver picker's choices.

What players see is decided in `cdbtui.players`; completion of a typed line is
part of the command language (`cdbtui.engine.completion`).
"""

from .board import board_text, state_json, summary_line, window_moment
from .panel import (
    DECISIONS,
    PanelRow,
    RowRole,
    panel_rows,
    panel_title,
    status_line,
    window_part,
)
from .picker import Choice, ChoiceState, filter_choices, maneuver_choices
from .sheet import (
    HIDDEN_MARK,
    LEGEND,
    LEGEND_SHORT,
    MAX_WIDTH,
    MIN_WIDTH,
    Cell,
    CellRole,
    Column,
    Sheet,
    abbreviate,
    build_sheet,
    category_text,
    column_order,
    conditions_text,
    countdown_parts,
    fit,
    fit_widths,
    header,
    note_text,
    on_sheet,
    selection_order,
    sheet_lines,
    signed,
    track_text,
    turns_left,
    turns_text,
)

__all__ = [
    "DECISIONS", "HIDDEN_MARK", "LEGEND", "LEGEND_SHORT", "MAX_WIDTH", "MIN_WIDTH", "Cell", "CellRole", "Choice", "ChoiceState",
    "Column", "PanelRow", "RowRole", "Sheet", "abbreviate", "board_text", "build_sheet", "category_text", "column_order", "conditions_text", "countdown_parts",
    "filter_choices", "fit", "fit_widths", "header", "maneuver_choices", "note_text", "on_sheet", "panel_rows", "panel_title",
    "selection_order", "sheet_lines", "signed", "state_json", "status_line", "summary_line", "track_text", "turns_left", "turns_text",
    "window_moment", "window_part",
]
