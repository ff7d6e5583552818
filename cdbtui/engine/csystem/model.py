"""C-System's state (CSYSTEM.md): what a combatant's sheet holds and what the fight
adds, by composition (SYSTEMS.md §4): a C-System combatant is the shared
`Combatant` (name, side, hidden, private, notes) holding a `CsSheet`, and the fight
holds a `CsPart` (the order of initiative).  Frozen attrs values, saved by the
generic codec like every other engine value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from ..text import fold

if TYPE_CHECKING:
    from ..model import Combatant, Fight

#: Damage types (CSYSTEM §6.4) and the RD each reads (conmoción has none).
DAMAGE_TYPES = ("letal", "balistico", "energia", "conmocion")
#: Fire modes (CSYSTEM §7).
FIRE_MODES = ("simple", "sa", "fa", "pesado", "continuo")


@frozen
class Weapon:
    """A weapon as typed with `arma` (CSYSTEM §2, §7).  One with fire modes or a
    magazine is a ranged weapon; `ranged` says so for one without (a power's ray)."""

    name: str
    modes: tuple[str, ...] = ()
    #: The mode it fires in now (the first typed), switched with `modo`.
    mode: str | None = None
    magazine: int = 0
    ammo: int = 0
    rate: int = 0
    damage: str = ""
    ranged: bool = False
    #: Rounds fired in the current turn (for Cadencia; `fired` in the JSON).
    fired: int = 0

    @property
    def is_ranged(self) -> bool:
        return self.ranged or bool(self.modes) or self.magazine > 0


@frozen
class CsCondition:
    """A condition of CSYSTEM §8: its id, an optional value (`sangrando:2`,
    `a-cubierto:parcial`) and, with a duration, the combatant's go (`CsSheet.goes`)
    at whose end it ends."""

    id: str
    value: str | None = None
    ends: int | None = None


@frozen
class Prompt:
    """A roll only the table can make, waiting for its answer command (SYSTEMS.md §4
    "Prompts are state"): `dolor` (pain roll, CON vs `nd`), `refleja` (CON ND 20: a
    Moribundo's or a waking roll; `reason` says which), `critica` (the critical
    table, 1d20 + `bonus`), `aplomo` (half Aplomo: the GM decides)."""

    roll: str
    nd: int | None = None
    bonus: int = 0
    reason: str = ""


@frozen(weakref_slot=False)
class CsSheet:
    """A C-System combatant's sheet: what the GM typed and what the fight did to it."""

    #: Which ruleset's sheet this is (a save tells the sheets apart by it).
    system: str = "csystem"
    level: int = 1
    dex: int = 0
    alerta: int = 0
    per: int = 0
    con: int = 0
    wil: int = 0
    strength: int = 0
    spd: int = 0
    vitality_max: int = 1
    vitality: int = 1
    temp_vitality: int = 0
    composure_max: int | None = None
    composure: int | None = None
    energy_max: int | None = None
    energy: int | None = None
    def_bonus: int = 0
    shield: int = 0
    dr_lethal: int = 0
    dr_ballistic: int = 0
    dr_energy: int = 0
    ini_mod: int = 0
    acrobatics: bool = False
    #: Artes marciales: its Combate sin armas value (0: not trained).
    martial_arts: int = 0
    swordsman: bool = False
    robot: bool = False
    weapons: tuple[Weapon, ...] = ()
    #: Its initiative value (None: not rolled or typed yet).
    initiative: int | None = None
    #: Whom it chose to follow with `retrasa tras` (CSYSTEM §3.4).
    after: str | None = None
    #: Ensordecido's −5 (or a power's change) applied this fight: ↓5 / ↑5.
    shift: int = 0
    #: Its place among ties on every key (the roster order; `cambiar` swaps).
    tie: int = 0
    surprised: bool = False
    #: The turn this turn's fields (acted, begun, used, maneuvers, the weapons'
    #: fired) belong to: in a later turn they read as a new turn's (`current`), so
    #: that a new turn changes no sheet.  None: the fight's current turn (a save
    #: from before the field; stamped when loaded).
    turn: int | None = None
    #: This turn: its go is over (or lost).
    acted: bool = False
    #: This turn: its go has begun (the start-of-go effects applied, CSYSTEM §10).
    begun: bool = False
    #: This turn's actions in order: "complex" / "simple".
    used: tuple[str, ...] = ()
    #: This turn's maneuvers (catalog ids), for the no-repeat rule.
    maneuvers: tuple[str, ...] = ()
    aim: int = 0
    #: Esquivar/Bloquear's bonus to Defensa, until the start of its next go.
    dodge: int = 0
    dodged: bool = False
    #: Cargar's −2 to Defensa, until the start of its next go.
    charged: bool = False
    #: Cover steps lost by shooting from it, until the start of its next go.
    cover_lost: int = 0
    criticals: int = 0
    conditions: tuple[CsCondition, ...] = ()
    pending: tuple[Prompt, ...] = ()
    first_aid: bool = False
    #: How many goes it has begun in this fight (durations count them).
    goes: int = 0
    #: The turn it fell unconscious at 0 Vitalidad (the waking roll comes 10 later).
    unconscious_since: int | None = None
    #: The turn a Moribundo was stabilised (it loses 1 Vitalidad every 100 turns, §9.4).
    stabilized_since: int | None = None
    #: Half its Aplomo was already crossed (the GM was asked once).
    composure_asked: bool = False

    def has(self, condition: str) -> bool:
        return any(c.id == condition for c in self.conditions)

    def condition(self, condition: str) -> CsCondition | None:
        return next((c for c in self.conditions if c.id == condition), None)

    def weapon(self, name: str | None = None) -> Weapon | None:
        if name is None:
            return self.weapons[0] if self.weapons else None
        key = fold(name)
        return next((w for w in self.weapons if fold(w.name) == key), None)

    def dr(self, kind: str) -> int:
        return {"letal": self.dr_lethal, "balistico": self.dr_ballistic,
                "energia": self.dr_energy}.get(kind, 0)


@frozen
class CsPart:
    """What a C-System fight adds to the shared `Fight`: the order of initiative
    (names, first acts first) and the optional Energía rule (§9.2)."""

    order: tuple[str, ...] = ()
    energy_saves: bool = False


def sheet_of(c: Combatant) -> CsSheet:
    sheet = c.sheet
    assert isinstance(sheet, CsSheet), c.name
    return sheet


def part_of(fight: Fight) -> CsPart:
    return fight.cs if fight.cs is not None else CsPart()
