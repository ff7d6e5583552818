"""The storyteller system's commands (SYSTEMS.md §3.2): frozen values with a
canonical `line()`.  Shared ones (baja, nombre, nota, revelar/ocultar, siguiente,
turno, empezar, tirar, deshacer, rehacer) are CdB's command values."""

from __future__ import annotations

from attrs import frozen

from ..commands import option, quote



@frozen
class Add:
    name: str
    ini: int | None = None
    dex: int | None = None
    wits: int | None = None
    willpower: int = 0
    stamina: int = 0
    strength: int = 0
    per: int = 0
    levels: int = 7
    supernatural: bool = False
    ambidextrous: bool = False
    traits: tuple[str, ...] = ()
    side: str = "pnj"
    hidden: bool = False
    private: bool = False

    def line(self) -> str:
        parts = ["alta", quote(self.name), *option("ini", self.ini), *option("des", self.dex), *option("ast", self.wits)]
        for key, value in (("fv", self.willpower), ("res", self.stamina), ("fue", self.strength),
                           ("per", self.per)):
            if value:
                parts.append(f"{key}={value}")
        if self.levels != 7:
            parts.append(f"salud={self.levels}")
        parts.append(f"bando={quote(self.side)}")
        if self.traits:
            parts.append("rasgos=" + ",".join(self.traits))
        for flag, on in (("sobrenatural", self.supernatural), ("ambidiestro", self.ambidextrous),
                         ("oculto", self.hidden), ("privado", self.private)):
            if on:
                parts.append(flag)
        return " ".join(parts)


@frozen
class Arm:
    name: str
    weapon: str
    damage: int | None = None
    range: int | None = None
    rate: int | None = None
    magazine: int | None = None
    chamber: bool = False
    auto: bool = False
    scope: bool = False

    def line(self) -> str:
        parts = ["arma", quote(self.name), quote(self.weapon), *option("dano", self.damage),
                 *option("alcance", self.range), *option("cad", self.rate)]
        if self.magazine is not None:
            parts.append(f"cargador={self.magazine}" + ("+1" if self.chamber else ""))
        if self.auto:
            parts.append("auto")
        if self.scope:
            parts.append("mira")
        return " ".join(parts)


@frozen
class Initiative:
    name: str
    value: int

    def line(self) -> str:
        return f"iniciativa {quote(self.name)} {self.value}"


@frozen
class Item:
    """One declared action: its id, its base pool if typed, how many (shots)."""

    action: str
    pool: int | None = None
    count: int = 1

    def word(self) -> str:
        return self.action + ("" if self.pool is None else f":{self.pool}")


@frozen
class Declare:
    name: str
    items: tuple[Item, ...]

    def line(self) -> str:
        words = []
        for item in self.items:
            words.append(item.word())
            if item.count != 1:
                words.append(str(item.count))
        return " ".join(["declara", quote(self.name), *words])


@frozen
class Act:
    name: str
    action: str | None = None
    target: str | None = None
    successes: int | None = None
    meters: int | None = None
    pool: int | None = None
    #: The distance to the target in metres (the range band: §8.3 Alcance).
    distance: int | None = None
    #: Modifiers named by words: quemarropa, larga, flanco, espalda, a-ciegas,
    #: localizacion-medio / -pequeno / -diminuto (§8.2, §8.3).
    words: tuple[str, ...] = ()

    def line(self) -> str:
        parts = [quote(self.name), "actua"]
        if self.action is not None:
            parts.append(self.action + ("" if self.pool is None else f":{self.pool}"))
        if self.target is not None:
            parts += ["a", quote(self.target)]
        return " ".join(parts + list(self.words) + option("exitos", self.successes) + option("metros", self.meters)
                        + option("distancia", self.distance))


@frozen
class Defend:
    name: str
    maneuver: str
    successes: int | None = None

    def line(self) -> str:
        return " ".join([quote(self.name), "defiende", self.maneuver, *option("exitos", self.successes)])


@frozen
class Abort:
    name: str
    maneuver: str
    spend: bool
    action: str | None = None
    roll: int | None = None
    defense: int | None = None

    def line(self) -> str:
        parts = [quote(self.name), "aborta"]
        if self.action is not None:
            parts.append(self.action)
        if self.spend:
            parts += ["gasta", self.maneuver, *option("exitos", self.defense)]
        else:
            parts += ["tira", *option("exitos", self.roll), self.maneuver, *option("defensa", self.defense)]
        return " ".join(parts)


@frozen
class Delay:
    name: str

    def line(self) -> str:
        return f"{quote(self.name)} retrasa"


@frozen
class EndGo:
    name: str

    def line(self) -> str:
        return f"{quote(self.name)} fin"


@frozen
class Damage:
    name: str
    levels: int
    lethal: bool

    def line(self) -> str:
        return f"dano {quote(self.name)} {self.levels} {'letal' if self.lethal else 'contundente'}"


@frozen
class Willpower:
    name: str

    def line(self) -> str:
        return f"fv {quote(self.name)} -1"


@frozen
class SetCondition:
    name: str
    condition: str
    on: bool = True
    spelled: str | None = None

    def line(self) -> str:
        return f"estado {quote(self.name)} {'+' if self.on else '-'}{self.spelled or self.condition}"


@frozen
class Level:
    """`cobertura NAME N` / `oponentes NAME N`."""

    what: str
    name: str
    value: int

    def line(self) -> str:
        return f"{self.what} {quote(self.name)} {self.value}"


@frozen
class Grapple:
    """`presa A B` / `sujeta A B`; `suelta A` (other is None)."""

    name: str
    other: str | None = None
    hold: bool = False

    def line(self) -> str:
        if self.other is None:
            return f"suelta {quote(self.name)}"
        return f"{'sujeta' if self.hold else 'presa'} {quote(self.name)} {quote(self.other)}"


@frozen
class Ambush:
    name: str
    target: str
    successes: int

    def line(self) -> str:
        return f"emboscada {quote(self.name)} {quote(self.target)} exitos={self.successes}"


@frozen
class Ammo:
    name: str
    weapon: str
    count: int

    def line(self) -> str:
        return f"municion {quote(self.name)} {quote(self.weapon)} {self.count}"
