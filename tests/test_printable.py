"""User text reaches a terminal literally (issue 9, items 7 and 8).

`printable.literal` turns control, bidi and other invisible format characters
into visible escapes; the headless outputs (`board_text`, the sheet model, the
panel, the player view data, the Markdown and HTML exports) use it, so a name or a
log text holding an escape sequence (OSC 52 sets the clipboard) never reaches the
terminal raw, and a newline in a free text never cuts a line.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
from attrs import evolve

from cdbtui.engine.model import LogEntry
from cdbtui.export import export_html, export_markdown
from cdbtui.printable import literal, literal_lines, shout
from cdbtui.view import (
    board_text,
    build_sheet,
    header,
    panel_rows,
    sheet_lines,
    status_line,
    summary_line,
)
from cdbtui.players import player_view
from fights import demo_lines, play

#: OSC 52: "set the clipboard to 'Hello'" (and BEL ends it).
OSC52 = "\x1b]52;c;SGVsbG8=\x07"
RAW = ("\x1b", "\x07", "\x9b", "\r", "\u202e")


def _unsafe(text: str) -> list[str]:
    """The characters of `text` a terminal would act on (or that hide text)."""
    return [ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")
            and ch not in "\n\u200c\u200d"]


# ---------------------------------------------------------------- literal()


@pytest.mark.parametrize(("text", "shown"), [
    ("\x1b[2J", "\\x1b[2J"),
    (OSC52, "\\x1b]52;c;SGVsbG8=\\x07"),
    ("a\nb", "a\\nb"),
    ("a\r\nb", "a\\r\\nb"),
    ("a\tb", "a\\tb"),
    ("del\x7f", "del\\x7f"),
    ("c1 \x85 \x9b31m", "c1 \\x85 \\x9b31m"),
    ("\x00", "\\x00"),
    ("abc\u202edcba", "abc\\u202edcba"),
    ("\u2066x\u2069", "\\u2066x\\u2069"),
    ("\u202a\u202b\u202c\u202d\u2067\u2068", "\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068"),
    ("zero\u200bwidth\ufeff", "zero\\u200bwidth\\ufeff"),
    ("línea\u2028párrafo\u2029", "línea\\u2028párrafo\\u2029"),
    ("archivo\udcff", "archivo\\udcff"),  # an undecodable file name (surrogateescape)
    ("tag\U000e0041", "tag\\U000e0041"),  # an invisible tag character outside a flag
])
def test_unsafe_characters_become_visible_escapes(text, shown):
    assert literal(text) == shown
    assert literal(literal(text)) == shown  # idempotent
    assert shown.isascii() or not _unsafe(shown)


@pytest.mark.parametrize("text", [
    "Orco [jefe]", "[/b]", "[bold red]x", "Señora Núñez", "Ærøskøbing", "Ниндзя", "忍者",
    "😀", "👨\u200d👩\u200d👧", "❤\ufe0f", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "a\u00a0b", "C:\\ruta\\x", "", "   ",
])
def test_ordinary_text_is_unchanged(text):
    assert literal(text) == text


def test_the_common_case_is_the_same_string_untouched():
    text = "T1 M5 · Soldado 1: Disparar Armas Largas (3 AC) → momento 2"
    assert literal(text) is text


def test_every_control_format_and_separator_character_is_escaped():
    kept = {0x200C, 0x200D}  # joiners: emoji sequences and some scripts need them
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if code in kept or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            continue
        shown = literal(f"a{ch}b")
        assert shown != f"a{ch}b" and shown.isascii(), f"U+{code:04X} left raw"


def test_literal_lines_keeps_line_breaks_only():
    assert literal_lines("uno\ndos\x1b") == "uno\ndos\\x1b"
    assert literal_lines("a\rb") == "a\\rb"


def test_shout_capitalises_around_the_escapes():
    assert shout("orco\x1b]52;c;x\x07 ñ") == "ORCO\\x1b]52;C;X\\x07 Ñ"


# ---------------------------------------------------------------- headless outputs


def _hostile_fight():
    """The demo with a name, the fight's name and log texts carrying escapes.

    Built directly (not with `alta`/`gasta`: the engine refuses such texts now;
    old saves and hand-edited files may still hold them)."""
    fight = play(*demo_lines(), "mike gasta 1 apunta").fight
    names = {"Sven": f"Sven{OSC52}", "Soldado 1": "Sol\u202edado\r1"}
    combatants = tuple(
        evolve(c, name=names.get(c.name, c.name),
               trigger=f"entra\n{OSC52}" if c.name == "Soldado 1" else c.trigger,
               conditions=(f"aturdido{OSC52}",) if c.name == "Sven" else c.conditions)
        for c in fight.combatants
    )
    log = (*fight.log, LogEntry(fight.turn, fight.moment, f"Sven{OSC52} gasta 1: grita\nfuerte"))
    return evolve(fight, name="Puerto\x1b]0;título\x07", combatants=combatants, log=log)


def test_board_text_shows_names_and_log_texts_literally():
    fight = _hostile_fight()
    board = board_text(fight, log_lines=50)
    for raw in RAW:
        assert raw not in board
    assert "Sven\\x1b]52;c;SGVsbG8=\\x07" in board
    assert "Puerto\\x1b]0;título\\x07" in board
    assert "Sol\\u202edado\\r1" in board
    # A newline typed into a free text does not cut its log line.
    last = board.splitlines()[-1]
    assert last.endswith("gasta 1: grita\\nfuerte")


def test_the_sheet_model_cells_labels_and_panel_are_literal():
    fight = _hostile_fight()
    sheet = build_sheet(fight)
    sven = next(col for col in sheet.columns if col.name.startswith("Sven"))
    assert sven.name == f"Sven{OSC52}"  # the identity stays the saved name
    texts = [sven.label, *(cell.text for col in sheet.columns for cell in col.cells)]
    texts += sheet_lines(sheet) + [header(fight), status_line(fight)]
    texts += [summary_line(c, fight) for c in fight.combatants]
    for c in fight.combatants:
        texts += [row.value for row in panel_rows(c, fight)]
    for text in texts:
        assert not _unsafe(text) and "\n" not in text, text
    assert any("\\x1b]52;c;SGVsbG8=\\x07" in t for t in texts)
    assert any("entra\\n\\x1b]52" in t for t in texts)  # the wait trigger in the panel


def test_the_player_view_data_is_literal():
    fight = _hostile_fight()
    view = player_view(fight, log_lines=50)
    texts = [view.headline, view.queue, view.banner.turn, view.banner.note,
             view.banner.actor, view.banner.later]
    texts += [t for row in view.pcs for t in (row.name, row.status)]
    texts += [entry.text for entry in view.log]
    for text in texts:
        assert not _unsafe(text) and "\n" not in text, text
    assert any("grita\\nfuerte" in t for t in texts)


@pytest.mark.parametrize("for_players", [False, True])
def test_exports_carry_no_escape_sequence(for_players):
    fight = _hostile_fight()
    md = export_markdown(fight, for_players=for_players)
    page = export_html(fight, for_players=for_players)
    for text in (md, page):
        for raw in RAW:
            assert raw not in text
    # Markdown: the escape is shown, its backslash escaped like any other.
    assert "Puerto\\\\x1b\\]0;título\\\\x07" in md
    assert "Puerto\\x1b]0;título\\x07" in page
    if not for_players:
        assert "grita\\\\nfuerte" in md and "grita\\nfuerte" in page
