"""Folding of names and words so that typing is forgiving: case, accents and ñ."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case without accents: "Puñetazo" → "punetazo", "DAÑO" → "dano"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def slug(text: str) -> str:
    """A catalog id: folded words joined by hyphens ("Disparar Armas Largas")."""
    words = "".join(ch if ch.isalnum() else " " for ch in fold(text)).split()
    return "-".join(words)
