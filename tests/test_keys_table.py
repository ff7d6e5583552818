"""The one table of keys (`cdbtui.keys`): the fight screen's bindings, the help screen
and the README's table all come from it, and the README may not drift from it."""

from __future__ import annotations

import re
from pathlib import Path

from cdbtui.engine.parser import ADD_FLAGS, ADD_KEYS
from cdbtui.keys import (
    ADD_SYNTAX,
    KEYS,
    Scope,
    all_keys,
    footer_keys,
    help_lines,
    readme_table,
)

README = Path(__file__).parents[1] / "README.md"
ANCHOR = "At the table (`cdbtui open RUTA`)"


def readme_key_table() -> str:
    """The Markdown table that follows the README's paragraph about the keys."""
    text = README.read_text("utf-8")
    after = text[text.index(ANCHOR):]
    lines = after.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        table.append(line)
    return "\n".join(table) + "\n"


def test_the_readme_key_table_is_the_one_the_table_of_keys_produces():
    assert readme_key_table() == readme_table(), (
        "README.md's table of keys differs from cdbtui.keys: paste in keys.readme_table()"
    )


def test_the_readme_and_the_help_quote_the_whole_alta_syntax():
    from cdbtui.tui.screens.help import help_markdown

    assert f"`{ADD_SYNTAX}`" in README.read_text("utf-8")
    assert f"`{ADD_SYNTAX}`" in help_markdown()


def test_the_alta_syntax_names_every_key_and_flag_the_parser_takes():
    named = set(re.findall(r"([a-z]+)=", ADD_SYNTAX)) | set(re.findall(r"\[([a-z]+)\]", ADD_SYNTAX))
    assert set(ADD_KEYS.values()) <= named
    assert set(ADD_FLAGS.values()) <= named


def test_the_help_lists_every_entry_of_the_table_in_its_order():
    from cdbtui.tui.screens.help import help_markdown

    assert help_lines() == [f"- `{e.keys}` — {e.help}" for e in KEYS]
    assert "\n".join(help_lines()) in help_markdown()


def test_the_fight_screen_binds_exactly_the_keys_of_the_table():
    from cdbtui.tui.screens.fight import FightScreen

    bound = [(b.key, b.action, b.description, b.show, b.key_display, b.id, b.priority)
             for b in FightScreen.BINDINGS]
    table = [(k.keys, k.action, k.label, k.shown is not None, k.shown, k.id, k.priority)
             for k in footer_keys()]
    assert bound == table


def test_the_selection_keys_win_over_the_sheets_scrolling_and_the_focus_keys():
    """←/→ and Tab are checked before the focused sheet's own keys (it scrolls with
    the arrows when its columns don't fit; the screen's Tab moves the focus)."""
    priority = {name for key in all_keys() if key.priority for name in key.keys.split(",")}
    assert {"left", "right", "h", "l", "tab", "shift+tab"} <= priority


def test_every_action_of_the_table_exists():
    from cdbtui.tui.screens.fight import FightScreen

    for key in all_keys():
        if not key.action.startswith("app."):
            assert hasattr(FightScreen, f"action_{key.action_name}"), key.action


def test_keys_and_ids_are_unique():
    names = [name for key in all_keys() for name in key.keys.split(",")]
    assert len(names) == len(set(names))
    ids = [key.id for key in all_keys()]
    assert len(ids) == len(set(ids))


def test_the_footer_lists_the_selected_combatants_keys_first():
    shown = [key for key in footer_keys() if key.shown is not None]
    scopes = [key.scope for key in shown]
    assert scopes == sorted(scopes, key=list(Scope).index)
    assert [key.label for key in shown[:7]] == [
        "maniobra", "gastar", "esquivar", "cubierto", "retrasar", "esperar", "fin",
    ]
