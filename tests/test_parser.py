"""The command language of COMMANDS.md: both spellings, forgiving names, canonical lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbtui.engine import commands as cmd
from cdbtui.engine.errors import Refusal
from cdbtui.engine.parser import parse
from cdbtui.engine.session import Session

SHOOT = "disparar-armas-largas"

#: (Spanish line, English line, the command both mean) for every row of COMMANDS.md.
SPELLINGS = [
    ("alta Ana ac=5 ini=2 agi=3 ate=4 hab=1 mov=4 bando=pj oculto talentos=gun-kata,gun-fu",
     "add Ana ac=5 ini=2 agi=3 ate=4 hab=1 mov=4 side=pc hidden talents=gun-kata,gun-fu",
     cmd.Add("Ana", 5, ini=2, agi=3, ate=4, skill=1, mov=4, side="pj", hidden=True,
             talents=("gun-kata", "gun-fu"))),
    ("baja Sven", "remove Sven", cmd.Remove("Sven")),
    ("momento Sven 5", "start Sven 5", cmd.SetStart("Sven", 5)),
    ("tirar Sven Mike", "roll Sven Mike", cmd.Roll(("Sven", "Mike"))),
    ("tirar juntos Sven Mike", "roll together Sven Mike", cmd.Roll(("Sven", "Mike"), True)),
    ("sorpresa Sven", "surprise Sven", cmd.Surprise(("Sven",))),
    ("empezar", "begin", cmd.Begin()),
    (f"Mike {SHOOT}", f"Mike {SHOOT}", cmd.Perform("Mike", SHOOT)),
    ("Mike mover 2", "Mike mover 2", cmd.Perform("Mike", "mover", 2)),
    ("Mike gasta 2 abrir la puerta", "Mike spend 2 abrir la puerta",
     cmd.Perform("Mike", None, 2, "abrir la puerta")),
    ("Mike retrasa", "Mike hold", cmd.Hold("Mike")),
    ("Mike actua", "Mike act", cmd.Act("Mike")),
    ("Mike espera que abran", "Mike wait que abran", cmd.Wait("Mike", "que abran")),
    (f"Mike interrumpe {SHOOT}", f"Mike trigger {SHOOT}", cmd.Trigger(cmd.Perform("Mike", SHOOT))),
    ("Mike fin", "Mike done", cmd.Done("Mike")),
    ("siguiente", "next", cmd.Next()),
    ("turno", "newturn", cmd.NewTurn()),
    ("deshacer", "undo", cmd.Undo()),
    ("rehacer", "redo", cmd.Redo()),
    ("estado Mike +agarrado", "cond Mike +agarrado", cmd.Condition("Mike", "agarrado", True)),
    ("estado Mike -agarrado", "cond Mike -agarrado", cmd.Condition("Mike", "agarrado", False)),
    ("dano Mike 5 rd=2 fatiga", "damage Mike 5 rd=2 fatigue", cmd.Damage("Mike", 5, 2, True)),
    ("cambiar Mike Sven", "swap Mike Sven", cmd.Swap("Mike", "Sven")),
    ("nombre La emboscada", "title La emboscada", cmd.Rename("La emboscada")),
    ("blancos Mike 2", "targets Mike 2", cmd.Targets("Mike", 2)),
    ("rapida si", "quick on", cmd.Quick(True)),
    ("rápida no", "quick off", cmd.Quick(False)),
    # the rules the sheet must know (RULES.md §4–§6, the seeds' optional rules)
    (f"Mike {SHOOT} a \"Soldado 1\"", f"Mike {SHOOT} at \"Soldado 1\"",
     cmd.Perform("Mike", SHOOT, target="Soldado 1")),
    ("Mike carga 2 contra Sven", "Mike carga 2 vs Sven", cmd.Perform("Mike", "carga", 2, target="Sven")),
    ("Mike bloqueo a Sven", "Mike bloqueo at Sven", cmd.Perform("Mike", "bloqueo", target="Sven")),
    ("Mike liderazgo gde=2", "Mike liderazgo degree=2", cmd.Perform("Mike", "liderazgo", degree=2)),
    ("bono Mike a Sven", "bonus Mike to Sven", cmd.Bonus("Mike", "Sven")),
    ("duelo Mike Sven", "duel Mike Sven", cmd.Duel("Mike", "Sven")),
    ("duelo Mike Sven Sven+2", "duel Mike Sven Sven+2", cmd.Duel("Mike", "Sven", "Sven", 2)),
    ("monta Mike Sven", "mount Mike Sven", cmd.Mount("Mike", "Sven")),
    ("desmonta Mike", "dismount Mike", cmd.Dismount("Mike")),
    ("curar Mike 2 fatiga", "heal Mike 2 fatigue", cmd.Heal("Mike", 2, True)),
    ("descanso", "rest", cmd.Rest()),
    ("alta Orcos ac=4 miembros=20 aguante=2", "add Orcos ac=4 members=20 toughness=2",
     cmd.Add("Orcos", 4, members=20, toughness=2)),
    ('dano "Soldado 1" 6 balas=3', 'damage "Soldado 1" 6 shots=3', cmd.Damage("Soldado 1", 6, shots=3)),
]


@pytest.fixture
def fight(demo):
    return demo.fight


@pytest.mark.parametrize("spanish, english, expected", SPELLINGS, ids=[s[0].split()[0] + "·" + s[1].split()[-1] for s in SPELLINGS])
def test_spanish_and_english_spellings_mean_the_same(fight, spanish, english, expected):
    assert parse(spanish, fight) == expected
    assert parse(english, fight) == expected


@pytest.mark.parametrize("line", ["EMPEZAR", "Siguiente", "NeXt", "MIKE FIN", "mike Retrasa"])
def test_keywords_and_names_are_case_insensitive(fight, line):
    parse(line, fight)  # no Refusal


def test_names_are_case_insensitive(fight):
    assert parse("mIKe fin", fight) == cmd.Done("Mike")
    assert parse('"SOLDADO 1" fin', fight) == cmd.Done("Soldado 1")


def test_quoted_names_and_typographic_quotes(fight):
    assert parse('"Soldado 2" esquivar', fight) == cmd.Perform("Soldado 2", "esquivar")
    assert parse("«Soldado 2» esquivar", fight) == cmd.Perform("Soldado 2", "esquivar")
    assert parse("Soldado 2 esquivar", fight) == cmd.Perform("Soldado 2", "esquivar")


def test_unique_prefixes_of_names_and_maneuvers(fight):
    assert parse("Mi disparar-armas-la", fight) == cmd.Perform("Mike", SHOOT)
    assert parse("sv ponerse", fight) == cmd.Perform("Sven", "ponerse-a-cubierto")


def test_ambiguous_prefixes_are_refused(fight):
    with pytest.raises(Refusal, match="ambiguo"):
        parse("Sold fin", fight)
    with pytest.raises(Refusal, match="ambiguo"):
        parse("Mike disparar", fight)


def test_unknown_names_and_maneuvers_are_refused(fight):
    with pytest.raises(Refusal, match="No hay nadie llamado «Zoe»"):
        parse("Zoe fin", fight)
    with pytest.raises(Refusal, match="No conozco la maniobra"):
        parse("Mike volar", fight)


def test_accents_are_optional(fight):
    assert parse("daño Mike 3", fight) == parse("dano Mike 3", fight) == cmd.Damage("Mike", 3)
    assert parse("Mike actúa", fight) == parse("Mike actua", fight) == cmd.Act("Mike")
    assert parse("Mike puñetazo", fight) == parse("Mike punetazo", fight)
    assert parse("Mike PUÑETAZO", fight) == cmd.Perform("Mike", "punetazo")


def test_exact_id_beats_a_prefix(fight):
    # "esquivar" is also a prefix of "esquivar-disparos": the exact id wins.
    assert parse("Mike esquivar", fight) == cmd.Perform("Mike", "esquivar")
    assert parse("Mike esquivar-d", fight) == cmd.Perform("Mike", "esquivar-disparos")


def test_aliases(fight):
    assert parse("Mike rifle", fight) == cmd.Perform("Mike", SHOOT)
    assert parse("Mike esq", fight) == cmd.Perform("Mike", "esquivar")


def test_exact_name_beats_a_prefix(session):
    s = session("alta Al ac=3", "alta Alba ac=3")
    assert parse("Al fin", s.fight) == cmd.Done("Al")
    assert parse("Alb fin", s.fight) == cmd.Done("Alba")


@pytest.mark.parametrize("line", [
    "", "   ", "alta", "alta Ana", "alta Ana ac=x", "alta Ana ac=3 ac=4", "alta Ana ac=3 color=2",
    "alta Ana ac=3 talentos=volar", "momento Mike", "momento Mike siete", "Mike", "Mike gasta",
    "Mike gasta dos", "Mike fin ya", "empezar ya", "estado Mike agarrado", "dano Mike",
    "dano Mike 3 rd", 'Mike "sin cerrar', "sorpresa", "Mike esquivar 2 3",
    "Mike gasta 99999", "nombre",
])
def test_malformed_lines_are_refused_in_spanish(fight, line):
    with pytest.raises(Refusal) as refusal:
        parse(line, fight)
    assert str(refusal.value).strip()


def _every_command(fight):
    """One command of every kind (with the optional parts filled in)."""
    return [expected for _, _, expected in SPELLINGS] + [
        cmd.Add("Ana", 5),
        cmd.Add("Zoe Pérez", 4, side="Los del puerto", private=True, start=3, wounds=(2, 2, 2, 1, 1)),
        cmd.Add("O'Brien", 3),
        cmd.Roll(),
        cmd.Perform("Soldado 1", "carga", 2),
        cmd.Perform("Mike", None, 1),
        cmd.Perform("Mike", None, 1, 'dice "hola"'),
        cmd.Wait("Mike"),
        cmd.Trigger(cmd.Perform("Soldado 2", "mover", 3)),
        cmd.Trigger(cmd.Perform("Mike", None, 2, "grita")),
        cmd.Damage("Soldado 1", 0),
        cmd.Damage("Mike", 4, -1),
        cmd.Swap("Soldado 1", "Soldado 2"),
        cmd.Perform("Soldado 1", "rafaga-media", 3, target="Soldado 2"),
        cmd.Perform("Mike", "liderazgo", degree=0, target=None),
        cmd.Trigger(cmd.Perform("Sven", "punetazo", target="Soldado 2")),
        cmd.Bonus("Soldado 1", "Soldado 2"),
        cmd.Duel("Soldado 1", "Soldado 2", "Soldado 1", 3),
        cmd.Mount("Soldado 1", "Soldado 2"),
        cmd.Dismount("Soldado 2"),
        cmd.Heal("Soldado 2", 1),
        cmd.Add("Horda", 3, members=40),
        cmd.Damage("Soldado 2", 7, 1, True, 2),
        cmd.HouseRules('[override.punetazo]\ncost = 1\nsummary = "«rápido» \\\\ casa"\n'),
        cmd.HouseRules(""),
        cmd.Note("Mike", "herida en el brazo", 2),
        cmd.Note("Soldado 1", 'dice "ya voy" -'),
        cmd.Note("Mike", None),
        cmd.Reveal("Soldado 1"),
        cmd.Reveal("Soldado 2", False),
        cmd.MeleeFatigue(False),
        cmd.MeleeFatigue(True),
        cmd.Condition("Mike", "aturdido", True, 3),
        cmd.Trigger(cmd.Perform("Mike", "disparar-armas-cortas"), now=True),
        cmd.Add("Orco", 5, copies=4),
    ]


def test_canonical_line_of_every_command_reparses_to_an_equal_command(fight):
    kinds = set()
    for command in _every_command(fight):
        kinds.add(type(command))
        assert parse(command.line(), fight) == command, command.line()
    assert kinds >= set(cmd.Command.__args__) | {cmd.Undo, cmd.Redo}


def test_canonical_lines_with_awkward_names_reparse(session):
    s = session('alta "O\'Brien" ac=3', 'alta "Dice \\"hola\\"" ac=3', 'alta "a\\\\b c" ac=3')
    names = [c.name for c in s.fight.combatants]
    assert names == ["O'Brien", 'Dice "hola"', "a\\b c"]
    for name in names:
        command = cmd.Done(name)
        assert parse(command.line(), s.fight) == command


# ---------------------------------------------------------------- fuzzing

WORDS = [
    "alta", "add", "baja", "momento", "tirar", "juntos", "sorpresa", "empezar", "siguiente",
    "turno", "deshacer", "rehacer", "estado", "dano", "cambiar", "nombre", "gasta", "retrasa",
    "actua", "espera", "interrumpe", "fin", "Mike", "Sven", '"Soldado 1"', "Soldado", "1",
    "ac=3", "ini=x", "rd=2", "fatiga", "+agarrado", "-", "+", "esquivar", "mover", "0", "-3",
    '"', "'", "=", "«", "talentos=", "vida=1,2", "999999", ":", "\\",
    "a", "contra", "bono", "duelo", "Mike+2", "Sven+0", "monta", "desmonta", "curar", "descanso",
    "liderazgo", "gde=2", "bloqueo", "miembros=5", "aguante=2", "balas=3", "+en-duelo", "-montado",
]


def _no_crash(line: str, fight) -> None:
    try:
        command = parse(line, fight)
    except Refusal as refusal:
        assert str(refusal)
        return
    if not isinstance(command, (cmd.Undo, cmd.Redo)):
        assert parse(command.line(), fight) == command  # whatever parses, round-trips


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_random_text_raises_only_refusal(demo_fight, text):
    _no_crash(text, demo_fight)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=4), max_size=7))
def test_random_word_salad_raises_only_refusal(demo_fight, words):
    _no_crash(" ".join(words), demo_fight)


@pytest.fixture(scope="module")
def demo_fight():
    """The demo fight once per module (hypothesis runs many examples on one fixture)."""
    from pathlib import Path

    demo = Path(__file__).parents[1] / "cdbtui" / "demo" / "puerto.txt"
    s = Session.new()
    for line in demo.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            s.execute(line)
    return s.fight


@pytest.mark.parametrize("typed, condition", [
    ("+agarrada", "agarrado"), ("+Inmovilizada", "inmovilizado"), ("+surprised", "sorprendido"),
    ("-grappled", "agarrado"), ("+moribunda", "moribundo"), ("+a-cubierto", "a-cubierto"),
])
def test_conditions_accept_feminine_and_english_spellings(fight, typed, condition):
    command = parse(f"estado Mike {typed}", fight)
    assert command == cmd.Condition("Mike", condition, typed[0] == "+")


def test_an_unknown_maneuver_names_the_closest_one_and_no_key_that_is_not_there():
    session = Session.new("X", "cdb", 1)
    session.execute("alta Mike ac=5")
    with pytest.raises(Refusal) as typo:
        parse("Mike esquibar", session.fight)
    assert str(typo.value) == "No conozco la maniobra «esquibar»: ¿esquivar?"
    with pytest.raises(Refusal) as nothing:
        parse("Mike zzzzzz", session.fight)
    assert str(nothing.value) == "No conozco la maniobra «zzzzzz»"
    with pytest.raises(Refusal) as empty:
        parse("   ", session.fight)
    assert "«?»" not in str(empty.value) and "siguiente" in str(empty.value)
