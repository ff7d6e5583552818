"""C-System's commands (SYSTEMS.md §2.2): frozen values with a canonical `line()`,
what the history stores.  The shared ones (`baja`, `nombre`, `nota`, `revelar`,
`ocultar`, `empezar`, `siguiente`, `turno`, `cambiar`, `tirar`, `sorpresa`,
`deshacer`, `rehacer`) are CdB's own command values (`engine/commands.py`)."""

from __future__ import annotations

from attrs import frozen

from ..commands import option, quote



@frozen
class Add:
    name: str
    level: int = 1
    dex: int = 0
    alerta: int = 0
    per: int = 0
    con: int = 0
    wil: int = 0
    strength: int = 0
    spd: int = 0
    vitality: int | None = None
    composure: int | None = None
    energy: int | None = None
    def_bonus: int = 0
    shield: int = 0
    dr: tuple[int, int, int] = (0, 0, 0)
    ini_mod: int = 0
    side: str = "pnj"
    hidden: bool = False
    private: bool = False
    traits: tuple[str, ...] = ()

    def line(self) -> str:
        parts = ["alta", quote(self.name), f"nh={self.level}", f"des={self.dex}", f"ale={self.alerta}"]
        for key, value in (("per", self.per), ("con", self.con), ("vol", self.wil),
                           ("fue", self.strength), ("vel", self.spd), ("bdef", self.def_bonus),
                           ("escudo", self.shield)):
            if value:
                parts.append(f"{key}={value}")
        parts += option("pv", self.vitality) + option("aplomo", self.composure) + option("energia", self.energy)
        if any(self.dr):
            parts.append("rd=" + "/".join(map(str, self.dr)))
        if self.ini_mod:
            parts.append(f"ini={self.ini_mod:+d}")
        parts.append(f"bando={quote(self.side)}")
        if self.traits:
            parts.append("rasgos=" + ",".join(self.traits))
        if self.hidden:
            parts.append("oculto")
        if self.private:
            parts.append("privado")
        return " ".join(parts)


@frozen
class Arm:
    """`arma NAME ARMA …`: give it a weapon (or replace the one of that name)."""

    name: str
    weapon: str
    modes: tuple[str, ...] = ()
    magazine: int = 0
    ammo: int | None = None
    rate: int = 0
    damage: str = ""
    ranged: bool = False

    def line(self) -> str:
        parts = ["arma", quote(self.name), quote(self.weapon)]
        if self.modes:
            parts.append("modos=" + ",".join(self.modes))
        if self.magazine:
            parts.append(f"cargador={self.magazine}")
        parts += option("municion", self.ammo)
        if self.rate:
            parts.append(f"cad={self.rate}")
        if self.damage:
            parts.append(f"dano={quote(self.damage)}")
        if self.ranged:
            parts.append("distancia")
        return " ".join(parts)


@frozen
class Initiative:
    name: str
    value: int

    def line(self) -> str:
        return f"iniciativa {quote(self.name)} {self.value}"


@frozen
class Place:
    """`orden NAME tras|antes OTRO`: the GM re-places a combatant (a power)."""

    name: str
    other: str
    before: bool = False

    def line(self) -> str:
        return f"orden {quote(self.name)} {'antes' if self.before else 'tras'} {quote(self.other)}"


@frozen
class Act:
    """A combatant's action at its go: a maneuver or a generic action (`action` is a
    catalog id, or "compleja" / "simple" / "gratis" for a free text)."""

    name: str
    action: str
    form: str | None = None
    target: str | None = None
    roll: int | None = None
    damage: tuple[int, ...] = ()
    kind: str | None = None
    weapon: str | None = None
    mod: int | None = None
    amount: int | None = None
    words: tuple[str, ...] = ()
    text: str = ""

    def line(self) -> str:
        parts = [quote(self.name), self.action]
        if self.text:
            parts.append(quote(self.text))
        if self.form is not None:
            parts.append(self.form)
        if self.amount is not None:
            parts.append(str(self.amount))
        parts += [quote(w) for w in self.words]
        if self.target is not None:
            parts += ["a", quote(self.target)]
        parts += option("tirada", self.roll)
        if self.damage:
            parts.append("dano=" + "+".join(map(str, self.damage)))
        parts += option("tipo", self.kind)
        if self.weapon is not None:
            parts.append(f"arma={quote(self.weapon)}")
        if self.mod is not None:
            parts.append(f"mod={self.mod:+d}")
        return " ".join(parts)


@frozen
class Lower:
    """`NAME retrasa tras OTRO` / `NAME retrasa final` (CSYSTEM §3.4)."""

    name: str
    after: str | None = None

    def line(self) -> str:
        return f"{quote(self.name)} retrasa " + ("final" if self.after is None else f"tras {quote(self.after)}")


@frozen
class EndGo:
    name: str

    def line(self) -> str:
        return f"{quote(self.name)} fin"


@frozen
class Damage:
    name: str
    amount: int
    kind: str = "letal"
    dr: int | None = None
    bleed: bool = False

    def line(self) -> str:
        parts = ["dano", quote(self.name), str(self.amount), self.kind, *option("rd", self.dr)]
        if self.bleed:
            parts.append("sangrado")
        return " ".join(parts)


@frozen
class Answer:
    """The answer to a pending prompt: `dolor NAME TOTAL` / `refleja NAME TOTAL`."""

    roll: str
    name: str
    total: int
    energy: bool = False

    def line(self) -> str:
        return f"{self.roll} {quote(self.name)} {self.total}" + (" energia" if self.energy else "")


@frozen
class Critical:
    name: str
    text: str
    conditions: tuple[str, ...] = ()

    def line(self) -> str:
        return " ".join(["critica", quote(self.name), quote(self.text), *(f"+{c}" for c in self.conditions)])


@frozen
class Heal:
    name: str
    amount: int

    def line(self) -> str:
        return f"cura {quote(self.name)} {self.amount}"


@frozen
class Pool:
    """`energia NAME -N` / `aplomo NAME ±N`."""

    pool: str
    name: str
    delta: int

    def line(self) -> str:
        return f"{self.pool} {quote(self.name)} {self.delta:+d}"


@frozen
class SetCondition:
    name: str
    condition: str
    on: bool = True
    value: str | None = None
    turns: int | None = None

    def line(self) -> str:
        word = ("+" if self.on else "-") + self.condition + ("" if self.value is None else f":{self.value}")
        return " ".join(["estado", quote(self.name), word, *option("turnos", self.turns)])


@frozen
class Ammo:
    name: str
    weapon: str
    count: int

    def line(self) -> str:
        return f"municion {quote(self.name)} {quote(self.weapon)} {self.count}"


@frozen
class EnergySaves:
    """The optional rule of CSYSTEM §9.2: 5 Energía to avoid falling unconscious."""

    on: bool

    def line(self) -> str:
        return f"energia-salva {'si' if self.on else 'no'}"
