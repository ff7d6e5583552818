"""The storyteller worked example (STORYTELLER.md §15) as the command lines of
/tmp/cs/NARR_SYNTAX.md, played through `Session.new("Depósito", "narrador")`, for
the view, player and export tests."""

from __future__ import annotations

from cdbtui.engine.session import Session

CAST = (
    "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4",
    "arma Kara revolver-ligero",
    "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2",
    "arma Víctor rifle-de-asalto",
    "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3",
    "arma Matón pistola-ligera",
    "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2",
)
#: The same cast one command line a combatant, for the tests through the shell, with
#: each part named (a test may add only some of them): the four, their weapons, the
#: initiatives of each turn.
KARA = "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4"
VICTOR = "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2"
MATON = "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3"
CADAVER = "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2"
ARMS = ("arma Kara revolver-ligero", "arma Víctor rifle-de-asalto", "arma Matón pistola-ligera")
SHELL_CAST = (KARA, VICTOR, MATON, CADAVER, *ARMS)
#: STORYTELLER §15 turn 1: order Kara 13, Matón 13 (rating 6 > 5), Víctor 10, Cadáver 8.
T1 = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8")
#: §15 turn 2: order Matón 13, Kara 11, Víctor 8, Cadáver 4.
T2 = ("iniciativa Matón 13", "iniciativa Kara 11", "iniciativa Víctor 8", "iniciativa Cadáver 4")

TURN_1 = (
    "iniciativa Kara 13",
    "iniciativa Matón 13",
    "iniciativa Víctor 10",
    "iniciativa Cadáver 8",
    "siguiente",
    "declara cadaver golpe",
    "declara victor fuego-automatico",
    "declara maton disparos-multiples 2",
    "declara kara disparo esquiva",
    "kara actua a maton exitos=2",
    "maton aborta tira exitos=0 esquiva",
    "dano maton 3 letal",
    "maton actua a kara exitos=1",
    "kara defiende esquiva exitos=2",
    "maton actua a kara exitos=1",
    "kara defiende esquiva exitos=1",
    "victor actua a cadaver exitos=6",
    "dano cadaver 6 letal",
)
TURN_2 = (
    "iniciativa Matón 13",
    "iniciativa Kara 11",
    "iniciativa Víctor 8",
    "iniciativa Cadáver 4",
    "siguiente",
    "declara cadaver placaje",
    "declara victor recarga",
    "declara kara defensa-total esquiva",
    "declara maton patada",
    "maton actua a kara exitos=2",
    "kara aborta gasta esquiva exitos=3",
    "victor actua",
    "cadaver actua a victor exitos=1",
    "dano victor 2 contundente",
    "estado cadaver +derribado",
    "estado victor +desequilibrado",
)
LINES = CAST + TURN_1 + TURN_2


def step(line: str) -> int:
    """How many lines to play to have played `line` (its first occurrence)."""
    return LINES.index(line) + 1


def cast(hidden: tuple[str, ...] = (), private: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The lines with `oculto` / `privado` added to those combatants' `alta`."""
    lines = []
    for line in LINES:
        words = line.split()
        if words[0] == "alta":
            if words[1] in hidden:
                line += " oculto"
            if words[1] in private:
                line += " privado"
        lines.append(line)
    return tuple(lines)


def played(count: int | None = None, *, hidden: tuple[str, ...] = (),
           private: tuple[str, ...] = ()) -> Session:
    """A session with the first `count` lines played (all by default)."""
    session = Session.new("Depósito", "narrador")
    for line in cast(hidden, private)[:count]:
        session.execute(line)
    return session


def each_step(*, hidden: tuple[str, ...] = (), private: tuple[str, ...] = ()):
    """(line, fight after it) for every line of the example."""
    session = Session.new("Depósito", "narrador")
    yield "", session.fight
    for line in cast(hidden, private):
        session.execute(line)
        yield line, session.fight
