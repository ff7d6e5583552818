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
from cdbtui.view.picker import filter_targets, target_choices

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


# ---------------------------------------------------------------- what the picker learns

#: Mike acts alone from 9 down; on the other side two orcs, a hidden widow, a bandit.
SKIRMISH = (
    "alta Mike ac=9 bando=pj momento=9",
    "alta Sven ac=5 bando=pj momento=2",
    'alta "Orco número 23" ac=5 momento=1',
    'alta "Orco número 28" ac=5 momento=1',
    'alta "La Viuda Negra" ac=6 momento=1 oculto',
    "alta Bandido ac=4 bando=Bandidos momento=1",
    "empezar",
)


def test_the_maneuvers_used_in_this_fight_come_first_most_recent_first():
    fresh = ids(choices_of("Mike", *SKIRMISH))
    session = play(*SKIRMISH, "mike reconocimiento", 'mike disparar-armas-largas a "orco número 23"',
                   "mike apuntar", "sven ponerse-a-cubierto")
    mike = maneuver_choices(session.fight, session.fight.find("Mike"))
    used = ["apuntar", "disparar-armas-largas", "reconocimiento"]  # the most recent first
    assert {ch.id for ch in mike if ch.recent} == set(used)
    # What it may do now first; in each part the used ones, most recent first, then
    # the rest as before.
    rank = {i: n for n, i in enumerate(used)}
    expected = sorted(fresh, key=lambda i: (not next(ch for ch in mike if ch.id == i).allowed,
                                            rank.get(i, len(rank)), fresh.index(i)))
    assert ids(mike) == expected
    assert not next(ch for ch in mike if ch.id == "apuntar").allowed  # aimed: it sinks
    # Sven's reaction is his own (reactions count); being a target counts for no one.
    sven = maneuver_choices(session.fight, session.fight.find("Sven"))
    assert ids(sven)[0] == "ponerse-a-cubierto" and not sven[1].recent
    orc = maneuver_choices(session.fight, session.fight.find("Orco número 23"))
    assert not any(ch.recent for ch in orc)
    # The log is the fight's: an undone maneuver is forgotten.
    session.execute("deshacer")
    session.execute("deshacer")
    assert ids(maneuver_choices(session.fight, session.fight.find("Mike")))[:2] == [
        "disparar-armas-largas", "reconocimiento"]
    longer = play(*SKIRMISH, "mike apuntar-a-una-parte-del-cuerpo")
    assert ids(maneuver_choices(longer.fight, longer.fight.find("Mike")))[0] == (
        "apuntar-a-una-parte-del-cuerpo")  # the longest name read first


def test_the_filter_keeps_the_recent_maneuvers_first():
    session = play(*SKIRMISH, "mike lanzar")
    mike = maneuver_choices(session.fight, session.fight.find("Mike"))
    assert ids(filter_choices(mike, "la"))[:2] == ["lanzar", "disparar-armas-largas"]


def test_attacks_and_blocks_take_a_target_other_maneuvers_do_not():
    choices = {ch.id: ch for ch in choices_of("Bruce", *MARTIAL)}
    assert choices["punetazo"].targeted and choices["bloqueo"].targeted
    assert not choices["esquivar"].targeted and not choices["apuntar"].targeted


def test_the_targets_are_the_other_side_out_of_the_fight_left_out_last_targets_first():
    session = play(*SKIRMISH, "estado \"Orco número 28\" +moribundo")
    fight = session.fight

    def names(who: str) -> list[str]:
        return [t.name for t in target_choices(fight, fight.find(who))]

    # A PJ's: the PNJ and the factions, hidden ones too (the DJ's screen), not the dying.
    assert names("Mike") == ["Orco número 23", "La Viuda Negra", "Bandido"]
    assert names("Orco número 23") == ["Mike", "Sven", "Bandido"]  # a PNJ's: the rest
    assert names("Bandido") == ["Mike", "Sven", "Orco número 23", "La Viuda Negra"]
    marks = {t.name: t for t in target_choices(fight, fight.find("Mike"))}
    assert marks["La Viuda Negra"].hidden and marks["Bandido"].side == "Bandidos"
    later = play(*SKIRMISH, "mike disparar-armas-largas a bandido",
                 'mike disparar-armas-largas a "la viuda negra"').fight
    shown = target_choices(later, later.find("Mike"))
    assert [t.name for t in shown][:3] == ["La Viuda Negra", "Bandido", "Orco número 23"]
    assert [t.recent for t in shown] == [True, True, False, False]


def test_the_target_filter_matches_any_word_without_accents():
    fight = play(*SKIRMISH).fight
    targets = target_choices(fight, fight.find("Mike"))
    assert [t.name for t in filter_targets(targets, "23")] == ["Orco número 23"]
    assert [t.name for t in filter_targets(targets, "NUMERO")] == ["Orco número 23", "Orco número 28"]
    assert [t.name for t in filter_targets(targets, "viu")] == ["La Viuda Negra"]
    assert filter_targets(targets, "") == targets and filter_targets(targets, "zz") == ()


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
    # After an attack a target is named with `a` (COMMANDS.md): completion adds it.
    assert completions(fight, "Mike disparar-armas-largas so") == (
        'Mike disparar-armas-largas a "Soldado 1"', 'Mike disparar-armas-largas a "Soldado 2"')
    assert completions(fight, '"sol') == ('"Soldado 1"', '"Soldado 2"')


def test_a_complete_word_proposes_nothing_more():
    fight = play(*demo_lines()).fight
    assert completions(fight, "Mike") == ()
