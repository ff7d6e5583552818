"""The maneuver catalog of each ruleset, read from the TOML files in `data/`.

Costs, attack and reaction flags and talents are data (RULES.md §4); this module
only knows how to read them and how a combatant's talents change a cost.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from attrs import frozen

from .errors import Refusal
from .model import Combatant
from .text import fold

RULESETS = ("cdb", "walkure")
RULES_ES = {"cdb": "CdB", "walkure": "Walküre"}

#: Talents that maneuvers ask for, by id, with their book names.
TALENT_ES = {
    "artista-marcial": "Artista Marcial",
    "gun-kata": "Gun Kata",
    "maestro-de-esgrima": "Maestro de Esgrima",
    "ambidiestro": "Ambidiestro",
    "punteria-zen": "Puntería Zen",
    "gun-fu": "Gun Fu",
    "duelista": "Duelista",
}

#: What the typed number means for a variable cost, as a prompt.
VARIABLE_ES = {
    "movement": "AC de movimiento",
    "shot": "AC del disparo del arma",
    "attack": "AC del ataque",
}


@frozen
class Maneuver:
    """One row of Tabla 9.1: what a maneuver costs and what kind it is."""

    id: str
    name: str
    cost: int
    attack: bool = False
    reaction: bool = False
    talents: tuple[str, ...] = ()
    variable: str | None = None
    moves: bool = False
    aim: bool = False
    talent_costs: tuple[tuple[str, int], ...] = ()
    aliases: tuple[str, ...] = ()
    notes: str = ""

    def base_cost(self, combatant: Combatant | None) -> int:
        """The cost with the combatant's talents applied (before any typed extra)."""
        cost = self.cost
        if combatant is not None:
            for talent, talent_cost in self.talent_costs:
                if combatant.has_talent(talent):
                    cost = min(cost, talent_cost)
        return cost

    def cost_for(self, combatant: Combatant, extra: int | None) -> int:
        """The AC this maneuver takes from `combatant`; refuses a missing extra."""
        cost = self.base_cost(combatant)
        if self.variable is None:
            if extra is not None:
                raise Refusal(f"{self.name} tiene coste fijo ({cost} AC): sobra el número {extra}")
            return cost
        if extra is None:
            raise Refusal(
                f"{self.name} cuesta {cost} + {VARIABLE_ES[self.variable]}: indica cuántos"
                f" (p. ej. «{combatant.name} {self.id} 2»)"
            )
        if extra < 0:
            raise Refusal(f"{self.name}: los {VARIABLE_ES[self.variable]} no pueden ser negativos")
        return cost + extra


@frozen
class Catalog:
    """All maneuvers of one ruleset, with lookup by id, alias or unique prefix."""

    rules: str
    maneuvers: tuple[Maneuver, ...]

    def get(self, maneuver_id: str) -> Maneuver:
        for maneuver in self.maneuvers:
            if maneuver.id == maneuver_id:
                return maneuver
        raise Refusal(f"No existe la maniobra «{maneuver_id}» en {RULES_ES[self.rules]}")

    def lookup(self, word: str) -> Maneuver | None:
        """An exact id or alias wins; otherwise a unique prefix of an id; else None."""
        key = fold(word)
        for maneuver in self.maneuvers:
            if key == maneuver.id or key in maneuver.aliases:
                return maneuver
        matches = [m for m in self.maneuvers if m.id.startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = ", ".join(m.id for m in matches[:5])
            more = "…" if len(matches) > 5 else ""
            raise Refusal(f"«{word}» es ambiguo: {names}{more}")
        return None


def _maneuver(row: dict) -> Maneuver:
    return Maneuver(
        id=row["id"],
        name=row["name"],
        cost=int(row["cost"]),
        attack=bool(row.get("attack", False)),
        reaction=bool(row.get("reaction", False)),
        talents=tuple(row.get("talents", ())),
        variable=row.get("variable"),
        moves=bool(row.get("moves", False)),
        aim=bool(row.get("aim", False)),
        talent_costs=tuple(sorted(row.get("talent_costs", {}).items())),
        aliases=tuple(row.get("aliases", ())),
        notes=row.get("notes", ""),
    )


@cache
def catalog(rules: str) -> Catalog:
    """The catalog of `rules` ("cdb" or "walkure"), read once from the package data."""
    if rules not in RULESETS:
        raise Refusal(f"Reglas desconocidas «{rules}»: usa cdb o walkure")
    text = resources.files(__package__).joinpath("data", f"{rules}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return Catalog(rules, tuple(_maneuver(row) for row in data["maneuver"]))
