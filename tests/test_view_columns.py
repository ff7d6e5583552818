"""Columns that fit (issue 12): widths from the names and the room, abbreviations
that keep the distinguishing part, numbers never cut, the worst category under the
name, the strip of those without a start moment, the order ←/→ walk."""

from __future__ import annotations

from fights import demo_lines, play
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbtui.engine.model import FATIGUE_CATEGORIES, WOUND_CATEGORIES
from cdbtui.tui.widgets.sheet import GUTTER
from cdbtui.view import (
    abbreviate,
    build_sheet,
    category_text,
    fit_widths,
    selection_order,
    sheet_lines,
)
from cdbtui.view.sheet import CATEGORY_FORMS

#: The room for the columns on a 120×36 terminal: the fight screen's side panel is 30
#: wide, the sheet's border 2, its gutter GUTTER (measured in tests/tui/test_pilot_columns.py).
AREA_120 = 120 - 30 - 2 - GUTTER
#: At 80×24 the side panel is 28 (its max-width, 36 %), and the moments overflow the
#: height: a vertical scrollbar takes one more column.
AREA_80 = 80 - 28 - 2 - GUTTER - 1

NAMES = ("Brunilda Peña", "La Viuda Negra", "Orco número 23", "Orco número 28", "Mike",
         "Sven", "Soldado 1", "Soldado 2", "Merche", "Ana", "Capitán Garfio", "Bea")


def table(count: int, *extra: str) -> object:
    """`count` combatants with start moments from 12 down, started, then `extra` lines."""
    lines = []
    for index, name in enumerate(NAMES[:count]):
        side = "pj" if index % 3 == 0 else "pnj"
        lines.append(f'alta "{name}" ac={5 + index % 4} bando={side} momento={12 - index % 9}')
    return play(*lines, "empezar", *extra).fight


def used(sheet, gap: int = 1) -> int:
    return sum(c.width for c in sheet.columns) + gap * (len(sheet.columns) - 1)


def test_twelve_columns_fit_a_120_column_terminal_and_eight_an_80_column_one():
    for count, area in ((12, AREA_120), (8, AREA_80)):
        sheet = build_sheet(table(count), width=area)
        assert len(sheet.columns) == count
        assert used(sheet) <= area
        heads = [c.label for c in sheet.columns]
        assert len(set(heads)) == count  # every column tells itself apart
        assert all(len(c.label) <= c.width for c in sheet.columns)
        # Each header is its name or a cut of it: its first letter, or the number it ends in.
        for column, label in zip(sheet.columns, heads):
            assert label[0] == column.name[0] or label[0] == "…"
    # The player view's wider gaps fit too (as long as the numbers allow).
    players = build_sheet(table(12), width=120 - 2 - GUTTER, gap=3, for_players=True)
    assert used(players, 3) <= 120 - 2 - GUTTER


def test_with_room_to_spare_columns_grow_up_to_the_longest_name():
    long = "Capitán Garfio de la Torre Negra"
    fight = play("alta Mike ac=7 momento=7", f'alta "{long}" ac=5 momento=5', "empezar").fight
    sheet = build_sheet(fight, width=200)
    by_name = {c.name: c for c in sheet.columns}
    assert by_name[long].width > 14  # never the old fixed 14
    assert by_name[long].label == long
    assert by_name["Mike"].width < by_name[long].width
    assert any(cell.text.startswith(long) for cell in by_name[long].cells)
    # Narrower than the names: they give way, the short one keeps its width.
    narrow = build_sheet(fight, width=24)
    cut = {c.name: c for c in narrow.columns}
    assert cut["Mike"].label == "Mike" and cut[long].label != long
    assert used(narrow) <= 24


def test_two_orcs_keep_their_numbers():
    assert abbreviate(["Orco número 23", "Orco número 28"], 7) == ("Orco…23", "Orco…28")
    assert abbreviate(["Orco número 23", "Orco número 28"], 4) == ("O…23", "O…28")
    assert abbreviate(["Mike", "Brunilda Peña"], 8) == ("Mike", "Brunild…")
    sheet = build_sheet(table(12), width=AREA_120)
    orcs = [c.label for c in sheet.columns if c.name.startswith("Orco")]
    assert orcs[0].endswith("23") and orcs[1].endswith("28")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab 12oñ…", min_size=1, max_size=16), min_size=1, max_size=12,
             unique=True),
    st.integers(min_value=3, max_value=16),
)
def test_abbreviations_of_distinct_names_are_distinct_and_fit(names, width):
    shown = abbreviate(names, width)
    assert len(set(shown)) == len(names)
    assert all(len(s) <= width for s in shown)
    assert all(s == n for s, n in zip(shown, names) if len(n) <= width)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.text(alphabet="Orco 12", min_size=1, max_size=14),
                       st.integers(min_value=3, max_value=12)),
             min_size=1, max_size=10, unique_by=lambda pair: pair[0]),
)
def test_abbreviations_with_a_width_each_are_distinct_and_fit(pairs):
    names, widths = zip(*pairs)
    shown = abbreviate(names, widths)
    assert len(set(shown)) == len(names)
    assert all(len(s) <= w for s, w in zip(shown, widths))


def test_the_ac_and_the_modifier_are_never_cut():
    fight = table(12, 'dano "La Viuda Negra" 4')
    assert fight.find("La Viuda Negra").modifier == -1
    for area in (AREA_120, AREA_80, 30):
        sheet = build_sheet(fight, width=area)
        by_name = {c.name: c for c in sheet.columns}
        widow = by_name["La Viuda Negra"]
        assert widow.label.endswith("−1") and len(widow.label) <= widow.width
        brunilda = by_name["Brunilda Peña"]
        start = sheet.moments.index(12)
        assert brunilda.cells[start].text.endswith(" 5")  # ▶Br… 5: her 5 AC
        assert len(brunilda.cells[start].text) <= brunilda.width
        widow_start = sheet.moments.index(fight.find("La Viuda Negra").start)
        assert widow.cells[widow_start].text.endswith(f" {fight.find('La Viuda Negra').ac}")
    # Too narrow for them all: the sheet scrolls, numbers still whole.
    crowded = fit_widths((14, 14, 14), (6, 5, 4), 9)
    assert crowded == (6, 5, 4)


def test_the_header_shows_the_worst_category_fitted():
    fight = table(12, 'dano "La Viuda Negra" 4', "dano Mike 4 fatiga", "dano Sven 1",
                  "dano Sven 7 fatiga")
    sheet = build_sheet(fight, width=AREA_120)
    by_name = {c.name: c for c in sheet.columns}
    assert by_name["La Viuda Negra"].category == WOUND_CATEGORIES[1] == "Herido"
    assert by_name["Mike"].category == FATIGUE_CATEGORIES[1] == "Aturdido"
    assert by_name["Sven"].category == "Gravemente Aturdido"  # worse than his Rasguño
    assert by_name["Ana"].category == ""
    assert sheet.has_categories
    lines = sheet_lines(sheet)
    assert "Herido" in lines[1] or "Her." in lines[1]
    for category, forms in CATEGORY_FORMS.items():
        for width in range(3, 20):
            text = category_text(category, width)
            assert len(text) <= width
            if len(forms[-1]) <= width:
                assert text in forms
    assert not build_sheet(table(4), width=AREA_120).has_categories


def test_a_private_pnjs_category_is_not_on_the_players_sheet():
    from cdbtui.players import players_fight

    fight = play(*demo_lines(), 'dano "Soldado 2" 4', 'dano "Soldado 1" 4').fight
    sheet = build_sheet(players_fight(fight), for_players=True, width=80)
    by_name = {c.name: c for c in sheet.columns}
    assert by_name["Soldado 2"].category == ""  # privado: its numbers are the DJ's
    assert by_name["Soldado 1"].category == "Herido"


def test_the_strip_and_the_order_the_arrows_walk():
    fight = table(4, "alta Ana ac=5", "alta Bea ac=4")
    sheet = build_sheet(fight, width=AREA_120)
    assert sheet.waiting_for_start == ("Ana", "Bea")
    assert sheet.unplaced == ("Ana", "Bea")
    order = selection_order(fight)
    assert order == (*(c.name for c in sheet.columns), "Ana", "Bea")
    assert order[:4] == ("Brunilda Peña", "La Viuda Negra", "Orco número 23", "Orco número 28")
    # Nobody placed yet: the strip is all there is, in roster order.
    empty = play("alta Zoe ac=5", "alta Ana ac=5").fight
    assert build_sheet(empty, width=AREA_120).unplaced == ("Zoe", "Ana")
    assert selection_order(empty) == ("Zoe", "Ana")
    # The DJ's strip marks a hidden one as the column headers do; players never see it.
    hidden = table(4, "alta Ana ac=5", "alta Sombra ac=5 oculto")
    assert build_sheet(hidden, width=AREA_120).waiting_for_start == ("Ana", "◌Sombra")
    assert build_sheet(hidden, width=AREA_120).unplaced == ("Ana", "Sombra")
    assert build_sheet(hidden, for_players=True, width=AREA_120).unplaced == ("Ana",)


def test_on_deck_for_the_tv_never_names_a_hidden_combatant():
    from cdbtui.players import player_view

    # Mike alone at 7: on deck is whoever stands next, Soldado 1 at 6.
    fight = play(*demo_lines()).fight
    assert player_view(fight).banner.on_deck == "luego: Soldado 1"
    # Two at the same moment: the rest of the queue.
    both = play(*demo_lines(), "mike gasta 1").fight
    assert player_view(both).banner.on_deck == "luego: Mike"
    # Soldado 1 alone at 6, then Sven and Mike both at 5, in their queue's order.
    later = play(*demo_lines(), "mike gasta 2").fight
    assert player_view(later).banner.on_deck == "luego: Sven, Mike"
    # A hidden Ninja standing next (at 6, before Soldado 1) is left out.
    hidden = play(*demo_lines()[:-1], "alta Ninja ac=6 agi=9 momento=6 oculto", "empezar").fight
    assert hidden.find("Ninja").marker == 6
    banner = player_view(hidden).banner
    assert banner.on_deck == "luego: Soldado 1" and "Ninja" not in banner.on_deck
    # Nobody after: nothing to say.
    last = play(*demo_lines(), "mike fin", '"soldado 1" fin', "sven fin").fight
    assert player_view(last).banner.on_deck == ""
    # One who already acted this turn stands next too (the engine's next moment).
    acted = play("alta Ana ac=6", "alta Bea ac=6", "alta Cora ac=6", "momento Ana 10",
                 "momento Bea 9", "momento Cora 5", "empezar", "ana gasta 3").fight
    assert acted.moment == 9 and player_view(acted).banner.on_deck == "luego: Ana"


def test_the_short_legend_fits_the_side_column_a_line_each_and_names_the_sheets_marks():
    from cdbtui.view import LEGEND, LEGEND_SHORT

    marks = {mark for mark, _ in LEGEND}
    for mark, meaning in LEGEND_SHORT:
        # The side column is 30 wide: 26 for the text once padded (a line each).
        assert len(f"{mark:<4} {meaning}") <= 26, mark
        assert mark in marks or any(m.startswith(mark.rstrip(".")) for m in marks), mark


@given(st.text(alphabet=st.sampled_from("aZ ñ🐉漢é1"), max_size=20), st.integers(2, 30))
def test_a_fitted_cell_takes_exactly_its_width_in_terminal_cells(text, width):
    """Two-cell characters (emoji, CJK) count as two: a column after a name with them
    stays in line with its header."""
    from rich.cells import cell_len  # the terminal's count, as Rich paints it

    from cdbtui.view.sheet import fit

    fitted = fit(text, width)
    assert cell_len(fitted) == width
    if cell_len(text) <= width:
        assert fitted.rstrip() == text.rstrip()
