"""RULES.md §4, from "Limits the book puts on single maneuvers" to the end: once per turn
and never carried, grappled and pinned, Sentidos de combate as Reconocimiento, one book
name for two talents, aim and reactions, the book ids of hold and wait, Walküre's duel
and mounted charge; and the melee flag the fatigue of §6 reads.

Unit tests run command lines through `parser.parse` and `rules.apply` (`fights.play`,
`fights.refused`); the CLI refusals at the end go through `cdbtui do` (`shell.cdbtui`):
exit 1, one Spanish line on stderr, the save unchanged byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cdbtui.engine import commands as cmd
from cdbtui.engine.catalog import RULESETS, catalog, load_house_rules
from cdbtui.engine.commands import HouseRules, quote
from cdbtui.engine.errors import Refusal
from cdbtui.engine.maneuvers import chosen_maneuver, is_reaction
from cdbtui.engine.model import Status
from cdbtui.engine.options import options
from cdbtui.engine.parser import parse
from cdbtui.engine.rules import apply
from fights import logged, play, refused

GK, ME, AM = "gun-kata", "maestro-de-esgrima", "artista-marcial"
SURPRISE_WARNING = "sorprendido y ataca sin Reconocimiento"


def get(s, name):
    return s.fight.find(name)


def applied(fight, line: str):
    """`rules.apply` on the parsed line (no session)."""
    return apply(fight, parse(line, fight))


# ---------------------------------------------------------------- the catalog flags


@pytest.mark.parametrize("rules", RULESETS)
def test_the_catalog_flags_once_per_turn_and_no_carry(rules):
    book = catalog(rules)
    assert [m.id for m in book.maneuvers if m.once_per_turn] == ["esquivar-disparos"]
    assert [m.id for m in book.maneuvers if m.no_carry] == ["escapar"]


@pytest.mark.parametrize("rules", RULESETS)
def test_the_catalog_says_what_a_grappled_or_pinned_combatant_may_do(rules):
    book = catalog(rules)
    assert {m.id for m in book.maneuvers if m.while_grappled} == {"escapar", "patada", "punetazo"}
    assert {m.id for m in book.maneuvers if m.while_pinned} == {"escapar"}
    assert {m.id: m.grappled_caution for m in book.maneuvers if m.grappled_caution} == {
        "punetazo": "solo si le agarran por las piernas"}


@pytest.mark.parametrize("rules", RULESETS)
def test_melee_attack_maneuvers_are_the_attacks_of_the_melee_groups_and_the_mounted_charge(rules):
    """Decision (spending.py): the fatigue of RULES.md §6 counts the catalog's `melee`
    rows: by default the attacks of Cuerpo a cuerpo, Artista Marcial, Maestro de Esgrima."""
    book = catalog(rules)
    melee = {m.id for m in book.maneuvers if m.melee}
    assert {"punetazo", "patada", "agarron", "escapar", "bloqueo", "usar-la-fuerza-del-otro",
            "golpe-en-el-aire-esgrima", "carga-con-montura"} <= melee
    assert all(m.attack for m in book.maneuvers if m.melee)
    assert not melee & {"disparar-armas-largas", "lanzar", "esquivar", "bloqueo-esgrima",
                        "mover-y-disparar", "rafaga-corta"}


@pytest.mark.parametrize("rules", RULESETS)
def test_reconocimiento_and_both_sentidos_de_combate_are_reconocimientos(rules):
    book = catalog(rules)
    assert {m.id for m in book.maneuvers if m.recon} == {
        "reconocimiento", "sentidos-de-combate", "sentidos-de-combate-gun-kata",
        "sentidos-de-combate-esgrima"}


def test_house_rules_may_set_the_limits_too():
    house = load_house_rules(
        """
        [override.patada]
        once_per_turn = true

        [override.esquivar-disparos]
        once_per_turn = false

        [[maneuver]]
        id = "zafarse"
        name = "Zafarse"
        cost = 3
        no_carry = true
        while_grappled = true
        while_pinned = true
        summary = "Regla de la casa: soltarse sin tirada"

        [[maneuver]]
        id = "cabezazo"
        name = "Cabezazo"
        cost = 2
        attack = true
        while_grappled = true
        grappled_caution = "solo si tiene la cabeza libre"
        summary = "Regla de la casa"
        """, "cdb")
    assert house.get("patada").once_per_turn and not house.get("esquivar-disparos").once_per_turn
    zafarse = house.get("zafarse")
    assert (zafarse.no_carry, zafarse.while_grappled, zafarse.while_pinned) == (True, True, True)
    assert house.get("cabezazo").grappled_caution == "solo si tiene la cabeza libre"
    assert not house.get("cabezazo").melee  # no melee group: a house row says so itself


@pytest.mark.parametrize("text, match", [
    ('[override.patada]\nonce_per_turn = "si"\n', "patada.*once_per_turn.*true o false"),
    ('[override.escapar]\nno_carry = 1\n', "escapar.*no_carry"),
    ('[override.patada]\ngrappled_caution = "solo a veces"\nwhile_grappled = false\n',
     "patada.*grappled_caution.*while_grappled"),
    ('[override.disparar-arcos]\ngrappled_caution = "nunca"\n', "grappled_caution"),
    ('[override.bloqueo-esgrima]\nshares = "nada"\n', "bloqueo-esgrima.*shares.*no existe"),
    ('[override.patada]\nshares = "punetazo"\n', "patada.*shares.*talento"),
    ('[override.bloqueo-esgrima]\nshares = "bloqueo-esgrima"\n', "consigo misma"),
    ('[override.melee]\nmelee = true\n', "no existe"),
    ('[override.punetazo]\nmelee = "si"\n', "punetazo.*melee"),
    ('[override.reconocimiento]\nrecon = []\n', "reconocimiento.*recon"),
])
def test_wrong_limits_in_house_rules_are_refused_naming_the_field(text, match):
    with pytest.raises(Refusal, match=match):
        load_house_rules(text, "cdb")


# ---------------------------------------------------------------- once per turn, never carried

GUN_KATA = ("alta Neo ac=6 momento=7 talentos=gun-kata", "alta Bala ac=9 momento=7", "empezar",
            "neo retrasa")


def test_esquivar_disparos_at_most_once_per_turn():
    s = play(*GUN_KATA, "bala disparar-armas-largas a neo", "neo esquivar-disparos")
    assert get(s, "Neo").ac == 5
    refused(s, "neo esquivar-disparos", "Neo ya ha hecho Esquivar Disparos este turno: solo se"
            " puede una vez por turno")
    s.execute("neo esquivar")  # an ordinary dodge is not limited
    assert get(s, "Neo").ac == 4


def test_esquivar_disparos_once_per_turn_again_the_next_turn():
    s = play(*GUN_KATA, "neo esquivar-disparos", "neo fin", "bala fin", "turno")
    s.execute("neo esquivar-disparos")
    assert get(s, "Neo").maneuvers == ("Esquivar Disparos",)


def test_once_per_turn_from_house_rules():
    house = "[override.patada]\nonce_per_turn = true\n"
    s = play("alta Ana ac=9 momento=7", "alta Bea ac=5 momento=2", HouseRules(house).line(),
             "empezar", "ana patada")
    assert get(s, "Ana").marker == s.fight.moment == 4
    refused(s, "ana patada", "Ana ya ha hecho Patada este turno")


def test_escapar_is_never_carried_refused_when_the_ac_left_are_short():
    s = play("alta Maton ac=6 momento=7", "alta Kira ac=8 momento=5", "empezar",
             "estado Maton +agarrado")  # ⌈6/2⌉ = 3 AC; Escapar costs 4
    refused(s, "maton escapar", "Maton no tiene AC suficientes para Escapar: necesita 4 y le"
            " quedan 3 .*no se deja para el turno siguiente")
    assert get(s, "Maton").carried is None


def test_escapar_with_enough_ac_is_done_at_once():
    s = play("alta Maton ac=8 momento=7 talentos=artista-marcial", "alta Kira ac=8 momento=2",
             "empezar", "estado Maton +agarrado")  # 4 AC; Escapar costs 3 with Artista Marcial
    s.execute("maton escapar")
    maton = get(s, "Maton")
    assert (maton.ac, maton.marker, maton.carried) == (1, 4, None)


def test_escapar_with_artista_marcial_short_of_ac_is_refused_too():
    s = play("alta Maton ac=8 momento=7 talentos=artista-marcial", "alta Kira ac=8 momento=2",
             "empezar", "estado Maton +agarrado", "maton gasta 2")  # 2 AC left, at 5
    assert s.fight.moment == 5
    refused(s, "maton escapar", "necesita 3 y le quedan 2")


def test_no_carry_is_judged_by_the_options_as_the_engine_does():
    s = play("alta Maton ac=6 momento=7", "alta Kira ac=8 momento=5", "empezar",
             "estado Maton +agarrado")
    option = options(s.fight, "Maton").maneuver("escapar")
    assert not option.ok and "necesita 4 y le quedan 3" in option.why


# ---------------------------------------------------------------- grappled and pinned

GRAPPLE = ("alta Maton ac=8 momento=7", "alta Kira ac=8 momento=7", "alta Lejos ac=8 momento=2",
           "empezar", "estado Maton +agarrado")  # Matón: ⌈8/2⌉ = 4 AC
PIN = ("alta Preso ac=16 momento=7", "alta Kira ac=8 momento=7", "alta Lejos ac=8 momento=2",
       "empezar", "estado Preso +inmovilizado")  # Preso: ⌈16/4⌉ = 4 AC


@pytest.mark.parametrize("line", ["maton escapar", "maton patada a kira", "maton punetazo a kira",
                                  "maton esquivar", "maton parada", "maton gasta 2 empuja la mesa"])
def test_agarrado_may_escapar_patada_punetazo_react_and_spend(line):
    s = play(*GRAPPLE)
    s.execute(line)
    assert get(s, "Maton").ac < 4


@pytest.mark.parametrize("line, what", [
    ("maton disparar-armas-cortas a kira", "Disparar Armas Cortas"),
    ("maton reconocimiento", "Reconocimiento"),
    ("maton agarron a kira", "Agarrón"),
    ("maton apuntar", "Apuntar"),
    ("maton mover 1", "Mover"),
    ("maton atacar-con-armas-de-1-mano a kira", "Atacar con Armas de 1 Mano"),
])
def test_agarrado_every_other_maneuver_is_refused_naming_the_rule(line, what):
    s = play(*GRAPPLE)
    refused(s, line, f"Maton está agarrado: además de reaccionar y gastar AC en otra acción solo"
            f" puede hacer Escapar, Patada o Puñetazo; no puede hacer {what}")


def test_punetazo_while_agarrado_is_a_caution_the_dj_confirms():
    s = play(*GRAPPLE)
    assert s.cautions("maton punetazo a kira") == [
        "Aviso: Maton está agarrado: Puñetazo solo si le agarran por las piernas"]
    assert s.cautions("maton patada a kira") == []
    assert s.cautions("kira punetazo a maton") == []  # Kira is not grappled
    s.execute("maton punetazo a kira")  # confirmed: it goes through, the warning logged
    assert logged(s, "Puñetazo solo si le agarran por las piernas")
    assert get(s, "Maton").ac == 2


def test_agarrado_and_inmovilizado_is_only_inmovilizado():
    s = play(*GRAPPLE, "estado Maton +inmovilizado")
    refused(s, "maton patada a kira", "Maton está inmovilizado")


@pytest.mark.parametrize("line, what", [
    ("preso esquivar", "hacer Esquivar"),
    ("preso ponerse-a-cubierto", "hacer Ponerse a Cubierto"),
    ("preso gasta 1", "gastar AC en otra acción"),
    ("preso gasta 1 grita", "gastar AC en otra acción"),
    ("preso patada a kira", "hacer Patada"),
    ("preso punetazo a kira", "hacer Puñetazo"),
    ("preso disparar-armas-cortas a kira", "hacer Disparar Armas Cortas"),
])
def test_inmovilizado_only_escapar_reactions_and_free_spends_included(line, what):
    s = play(*PIN)
    refused(s, line, f"Preso está inmovilizado y solo puede hacer maniobras para Escapar: no"
            f" puede {what}")


def test_inmovilizado_may_escapar():
    s = play(*PIN)
    s.execute("preso escapar")
    assert (get(s, "Preso").ac, get(s, "Preso").status) == (0, Status.DONE)


def test_inmovilizado_reaction_refused_out_of_its_moment_too():
    s = play(*PIN, "kira disparar-armas-cortas a preso")
    refused(s, "preso esquivar", "Preso está inmovilizado")


def test_decision_grappled_and_pinned_may_hold_and_wait_but_interrupt_only_as_allowed():
    s = play(*PIN, "preso retrasa")
    assert get(s, "Preso").status is Status.HOLDING
    s = play(*PIN, "preso espera que el guardia se despiste")
    assert get(s, "Preso").status is Status.WAITING
    refused(s, "preso interrumpe disparar-armas-cortas a kira", "Preso está inmovilizado")
    refused(s, "preso interrumpe gasta 1", "Preso está inmovilizado")
    s.execute("preso interrumpe escapar")
    assert get(s, "Preso").ac == 0
    s = play(*(x.replace("Lejos ac=8 momento=2", "Lejos ac=8 momento=6") for x in GRAPPLE),
             "maton espera", "kira fin")  # one moment passed: 3 AC left
    assert get(s, "Maton").status is Status.WAITING
    refused(s, "maton interrumpe reconocimiento", "Maton está agarrado")
    s.execute("maton interrumpe patada a kira")


def test_grappled_and_pinned_options_are_what_apply_does():
    for lines in (GRAPPLE, PIN, (*GRAPPLE, "kira punetazo a maton"),
                  (*GUN_KATA, "neo esquivar-disparos")):
        f = play(*lines).fight
        for c in f.combatants:
            for option in options(f, c.name).maneuvers:
                if option.maneuver.variable is not None:
                    continue
                try:
                    applied(f, f"{quote(c.name)} {option.maneuver.id}")
                    verdict = (True, "")
                except Refusal as refusal:
                    verdict = (False, str(refusal))
                assert (option.ok, option.why) == verdict, (lines[-1], c.name, option.maneuver.id)


def test_a_pinned_free_spend_is_refused_by_the_options_too():
    from cdbtui.engine.options import spend
    assert not spend(play(*PIN).fight, "Preso", 1).ok


# ---------------------------------------------------------------- Reconocimiento

SURPRISED = ("alta Ana ac=8 momento=7 talentos={talents}", "alta Bea ac=8 momento=5",
             "sorpresa Ana", "empezar")


@pytest.mark.parametrize("talents, line", [
    (GK, "ana sentidos-de-combate"), (ME, "ana sentidos-de-combate-esgrima"),
    (ME, "ana sentidos-de-combate"), (f"{GK},{ME}", "ana sentidos-de-combate-gun-kata"),
    (GK, "ana reconocimiento"),
])
def test_sentidos_de_combate_is_a_reconocimiento_for_a_surprised_combatant(talents, line):
    s = play(*(x.format(talents=talents) for x in SURPRISED), line)
    assert get(s, "Ana").recon_this_turn
    assert s.cautions("ana punetazo a bea") == []
    s.execute("ana punetazo a bea")
    assert not logged(s, SURPRISE_WARNING)


def test_without_a_reconocimiento_the_surprised_attack_is_warned():
    s = play(*(x.format(talents=GK) for x in SURPRISED))
    assert any(SURPRISE_WARNING in text for text in s.cautions("ana punetazo a bea"))


# ---------------------------------------------------------------- one book name, two talents

DUEL = ("alta Zorro ac=9 momento=8 talentos={talents}", "alta Sargento ac=9 momento=8",
        "empezar", "zorro retrasa", "sargento atacar-con-armas-de-1-mano a zorro")


def fencing(talents: str = ME, *more: str):
    return play(*(x.format(talents=talents) for x in DUEL), *more)


def test_one_book_name_resolves_to_the_version_of_the_talent_the_combatant_has():
    s = fencing(ME, "zorro bloqueo a sargento")
    assert logged(s, "Zorro: Bloqueo (Maestro de Esgrima) a Sargento, reacción (3 AC)")
    assert get(s, "Sargento").block_penalty == -2
    s = fencing(AM, "zorro bloqueo a sargento")
    assert logged(s, "Zorro: Bloqueo a Sargento, reacción (3 AC)")
    s = fencing(ME, "zorro fin", "sargento fin", "turno", "zorro golpe-en-el-aire 1")
    assert logged(s, "Zorro: Golpe en el Aire (Maestro de Esgrima) (4 AC)")
    s = fencing(ME, "zorro fin", "sargento fin", "turno", "zorro sentidos-de-combate")
    assert logged(s, "Zorro: Sentidos de combate (Maestro de Esgrima) (1 AC)")


def test_a_maestro_de_esgrima_typing_bloqueo_is_not_told_he_needs_artista_marcial():
    s = fencing(ME)
    s.execute("zorro bloqueo")
    assert not any("Artista Marcial" in e.text for e in s.fight.log)


def test_with_both_talents_the_shared_name_is_refused_listing_the_two_ids():
    s = fencing(f"{AM},{ME}")
    refused(s, "zorro bloqueo a sargento",
            "«bloqueo» es en el libro el nombre de dos maniobras y Zorro tiene los dos talentos:"
            " usa «bloqueo-artista-marcial» \\(Artista Marcial\\) o «bloqueo-esgrima»"
            " \\(Maestro de Esgrima\\)")
    s.execute("zorro bloqueo-artista-marcial a sargento")
    assert logged(s, "Zorro: Bloqueo (Artista Marcial) a Sargento, reacción (3 AC)")
    assert get(s, "Sargento").block_penalty == -2
    s = fencing(f"{AM},{ME}", "zorro bloqueo-esgrima")
    assert get(s, "Zorro").attacks == 0


@pytest.mark.parametrize("rules", RULESETS)
def test_with_both_talents_golpe_en_el_aire_and_sentidos_de_combate_are_refused_too(rules):
    s = play(f"alta Ana ac=9 momento=7 talentos={AM},{ME},{GK}", "alta Bea ac=5 momento=2",
             "empezar", rules=rules)
    refused(s, "ana golpe-en-el-aire 1", "golpe-en-el-aire-artista-marcial.*golpe-en-el-aire-esgrima")
    refused(s, "ana sentidos-de-combate", "sentidos-de-combate-gun-kata.*sentidos-de-combate-esgrima")
    s.execute("ana golpe-en-el-aire-artista-marcial 1")
    assert get(s, "Ana").ac == 5


def test_the_explicit_id_of_a_version_still_needs_its_talent():
    s = fencing(ME)
    refused(s, "zorro bloqueo-artista-marcial", "requiere el talento Artista Marcial")


def test_without_either_talent_the_shared_name_names_the_talent():
    s = fencing("ambidiestro")
    refused(s, "zorro bloqueo", "Bloqueo requiere el talento Artista Marcial")


def test_chosen_maneuver_is_the_one_place_the_name_is_resolved():
    f = fencing(ME).fight
    command = parse("zorro bloqueo", f)
    assert command == cmd.Perform("Zorro", "bloqueo")  # the line keeps what was typed
    assert chosen_maneuver(f, command).id == "bloqueo-esgrima"
    assert is_reaction(f, command)
    both = fencing(f"{AM},{ME}").fight
    with pytest.raises(Refusal, match="dos talentos"):
        chosen_maneuver(both, parse("zorro bloqueo", both))
    assert not is_reaction(both, parse("zorro bloqueo", both))  # the handler refuses it


@pytest.mark.parametrize("talents, listed, hidden", [
    (ME, {"bloqueo-esgrima", "golpe-en-el-aire-esgrima", "sentidos-de-combate-esgrima"},
     {"bloqueo", "bloqueo-artista-marcial", "golpe-en-el-aire"}),
    (AM, {"bloqueo", "golpe-en-el-aire"}, {"bloqueo-artista-marcial", "bloqueo-esgrima"}),
    (f"{AM},{ME}", {"bloqueo-artista-marcial", "bloqueo-esgrima", "golpe-en-el-aire-artista-marcial"},
     {"bloqueo", "golpe-en-el-aire"}),
])
def test_the_picker_lists_each_version_once_by_an_id_that_works(talents, listed, hidden):
    f = fencing(talents).fight
    ids = {o.maneuver.id for o in options(f, "Zorro").maneuvers}
    assert listed <= ids and not hidden & ids


def test_the_maestro_de_esgrima_bloqueo_is_a_reaction_not_an_attack_maneuver():
    book = catalog("cdb")
    fencer = book.get("bloqueo-esgrima")
    assert (fencer.reaction, fencer.attack) == (True, False)
    assert (book.get("bloqueo").reaction, book.get("bloqueo").attack) == (True, True)
    s = fencing(ME, "zorro bloqueo a sargento")
    zorro = get(s, "Zorro")
    assert (zorro.attacks, zorro.attack_penalty, zorro.targets, zorro.melee_this_turn) == (
        0, 0, (), False)


# ---------------------------------------------------------------- aim and reactions

AIMED = ("alta Bruce ac=12 momento=8 talentos=artista-marcial", "alta Thug ac=12 momento=8",
         "alta Jefe ac=6 momento=1 bando=pnj", "empezar", "bruce apuntar",
         "thug punetazo a bruce")  # Bruce at 6, Thug at 6


def test_the_apuntar_bonus_is_used_up_by_the_next_attack_that_is_not_a_reaction():
    s = play(*AIMED)
    assert get(s, "Bruce").aim == 1
    s.execute("bruce esquivar")
    assert get(s, "Bruce").aim == 1
    s.execute("thug fin")
    s.execute("bruce punetazo a thug")
    assert get(s, "Bruce").aim == 0


@pytest.mark.parametrize("line", ["bruce bloqueo a thug", "bruce bloqueo",
                                  "bruce usar-la-fuerza-del-otro"])
def test_a_bloqueo_or_usar_la_fuerza_del_otro_made_as_a_reaction_keeps_the_aim_bonus(line):
    s = play(*AIMED, line)
    bruce = get(s, "Bruce")
    assert (bruce.aim, bruce.attacks) == (1, 1)  # still an attack maneuver for the count
    assert not logged(s, "Bruce aplica a esta tirada")
    s.execute("thug fin")
    s.execute("bruce punetazo a thug")
    assert get(s, "Bruce").aim == 0


def test_a_reaction_keeps_a_pending_liderazgo_bonus():
    s = play("alta Bruce ac=12 momento=8 bando=pj talentos=artista-marcial",
             "alta Lider ac=9 momento=8 bando=pj", "alta Thug ac=12 momento=8", "empezar",
             "bruce retrasa", "lider liderazgo gde=1", "bono Lider a Bruce",
             "thug punetazo a bruce", "bruce bloqueo a thug")
    assert get(s, "Bruce").lead_bonus == 1
    s.execute("thug fin")
    s.execute("bruce punetazo a thug")
    assert get(s, "Bruce").lead_bonus == 0
    assert logged(s, "Bruce aplica a esta tirada el +1 de Liderazgo")


# ---------------------------------------------------------------- melee_this_turn


@pytest.mark.parametrize("line, melee", [
    ("ana punetazo a bea", True), ("ana patada", True), ("ana agarron a bea", True),
    ("ana disparar-armas-cortas a bea", False), ("ana esquivar", False),
    ("ana reconocimiento", False), ("ana gasta 2", False), ("ana mover 1", False),
    ("ana carga 1", True), ("ana fintar 2", True),
])
def test_spending_ac_on_a_melee_attack_maneuver_sets_melee_this_turn(line, melee):
    s = play("alta Ana ac=9 momento=7", "alta Bea ac=9 momento=3", "empezar", line)
    assert get(s, "Ana").melee_this_turn is melee


def test_a_melee_attack_begun_with_too_few_ac_counts_in_both_turns():
    s = play("alta Ana ac=4 momento=7", "alta Bea ac=4 momento=3", "empezar", "ana gasta 2",
             "ana patada a bea")  # 2 AC now, 1 owed
    assert get(s, "Ana").melee_this_turn and get(s, "Ana").carried is not None
    s.execute("bea fin")
    s.execute("turno")  # the fatigue engineer resets the flag at turn start
    ana = get(s, "Ana")
    assert ana.carried is None and ana.melee_this_turn  # completed from the carry


def test_a_martial_bloqueo_as_a_reaction_is_melee_the_fencers_is_not():
    assert get(fencing(AM, "zorro bloqueo"), "Zorro").melee_this_turn
    assert not get(fencing(ME, "zorro bloqueo"), "Zorro").melee_this_turn


# ---------------------------------------------------------------- hold and wait by book id


def test_retrasar_la_accion_is_the_book_id_of_hold():
    s = play("alta Ana ac=6 momento=7", "alta Bea ac=6 momento=7", "empezar")
    command = parse("ana retrasar-la-accion", s.fight)
    assert command == cmd.Hold("Ana")
    s.execute("ana retrasar-la-accion")
    assert get(s, "Ana").status is Status.HOLDING
    assert s.lines[-1] == "Ana retrasa"


def test_quedarse_a_la_espera_is_the_book_id_of_wait():
    s = play("alta Ana ac=6 momento=7", "alta Bea ac=6 momento=5", "empezar")
    command = parse("ana quedarse-a-la-espera que se abra la puerta", s.fight)
    assert command == cmd.Wait("Ana", "que se abra la puerta")
    s.execute("ana quedarse-a-la-espera que se abra la puerta")
    ana = get(s, "Ana")
    assert (ana.status, ana.trigger) == (Status.WAITING, "que se abra la puerta")


# ---------------------------------------------------------------- Walküre's duel and mount


def test_walkure_abandonar_duelo_costs_3_ac_and_leaves_the_duel():
    s = play("alta Ana ac=8 ini=7 momento=7", "alta Bea ac=8 ini=6 momento=7",
             "alta Cid ac=6 momento=5", "empezar", "duelo Ana Bea", rules="walkure")
    assert get(s, "Ana").duel == "Bea"
    refused(s, "ana usar-arma-cuerpo-a-cuerpo a cid", "en duelo con Bea")
    s.execute("ana abandonar-duelo")
    ana = get(s, "Ana")
    assert (ana.ac, ana.duel, get(s, "Bea").duel) == (5, None, None)
    assert logged(s, "Ana abandona el duelo")


def test_walkure_carga_con_montura_as_cdb_has_it():
    s = play("alta Jinete ac=9 momento=7", "alta Caballo ac=6", "alta Bea ac=5 momento=3",
             "monta Jinete Caballo", "empezar", "jinete carga-con-montura 3 a bea", rules="walkure")
    assert get(s, "Jinete").ac == 4  # 2 + the attack's 3
    assert get(s, "Jinete").melee_this_turn


# ---------------------------------------------------------------- the CLI refusals

SETUP = """\
alta Neo ac=6 momento=7 talentos=gun-kata
alta Zorro ac=9 momento=7 talentos=maestro-de-esgrima,artista-marcial
alta Fencer ac=9 momento=7 talentos=maestro-de-esgrima
alta Maton ac=6 momento=7
alta Preso ac=8 momento=7
alta Guardia ac=8 momento=7
empezar
estado Maton +agarrado
estado Preso +inmovilizado
neo esquivar-disparos
"""


@pytest.fixture(scope="module")
def limits_save(tmp_path_factory) -> Path:
    from shell import cdbtui

    path = tmp_path_factory.mktemp("limits") / "limites.toml"
    assert cdbtui("new", str(path), "--seed", "3").returncode == 0
    result = cdbtui("do", str(path), "-", stdin=SETUP)
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture
def limits(limits_save: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "fight.toml"
    copy.write_bytes(limits_save.read_bytes())
    return copy


CLI_REFUSALS = [
    ("neo esquivar-disparos", "una vez por turno"),
    ("maton escapar", "necesita 4 y le quedan 3"),
    ("maton disparar-armas-cortas a guardia", "está agarrado"),
    ("maton reconocimiento", "está agarrado"),
    ("maton apuntar", "está agarrado"),
    ("preso esquivar", "está inmovilizado"),
    ("preso gasta 1", "está inmovilizado"),
    ("preso patada a guardia", "está inmovilizado"),
    ("preso punetazo a guardia", "está inmovilizado"),
    ("preso disparar-armas-cortas a guardia", "está inmovilizado"),
    ("preso escapar", "necesita 4 y le quedan 2"),
    ("zorro bloqueo", "bloqueo-artista-marcial"),
    ("zorro golpe-en-el-aire 1", "golpe-en-el-aire-esgrima"),
    ("fencer bloqueo-artista-marcial", "requiere el talento Artista Marcial"),
    ("neo sentidos-de-combate-esgrima", "requiere el talento Maestro de Esgrima"),
]


@pytest.mark.parametrize("line, match", CLI_REFUSALS)
def test_the_book_limits_are_refused_by_the_cli_with_one_spanish_line(limits, line, match):
    from shell import cdbtui

    before = limits.read_bytes()
    result = cdbtui("do", str(limits), line)
    assert result.returncode == 1, (line, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("cdbtui: «")
    assert match in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert limits.read_bytes() == before


def test_there_are_at_least_ten_cli_refusals():
    assert len({line for line, _ in CLI_REFUSALS}) >= 10


def test_what_the_limits_allow_goes_through_the_cli(limits):
    from shell import cdbtui

    result = cdbtui("do", str(limits), "fencer bloqueo", "maton patada a guardia",
                    "preso retrasa", "zorro bloqueo-esgrima")
    assert result.returncode == 0, result.stderr
