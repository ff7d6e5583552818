"""The rules the sheet must know, beyond the countdown: one or more tests per rule, named
after the RULES.md section (or the seed's section for the optional rules), all through
the command language.

Decisions where the book is silent are in the docstrings; expected numbers are worked
out in the comments next to them.
"""

from __future__ import annotations

import pytest

from cdbtui.engine import commands as cmd
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Status
from cdbtui.engine.parser import parse
from cdbtui.engine.rules import queue

S1, S2 = '"Soldado 1"', '"Soldado 2"'
SHOOT = "disparar-armas-largas"


from fights import logged, refused, undoable  # noqa: E402


def run(s, *lines: str) -> None:
    for line in lines:
        s.execute(line)


def get(s, name: str):
    return s.fight.find(name)




# ---------------------------------------------------------------- §4 attacks name their target


def test_s4_attack_names_its_target_and_the_log_says_so(demo):
    run(demo, f"Mike {SHOOT} a {S1}")
    assert logged(demo, "Mike: Disparar Armas Largas a Soldado 1 (3 AC) → momento 4")
    mike = get(demo, "Mike")
    assert mike.targets == ("Soldado 1",)
    assert mike.maneuvers == ("Disparar Armas Largas a Soldado 1",)
    assert (mike.marker, mike.ac, mike.attacks) == (4, 4, 1)


def test_s4_contra_and_english_at_name_the_target_too(demo):
    assert parse(f"Mike {SHOOT} contra {S1}", demo.fight) == parse(f"Mike {SHOOT} at {S1}", demo.fight)
    assert parse("Mike carga 2 a Sven", demo.fight) == cmd.Perform("Mike", "carga", 2, target="Sven")


def test_s4_unknown_target_is_refused(demo):
    refused(demo, f"Mike {SHOOT} a Zoe", "No hay nadie llamado «Zoe»")
    refused(demo, f"Mike {SHOOT} a", "Falta el blanco")
    with pytest.raises(Refusal, match="No hay nadie llamado «Zoe»"):  # built by a front end
        from cdbtui.engine.rules import apply
        apply(demo.fight, cmd.Perform("Mike", SHOOT, target="Zoe"))


def test_s4_only_attacks_take_a_target_and_never_oneself(demo):
    refused(demo, "Mike apuntar a Sven", "no es una maniobra de ataque")
    refused(demo, f"Mike {SHOOT} a Mike", "su propio blanco")


def test_s4_the_same_target_twice_is_one_target(demo):
    """Decision: the targets named in a turn's attacks feed the extra-target penalty
    (−1 to all actions per target beyond the first); `blancos N` and the named targets
    count the same targets, so the penalty is the larger of the two, never the sum."""
    run(demo, f"Mike {SHOOT} a {S1}")
    assert get(demo, "Mike").modifier == -1  # next attack: −1 (second attack), one target
    run(demo, f"{S1} {SHOOT} a Mike", f"Sven {SHOOT} a {S2}")
    assert demo.fight.moment == 4
    run(demo, f"Mike punetazo a {S1}")  # the same soldier again
    mike = get(demo, "Mike")
    assert (mike.attacks, mike.targets, mike.target_penalty) == (2, ("Soldado 1",), 0)
    assert mike.modifier == -2
    assert not logged(demo, "blancos este turno")


def test_s4_second_target_penalty_and_blancos_take_the_larger(session):
    s = session("alta A ac=9 bando=pj", "alta B ac=9", "alta C ac=9", "alta D ac=9",
                "momento A 9", "momento B 1", "momento C 1", "momento D 1", "empezar")
    run(s, "A punetazo a B")
    assert get(s, "A").target_penalty == 0
    run(s, "A punetazo a C")  # a second target: −1 to everything this turn
    a = get(s, "A")
    assert a.targets == ("B", "C")
    assert (a.target_penalty, a.modifier) == (-1, -3)  # −2 (third attack) −1 (extra target)
    assert logged(s, "A ataca a 2 blancos este turno (B, C): −1 a todas sus acciones")
    run(s, "blancos A 1")  # the DJ types the same extra target: no double count
    assert get(s, "A").target_penalty == -1
    run(s, "blancos A 3")  # a burst split among more soldiers than were named
    assert get(s, "A").modifier == -2 - 3
    run(s, "turno")
    assert (get(s, "A").targets, get(s, "A").target_penalty) == ((), 0)


def test_s4_a_carried_attack_counts_its_target_when_it_completes(demo):
    # Sven at 5 with 5 AC: shoot (3) → 2; at 2 a shot with 2 AC left carries 1
    run(demo, f"Mike {SHOOT}", f"{S1} {SHOOT}", f"Sven {SHOOT} a {S1}")
    run(demo, "Mike fin", f"{S1} fin", f"{S2} fin")
    assert demo.fight.moment == 2
    run(demo, f"Sven {SHOOT} a {S2}")
    sven = get(demo, "Sven")
    assert sven.carried.target == "Soldado 2" and sven.carried.remaining == 1
    assert sven.targets == ("Soldado 1",)  # not yet attacked: the shot is not finished
    run(demo, "turno", "Mike fin", f"{S1} fin")
    assert demo.fight.moment == 4
    sven = get(demo, "Sven")  # completed at 5 → 4, a new turn: one target so far
    assert (sven.marker, sven.ac, sven.carried, sven.targets) == (4, 4, None, ("Soldado 2",))
    assert logged(demo, "Sven: completa Disparar Armas Largas a Soldado 2 (1 AC) → momento 4")


def test_s4_a_waiter_interrupts_with_a_named_target(demo):
    run(demo, "Mike espera que asomen", "siguiente")
    run(demo, f"Mike interrumpe {SHOOT} a {S1}")
    assert get(demo, "Mike").targets == ("Soldado 1",)
    assert logged(demo, "Disparar Armas Largas a Soldado 1")


# ---------------------------------------------------------------- §4 Bloqueo


def martial(session, *more: str):
    """Bruce (Artista Marcial, 9 AC, start 9) against Thug (9 AC, start 8)."""
    return session(
        "alta Bruce ac=9 agi=3 bando=pj talentos=artista-marcial", "alta Thug ac=9 agi=2",
        "momento Bruce 9", "momento Thug 8", "empezar", *more,
    )


def test_s4_bloqueo_gives_the_attacker_minus_two_on_its_next_attack(session):
    s = martial(session, "Bruce retrasa", "siguiente")  # Bruce holds; Thug's moment 8
    run(s, "Thug punetazo a Bruce")
    assert get(s, "Thug").modifier == -1  # its second attack would take −1
    run(s, "Bruce bloqueo a Thug")  # reaction, 3 AC: the block succeeded
    thug = get(s, "Thug")
    assert thug.block_penalty == -2
    assert thug.modifier == -1 - 2
    assert logged(s, "Bloqueo de Bruce: Thug tiene −2 en su próxima tirada")
    bruce = get(s, "Bruce")
    assert (bruce.ac, bruce.targets) == (6, ())  # a reaction adds no target


def test_s4_the_bloqueo_penalty_is_used_up_by_the_next_attack_even_next_turn(session):
    s = martial(session, "Bruce retrasa", "siguiente", "Thug punetazo a Bruce", "Bruce bloqueo a Thug")
    run(s, "turno")
    assert get(s, "Thug").block_penalty == -2  # "su próxima tirada": not lost with the turn
    run(s, "Bruce fin")
    run(s, "Thug patada a Bruce")
    assert logged(s, "Thug aplica a esta tirada el −2 del Bloqueo que sufrió")
    thug = get(s, "Thug")
    assert (thug.block_penalty, thug.modifier) == (0, -1)


def test_s4_bloqueo_of_maestro_de_esgrima_does_the_same(session):
    s = session("alta Zorro ac=9 talentos=maestro-de-esgrima", "alta Sargento ac=9",
                "momento Zorro 9", "momento Sargento 8", "empezar", "Zorro retrasa", "siguiente",
                "Sargento atacar-con-armas-de-1-mano a Zorro")
    run(s, "Zorro bloqueo-esgrima a Sargento")
    assert get(s, "Sargento").block_penalty == -2
    # RULES.md §4 "One book name, two talents": «bloqueo» is the fencer's own Bloqueo
    # (it used to be refused as needing Artista Marcial)
    run(s, "Zorro bloqueo a Sargento")
    assert logged(s, "Zorro: Bloqueo (Maestro de Esgrima) a Sargento, reacción")


def test_s4_bloqueo_without_a_target_only_spends(session):
    """Decision: «NAME bloqueo a ATACANTE» is typed for a block that worked; a failed one
    is «NAME bloqueo» (the AC are spent all the same)."""
    s = martial(session, "Bruce retrasa", "siguiente", "Thug punetazo a Bruce", "Bruce bloqueo")
    assert get(s, "Thug").block_penalty == 0
    assert get(s, "Bruce").ac == 6


# ---------------------------------------------------------------- Liderazgo (000 "Liderazgo")


def squad(session, *more: str):
    """Jefa (leader, start 8), Ana and Bea (PJ, start 6), Orco (PNJ, start 7)."""
    return session(
        "alta Jefa ac=7 bando=pj", "alta Ana ac=6 bando=pj", "alta Bea ac=6 bando=pj",
        "alta Orco ac=6",
        "momento Jefa 8", "momento Ana 6", "momento Bea 6", "momento Orco 7", "empezar", *more,
    )


def test_liderazgo_pool_is_one_plus_the_degree_and_costs_three_ac(session):
    s = squad(session)
    run(s, "Jefa liderazgo gde=2")
    jefa = get(s, "Jefa")
    assert (jefa.leadership, jefa.ac, jefa.marker) == (3, 4, 5)
    assert logged(s, "Jefa lidera: 3 bono(s) de +1")


def test_liderazgo_bono_hands_one_plus_one_and_empties_the_pool(session):
    s = squad(session, "Jefa liderazgo gde=1")  # 2 bonuses
    run(s, "bono Jefa a Ana")
    assert (get(s, "Jefa").leadership, get(s, "Ana").lead_bonus, get(s, "Ana").modifier) == (1, 1, 1)
    refused(s, "bono Jefa a Ana", "Solo un \\+1 de Liderazgo por tirada")
    run(s, "bonus Jefa to Bea")
    assert get(s, "Jefa").leadership == 0
    refused(s, "bono Jefa a Ana", "no tiene bonos de Liderazgo")


def test_liderazgo_bonus_is_for_a_companion_and_used_by_the_next_attack(session):
    s = squad(session, "Jefa liderazgo gde=3")
    refused(s, "bono Jefa a Orco", "no es del bando de Jefa")
    refused(s, "bono Jefa a Jefa", "no puede darse el bono")
    run(s, "bono Jefa a Ana", "Orco punetazo a Ana")
    assert s.fight.moment == 6
    run(s, "Ana punetazo a Orco")
    assert logged(s, "Ana aplica a esta tirada el +1 de Liderazgo")
    ana = get(s, "Ana")
    assert (ana.lead_bonus, ana.modifier) == (0, -1)  # +1 used; the next attack is the 2nd


def test_liderazgo_pool_expires_at_the_end_of_the_turn(session):
    """Decision: the book gives no duration; the leader's instructions are for this turn
    (10 s): bonuses not handed out are lost when the turn ends.  A bonus already handed
    out stays until its receiver's next attack."""
    s = squad(session, "Jefa liderazgo gde=2", "bono Jefa a Bea")
    run(s, "turno")
    assert get(s, "Jefa").leadership == 0
    assert logged(s, "Caduca el Liderazgo de Jefa: 2 bono(s) sin repartir")
    assert get(s, "Bea").lead_bonus == 1
    refused(s, "bono Jefa a Ana", "no tiene bonos")


def test_liderazgo_one_leader_per_side_and_a_failed_roll_gives_nothing(session):
    s = squad(session, "Jefa liderazgo")  # failed roll (under 9): 3 AC, no pool
    assert (get(s, "Jefa").leadership, get(s, "Jefa").ac) == (0, 4)
    refused(s, "Jefa liderazgo gde=-1", "entre 0 y 20")
    s = squad(session, "Jefa liderazgo gde=0", "Orco fin")
    refused(s, "Ana liderazgo gde=1", "Un líder por bando: Jefa")
    refused(s, "Ana punetazo gde=1", "Solo Liderazgo lleva Grado de Éxito")
    # a bare number after Liderazgo is still a cost error (its cost is fixed)
    refused(s, "Ana liderazgo 1", "coste fijo")


def test_liderazgo_carried_sets_the_pool_when_it_completes(session):
    s = squad(session, "Jefa gasta 5", "Orco fin", "Ana fin", "Bea fin")
    assert get(s, "Jefa").ac == 2
    run(s, "Jefa liderazgo gde=1")  # 2 AC now, 1 next turn
    assert get(s, "Jefa").leadership == 0 and get(s, "Jefa").carried.degree == 1
    run(s, "turno")
    jefa = get(s, "Jefa")  # completes at 8 → 7
    assert (jefa.marker, jefa.leadership) == (7, 2)


# ---------------------------------------------------------------- §5 conditions: a cubierto


def test_s5_a_cubierto_is_a_note_with_the_books_effect(demo):
    undoable(demo, f"estado {S1} +a-cubierto")
    s1 = get(demo, "Soldado 1")
    assert s1.conditions == ("a-cubierto",)
    assert (s1.ac, s1.modifier) == (6, 0)  # no effect on AC or rolls
    assert logged(demo, "Soldado 1: +a-cubierto (Reglas de Cobertura: si el impacto da en la parte"
                        " cubierta, al Daño se le resta primero la RD de la cobertura")
    run(demo, f"dano {S1} 3")
    assert logged(demo, "Soldado 1 está a cubierto: Reglas de Cobertura")
    run(demo, f"estado {S1} -cubierto")
    assert get(demo, "Soldado 1").conditions == ()


# ---------------------------------------------------------------- §5 conditions: montado


def riders(session, *more: str):
    """Sven (start 5) rides Caballo (6 AC); Soldado (start 6) on foot."""
    return session(
        "alta Sven ac=5 bando=pj", "alta Soldado ac=6", "alta Caballo ac=6 bando=pj",
        "momento Sven 5", "momento Soldado 6", "monta Sven Caballo", "empezar", *more,
    )


def test_s5_montado_the_mount_takes_the_riders_moment_and_marker(session):
    s = riders(session)
    sven, caballo = get(s, "Sven"), get(s, "Caballo")
    assert sven.conditions == ("montado",) and sven.mount == "Caballo"
    assert (caballo.start, caballo.marker, caballo.ac) == (5, 5, 6)
    assert [c.name for c in queue(s.fight)] == ["Soldado"]  # the mount has no moment of its own
    run(s, "Soldado punetazo a Sven")
    assert [c.name for c in queue(s.fight)] == ["Sven"]  # the mount never holds the queue
    run(s, "Sven esquivar")
    assert (get(s, "Sven").marker, get(s, "Caballo").marker) == (4, 4)


def test_s5_montado_the_mount_moves_right_after_its_riders_charge(session):
    s = riders(session, "Soldado punetazo a Sven")
    refused(s, "Caballo retrasa", "montura de Sven")
    run(s, "Sven carga-con-montura 3 a Soldado")  # 2 + a 3-AC attack = 5: Sven done, at 0
    assert logged(s, "Caballo gasta ahora, en el momento de Sven, las AC de lo que mueva")
    assert get(s, "Sven").status is Status.DONE
    run(s, "Caballo mover 3")  # the countdown moved on to 4, the horse still runs
    caballo = get(s, "Caballo")
    assert (caballo.ac, caballo.marker, caballo.status) == (3, 0, Status.ACTED)
    assert caballo.maneuvers == ("Mover",) and caballo.stops == ()
    run(s, "Soldado esquivar")  # something else happened: the mount's moment is over
    assert (get(s, "Caballo").status, get(s, "Caballo").ac) == (Status.DONE, 0)
    refused(s, "Caballo mover 1", "ya ha terminado")


def test_s5_montado_the_mount_cannot_act_on_its_own(session):
    s = riders(session)
    refused(s, "Caballo mover 1", "es la montura de Sven: actúa en el momento de su jinete")
    refused(s, "momento Caballo 3", "montura de Sven")
    refused(s, "estado Sven +montado", "Sven ya está montado")
    refused(s, "monta Soldado Caballo", "ya lleva a Sven")


def test_s5_montado_desmonta_and_the_condition_minus_free_the_mount(session):
    s = riders(session)
    undoable(s, "desmonta Sven")
    assert get(s, "Sven").conditions == () and get(s, "Sven").mount is None
    assert s.fight.mounts == frozenset()
    run(s, "deshacer")
    run(s, "estado Sven -montado")
    assert get(s, "Sven").mount is None
    run(s, "Soldado fin")
    assert [c.name for c in queue(s.fight)] == ["Sven", "Caballo"]  # on its own again


def test_s5_montado_shooting_from_a_mount_is_noted_and_a_charge_unmounted_warned(session):
    s = riders(session, "Soldado fin")
    run(s, f"Sven {SHOOT} a Soldado")
    assert logged(s, "Sven dispara desde una montura: −2 a la tirada")
    s = session("alta Ana ac=7 bando=pj", "momento Ana 5", "empezar")
    assert any("no está montado" in text for text in s.cautions("Ana carga-con-montura 3"))


# ---------------------------------------------------------------- Duelos (000, optional rule)


def duelists(session, *more: str):
    """Ana (INI 3, Duelista) and Bo (INI 2) in a fight with Cid (start 6)."""
    return session(
        "alta Ana ac=6 ini=3 bando=pj talentos=duelista", "alta Bo ac=6 ini=2",
        "alta Cid ac=6 ini=1", "momento Cid 6", *more,
    )


def test_duelo_no_initiative_roll_each_acts_at_its_ini(session):
    s = duelists(session, "duelo Ana Bo")
    ana, bo = get(s, "Ana"), get(s, "Bo")
    assert (ana.start, bo.start) == (3, 2)
    assert ana.conditions == ("en-duelo",) and bo.conditions == ("en-duelo",)
    assert (ana.duel, bo.duel) == ("Bo", "Ana")
    refused(s, "momento Ana 5", "en duelo con Bo: en un duelo no se tira Iniciativa")
    refused(s, "tirar Bo", "en duelo")
    run(s, "empezar")
    assert s.fight.moment == 6 and get(s, "Ana").marker == 3


def test_duelo_duelista_adds_the_degree_of_success(session):
    s = duelists(session)
    undoable(s, "duelo Ana Bo Ana+2")
    assert (get(s, "Ana").start, get(s, "Bo").start) == (5, 2)
    assert logged(s, "Ana en el momento 5 (INI 3 + 2 de Grado de Éxito)")
    refused(s, "duelo Ana Bo Bo+1", "Solo con el talento Duelista")
    refused(s, "duelo Ana Cid", "Ana ya está en duelo con Bo")
    run(s, "duelo Ana Bo Ana+1")  # a new opposed roll for the same pair
    assert get(s, "Ana").start == 4


def test_duelo_attacking_someone_else_needs_leaving_the_duel(session):
    s = duelists(session, "duelo Ana Bo", "empezar", "Cid fin")
    assert s.fight.moment == 3
    refused(s, "Ana punetazo a Cid", "para atacar a Cid antes debe abandonar el duelo")
    run(s, "Ana punetazo a Bo")
    run(s, "Bo fin")
    run(s, "Ana abandonar-duelo")  # 3 AC: the concentration is left
    ana, bo = get(s, "Ana"), get(s, "Bo")
    assert (ana.ac, ana.marker) == (1, -2)
    assert ana.conditions == bo.conditions == ()
    assert (ana.duel, bo.duel) == (None, None)
    assert logged(s, "Ana abandona el duelo: Ana y Bo dejan de estar en duelo")


def test_duelo_the_dj_ends_it_for_both_and_a_duel_mid_fight_starts_at_once(session):
    """Decision: a duel declared mid-turn ("en mitad de un combate normal") takes effect at
    once: a marker above the duelist's INI drops to it, one already below stays."""
    s = duelists(session, "momento Ana 6", "momento Bo 1", "empezar")
    assert [c.name for c in queue(s.fight)] == ["Ana", "Cid"]
    run(s, "duelo Bo Ana")
    assert (get(s, "Ana").marker, get(s, "Ana").start) == (3, 3)
    assert (get(s, "Bo").marker, get(s, "Bo").start) == (1, 2)
    assert [c.name for c in queue(s.fight)] == ["Cid"]
    run(s, "turno")
    assert (get(s, "Ana").marker, get(s, "Bo").marker) == (3, 2)
    refused(s, "estado Ana +en-duelo", "Ana ya está en-duelo")  # in a duel with Bo already
    run(s, "estado Ana -en-duelo")
    assert get(s, "Bo").conditions == () and get(s, "Bo").duel is None


# ---------------------------------------------------------------- Hordas (000 "Combate de Masas")


def test_horda_is_one_column_with_a_member_count_and_one_roll(session):
    s = session("alta Orcos ac=5 ini=1 miembros=12 aguante=2", "alta Ana ac=6 ini=2 bando=pj")
    assert s.lines[0] == "alta Orcos ac=5 ini=1 bando=pnj miembros=12 aguante=2"
    orcos = get(s, "Orcos")
    assert (orcos.members, orcos.toughness, orcos.is_group) == (12, 2, True)
    rolls = s.fight.rolls
    run(s, "tirar")
    assert s.fight.rolls == rolls + 2  # one die for the horde, one for Ana
    refused(session("alta A ac=5"), "alta B ac=5 aguante=2", "va con miembros=N")


def test_horda_damage_puts_members_out_instead_of_marking_boxes(session):
    """Decision (000 "Hordas"): each `aguante` of Daño Total puts one member out, at most
    one per projectile (`balas=N`); with no members left the horde is out."""
    s = session("alta Orcos ac=5 miembros=5 aguante=2", "alta Ana ac=6 bando=pj",
                "momento Orcos 4", "momento Ana 6", "empezar")
    run(s, "dano Orcos 5 rd=0")  # 5 // 2 = 2 members
    orcos = get(s, "Orcos")
    assert (orcos.members, orcos.wounds.marked) == (3, 0)
    assert logged(s, "Orcos: 2 miembro(s) inutilizado(s) (daño 5 − RD 0, 2 por miembro) → quedan 3")
    run(s, "dano Orcos 9 balas=1")  # a single shot: one member at most
    assert get(s, "Orcos").members == 2
    refused(s, "dano Ana 3 balas=2", "solo cuenta contra una Horda")
    run(s, "dano Orcos 20")
    orcos = get(s, "Orcos")
    assert (orcos.members, orcos.status, orcos.conditions) == (0, Status.OUT, ("sin-miembros",))
    run(s, "Ana fin")
    assert s.fight.turn_over  # the horde is skipped by the countdown
    refused(s, "curar Orcos 1", "Horda")


# ---------------------------------------------------------------- §5 Moribundo / Exhausto are out


def test_s5_moribundo_is_out_and_its_moment_passes_without_stopping(demo):
    run(demo, "estado Sven +moribundo")
    assert get(demo, "Sven").status is Status.OUT
    run(demo, f"Mike {SHOOT}", f"{S1} {SHOOT}")
    assert demo.fight.moment == 4  # 5 (Sven's start) was skipped: nobody else there
    run(demo, "turno")
    assert get(demo, "Sven").status is Status.OUT
    run(demo, f"Mike {SHOOT}", f"{S1} {SHOOT}")
    assert demo.fight.moment == 4 and [c.name for c in queue(demo.fight)] == ["Soldado 2", "Mike"]
    refused(demo, "Sven esquivar", "fuera de combate")


def test_s6_exhausto_by_fatigue_is_out_too(session):
    s = session("alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 6", "momento B 3", "empezar")
    run(s, "dano A 5 fatiga")  # the fifth box is Exhausto
    assert get(s, "A").status is Status.OUT
    assert s.fight.moment == 3


# ---------------------------------------------------------------- §6 healing


def test_s6_curar_removes_the_worst_boxes_first(session):
    s = session("alta A ac=5")
    run(s, "dano A 7")  # 3 Rasguño + 3 Herido + 1 Gravemente Herido: −3
    assert get(s, "A").wounds.penalty == -3
    undoable(s, "curar A 2")
    a = get(s, "A")
    assert (a.wounds.marked, a.wounds.penalty) == (5, -1)  # back to Herido
    assert logged(s, "A: cura 2 casilla(s) de heridas → Herido")
    run(s, "heal A 99")  # more than marked: all of them
    assert get(s, "A").wounds.marked == 0
    refused(s, "curar A 1", "no tiene casillas de heridas marcadas")
    run(s, "dano A 2 fatiga", "curar A 1 fatiga")
    assert get(s, "A").fatigue.marked == 1


def test_s6_curar_a_moribundo_brings_it_back_next_turn(session):
    """RULES.md §6: while a turn is being played, `curar` on a Moribundo only
    stabilises it (Primeros Auxilios); the treatment after the turn heals it."""
    s = session("alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 6", "momento B 6", "empezar")
    run(s, "dano A 5")
    assert get(s, "A").status is Status.OUT
    run(s, "curar A 3")  # Primeros Auxilios: stabilised, still out
    assert get(s, "A").status is Status.OUT and get(s, "A").has("estabilizado")
    run(s, "B fin", "curar A 3")  # the turn is over: treatment with time
    assert get(s, "A").status is Status.DONE and not get(s, "A").has("estabilizado")
    run(s, "turno")
    a = get(s, "A")
    assert (a.status, a.ac, a.wounds.penalty) == (Status.READY, 5, -1)


def test_s6_descanso_wipes_the_rasgunos_after_the_battle(session):
    """Decision (000 "Curación": "Los Rasguños suelen borrarse tras una batalla"):
    `descanso` wipes everyone's Rasguño boxes; refused while a turn is being played.
    Worse boxes stay; new damage goes on after the last marked box."""
    s = session("alta A ac=5", "alta B ac=5", "momento A 5", "momento B 4", "empezar")
    run(s, "dano A 5", "dano B 2")  # A: 3 Rasguño + 2 Herido; B: 2 Rasguño
    refused(s, "descanso", "tras la batalla")
    run(s, "A fin", "B fin")
    undoable(s, "descanso")
    a, b = get(s, "A"), get(s, "B")
    assert (a.wounds.count, a.wounds.penalty) == (2, -1)  # the Herido boxes stay
    assert b.wounds.marked == 0
    assert logged(s, "Descanso tras la batalla: se borran los Rasguños de A, B")
    refused(s, "rest", "Nadie tiene Rasguños")
    run(s, "dano A 1")  # goes on after the last marked box: the last Herido
    assert (get(s, "A").wounds.count, get(s, "A").wounds.penalty) == (3, -1)
    run(s, "curar A 3")
    assert get(s, "A").wounds.marked == 0 and get(s, "A").wounds.cleared == 0


# ---------------------------------------------------------------- §6 the total modifier


def test_s6_modifier_adds_wounds_fatigue_attacks_targets_aim_block_and_leader(session):
    s = session(
        "alta Jefa ac=9 bando=pj", "alta Ana ac=12 bando=pj talentos=punteria-zen",
        "alta Bruce ac=9 talentos=artista-marcial", "alta X ac=9",
        "momento Jefa 20", "momento Ana 19", "momento Bruce 1", "momento X 1", "empezar",
    )
    run(s, "Jefa liderazgo gde=0", "bono Jefa a Ana")
    run(s, "Ana apuntar")  # +1
    run(s, "dano Ana 4")  # Herido: −1
    run(s, "dano Ana 4 fatiga")  # Aturdido: −1
    assert get(s, "Ana").modifier == +1 + 1 - 1 - 1  # aim, leader, wounds, fatigue
    assert s.fight.moment == 17  # Jefa and Ana both at 17
    run(s, "Ana punetazo a Bruce")  # uses aim and the leader's +1
    run(s, "Bruce bloqueo a Ana")  # −2 on Ana's next roll
    ana = get(s, "Ana")
    assert (ana.aim, ana.lead_bonus, ana.block_penalty, ana.attacks) == (0, 0, -2, 1)
    assert ana.modifier == -1 - 1 - 1 - 2  # wounds, fatigue, 2nd attack, block
    run(s, "Jefa fin")  # the countdown reaches Ana at 15
    run(s, "Ana punetazo a X")  # a second target; the block used up
    ana = get(s, "Ana")
    assert ana.modifier == -1 - 1 - 2 - 1  # wounds, fatigue, 3rd attack, extra target
