"""User text on Textual widgets: shown literally, never parsed as markup.

Textual parses a `str` as content markup almost everywhere (Static, Label,
border titles, notifications, DataTable cells…): a name like `[/b]` raises a
`MarkupError`, `Orco [jefe]` loses "[jefe]".  And it writes control characters
to the terminal as they are.  So every text that may hold user input (names,
sides, fight and file names, log and free texts, typed lines, refusals quoting
them) reaches a widget through one of these helpers, after
`printable.literal`.
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.app import App
from textual.widget import Widget

from ..printable import literal, literal_lines


def plain(text: str) -> Content:
    """`text` as content shown exactly (no markup), on one line."""
    return Content(literal(text))


def plain_lines(text: str) -> Content:
    """Like `plain`, but the text's own line breaks stay (messages, questions)."""
    return Content(literal_lines(text))


def cell(text: str) -> Text:
    """A DataTable cell shown exactly (a `str` cell would be parsed as Rich markup)."""
    return Text(literal(text), end="", no_wrap=True)


def tell(node: App | Widget, message: str, **options) -> None:
    """`node.notify(message)` with the message shown literally (`markup=False`)."""
    node.notify(literal_lines(message), markup=False, **options)


def as_markup(text: str) -> str:
    """Markup that shows `text` literally, for the few APIs that only take markup
    (the command palette's help line).  Textual markup reads `\\[` as a plain "[",
    and a "[" after a backslash opens no tag, so escaping every "[" is enough
    (`textual.markup.escape` leaves `[$var]` and `[B]` alone)."""
    return literal(text).replace("[", "\\[")
