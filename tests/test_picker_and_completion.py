"""What the maneuver picker offers and what the `:` line completes, as plain data.

The picker's list is `view.maneuver_choices` filtered by `view.filter_choices`; the
`:` line's completions are `engine.completion.completions`.  These are checked here
without an app; the Pilot tests (tests/tui/test_pilot_dialogs.py) keep one typed
filter and one completion each, to show the screens use them.
"""

from __future__ import annotations

import pytest
from fights import demo_lines, play

from cdbtui.engine.completion import completions
from cdbtui.view import filter_choices, maneuver_choices

#: Bruce has Artista Marcial; Kato has no talents.
MARTIAL = (
    "alta Bruce ac=6 bando=pj talentos=artista-marcial momento=6",
    "alta Kato ac=6 bando=pnj momento=5",
    "empezar",
)


def choices_of(name: str, *lines: str):
    session = play(*lines)
    return maneuver_choices(session.fight, session.fight.find(name))


def ids(choices) -> list[str]:
    return [ch.id for ch in choices]


# ---------------------------------------------------------------- the picker's choices


def test_talent_maneuvers_are_offered_only_with_the_talent_and_costs_include_it():
    bruce = {ch.id: ch for ch in choices_of("Bruce", *MARTIAL)}
    kato = {ch.id: ch for ch in choices_of("Kato", *MARTIAL)}
    assert "proyectar" in bruce and "proyectar" not in kato  # needs Artista Marcial
    assert bruce["presa"].cost == 3 and kato["presa"].cost == 4  # one less with it
    assert bruce["agarron"].cost == 3 and kato["agarron"].cost == 4


@pytest.mark.parametrize("query", ["punetazo", "PUÑ", "puñetazo", "Puñe"])
def test_the_filter_ignores_accents_and_case(query):
    assert ids(filter_choices(choices_of("Bruce", *MARTIAL), query)) == ["punetazo"]


def test_the_filter_matches_the_start_of_each_typed_word():
    choices = choices_of("Mike", *demo_lines())
    assert ids(filter_choices(choices, "armas largas")) == ["disparar-armas-largas"]
    assert ids(filter_choices(choices, "cubierto")) == ["ponerse-a-cubierto"]
    assert filter_choices(choices, "") == choices
    assert filter_choices(choices, "zzz") == ()


def test_attacks_and_reactions_are_marked():
    choices = {ch.id: ch for ch in choices_of("Mike", *demo_lines())}
    shot, cover = choices["disparar-armas-largas"], choices["ponerse-a-cubierto"]
    assert (shot.attack, shot.reaction) == (True, False)
    assert (cover.attack, cover.reaction) == (False, True)


def test_a_cost_above_the_ac_left_says_it_will_be_carried():
    choices = {ch.id: ch for ch in choices_of("Mike", *demo_lines(), "mike gasta 5")}
    assert choices["disparar-armas-largas"].hint == "faltan 1 AC: se completa el turno siguiente"
    assert choices["ponerse-a-cubierto"].hint == ""  # 1 AC: he has 2


def test_a_variable_cost_says_what_it_adds():
    carga = {ch.id: ch for ch in choices_of("Mike", *demo_lines())}["carga"]
    assert carga.variable is not None and carga.hint.startswith("+ ")


# ---------------------------------------------------------------- the `:` line's completions


def test_the_first_word_completes_names_and_keywords():
    fight = play(*demo_lines()).fight
    assert completions(fight, "mi") == ("Mike",)
    assert "siguiente" in completions(fight, "sig")


def test_after_a_name_maneuver_ids_complete():
    fight = play(*demo_lines()).fight
    assert completions(fight, "Mike disparar-armas-la") == ("Mike disparar-armas-largas",)


def test_a_quoted_name_completes_with_its_quotes():
    fight = play(*demo_lines()).fight
    assert completions(fight, "Mike disparar-armas-largas so") == (
        'Mike disparar-armas-largas "Soldado 1"', 'Mike disparar-armas-largas "Soldado 2"')
    assert completions(fight, '"sol') == ('"Soldado 1"', '"Soldado 2"')


def test_a_complete_word_proposes_nothing_more():
    fight = play(*demo_lines()).fight
    assert completions(fight, "Mike") == ()
