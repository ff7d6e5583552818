"""The storyteller system's state (STORYTELLER.md): a `NarrSheet` on each shared
`Combatant` and a `NarrPart` on the fight (the phase, this turn's order, the attack
being resolved), by composition (SYSTEMS.md §4)."""

from __future__ import annotations

from attrs import frozen

from ..text import fold

#: The health track (STORYTELLER §11): names and dice penalties; the last is out.
LEVELS = ("Magullado", "Lastimado", "Lesionado", "Herido", "Malherido", "Tullido", "Incapacitado")
PENALTIES = (0, -1, -1, -2, -2, -5)
#: A combatant's place in this turn (SYSTEMS.md §3.4 `status`).
STATUSES = ("to_declare", "declared", "delaying", "acted", "stunned", "out")


@frozen
class Trait:
    """A trait value typed with `rasgos=` (pelea:3, esquivar:4 …)."""

    id: str
    value: int


@frozen
class NWeapon:
    """A weapon from the seed's tables or typed (STORYTELLER §9)."""

    name: str
    damage: int = 0
    #: Melee: the damage is Fuerza + `damage`.
    strength: bool = False
    lethal: bool = True
    range: int = 0
    rate: int = 0
    magazine: int = 0
    #: It can hold one more round in the chamber (the table's «+1»).
    chamber: bool = False
    ammo: int = 0
    auto: bool = False
    scope: bool = False
    reload_turns: int = 1
    #: Shots (a three-round burst counts 1) fired this turn.
    shots: int = 0

    @property
    def ranged(self) -> bool:
        return self.range > 0

    @property
    def loaded_chamber(self) -> bool:
        return self.chamber and self.ammo > self.magazine


@frozen
class Declared:
    """One declared action, in priority order: its base pool (traits + Precisión;
    None when the tracker doesn't know it), its slot's multiple-action penalty."""

    action: str
    pool: int | None = None
    penalty: int = 0
    defense: bool = False
    done: bool = False
    target: str | None = None


def dropped(s: NarrSheet, d: Declared) -> bool:
    """Whether `d`, declared on `s`, was dropped: the go ended (`fin`, `siguiente`)
    before it was done; it is lost (SYSTEMS.md §3.5) and never shown to players."""
    return s.status == "acted" and not d.done and not d.defense


@frozen
class NCondition:
    id: str
    value: str | None = None
    #: The turn at whose end it ends (None: until removed).
    until: int | None = None


@frozen(weakref_slot=False)
class NarrSheet:
    """A storyteller combatant's sheet."""

    #: Which ruleset's sheet this is (a save tells the sheets apart by it).
    system: str = "narrador"
    dex: int | None = None
    wits: int | None = None
    rating: int = 0
    willpower: int = 0
    points: int = 0
    stamina: int = 0
    strength: int = 0
    per: int = 0
    supernatural: bool = False
    ambidextrous: bool = False
    traits: tuple[Trait, ...] = ()
    levels: int = 7
    lethal: int = 0
    bashing: int = 0
    weapons: tuple[NWeapon, ...] = ()
    conditions: tuple[NCondition, ...] = ()
    aim: int = 0
    aim_scope: bool = False
    cover: int = 0
    opponents: int = 1
    #: Derribado's −2, waiting for the next initiative roll.
    ini_penalty: int = 0
    tie: int = 0
    # This turn:
    #: The turn the fields below belong to (`engine.turnstamp`: in a later turn they
    #: read as a new turn leaves them, so a new turn copies no sheet); None: the
    #: fight's current turn (a save from before the field, stamped when read).
    turn: int | None = None
    initiative: int | None = None
    status: str = "to_declare"
    declared: tuple[Declared, ...] = ()
    full_defense: bool = False
    #: Defenses made this turn (the chain's or the total defense's count).
    defenses: int = 0
    aborted: bool = False
    #: Its last abort roll this turn failed (§7.4.4: it keeps its declaration; it may
    #: try again against a later attack): the side panel says so.
    abort_failed: bool = False
    spent: bool = False
    #: Turns of reloading done (a crossbow takes five).
    reloading: int = 0

    def trait(self, id: str) -> int | None:
        if id == "des":
            return self.dex
        if id == "ast":
            return self.wits
        if id == "fue":
            return self.strength
        if id == "per":
            return self.per
        if id == "res":
            return self.stamina
        return next((t.value for t in self.traits if t.id == id), 0)

    def has(self, id: str) -> bool:
        return any(c.id == id for c in self.conditions)

    def weapon(self, name: str | None = None) -> NWeapon | None:
        if name is None:
            return self.weapons[0] if self.weapons else None
        key = fold(name)
        return next((w for w in self.weapons if fold(w.name) == key), None)

    @property
    def marked(self) -> int:
        return min(self.lethal + self.bashing, self.levels)

    @property
    def health_penalty(self) -> int:
        marked = self.marked
        if marked == 0:
            return 0
        return PENALTIES[min(marked - 1, len(PENALTIES) - 1)]

    @property
    def out(self) -> bool:
        return self.lethal + self.bashing >= self.levels or bool(self.conditions) and self.has("muerto")


@frozen
class PendingAttack:
    """The attack being resolved: who, at whom, with what, its successes, and the
    damage dice it brings (the weapon's) — a defense answers it (`defiende`,
    `aborta`), the damage after soak closes it (`dano`)."""

    attacker: str
    target: str
    action: str
    successes: int
    damage: int
    ranged: bool
    lethal: bool
    #: The defender's successes so far (a defense answered it).
    defended: int | None = None


@frozen
class NarrPart:
    """The turn's phase (`initiative`, `declare`, `act`, `over`), its order (highest
    initiative first), the declarer, and the attack being resolved."""

    phase: str = "initiative"
    order: tuple[str, ...] = ()
    declarer: str | None = None
    attack: PendingAttack | None = None
