"""Completion of the `:` line that knows about quotes (issue 12): names of several
words complete whole and quoted, after a complete name comes what may follow it,
and an ambiguous prefix lists its candidates without choosing one.

All pure (`engine.completion`); the `:` screen only shows what these return
(tests/tui/test_pilot_picker.py presses the keys once).
"""

from __future__ import annotations

import pytest
from fights import demo_lines, play
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cdbtui.engine.commands import quote
from cdbtui.engine.completion import (
    candidates,
    completions,
    scan,
    suggestion,
    tab,
    talent_completions,
)
from cdbtui.engine.errors import Refusal
from cdbtui.engine.parser import parse, take_name, tokenize
from cdbtui.engine.session import Session
from cdbtui.engine.text import fold

#: The demo (Mike, Sven, Soldado 1 and 2) with names of several words and accents.
CROWD = (
    'alta "La Viuda Negra" ac=6 momento=1 oculto',
    'alta "Orco número 23" ac=5 momento=1',
    'alta "Orco número 28" ac=5 momento=1',
)


@pytest.fixture(scope="module")
def fight():
    return play(*demo_lines(), *CROWD).fight


def labels(fight, text: str) -> list[str]:
    return [c.label for c in candidates(fight, text)]


# ---------------------------------------------------------------- the typed words


def test_the_scan_knows_whether_a_quote_is_open():
    done, word = scan('dano "La Viu')
    assert [t.value for t in done] == ["dano"]
    assert (word.value, word.start, word.quoted, word.open) == ("La Viu", 5, True, True)
    done, word = scan('dano "La Viuda Negra" ')
    assert [(t.value, t.quoted) for t in done] == [("dano", False), ("La Viuda Negra", True)]
    assert (word.value, word.open) == ("", False)
    done, word = scan('«Soldado 1» g')  # typographic quotes are quotes (parser.tokenize)
    assert done[0].value == "Soldado 1" and word.value == "g"
    done, word = scan(r'"a \"b\" c')
    assert word.value == 'a "b" c' and word.open


# ---------------------------------------------------------------- names of several words


def test_a_prefix_of_a_name_of_several_words_completes_whole_and_quoted(fight):
    # Today's bug: «la» → ghost «laa Viuda Negra"» (the tail of a rewritten line).
    assert tab(fight, "la").value == '"La Viuda Negra" '
    assert tab(fight, "viu").value == '"La Viuda Negra" '  # any word of the name
    assert tab(fight, "la viu").value == '"La Viuda Negra" '  # typed bare, two words
    assert tab(fight, 'dano "La Vi').value == 'dano "La Viuda Negra" '
    assert tab(fight, "dano «viu").value == 'dano "La Viuda Negra" '
    # The ghost only adds to what is typed: never a rewrite of it.
    assert suggestion(fight, "la") is None
    assert suggestion(fight, '"La Vi') == '"La Viuda Negra"'


def test_after_a_complete_name_come_verbs_and_maneuvers_never_a_stray_quote(fight):
    for line in ('"La Viuda Negra" ', "La Viuda Negra ", '"Soldado 1" ', "Mike "):
        found = completions(fight, line)
        assert found and all(f.startswith(line) for f in found)
        tails = [f[len(line):] for f in found]
        assert "gasta" in tails and "disparar-armas-largas" in tails
        assert not any('"' in tail for tail in tails)  # no other name's last words
        assert not any(fold(tail) in ("negra", "1", "2") for tail in tails)
    assert tab(fight, '"Soldado 1" dis').shown  # several disparar-…: listed


def test_an_ambiguous_prefix_lists_the_candidates_and_never_picks_one(fight):
    result = tab(fight, "Mike dis")
    assert "disparar-arcos" in result.shown and "disparar-armas-largas" in result.shown
    assert result.value == "Mike disparar-"  # only what they all share
    assert tab(fight, "Mike disparar-").value is None  # nothing more in common
    orcos = tab(fight, "orco")
    assert orcos.shown == ("Orco número 23", "Orco número 28") and orcos.value is None
    assert tab(fight, 'dano "Orco').value == 'dano "Orco número 2'  # shared, inside the quote
    # A word that is complete but also the start of others stays ambiguous.
    apuntar = tab(fight, "Mike apuntar")
    assert apuntar.value is None and apuntar.shown == ("apuntar", "apuntar-a-una-parte-del-cuerpo")
    # The two guns of the bug report: Tab on «disparar-ar» chooses neither.
    guns = tab(fight, "Mike disparar-ar")
    assert guns.value == "Mike disparar-ar" or guns.value is None or guns.value.endswith("-ar")
    assert {"disparar-arcos", "disparar-armas-largas"} <= set(guns.shown)


def test_a_unique_prefix_completes_with_a_space(fight):
    assert tab(fight, "mi").value == "Mike "
    assert tab(fight, "Mike disparar-armas-la").value == "Mike disparar-armas-largas "
    assert tab(fight, "Mike").value == "Mike "  # complete: just the space
    assert completions(fight, "Mike") == ()  # nothing to add to the word itself


def test_an_unfinished_bare_name_goes_on_with_the_next_word(fight):
    # «orco» names two: the next word continues the name, it is no maneuver.
    assert labels(fight, "orco n") == ["Orco número 23", "Orco número 28"]
    assert tab(fight, "orco número 2").shown == ("Orco número 23", "Orco número 28")
    assert tab(fight, "dano orco ") == tab(fight, "dano orco")


# ---------------------------------------------------------------- after a maneuver


def test_an_attack_offers_its_target_word_and_the_other_side(fight):
    assert labels(fight, "Mike disparar-armas-largas ") == ["a", "contra"]
    targets = labels(fight, "Mike disparar-armas-largas a ")
    assert targets[:3] == ["Soldado 1", "Soldado 2", "La Viuda Negra"]  # the other side first
    assert "Mike" not in targets
    # A name typed right after the maneuver completes with the `a` the parser needs.
    line = tab(fight, "Mike disparar-armas-largas viu").value
    assert line == 'Mike disparar-armas-largas a "La Viuda Negra" '
    command = parse(line, fight)
    assert (command.maneuver, command.target) == ("disparar-armas-largas", "La Viuda Negra")
    assert labels(fight, "Mike apuntar ") == []  # not an attack: no target
    assert "ahora" in labels(fight, "Mike interrumpe disparar-armas-largas ")
    assert "gde=" in labels(fight, "Mike liderazgo ")


# ---------------------------------------------------------------- keywords, talents, conditions


def test_keywords_complete_in_either_spelling(fight):
    assert tab(fight, "sig").value == "siguiente "
    assert tab(fight, "und").value == "undo "  # English spelling kept when typed
    assert tab(fight, "da").value == "dano "
    assert tab(fight, "rapida ").shown == ("si", "no")
    assert tab(fight, "tirar ju").value == "tirar juntos "


def test_talents_complete_after_talentos(fight):
    assert tab(fight, "alta Bea ac=5 tal").value == "alta Bea ac=5 talentos="  # no space: a value follows
    assert tab(fight, "alta Bea ac=5 talentos=pun").value == "alta Bea ac=5 talentos=punteria-zen "
    line = tab(fight, "alta Bea ac=5 talentos=punteria-zen,art").value
    assert line == "alta Bea ac=5 talentos=punteria-zen,artista-marcial "
    assert parse(line, fight).talents == ("punteria-zen", "artista-marcial")
    assert talent_completions("punteria-zen, gun-k") == ("punteria-zen,gun-kata",)  # the add form's field
    assert set(talent_completions("gun")) == {"gun-kata", "gun-fu"}
    assert "punteria-zen" not in talent_completions("punteria-zen,")
    assert "ac=" not in labels(fight, "alta Bea ac=5 ")  # given once
    assert "oculto" in labels(fight, "alta Bea ac=5 ")


def test_conditions_complete_per_ruleset_and_removal_offers_what_it_has():
    session = play(*demo_lines(), "estado Sven +aturdido")
    f = session.fight
    assert tab(f, "estado Mike +agar").value == "estado Mike +agarrado "
    assert tab(f, "estado Sven -").value == "estado Sven -aturdido "  # the only one it has
    assert "+aturdido" not in labels(f, "estado Sven +")  # it has it already
    assert tab(f, "estado Mike +agarrado ").value == "estado Mike +agarrado turnos="
    line = tab(f, 'estado "Soldado 1" +ceg').value
    assert line == 'estado "Soldado 1" +cegado '
    assert parse(line, f).condition == "cegado"
    walkure = play("alta Ana ac=5", rules="walkure").fight
    assert tab(walkure, "estado Ana +derr").value == "estado Ana +derribado "


def test_damage_options_complete(fight):
    assert labels(fight, "dano Sven 3 ") == ["rd=", "balas=", "fatiga"]
    assert labels(fight, "dano Sven 3 rd=1 ") == ["balas=", "fatiga"]


# ---------------------------------------------------------------- completing then parsing

WORD = st.text(alphabet="abñAÉz1'\"\\", min_size=1, max_size=5)
NAMES = st.lists(st.lists(WORD, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=4)


def _roster(names: list[str]):
    session = Session.new(rules="cdb", seed=0)
    for name in names:
        try:
            session.execute(f"alta {quote(name)} ac=5")
        except Refusal:
            assume(False)
    fight = session.fight
    assume(len({fold(c.name) for c in fight.combatants}) == len(fight.combatants))
    return fight


def _named(fight, line: str, skip: int) -> str | None:
    try:
        c, rest = take_name(fight, tokenize(line)[skip:])
    except Refusal:
        return None
    return c.name if not rest else None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(names=NAMES, which=st.integers(0, 3), cut=st.integers(1, 60), bare=st.booleans(),
       context=st.sampled_from(["", "dano ", "baja "]))
def test_completing_any_prefix_of_a_name_then_parsing_gives_that_name(names, which, cut, bare, context):
    fight = _roster(names)
    name = fight.combatants[which % len(fight.combatants)].name
    typed = quote(name)
    if bare:
        assume(not any(ch in name for ch in "\"'\\") and not name.startswith(":"))
        typed = name
    prefix = typed[:max(1, min(cut, len(typed)))].rstrip(" ") or typed[:1]
    line = context + prefix
    skip = 1 if context else 0
    found = candidates(fight, line)
    lines = {c.line(line) for c in found}
    # The name is one of the ways to finish the line, and that way parses to it; or
    # the typed text names it already (a word typed whole: nothing to add).
    assert any(_named(fight, done, skip) == name for done in lines) or _named(fight, line, skip) == name
    result = tab(fight, line)
    if len(found) == 1:  # a unique prefix completes, to the name
        assert _named(fight, result.value, skip) == name
    elif result.value is not None:  # several: the line only grows by what they share
        assert all(done.startswith(result.value) for done in lines)


def test_a_leaders_bonus_never_offers_the_leader_as_its_own_companion():
    from cdbtui.engine.completion import completions
    from cdbtui.engine.session import Session

    session = Session.new("x", "cdb", 1)
    for line in ("alta Mike ac=5 bando=pj", "alta Sven ac=5 bando=pj", "alta Orco ac=4"):
        session.execute(line)
    offered = completions(session.fight, "bono mike a ")
    assert offered[0] == "bono mike a Sven"  # his side first
    assert not any(line.endswith("Mike") for line in offered)


def test_a_name_that_begins_a_longer_one_lets_the_longer_one_complete():
    """With Orco and Orco número 23/28 in the fight, «orco numero 2» is on its way to
    the longer names (nothing follows «Orco» as «numero»)."""
    from cdbtui.engine.completion import completions
    from cdbtui.engine.session import Session

    session = Session.new("x", "cdb", 1)
    for line in ("alta Orco ac=5", 'alta "Orco número 23" ac=4', 'alta "Orco número 28" ac=4'):
        session.execute(line)
    assert completions(session.fight, "orco numero 2") == ('"Orco número 23"', '"Orco número 28"')
    assert completions(session.fight, "orco esq") == ("orco esquivar",)  # Orco himself still
