"""The maneuver catalogs against the seeds, variable costs, talents and house rules.

The tables below are transcribed from the seeds' text, not from the TOML files, so a
wrong value in `cdbtui/rules/*.toml` fails here.  Line numbers: seeds/000_…-cdb-engine-
combate.txt ("000:N") and seeds/003_…-walkure-combate.txt ("003:N").  Which maneuvers
are attacks comes from the list at 000:65 and 003:79 (the book's italics); reactions
from RULES.md §3.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from cdbtui.engine.catalog import (
    RULESETS,
    TALENT_ES,
    VARIABLE_ES,
    Catalog,
    catalog,
    load_house_rules,
)
from cdbtui.engine.commands import ACTIONS
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Combatant
from cdbtui.engine.session import Session
from cdbtui.engine.text import slug

AM, ME, GK, AMB, FU = "artista-marcial", "maestro-de-esgrima", "gun-kata", "ambidiestro", "gun-fu"
MOV, SHOT, ATK = "movement", "shot", "attack"


class Row(NamedTuple):
    id: str
    name: str  # the book's name (the id is its slug, or the slug plus a disambiguation)
    cost: int  # fixed part of the cost (with `variable`, the typed N is added)
    attack: bool = False
    reaction: bool = False
    talents: tuple[str, ...] = ()
    talent_costs: tuple[tuple[str, int], ...] = ()
    variable: str | None = None


# ---------------------------------------------------------------- CdB Engine (seed 000)

CDB = [
    # Listado de Maniobras Cuerpo a Cuerpo; 000:165 Artista Marcial: Agarrón, Asfixiar,
    # Desarmar, Escapar y Presa "les cuesta 1 AC menos".
    Row("agarron", "Agarrón", 4, True, talent_costs=((AM, 3),)),  # 000:169 "Cuesta 4 AC, 3 AC si…"
    Row("atacar-con-armas-de-1-mano", "Atacar con Armas de 1 Mano", 3, True),  # 000:171 "Cuesta 3 AC"
    Row("atacar-con-armas-de-2-manos", "Atacar con Armas de 2 Manos", 4, True),  # 000:173 "Cuesta 4 AC"
    Row("asfixiar", "Asfixiar", 4, True, talent_costs=((AM, 3),)),  # 000:175
    # 000:177-179 "Cuesta las AC del ataque más las del movimiento" (base: the usual attack, 3)
    Row("carga", "Carga", 3, True, variable=MOV),
    Row("desarmar", "Desarmar", 3, True, talent_costs=((AM, 2),)),  # 000:181 "Cuesta 3 AC, 2 AC si…"
    Row("escapar", "Escapar", 4, True, talent_costs=((AM, 3),)),  # 000:183
    Row("esquivar", "Esquivar", 1, reaction=True),  # 000:185 "Cuesta 1 AC"
    Row("fintar", "Fintar", 1, True, variable=ATK),  # 000:187 "Cuesta 1 AC más que el ataque normal"
    Row("parada", "Parada", 2, reaction=True),  # 000:191 "Cuesta 2 AC"
    Row("parada-con-armas", "Parada con armas", 2, reaction=True),  # 000:193 "Cuesta 2 AC"
    Row("patada", "Patada", 3, True),  # 000:195 "Cuesta 3 AC"
    Row("presa", "Presa", 4, True, talent_costs=((AM, 3),)),  # 000:197
    Row("punetazo", "Puñetazo", 2, True),  # 000:199 "Cuesta 2 AC"
    # Maniobras de Artista Marcial (000:165: only with the talent; 000:65: all are attacks)
    Row("bloqueo", "Bloqueo", 3, True, True, (AM,)),  # 000:203 "Cuesta 3 AC"
    Row("golpe-en-el-aire", "Golpe en el Aire", 3, True, talents=(AM,), variable=MOV),  # 000:205
    Row("proyectar", "Proyectar", 4, True, talents=(AM,)),  # 000:207 "Cuesta 4 AC"
    Row("usar-la-fuerza-del-otro", "Usar la Fuerza del Otro", 5, True, True, (AM,)),  # 000:209
    # Maniobras de Maestro de Esgrima (not in 000:65; Ataque Doble "contando como una sola
    # maniobra de Ataque" 000:213; Bloqueo and Golpe en el Aire as their Artista Marcial twins)
    Row("ataque-doble", "Ataque Doble", 5, True, talents=(ME, AMB)),  # 000:213 "Cuesta 5 AC"
    # 000:215 "como una Parada con armas": a reaction, not an attack (RULES.md §4)
    Row("bloqueo-esgrima", "Bloqueo", 3, False, True, (ME,)),  # 000:215 "Cuesta 3 AC"
    Row("golpe-en-el-aire-esgrima", "Golpe en el Aire", 3, True, talents=(ME,), variable=MOV),  # 000:217-219
    Row("sentidos-de-combate-esgrima", "Sentidos de combate", 1, talents=(ME,)),  # 000:221 "Cuesta 1 AC"
    # Listado de Maniobras a Distancia
    Row("apuntar", "Apuntar", 2),  # 000:279 "Cuesta 2 AC"
    Row("apuntar-a-una-parte-del-cuerpo", "Apuntar a una parte del Cuerpo", 2),  # 000:281
    Row("disparar-arcos", "Disparar Arcos", 3, True),  # 000:303 "Cuesta 3 AC" (attack: RULES.md §4)
    Row("disparar-armas-cortas", "Disparar Armas Cortas", 3, True),  # 000:305
    Row("disparar-armas-de-polvora", "Disparar Armas de Pólvora", 3, True),  # 000:307
    Row("disparar-armas-largas", "Disparar Armas Largas", 3, True),  # 000:309
    Row("disparar-armas-pesadas", "Disparar Armas Pesadas", 4, True),  # 000:311 "Cuesta 4 AC"
    Row("disparar-ballestas", "Disparar Ballestas", 3, True),  # 000:313
    Row("doble-tap", "Doble Tap", 5, True),  # 000:315 "Cuesta 5 AC"
    Row("fuego-de-cobertura", "Fuego de Cobertura", 5, True),  # 000:317 "Cuesta 5 AC"
    Row("lanzar", "Lanzar", 2, True),  # 000:319 "Cuesta 2 AC"
    Row("observador", "Observador", 4),  # 000:321 "Cuesta 4 AC"
    Row("ponerse-a-cubierto", "Ponerse a Cubierto", 1, reaction=True),  # 000:323 "Cuesta 1 AC"
    Row("rafaga-corta", "Ráfaga Corta", 0, True, variable=SHOT),  # 000:325 "la misma cantidad…"
    Row("rafaga-media", "Ráfaga Media", 1, True, variable=SHOT),  # 000:327 "…Disparo normal…+1"
    Row("rafaga-larga", "Ráfaga Larga", 2, True, variable=SHOT),  # 000:329 "…Disparo normal…+2"
    # Maniobras de Gun Kata (000:65: Mover y Disparar, Disparo en el Aire, Disparo Simultáneo)
    Row("mover-y-disparar", "Mover y Disparar", 3, True, talents=(GK,), variable=MOV),  # 000:333
    Row("esquivar-disparos", "Esquivar Disparos", 1, reaction=True, talents=(GK,)),  # 000:335
    Row("disparo-en-el-aire", "Disparo en el Aire", 3, True, talents=(GK,), variable=MOV),  # 000:337
    # 000:339 "Cuesta 5 AC, y 4 AC si se tiene el Don Gun Fu…"
    Row("disparo-simultaneo", "Disparo Simultáneo", 5, True, talents=(GK, AMB), talent_costs=((FU, 4),)),
    Row("sentidos-de-combate", "Sentidos de combate", 1, talents=(GK,)),  # 000:341 "Cuesta 1 AC"
    # Otras Maniobras (Quedarse a la Espera 000:345 and Retrasar 000:349 are commands)
    Row("reconocimiento", "Reconocimiento", 1),  # 000:347 "Cuesta 1 AC"
    # Cited elsewhere in the chapter
    Row("sacar-un-objeto-a-mano", "Sacar un objeto a mano", 2),  # 000:303 "(2 AC)"
    Row("mover", "Mover", 0, variable=MOV),  # 000:105 "invertir 6 AC para mover seis veces…"
    Row("liderazgo", "Liderazgo", 3),  # 000:113 "(gastando 3 AC)"
    Row("carga-con-montura", "Carga con Montura", 2, True, variable=ATK),  # 000:447 "2 AC más el coste del ataque"
    Row("abandonar-duelo", "Abandonar un duelo", 3),  # 000:457 "debe gastar 3 AC para salir"
]

#: 000:229 "Llevar un arma de una sola mano a dos manos … hace que el ataque cueste 1 AC más".
#: RULES.md §4 "One book name, two talents": the explicit ids of the versions whose id is
#: the shared book name (for a combatant with both talents).
SPELLINGS = [
    Row("bloqueo-artista-marcial", "", 3, True, True, (AM,)),
    Row("golpe-en-el-aire-artista-marcial", "", 3, True, talents=(AM,), variable=MOV),
    Row("sentidos-de-combate-gun-kata", "", 1, talents=(GK,)),
]
#: The book names two talents share (the id of one version; typing it resolves).
SHARED = {"bloqueo", "golpe-en-el-aire", "sentidos-de-combate"}
CDB_DERIVED = [Row("atacar-con-armas-de-1-mano-a-dos-manos", "", 4, True), *SPELLINGS]

# ---------------------------------------------------------------- Walküre (seed 003)

WALKURE = [
    # Listado de maniobras cuerpo a cuerpo; 003:233 artista marcial: 1 AC menos
    Row("agarron", "Agarrón", 4, True, talent_costs=((AM, 3),)),  # 003:237
    Row("asfixiar", "Asfixiar", 4, True, talent_costs=((AM, 3),)),  # 003:239
    Row("carga", "Carga", 0, True, variable=MOV),  # 003:241 "equivale a los metros que … deba moverse"
    Row("desarmar", "Desarmar", 3, True, talent_costs=((AM, 2),)),  # 003:243
    Row("escapar", "Escapar", 4, True, talent_costs=((AM, 3),)),  # 003:245
    Row("esquivar", "Esquivar", 1, reaction=True),  # 003:247 "Cuesta 1 AC"
    Row("fintar", "Fintar", 1, True, variable=ATK),  # 003:249 "Cuesta 1 AC más que el ataque normal"
    Row("parada-con-armas", "Parada con armas", 2, reaction=True),  # 003:253 "Cuesta 2 AC"
    Row("patada", "Patada", 3, True),  # 003:255 "Cuesta 3 AC"
    Row("presa", "Presa", 4, True, talent_costs=((AM, 3),)),  # 003:257
    Row("punetazo", "Puñetazo", 2, True),  # 003:259 "Cuesta 2 AC"
    Row("usar-arma-cuerpo-a-cuerpo", "Usar arma cuerpo a cuerpo", 3, True),  # 003:261 "Cuesta 3 AC"
    # Maniobras de artista marcial
    Row("bloqueo", "Bloqueo", 3, True, True, (AM,)),  # 003:265 "Cuesta 3 AC"
    Row("golpe-en-el-aire", "Golpe en el aire", 3, True, talents=(AM,), variable=MOV),  # 003:267 "3 AC más…"
    Row("proyectar", "Proyectar", 4, True, talents=(AM,)),  # 003:269 "Cuesta 4 AC"
    Row("usar-la-fuerza-del-otro", "Usar la fuerza del otro", 5, True, True, (AM,)),  # 003:271
    # Maniobras de maestro de esgrima
    Row("ataque-doble", "Ataque doble", 5, True, talents=(ME, AMB)),  # 003:275 "Cuesta 5 AC"
    Row("bloqueo-esgrima", "Bloqueo", 3, False, True, (ME,)),  # 003:277 "Cuesta 3 AC", a reaction
    Row("golpe-en-el-aire-esgrima", "Golpe en el aire", 3, True, talents=(ME,), variable=MOV),  # 003:279
    Row("sentidos-de-combate-esgrima", "Sentidos de combate", 1, talents=(ME,)),  # 003:281
    # Listado de Maniobras a Distancia (no Pólvora, no Ballestas: 003:295)
    Row("apuntar", "Apuntar", 2),  # 003:341 "Cuesta 2 AC"
    Row("apuntar-a-una-parte-del-cuerpo", "Apuntar a una parte del cuerpo", 2),  # 003:343
    Row("disparar-arcos", "Disparar arcos", 3, True),  # 003:363 "Cuesta 3 AC" (attack: RULES.md §4)
    Row("disparar-armas-cortas", "Disparar armas cortas", 3, True),  # 003:365
    Row("disparar-armas-largas", "Disparar armas largas", 3, True),  # 003:367
    Row("disparar-armas-pesadas", "Disparar armas pesadas", 4, True),  # 003:369 "Cuesta 4 AC"
    Row("doble-tap", "Doble tap", 5, True),  # 003:371 "Cuesta 5 AC"
    Row("fuego-de-cobertura", "Fuego de cobertura", 5, True),  # 003:373 "Cuesta 5 AC"
    Row("lanzar", "Lanzar", 2, True),  # 003:375 "Cuesta 2 AC"
    Row("observador", "Observador", 4),  # 003:377 "Cuesta 4 AC"
    Row("ponerse-a-cubierto", "Ponerse a cubierto", 1, reaction=True),  # 003:379 "Cuesta 1 AC"
    Row("rafaga-corta", "Ráfaga corta", 0, True, variable=SHOT),  # 003:381
    Row("rafaga-media", "Ráfaga media", 1, True, variable=SHOT),  # 003:383 "… +1"
    Row("rafaga-larga", "Ráfaga larga", 2, True, variable=SHOT),  # 003:385 "… +2"
    # Maniobras de gun kata
    Row("mover-y-disparar", "Mover y disparar", 3, True, talents=(GK,), variable=MOV),  # 003:389
    Row("esquivar-disparos", "Esquivar disparos", 1, reaction=True, talents=(GK,)),  # 003:391
    Row("disparo-en-el-aire", "Disparo en el aire", 3, True, talents=(GK,), variable=MOV),  # 003:393
    # 003:395 "Cuesta 5 AC, y 4 AC si se tiene el don gun fu…"
    Row("disparo-simultaneo", "Disparo simultáneo", 5, True, talents=(GK, AMB), talent_costs=((FU, 4),)),
    Row("sentidos-de-combate", "Sentidos de combate", 1, talents=(GK,)),  # 003:397
    # Otras Maniobras (quedarse a la espera 003:401 and retrasar 003:405 are commands)
    Row("reconocimiento", "Reconocimiento", 1),  # 003:403 "Cuesta 1 AC"
    Row("sacar-un-objeto-a-mano", "Sacar un objeto a mano", 2),  # 003:363 "(2 AC)"
    Row("mover", "Mover", 0, variable=MOV),  # 003:169 "invertir 6 AC para mover seis veces…"
    Row("liderazgo", "Liderazgo", 3),  # 003:177 gives no cost: CdB's 3 (RULES.md §4)
    # not in 003: RULES.md §4 "Walküre has the same abandonar-duelo (3 AC) and
    # carga-con-montura as CdB" (000:447, 000:457)
    Row("carga-con-montura", "Carga con Montura", 2, True, variable=ATK),
    Row("abandonar-duelo", "Abandonar un duelo", 3),
]

#: 003:287 "Llevar un arma de una sola mano a dos manos … hace que el ataque cueste 1 AC más".
WALKURE_DERIVED = [Row("usar-arma-cuerpo-a-cuerpo-a-dos-manos", "", 4, True), *SPELLINGS]

BOOKS = {"cdb": CDB, "walkure": WALKURE}
DERIVED = {"cdb": CDB_DERIVED, "walkure": WALKURE_DERIVED}
ROWS = [(rules, row) for rules, rows in BOOKS.items() for row in rows]


def row_id(value):
    return f"{value[0]}:{value[1].id}" if isinstance(value, tuple) else None


def who(*talents: str) -> Combatant:
    return Combatant("Ana", 9, talents=talents)


# ---------------------------------------------------------------- the data, row by row


@pytest.mark.parametrize("rules, row", ROWS + [(r, d) for r, rows in DERIVED.items() for d in rows],
                         ids=lambda v: v if isinstance(v, str) else v.id)
def test_maneuver_matches_the_seed(rules, row):
    m = catalog(rules).get(row.id)
    assert (m.attack, m.reaction, m.variable) == (row.attack, row.reaction, row.variable)
    assert m.talents == row.talents
    assert m.cost == row.cost
    assert m.base_cost(None) == m.base_cost(who()) == row.cost
    # each talent that changes the cost, alone and with every other talent
    for talent, cost in row.talent_costs:
        assert m.base_cost(who(talent)) == cost
        assert m.base_cost(who(*TALENT_ES)) == min(c for _, c in row.talent_costs)
    # and no other talent changes it
    for talent in TALENT_ES:
        if talent not in dict(row.talent_costs):
            assert m.base_cost(who(talent)) == row.cost
    assert m.summary.strip(), "every maneuver has a one-line summary for the picker"
    assert "\n" not in m.summary


@pytest.mark.parametrize("rules", RULESETS)
def test_every_book_maneuver_is_there_and_nothing_else(rules):
    expected = {row.id for row in BOOKS[rules]} | {row.id for row in DERIVED[rules]}
    assert {m.id for m in catalog(rules).maneuvers} == expected
    assert len(catalog(rules).maneuvers) == len(expected)


#: The book gives no name for leaving a duel (000:457 "salir del estado de concentración");
#: the id predates this table and saves use it.
UNNAMED = {"abandonar-duelo"}


@pytest.mark.parametrize("rules", RULESETS)
def test_ids_are_the_book_names_folded(rules):
    for row in BOOKS[rules]:
        m = catalog(rules).get(row.id)
        assert m.id.startswith(slug(row.name)) or m.id in UNNAMED, (m.id, row.name)
        assert slug(m.name).startswith(slug(row.name))


def test_counts_per_book():
    assert (len(CDB), len(WALKURE)) == (49, 45)
    assert (len(catalog("cdb").maneuvers), len(catalog("walkure").maneuvers)) == (53, 49)


@pytest.mark.parametrize("rules", RULESETS)
def test_wait_hold_and_free_action_are_commands_not_maneuvers(rules):
    commands = {c.id: c.keyword for c in catalog(rules).commands}
    assert commands == {"quedarse-a-la-espera": "espera", "retrasar-la-accion": "retrasa",
                        "otra-accion": "gasta"}
    assert all(keyword in ACTIONS for keyword in commands.values())
    assert all(catalog(rules).lookup(ident) is None for ident in commands)


#: Every id and alias of the catalog before this rewrite (saves and tests use them).
LEGACY = {
    "cdb": {
        "agarron": ["agarrar"], "atacar-con-armas-de-1-mano": ["arma1", "1mano"],
        "atacar-con-armas-de-2-manos": ["arma2", "2manos"], "asfixiar": [], "carga": ["cargar"],
        "desarmar": [], "escapar": ["soltarse"], "esquivar": ["esq"], "fintar": ["finta"],
        "parada": ["parar"], "parada-con-armas": ["parada-armas"], "patada": [],
        "presa": ["inmovilizar"], "punetazo": ["puno"], "bloqueo": [],
        "golpe-en-el-aire": ["golpe-aire"], "proyectar": ["proyeccion"],
        "usar-la-fuerza-del-otro": ["fuerza-del-otro"], "ataque-doble": [],
        "bloqueo-esgrima": ["bloqueo-arma"], "golpe-en-el-aire-esgrima": [],
        "sentidos-de-combate-esgrima": [], "apuntar": ["apunta"],
        "apuntar-a-una-parte-del-cuerpo": ["apuntar-parte"], "disparar-arcos": ["arco"],
        "disparar-armas-cortas": ["corta", "pistola"], "disparar-armas-de-polvora": ["polvora"],
        "disparar-armas-largas": ["larga", "rifle"], "disparar-armas-pesadas": ["pesada"],
        "disparar-ballestas": ["ballesta"], "doble-tap": ["tap"], "fuego-de-cobertura": ["supresion"],
        "lanzar": [], "observador": [], "ponerse-a-cubierto": ["cubierto", "cubrirse"],
        "rafaga-corta": [], "rafaga-media": [], "rafaga-larga": ["vaciar-cargador"],
        "mover-y-disparar": [], "esquivar-disparos": [], "disparo-en-el-aire": [],
        "disparo-simultaneo": [], "sentidos-de-combate": [], "reconocimiento": ["reco"],
        "sacar-un-objeto-a-mano": ["sacar"], "mover": [], "liderazgo": ["lider"],
        "carga-con-montura": ["carga-montura"], "abandonar-duelo": ["salir-duelo"],
    },
    "walkure": {
        "agarron": ["agarrar"], "asfixiar": [], "carga": ["cargar"], "desarmar": [],
        "escapar": ["soltarse"], "esquivar": ["esq"], "fintar": ["finta"],
        "parada-con-armas": ["parada-armas"], "patada": [], "presa": ["inmovilizar"],
        "punetazo": ["puno"], "usar-arma-cuerpo-a-cuerpo": ["usar-arma", "cac"], "bloqueo": [],
        "golpe-en-el-aire": ["golpe-aire"], "proyectar": ["proyeccion"],
        "usar-la-fuerza-del-otro": ["fuerza-del-otro"], "ataque-doble": [],
        "bloqueo-esgrima": ["bloqueo-arma"], "golpe-en-el-aire-esgrima": [],
        "sentidos-de-combate-esgrima": [], "apuntar": ["apunta"],
        "apuntar-a-una-parte-del-cuerpo": ["apuntar-parte"], "disparar-arcos": ["arco"],
        "disparar-armas-cortas": ["corta", "pistola"], "disparar-armas-largas": ["larga", "rifle"],
        "disparar-armas-pesadas": ["pesada"], "doble-tap": ["tap"], "fuego-de-cobertura": ["supresion"],
        "lanzar": [], "observador": [], "ponerse-a-cubierto": ["cubierto", "cubrirse"],
        "rafaga-corta": [], "rafaga-media": [], "rafaga-larga": ["vaciar-cargador"],
        "mover-y-disparar": [], "esquivar-disparos": [], "disparo-en-el-aire": [],
        "disparo-simultaneo": [], "sentidos-de-combate": [], "reconocimiento": ["reco"],
        "sacar-un-objeto-a-mano": ["sacar"], "mover": [], "liderazgo": ["lider"],
    },
}


@pytest.mark.parametrize("rules", RULESETS)
def test_old_ids_and_aliases_still_work(rules):
    book = catalog(rules)
    for ident, aliases in LEGACY[rules].items():
        for word in (ident, *aliases):
            assert book.lookup(word).id == ident, word


def test_lookup_folds_accents_and_the_book_spelling_of_usar_la_fuerza_de_otro():
    assert catalog("cdb").lookup("PUÑETAZO").id == "punetazo"
    assert catalog("cdb").lookup("usar-la-fuerza-de-otro").id == "usar-la-fuerza-del-otro"  # 000:65


def test_cost_text():
    book = catalog("cdb")
    assert book.get("punetazo").cost_text() == "2"
    assert book.get("carga").cost_text() == "3 + AC de movimiento"
    assert book.get("mover").cost_text() == "AC de movimiento"
    assert book.get("presa").cost_text(who(AM)) == "3"


# ---------------------------------------------------------------- variable costs, by command


def mike(rules: str = "cdb", talents: str = "", ac: int = 7) -> Session:
    s = Session.new("x", rules, 0)
    s.execute(f"alta Mike ac={ac} ini=4" + (f" talentos={talents}" if talents else ""))
    s.execute("momento Mike 7")
    s.execute("empezar")
    return s


def spent(line: str, rules: str = "cdb", talents: str = "", ac: int = 7) -> int:
    s = mike(rules, talents, ac)
    s.execute(f"mike {line}")
    return ac - s.fight.find("Mike").ac


@pytest.mark.parametrize("line, rules, talents, cost", [
    # attack + movement, as one maneuver (000:179, 000:205, 000:219, 000:333, 000:337)
    ("carga 2", "cdb", "", 5),
    ("cargar 1", "cdb", "", 4),
    ("golpe-en-el-aire 2", "cdb", AM, 5),
    ("golpe-en-el-aire-esgrima 1", "cdb", ME, 4),
    ("mover-y-disparar 2", "cdb", GK, 5),
    ("disparo-en-el-aire 1", "cdb", GK, 4),
    # Walküre: Carga = the movement (003:241); the aerial ones 3 + movement (003:267, 279, 393)
    ("carga 2", "walkure", "", 2),
    ("golpe-en-el-aire 2", "walkure", AM, 5),
    ("golpe-en-el-aire-esgrima 2", "walkure", ME, 5),
    ("disparo-en-el-aire 3", "walkure", GK, 6),
    ("mover-y-disparar 1", "walkure", GK, 4),
    # Mover N (000:105, 003:169)
    ("mover 3", "cdb", "", 3),
    ("mover 1", "walkure", "", 1),
    # Ráfagas from the weapon's shot cost (000:325-329, 003:381-385)
    ("rafaga-corta 3", "cdb", "", 3),
    ("rafaga-media 3", "cdb", "", 4),
    ("rafaga-larga 3", "cdb", "", 5),
    ("vaciar-cargador 4", "cdb", "", 6),
    ("rafaga-corta 4", "walkure", "", 4),
    ("rafaga-larga 3", "walkure", "", 5),
    # Fintar = attack + 1 (000:187, 003:249): with a Puñetazo (2), a Patada (3)
    ("fintar 2", "cdb", "", 3),
    ("finta 3", "cdb", "", 4),
    ("fintar 3", "walkure", "", 4),
    # a one-handed weapon in two hands: +1 AC (000:229, 003:287)
    ("atacar-con-armas-de-1-mano-a-dos-manos", "cdb", "", 4),
    ("usar-arma-cuerpo-a-cuerpo-a-dos-manos", "walkure", "", 4),
    # Disparo Simultáneo: 5, 4 with Gun Fu (000:339, 003:395)
    ("disparo-simultaneo", "cdb", f"{GK},{AMB}", 5),
    ("disparo-simultaneo", "cdb", f"{GK},{AMB},{FU}", 4),
    ("disparo-simultaneo", "walkure", f"{GK},{AMB},{FU}", 4),
    # Carga con Montura: the rider pays 2 + the attack (000:447)
    ("carga-con-montura 3", "cdb", "", 5),
    # Liderazgo 3 (000:113), leaving a duel 3 (000:457), Sacar un objeto 2 (000:303, 003:363)
    ("liderazgo", "cdb", "", 3),
    ("liderazgo", "walkure", "", 3),
    ("abandonar-duelo", "cdb", "", 3),
    ("sacar-un-objeto-a-mano", "cdb", "", 2),
    ("sacar", "walkure", "", 2),
])
def test_variable_and_special_costs_through_commands(line, rules, talents, cost):
    assert spent(line, rules, talents) == cost


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize("maneuver", ["agarron", "asfixiar", "desarmar", "escapar", "presa"])
def test_artista_marcial_costs_one_less_through_commands(rules, maneuver):
    plain = spent(maneuver, rules)
    assert spent(maneuver, rules, AM) == plain - 1  # 000:165, 003:233


def test_a_dos_manos_follows_the_weapon_row_it_is_built_on():
    derived = catalog("cdb").get("atacar-con-armas-de-1-mano-a-dos-manos")
    assert (derived.of, derived.plus, derived.group) == ("atacar-con-armas-de-1-mano", 1, "Cuerpo a cuerpo")


def test_variable_maneuvers_ask_for_the_number_and_refuse_a_negative_one():
    s = mike()
    with pytest.raises(Refusal, match="indica cuántos"):
        s.execute("mike rafaga-corta")
    with pytest.raises(Refusal, match=VARIABLE_ES[SHOT]):
        s.execute("mike rafaga-media")
    with pytest.raises(Refusal, match="no pueden ser negativos"):
        s.execute("mike carga -1")
    with pytest.raises(Refusal, match="coste fijo"):
        s.execute("mike liderazgo 2")


def test_walkure_has_no_ballestas_polvora_parada_or_armas_de_1_mano():
    for ident in ("disparar-ballestas", "disparar-armas-de-polvora", "parada",
                  "atacar-con-armas-de-1-mano"):
        with pytest.raises(Refusal, match="No existe"):
            catalog("walkure").get(ident)


# ---------------------------------------------------------------- talent-only maneuvers

TALENT_ONLY = [(rules, row) for rules, row in ROWS if row.talents]


@pytest.mark.parametrize("rules, row", TALENT_ONLY, ids=lambda v: v if isinstance(v, str) else v.id)
def test_talent_only_maneuvers_are_refused_naming_the_talent(rules, row):
    line = f"mike {row.id}" + (" 1" if row.variable else "")
    s = mike(rules)
    before = s.fight
    with pytest.raises(Refusal) as refused:
        s.execute(line)
    message = str(refused.value)
    assert "requiere" in message and "Mike" in message
    for talent in row.talents:
        assert TALENT_ES[talent] in message
    assert s.fight == before
    # with the talents it goes through
    able = mike(rules, ",".join(row.talents), ac=9)
    able.execute(line)
    assert able.fight.find("Mike").ac < 9


def test_refusal_names_only_the_missing_talents():
    ataque = catalog("cdb").get("ataque-doble")
    assert ataque.refusal(who(ME, AMB)) is None
    assert ataque.refusal(who(ME)) == "Ataque Doble requiere el talento Ambidiestro y Ana no lo tiene"
    assert ataque.refusal(who()) == (
        "Ataque Doble requiere los talentos Maestro de Esgrima, Ambidiestro y Ana no los tiene"
    )
    assert catalog("cdb").get("punetazo").refusal(who()) is None


def test_talent_refusal_comes_before_the_missing_number():
    s = mike()
    with pytest.raises(Refusal, match="Golpe en el Aire requiere el talento Artista Marcial"):
        s.execute("mike golpe-en-el-aire")


@pytest.mark.parametrize("rules", RULESETS)
def test_available_lists_what_the_talents_allow(rules):
    book = catalog(rules)
    plain = {m.id for m in book.available(who())}
    assert plain == {row.id for row in BOOKS[rules] + DERIVED[rules] if not row.talents}
    martial = {m.id for m in book.available(who(AM))}
    assert martial - plain == {"bloqueo", "golpe-en-el-aire", "proyectar", "usar-la-fuerza-del-otro"}
    everything = {m.id for m in book.available(who(*TALENT_ES))}
    # with both talents of a shared book name, its explicit ids instead (RULES.md §4)
    assert everything == {m.id for m in book.maneuvers} - SHARED
    assert "ataque-doble" not in {m.id for m in book.available(who(ME))}


# ---------------------------------------------------------------- house rules


def test_house_rules_override_a_cost_and_add_a_maneuver():
    house = load_house_rules(
        """
        rules = "cdb"

        [override.punetazo]
        cost = 1
        summary = "Puñetazo rápido de la casa"

        [override.atacar-con-armas-de-1-mano]
        cost = 2

        [override.presa]
        talent_costs = { "artista-marcial" = 2 }

        [[maneuver]]
        id = "barrido"
        name = "Barrido"
        cost = 3
        attack = true
        talents = ["artista-marcial"]
        aliases = ["barrer"]
        summary = "Pelea contra Agilidad: el rival cae"
        """,
        "cdb",
    )
    assert isinstance(house, Catalog)
    punch = house.get("punetazo")
    assert (punch.cost, punch.summary, punch.house) == (1, "Puñetazo rápido de la casa", True)
    # the derived row follows the row it is built on
    assert house.get("atacar-con-armas-de-1-mano-a-dos-manos").cost == 3
    assert house.get("presa").base_cost(who(AM)) == 2
    barrido = house.lookup("barrer")
    assert (barrido.id, barrido.cost, barrido.attack, barrido.house) == ("barrido", 3, True, True)
    assert barrido.refusal(who()) == "Barrido requiere el talento Artista Marcial y Ana no lo tiene"
    assert len(house.maneuvers) == len(catalog("cdb").maneuvers) + 1
    assert house.commands == catalog("cdb").commands
    # the book is untouched
    assert catalog("cdb").get("punetazo").cost == 2
    assert not catalog("cdb").get("punetazo").house


def test_house_rules_can_build_on_a_book_maneuver_and_fix_a_derived_cost():
    house = load_house_rules(
        """
        [[maneuver]]
        id = "patada-a-la-carrera"
        name = "Patada a la carrera"
        of = "patada"
        plus = 1
        variable = "movement"
        moves = true
        summary = "Patada tras moverse"

        [override.atacar-con-armas-de-1-mano-a-dos-manos]
        cost = 5
        """,
        "cdb",
    )
    kick = house.get("patada-a-la-carrera")
    assert (kick.cost, kick.attack, kick.variable, kick.of) == (4, True, MOV, "patada")
    assert kick.cost_for(who(), 2) == 6
    fixed = house.get("atacar-con-armas-de-1-mano-a-dos-manos")
    assert (fixed.cost, fixed.of) == (5, None)


def test_empty_house_rules_are_the_book():
    assert load_house_rules("", "walkure").maneuvers == catalog("walkure").maneuvers


@pytest.mark.parametrize("text, match", [
    # unknown keys
    ('[[maneuver]]\nid = "x"\nname = "X"\ncost = 1\ncoste = 2',
     r"maniobra «x», campo «coste»: clave desconocida"),
    ('[override.punetazo]\nprecio = 1', r"maniobra «punetazo», campo «precio»: clave desconocida"),
    ('[override.punetazo]\nid = "otro"', r"maniobra «punetazo», campo «id»: clave desconocida"),
    ('maniobras = []', r"clave desconocida «maniobras»"),
    # wrong types
    ('[override.punetazo]\ncost = "tres"', r"«punetazo», campo «cost»: debe ser un número entero, no el texto «tres»"),
    ('[override.punetazo]\ncost = true', r"campo «cost»: debe ser un número entero, no un sí/no"),
    ('[override.punetazo]\ncost = 1.5', r"campo «cost»: debe ser un número entero"),
    ('[override.punetazo]\nattack = "si"', r"campo «attack»: debe ser true o false"),
    ('[override.punetazo]\ntalents = "gun-kata"', r"campo «talents»: debe ser una lista"),
    ('[override.punetazo]\ntalent_costs = 3', r"campo «talent_costs»: debe ser una tabla"),
    ('[override.punetazo]\nsummary = 3', r"campo «summary»: debe ser un texto"),
    ('[override.punetazo]\nvariable = "metros"', r"campo «variable»: «metros» no vale"),
    ('override = 3', r"«override» debe escribirse como \[override.ID\]"),
    ('maneuver = 3', r"«maneuver» debe escribirse como \[\[maneuver\]\]"),
    # negative costs
    ('[override.punetazo]\ncost = -1', r"«punetazo», campo «cost»: no puede ser negativo \(-1\)"),
    ('[override.presa]\ntalent_costs = { "artista-marcial" = -2 }', r"campo «talent_costs»: no puede ser negativo"),
    ('[[maneuver]]\nid = "x"\nname = "X"\nof = "punetazo"\nplus = -3', r"«x», campo «plus»: el coste quedaría negativo"),
    # duplicate ids
    ('[[maneuver]]\nid = "punetazo"\nname = "Otro"\ncost = 1',
     r"«punetazo», campo «id»: ya existe en CdB: para cambiarla usa \[override.punetazo\]"),
    ('[[maneuver]]\nid = "x"\nname = "X"\ncost = 1\n[[maneuver]]\nid = "x"\nname = "X"\ncost = 2',
     r"«x», campo «id»: está repetido"),
    ('[[maneuver]]\nid = "x"\nname = "X"\ncost = 1\naliases = ["puno"]',
     r"«x», campo «aliases»: «puno» ya es el nombre de «punetazo»"),
    ('[[maneuver]]\nid = "x"\nname = "X"\ncost = 1\naliases = ["y", "y"]', r"campo «aliases»: «y» está repetido"),
    # unknown talents
    ('[override.punetazo]\ntalents = ["kung-fu"]', r"«punetazo», campo «talents»: talento desconocido «kung-fu»"),
    ('[override.punetazo]\ntalent_costs = { "kung-fu" = 1 }', r"campo «talent_costs»: talento desconocido «kung-fu»"),
    # unknown maneuvers and references
    ('[override.patadon]\ncost = 1', r"maniobra «patadon»: no existe en CdB \(para añadir una maniobra usa \[\[maneuver\]\]\)"),
    ('[[maneuver]]\nid = "x"\nname = "X"\nof = "patadon"', r"«x», campo «of»: no existe la maniobra «patadon»"),
    ('[[maneuver]]\nid = "x"\nname = "X"\ncost = 1\nplus = 1', r"«x», campo «plus»: solo tiene sentido junto a «of»"),
    ('[override.punetazo]\nplus = 1', r"«punetazo», campo «plus»: solo tiene sentido en una fila con «of»"),
    ('[[maneuver]]\nid = "x"\nname = "X"\nof = "punetazo"\ncost = 1', r"«x», campo «cost»: una fila con «of»"),
    # missing or malformed fields
    ('[[maneuver]]\nid = "x"\nname = "X"', r"«x», campo «cost»: falta"),
    ('[[maneuver]]\nid = "x"\ncost = 1', r"«x», campo «name»: falta"),
    ('[[maneuver]]\nname = "X"\ncost = 1', r"maniobra «n.º 1», campo «id»: falta"),
    ('[[maneuver]]\nid = "Golpe Bajo"\nname = "Golpe bajo"\ncost = 1',
     r"campo «id»: «Golpe Bajo» debe ir en minúsculas.*«golpe-bajo»"),
    ('[[maneuver]]\nid = "fin"\nname = "Fin"\ncost = 1', r"campo «id»: «fin» es una palabra de órdenes"),
    ('[[maneuver]]\nid = "x"\nname = ""\ncost = 1', r"campo «name»: no puede estar vacío"),
    # the file itself
    ('rules = "walkure"', r"son para «walkure» y el combate usa CdB"),
    ('[override.punetazo\ncost = 1', r"Reglas de la casa: línea 1, columna 19: el TOML no es válido: falta «]»"),
])
def test_house_rules_errors_name_the_maneuver_and_the_field(text, match):
    with pytest.raises(Refusal, match=match) as refused:
        load_house_rules(text, "cdb")
    message = str(refused.value)
    assert message.startswith("Reglas de la casa")
    assert "\n" not in message


def test_house_rules_for_an_unknown_ruleset_are_refused():
    with pytest.raises(Refusal, match="Reglas desconocidas"):
        load_house_rules("", "gurps")
