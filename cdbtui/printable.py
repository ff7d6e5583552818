"""User text made safe to show: one line, nothing a terminal would act on.

Names, factions, fight and file names, free texts and house-rule names come from
the DJ (or from a file someone else wrote).  Anything that reaches a terminal
goes through `literal`: control characters (ESC, BEL, CR, LF, TAB, DEL, the C1
range), bidi overrides and isolates, the other invisible format characters that
could hide or reorder text, line/paragraph separators and lone surrogates (an
undecodable file name) become visible escapes such as ``\\x1b``, ``\\n`` or
``\\u202e``.  Everything else is left as typed: accents, ñ, emoji (with their
zero-width joiners and flag tag sequences).

Pure Python, no Textual or Rich: the headless modules (view, export, cli) use it.
"""

from __future__ import annotations

import re

#: Code points shown as escapes: Unicode's Cc, Cf, Cs, Zl and Zp categories, except
#: the zero-width non-joiner and joiner (U+200C, U+200D: emoji sequences and some
#: scripts need them).  The tag characters (U+E0020–U+E007F) are kept only inside an
#: emoji flag sequence (🏴 + tags + cancel tag), see `_PATTERN`.
_UNSAFE = (
    "\x00-\x1f\x7f-\x9f\xad"
    "\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
#: A flag emoji's tag sequence (kept as is), or one unsafe character (escaped).
_PATTERN = re.compile(
    "(\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)|([" + _UNSAFE + "])"
)
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    short = _SHORT.get(char)
    if short is not None:
        return short
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _replace(match: re.Match[str]) -> str:
    flag, char = match.groups()
    return flag if flag is not None else _escape(char)


def literal(text: str) -> str:
    """`text` safe for a terminal and on one line: unsafe characters as escapes.

    >>> literal("Orco [jefe]")
    'Orco [jefe]'
    >>> literal("a\\x1b]52;c;SGVsbG8=\\x07b\\n")
    'a\\\\x1b]52;c;SGVsbG8=\\\\x07b\\\\n'

    Idempotent (an escape is plain printable ASCII), and cheap on ordinary text.
    """
    if text.isprintable():  # no Cc/Cf/Cs/Zl/Zp at all: the common case, in C
        return text
    return _PATTERN.sub(_replace, text)


def literal_lines(text: str) -> str:
    """Like `literal`, but each line stays a line (for multi-line messages)."""
    if text.isprintable():
        return text
    return "\n".join(literal(line) for line in text.split("\n"))


#: The escapes `literal` writes (to leave them alone when changing the case).
_ESCAPES = re.compile(r"(\\(?:[ntr]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}))")


def shout(text: str) -> str:
    """`literal(text)` in capitals, its escapes kept as written ("\\x1b", not "\\X1B")."""
    pieces = _ESCAPES.split(literal(text))
    return "".join(p if i % 2 else p.upper() for i, p in enumerate(pieces))
