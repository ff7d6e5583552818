"""`fold` (engine/text.py) takes shortcuts (ASCII, a translation table of the BMP's
combining marks): it must fold exactly as the plain definition does."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from cdbtui.engine.text import fold, slug


def plain_fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@given(st.text())
def test_fold_is_casefold_without_combining_marks(text):
    assert fold(text) == plain_fold(text)


def test_fold_of_the_words_a_dj_types():
    assert [fold(w) for w in ("Puñetazo", "DAÑO", "Íñigo", "Straße", "x\U0001D165y")] == [
        "punetazo", "dano", "inigo", "strasse", "xy"]
    assert slug("Disparar Armas Largas") == "disparar-armas-largas"
