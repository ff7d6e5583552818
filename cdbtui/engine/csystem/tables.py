"""C-System's data (CSYSTEM.md §4.2, §5, §8): the budget by nivel heroico, the
conditions and the effects the tracker applies, and the catalog of actions read
from `rules/csystem.toml`."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from attrs import frozen

from ..errors import Refusal
from ..text import slug

COMPLEX, SIMPLE = "complex", "simple"
MARK = {COMPLEX: "■", SIMPLE: "□"}

#: The maximal combinations (complex, simple) of each tier (CSYSTEM §4.2), by the
#: lowest level of the tier, in the order the sheet lists them.
TIERS = {
    1: ((1, 1), (0, 2)),
    5: ((2, 0), (1, 1), (0, 3)),
    9: ((2, 1), (1, 2), (0, 4)),
}


def tier_of(level: int) -> tuple[tuple[int, int], ...]:
    return TIERS[9 if level >= 9 else 5 if level >= 5 else 1]


@frozen
class ConditionInfo:
    """What a condition of §8 does, as far as the tracker applies it."""

    id: str
    name: str
    #: DES penalty, and the chain inside which only the worst counts (§6.2).
    dex: int = 0
    chain: str = ""
    #: The DES term of Defensa: "half" (rounded up), "zero", "none" (not added).
    dex_term: str = ""
    #: Defensa changes: against any attack, against ranged, against melee.
    defense: int = 0
    defense_ranged: int = 0
    defense_melee: int = 0
    #: The budget cap (complex, simple): (0, 0) no action, (0, 1) one simple.
    cap: tuple[int, int] | None = None
    #: A warning for generic actions ("movement only", "mental only").
    only: str = ""
    #: Its own attack modifier, shown on the panel ("next attack").
    attack: int = 0
    attack_melee: int = 0
    no_charge: bool = False
    #: Out of the fight while it lasts (struck on the sheet).
    out: bool = False
    #: Takes a value: `sangrando:N`, `a-cubierto:parcial`.
    valued: bool = False


def _c(id: str, name: str, **kw) -> ConditionInfo:
    return ConditionInfo(id, name, **kw)


#: The conditions `estado` takes (§8 and §9), by id.
CONDITIONS = {info.id: info for info in (
    _c("apresado", "Apresado", dex=-5, chain="grab", only="sin acciones a dos manos"),
    _c("cegado", "Cegado", defense=-3, attack=-5),
    _c("enredado", "Enredado", attack=-3, no_charge=True),
    _c("fatigado", "Fatigado", dex=-2, chain="tired", no_charge=True),
    _c("exhausto", "Exhausto", dex=-5, chain="tired", no_charge=True),
    _c("incorporeo", "Incorpóreo"),
    _c("indefenso", "Indefenso", dex_term="zero"),
    _c("invisible", "Invisible", attack=3),
    _c("moribundo", "Moribundo", cap=(0, 0), out=True),
    _c("paralizado", "Paralizado", dex_term="zero", only="solo acciones mentales"),
    _c("averiado", "Averiado"),
    _c("sangrando", "Sangrando", valued=True),
    _c("sujeto", "Sujeto", chain="grab", dex=-5, dex_term="none", only="solo acciones verbales y mentales"),
    _c("tumbado", "Tumbado", defense_ranged=2, defense_melee=-2, attack_melee=-4),
    _c("asustado", "Asustado", attack=-2),
    _c("despavorido", "Despavorido", only="solo puede huir"),
    _c("aterrado", "Aterrado", dex_term="half", defense=-2, cap=(0, 0)),
    _c("aturdido", "Aturdido", cap=(0, 0)),
    _c("confuso", "Confuso"),
    _c("deslumbrado", "Deslumbrado", attack=-2),
    _c("desprevenido", "Desprevenido", dex_term="half"),
    _c("ensordecido", "Ensordecido"),
    _c("fascinado", "Fascinado", cap=(0, 0)),
    _c("inconsciente", "Inconsciente", dex_term="zero", cap=(0, 0), out=True),
    _c("indispuesto", "Indispuesto", attack=-2),
    _c("mareado", "Mareado", cap=(0, 1), only="solo una acción de movimiento"),
    _c("herido", "Herido", dex=-2, chain="hurt"),
    _c("malherido", "Malherido", dex=-4, chain="hurt", cap=(0, 1)),
    _c("a-cubierto", "A cubierto", valued=True),
    _c("estabilizado", "Estabilizado"),
    _c("muerto", "Muerto", cap=(0, 0), out=True),
    _c("inutilizado", "Inutilizado", cap=(0, 0), out=True),
)}
#: Other spellings (§8's aliases, feminine forms).
CONDITION_ALIASES = {
    "atontado": "aturdido", "atontada": "aturdido", "aturdida": "aturdido",
    "apresada": "apresado", "agarrado": "apresado", "tumbada": "tumbado", "derribado": "tumbado",
    "ensordecida": "ensordecido", "herida": "herido", "malherida": "malherido",
    "inconsciente": "inconsciente", "moribunda": "moribundo", "muerta": "muerto",
    "cubierto": "a-cubierto", "a-cubierta": "a-cubierto", "cobertura": "a-cubierto",
    "inmovilizado": "sujeto", "inmovilizada": "sujeto", "sujeta": "sujeto",
    "fatigada": "fatigado", "exhausta": "exhausto", "cegada": "cegado", "enredada": "enredado",
    "asustada": "asustado", "aterrada": "aterrado", "confusa": "confuso",
    "deslumbrada": "deslumbrado", "fascinada": "fascinado", "indispuesta": "indispuesto",
    "mareada": "mareado", "paralizada": "paralizado", "estabilizada": "estabilizado",
    "desangrandose": "sangrando",
}
#: Cover levels (§5.2 Cubrirse ■): Defensa and RD against ranged attacks.
COVER = {"parcial": 3, "casi-completa": 5}
COVER_STEPS = ("casi-completa", "parcial")


def condition_info(word: str) -> ConditionInfo | None:
    key = slug(word)
    return CONDITIONS.get(CONDITION_ALIASES.get(key, key))


@frozen
class Action:
    """A row of `rules/csystem.toml`: a maneuver or a named generic action."""

    id: str
    name: str
    type: str
    maneuver: bool = False
    aliases: tuple[str, ...] = ()
    attack: str = ""
    attack_mod: int = 0
    needs: str = ""
    ammo: str = ""
    ends_go: bool = False
    note: str = ""


_KEYS = {"id", "name", "type", "maneuver", "aliases", "attack", "attack_mod", "needs", "ammo",
         "ends_go", "note"}


@cache
def actions() -> dict[str, Action]:
    """The catalog, by id (its aliases too)."""
    text = resources.files("cdbtui.rules").joinpath("csystem.toml").read_text(encoding="utf-8")
    rows = tomllib.loads(text)["action"]
    found: dict[str, Action] = {}
    for row in rows:
        assert set(row) <= _KEYS, sorted(set(row) - _KEYS)
        action = Action(**{**row, "aliases": tuple(row.get("aliases", ()))})
        for key in (action.id, *action.aliases):
            assert key not in found, key
            found[key] = action
    return found


def find_action(word: str) -> Action | None:
    """The action a typed word names: an id or alias (folded), else a unique prefix."""
    key = slug(word)
    table = actions()
    if key in table:
        return table[key]
    matches = {a.id: a for k, a in table.items() if k.startswith(key)} if key else {}
    if len(matches) == 1:
        return next(iter(matches.values()))
    if len(matches) > 1:
        raise Refusal(f"«{word}» es ambiguo: {', '.join(sorted(matches))}")
    return None


def catalog_ids() -> list[str]:
    return sorted({a.id for a in actions().values()})



