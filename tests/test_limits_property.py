"""Whatever a command accepts, the save loads again (issue 9: one set of limits).

Random command lines, with random Unicode in names and texts and numbers at and
beyond every bound, are played into a save through the funnel (`SaveFile.play`).
After each accepted one the file must load, and replaying its history from the
empty fight must give the fight it holds; a refused one must leave the file as it
was, byte for byte.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdbtui.engine.commands import quote
from cdbtui.engine.errors import Refusal
from cdbtui.engine.limits import name_problem
from cdbtui.engine.session import Session
from cdbtui.files import SaveError
from cdbtui.funnel import SaveFile
from cdbtui.store import create, load

#: Characters that matter: odd spaces, invisible ones, controls, bidi, emoji, accents.
TRICKY = st.sampled_from([
    "\u00a0", "\u00ad", "\u200b", "\u200d", "\u202e", "\u2066", "\t", "\n", "\x1b", "\x07",
    "\x7f", "\u0085", "\ufeff", "\ue000", "\u2028", "\U0001f468", "\u0303", "ñ", "é", " ",
    "[", "]", "/", '"', "'", "\\", "=", ",", "«",
])
NAME = st.text(alphabet=st.one_of(st.sampled_from("abcdeAMOS"), TRICKY), min_size=1, max_size=8)
NUMBER = st.one_of(st.integers(-3, 12), st.sampled_from([-1000, -999, -100, -99, 99, 100, 999,
                                                         1000, 10**6]))


@st.composite
def command_line(draw) -> str:
    name = quote(draw(NAME))
    kind = draw(st.sampled_from(["alta", "alta", "momento", "gasta", "espera", "nombre",
                                 "empezar", "siguiente", "turno", "dano", "blancos",
                                 "deshacer", "rehacer", "estado"]))
    n = draw(NUMBER)
    if kind == "alta":
        stat = draw(st.sampled_from(["ini", "agi", "ate", "hab", "mov", "momento", "ac"]))
        return f"alta {name} ac={draw(st.integers(1, 12))} {stat}={n}"
    if kind == "momento":
        return f"momento {name} {n}"
    if kind == "gasta":
        return f"{name} gasta {draw(st.integers(0, 12))} {quote(draw(NAME))}"
    if kind == "espera":
        return f"{name} espera {quote(draw(NAME))}"
    if kind == "nombre":
        return f"nombre {quote(draw(NAME))}"
    if kind == "dano":
        return f"dano {name} {n}"
    if kind == "blancos":
        return f"blancos {name} {n}"
    if kind == "estado":
        return f"estado {name} +{draw(NAME)}"
    return kind


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(command_line(), min_size=1, max_size=25))
def test_whatever_a_command_accepts_the_save_loads_and_replays(lines):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.toml"
        create(path, Session.new("f", "cdb", 5))
        save_file = SaveFile.open(path)
        for line in lines:
            before = path.read_bytes()
            try:
                save_file.play(line)
            except Refusal:
                assert path.read_bytes() == before
                continue
            try:
                loaded = load(path)
            except SaveError as error:  # pragma: no cover - the bug this test is for
                raise AssertionError(f"«{line}» was accepted but the save no longer loads: {error}")
            assert loaded.fight == save_file.session.fight
            for combatant in loaded.fight.combatants:
                assert name_problem(combatant.name) is None
            replayed = Session(loaded.base, list(loaded.lines))
            assert replayed.fight == loaded.fight
        save_file.close()
        assert load(path).fight == save_file.session.fight
