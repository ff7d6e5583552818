"""The maneuver picker's rows (`choice_prompt`), without an app: the name in italics
for an attack, the cost after talents, reactions marked, the hint last."""

from __future__ import annotations

from fights import demo_lines, play

from cdbtui.tui.screens.picker import choice_prompt, target_prompt
from cdbtui.view import maneuver_choices
from cdbtui.view.picker import Target, target_choices


def choices(*lines: str, who: str = "Mike") -> dict:
    session = play(*demo_lines(), *lines)
    return {ch.id: ch for ch in maneuver_choices(session.fight, session.fight.find(who))}


def italic_texts(content) -> list[str]:
    return [content.plain[span.start:span.end] for span in content.spans
            if "italic" in str(span.style)]


def test_an_attack_is_in_italics_with_its_cost():
    prompt = choice_prompt(choices()["disparar-armas-largas"])
    assert italic_texts(prompt) == ["Disparar Armas Largas"]
    assert prompt.plain.startswith("Disparar Armas Largas  3 AC  ataque")


def test_a_reaction_is_marked_and_not_in_italics():
    prompt = choice_prompt(choices()["ponerse-a-cubierto"])
    assert "reacción" in prompt.plain and italic_texts(prompt) == []


def test_the_cost_is_the_combatants_and_a_short_one_says_so():
    bruce = play("alta Bruce ac=6 bando=pj talentos=artista-marcial momento=6", "empezar")
    presa = next(ch for ch in maneuver_choices(bruce.fight, bruce.fight.find("Bruce"))
                 if ch.id == "presa")
    assert "  3 AC" in choice_prompt(presa).plain  # 4, one less with Artista Marcial
    carried = choice_prompt(choices("mike gasta 5")["disparar-armas-largas"])
    assert "faltan 1 AC: se completa el turno siguiente" in carried.plain


def test_a_maneuver_used_before_says_so():
    used = choice_prompt(choices("mike apuntar")["apuntar"])
    assert used.plain.startswith("Apuntar  2 AC  reciente")
    assert "reciente" not in choice_prompt(choices("mike apuntar")["esquivar"]).plain


def test_a_target_row_names_it_literally_with_what_tells_it_apart():
    session = play(*demo_lines(), 'alta "[b]Ninja[/b]" ac=5 oculto', "alta Bandido ac=4 bando=Bandidos",
                   'mike disparar-armas-largas a "Soldado 2"')
    rows = {t.name: target_prompt(t).plain
            for t in target_choices(session.fight, session.fight.find("Mike"))}
    assert rows["[b]Ninja[/b]"] == "[b]Ninja[/b]  oculto"  # no markup read into a name
    assert rows["Bandido"] == "Bandido  Bandidos"
    assert rows["Soldado 2"] == "Soldado 2  blanco anterior"
    assert rows["Soldado 1"] == "Soldado 1"
    bold = target_prompt(Target("Soldado 2", recent=True))
    assert any("bold" in str(span.style) for span in bold.spans)


def test_what_may_not_be_done_now_goes_after_all_that_may():
    """A grappled Mike who shot before: the shot (refused while grappled) no longer
    comes first; every maneuver he may do now is listed before any he may not."""
    session = play(*demo_lines(), "mike disparar-armas-largas", "turno", "estado mike +agarrado")
    listed = maneuver_choices(session.fight, session.fight.find("Mike"))
    allowed = [ch.allowed for ch in listed]
    assert any(allowed) and not all(allowed)
    assert allowed == sorted(allowed, reverse=True)  # all True first, then all False
    assert next(ch for ch in listed if ch.id == "disparar-armas-largas").recent
