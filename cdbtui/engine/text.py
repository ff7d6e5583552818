"""Folding of names and words so that typing is forgiving: case, accents and ñ."""

from __future__ import annotations

import unicodedata
from functools import cache


@cache
def _marks() -> dict[int, None]:
    """The combining marks of the Basic Multilingual Plane, for `str.translate` (made
    once, in a few milliseconds, the first time a text with an accent is folded)."""
    return {cp: None for cp in range(0x10000) if unicodedata.combining(chr(cp))}


def fold(text: str) -> str:
    """Lower case without accents: "Puñetazo" → "punetazo", "DAÑO" → "dano"."""
    if text.isascii():
        return text.lower()  # the same as casefold for ASCII, and nothing to strip
    folded = unicodedata.normalize("NFKD", text.casefold()).translate(_marks())
    if folded and max(folded) > "\uffff":  # beyond the BMP: the marks one by one
        folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return folded


def slug(text: str) -> str:
    """A catalog id: folded words joined by hyphens ("Disparar Armas Largas")."""
    words = "".join(ch if ch.isalnum() else " " for ch in fold(text)).split()
    return "-".join(words)
