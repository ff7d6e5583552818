"""C-System fights built from values (not commands), for the view, player and
export tests: the CSYSTEM.md §12 example at step 9 (Titán about to charge)."""

from __future__ import annotations

from attrs import evolve

from cdbtui.engine.csystem.model import CsCondition, CsPart, CsSheet, Prompt, Weapon
from cdbtui.engine.model import Combatant, Fight


def combatant(name: str, *, side: str = "pnj", hidden: bool = False, private: bool = False,
              **sheet) -> Combatant:
    return Combatant(name=name, ac_per_turn=0, side=side, hidden=hidden, private=private,
                     sheet=CsSheet(**sheet))


def step9(*, private: bool = False, hidden: tuple[str, ...] = ()) -> Fight:
    """Turn 1, step 9 of the worked example: Titán's go; the others have acted."""
    cast = (
        combatant("Centella", side="pj", level=5, dex=6, alerta=4, per=8, con=5,
                  vitality_max=32, vitality=24, dr_lethal=3, dr_ballistic=3, dr_energy=3,
                  initiative=17, shift=-5, acted=True, used=("complex", "complex"),
                  maneuvers=("apuntar",), conditions=(CsCondition("ensordecido"),),
                  weapons=(Weapon("pistola", modes=("sa",), mode="sa", magazine=15, ammo=14,
                                  damage="2d6", fired=1),)),
        combatant("Titán", side="pj", level=1, dex=3, alerta=2, per=4, con=7,
                  vitality_max=28, vitality=20, initiative=14, begun=True,
                  weapons=(Weapon("puños", damage="3d6"),)),
        combatant("Sicario 1", level=1, dex=4, alerta=3, per=4, con=4, vitality_max=16,
                  vitality=16, initiative=18, acted=True, used=("complex", "simple"),
                  maneuvers=("rafaga-corta", "cubrirse"), conditions=(CsCondition("tumbado"),),
                  weapons=(Weapon("subfusil", modes=("fa",), mode="fa", magazine=30, ammo=22,
                                  damage="2d6", fired=8),),
                  private=private, hidden="Sicario 1" in hidden),
        combatant("Doctor Ruina", level=9, dex=5, alerta=6, per=7, con=6, vitality_max=48,
                  vitality=43, initiative=22, acted=True, dodge=5, dodged=True,
                  used=("complex", "simple", "complex"), maneuvers=("esquivar",),
                  weapons=(Weapon("rayo", ranged=True, damage="3d6"),),
                  private=private, hidden="Doctor Ruina" in hidden),
    )
    fight = Fight(name="Azotea", rules="csystem", turn=1, combatants=cast, actor="Titán",
                  cs=CsPart(order=("Doctor Ruina", "Sicario 1", "Centella", "Titán")))
    fight = fight.note("Centella: Apuntar (■) → +2", about=["Centella"])
    fight = fight.note("Centella: dispara a Doctor Ruina: 31 vs 29, índice 1, daño 1+7−3 = 5 → 43/48",
                       about=["Centella", ("Doctor Ruina", "target")])
    fight = fight.note("Doctor Ruina: rayo a Centella: 30 vs 26, índice 2, daño 8 → 24/32",
                       about=["Doctor Ruina", ("Centella", "target")])
    fight = fight.note("Doctor Ruina: Esquivar (■) → Defensa +5", about=["Doctor Ruina"])
    fight = fight.note("Sicario 1: Ráfaga corta a Titán (8 balas, 30 → 22): 20 vs 19, daño 8 → 20/28",
                       about=["Sicario 1", ("Titán", "target")])
    fight = fight.note("Sicario 1: se tira al suelo", about=["Sicario 1"])
    return fight


def with_pending(fight: Fight) -> Fight:
    """Step 9 after Titán's charge: Sicario 1 at 3/16 waits for its pain roll and the
    critical table."""
    sicario = fight.find("Sicario 1")
    sheet = evolve(sicario.sheet, vitality=3, criticals=1,
                   pending=(Prompt("dolor", nd=23), Prompt("critica", bonus=0)))
    titan = fight.find("Titán")
    return fight.replace(evolve(sicario, sheet=sheet),
                         evolve(titan, sheet=evolve(titan.sheet, used=("complex",), charged=True,
                                                    maneuvers=("cargar",))))


#: /tmp/cs/SYNTAX.md's script of the worked example (CSYSTEM.md §12), after `new`.
SETUP = (
    "alta Centella bando=pj nh=5 des=6 ale=4 per=8 con=5 rd=3",
    "arma Centella pistola modos=sa cargador=15 dano=2d6",
    "alta Titán bando=pj nh=1 des=3 ale=2 per=4 con=7 rd=2",
    "arma Titán puños dano=3d6",
    'alta "Sicario 1" nh=1 des=4 ale=3 per=4 con=4 rd=2',
    'arma "Sicario 1" subfusil modos=fa cargador=30 dano=2d6',
    'alta "Doctor Ruina" nh=9 des=5 ale=6 per=7 con=6 rd=3',
    'arma "Doctor Ruina" rayo distancia dano=3d6',
    "iniciativa Centella 22",
    'iniciativa "Doctor Ruina" 22',
    'iniciativa "Sicario 1" 18',
    "iniciativa Titán 14",
    "empezar",
)
#: The rows of the example, by step number; the refused ones are marked.
ROWS = (
    (2, "centella apuntar"),
    (3, "centella ataca ruina tirada=31 dano=7"),
    (4, "ruina ataca centella tirada=30 dano=9 tipo=energia"),
    (4, "estado centella +ensordecido"),
    (5, "ruina mover"),
    (6, "ruina esquivar 5"),
    (7, "sicario rafaga-corta a titan tirada=20 dano=6+4"),
    (8, "sicario cubrirse simple"),
    (9, "titan cargar a sicario tirada=21 dano=14"),
    (9, "dolor sicario 20"),
    (9, 'critica sicario "corte profundo" +sangrando:1'),
    (10, "titan cargar"),  # refused
    (11, 'titan simple "¡Centella, cúbreme!"'),
    (13, "ruina ataca titan tirada=31 dano=9 tipo=energia"),
    (13, "dolor titan 25"),
    (14, "ruina ataca titan tirada=22 dano=4 tipo=energia"),
    (14, "dolor titan 13"),
    (15, "ruina mover"),
    (17, "sicario levantarse"),  # refused
    (18, 'sicario simple "pide refuerzos por radio"'),
    (19, "centella retrasa tras titan"),
    (21, "titan cubrirse simple"),
    (22, "centella apuntar"),
    (23, "centella apuntar"),  # refused
    (24, "centella ataca ruina tirada=29 dano=8"),
)
REFUSED = {10, 17, 23}


def setup_lines(hidden: tuple[str, ...] = (), private: tuple[str, ...] = ()) -> list[str]:
    """SETUP with `oculto` / `privado` added to those combatants' `alta`."""
    lines = []
    for line in SETUP:
        if line.startswith("alta "):
            name = line.split('"')[1] if '"' in line else line.split()[1]
            line += " oculto" * (name in hidden) + " privado" * (name in private)
        lines.append(line)
    return lines


def played(until: int | None = None, *, hidden: tuple[str, ...] = (), private: tuple[str, ...] = ()):
    """A `Session` of the example played up to step `until` included (all: None)."""
    from cdbtui.engine.errors import Refusal
    from cdbtui.engine.session import Session

    session = Session.new("Azotea", "csystem")
    for line in setup_lines(hidden, private):
        session.execute(line)
    for step, line in ROWS:
        if until is not None and step > until:
            break
        try:
            session.execute(line)
        except Refusal:
            assert step in REFUSED, line
    return session


def each_step(*, hidden: tuple[str, ...] = (), private: tuple[str, ...] = ()):
    """The fight after each accepted line of the example (set-up included)."""
    from cdbtui.engine.errors import Refusal
    from cdbtui.engine.session import Session

    session = Session.new("Azotea", "csystem")
    for line in (*setup_lines(hidden, private), *(line for _, line in ROWS)):
        try:
            session.execute(line)
        except Refusal:
            continue
        yield line, session.fight
