"""The storyteller system's data (STORYTELLER.md §8–§10): maneuvers, weapons, and
the conditions the tracker knows, read from `rules/narrador.toml`."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from attrs import frozen

from ..errors import Refusal
from ..text import slug
from .model import NWeapon


@frozen
class Maneuver:
    id: str
    name: str
    traits: tuple[str, ...] = ()
    accuracy: int = 0
    difficulty: int = 0
    damage: str = ""
    lethal: bool = False
    kind: str = "other"
    ammo: str = ""
    alone: bool = False
    flags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    note: str = ""

    @property
    def attack(self) -> bool:
        return self.kind in ("melee", "ranged")

    @property
    def defense(self) -> bool:
        return self.kind == "defense"


CONDITIONS = ("derribado", "desequilibrado", "cegado", "inmovilizado", "atado", "sorprendido", "aturdido",
              "muerto")
CONDITION_ALIASES = {"derribada": "derribado", "desequilibrada": "desequilibrado", "cegada": "cegado",
                     "inmovilizada": "inmovilizado", "atada": "atado", "sorprendida": "sorprendido",
                     "aturdida": "aturdido", "tumbado": "derribado"}
#: The usual difficulty of a roll (§3); a shot's range changes it (rules.py).
BASE = 6
TRAITS = ("pelea", "esquivar", "armas-de-fuego", "atletismo", "combate-cc", "sigilo", "alerta")


def _data() -> dict:
    text = resources.files("cdbtui.rules").joinpath("narrador.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def maneuvers() -> dict[str, Maneuver]:
    found: dict[str, Maneuver] = {}
    for row in _data()["maneuver"]:
        m = Maneuver(**{**row, "traits": tuple(row.get("traits", ())), "flags": tuple(row.get("flags", ())),
                        "aliases": tuple(row.get("aliases", ()))})
        for key in (m.id, *m.aliases):
            assert key not in found, key
            found[key] = m
    return found


@cache
def weapons() -> dict[str, NWeapon]:
    found: dict[str, NWeapon] = {}
    for row in _data()["weapon"]:
        row = dict(row)
        id = row.pop("id")
        aliases = row.pop("aliases", ())
        row.pop("called", None)
        row.pop("feminine", None)
        weapon = NWeapon(**row)
        for key in (id, *aliases):
            found[key] = weapon
    return found


@cache
def _callings() -> dict[str, tuple[str, bool]]:
    """A table weapon's name → how the refusals call it (SYSTEMS §3.3: «la Glock 17»,
    «El rifle») and whether it is feminine."""
    return {row["name"]: (row["called"], row.get("feminine", False)) for row in _data()["weapon"] if "called" in row}


def called(weapon: NWeapon, *, start: bool = False) -> str:
    """The weapon as a refusal names it: «la Glock 17» for a table weapon, its typed
    name otherwise; `start` capitalizes it (it begins the line)."""
    text = _callings().get(weapon.name, (weapon.name, False))[0]
    return text[:1].upper() + text[1:] if start else text


def empty_word(weapon: NWeapon) -> str:
    """«vacío» or «vacía», agreeing with `called`."""
    return "vacía" if _callings().get(weapon.name, ("", False))[1] else "vacío"


def find_maneuver(word: str) -> Maneuver | None:
    key = slug(word)
    table = maneuvers()
    if key in table:
        return table[key]
    matches = {m.id: m for k, m in table.items() if key and k.startswith(key)}
    if len(matches) > 1:
        raise Refusal(f"«{word}» es ambiguo: {', '.join(sorted(matches))}")
    return next(iter(matches.values()), None)


def condition_id(word: str) -> str | None:
    key = slug(word)
    key = CONDITION_ALIASES.get(key, key)
    return key if key in CONDITIONS else None
