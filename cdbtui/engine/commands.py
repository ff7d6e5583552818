"""Commands: small frozen values, one per line of the command language (COMMANDS.md).

Every front end (keys, palette, `:` line, `cdbtui do`) builds these through
`parser.parse`, and `rules.apply` turns a state and a command into the next state.
`line()` gives back the canonical command line, which is what the history stores.
"""

from __future__ import annotations

from attrs import frozen


#: Characters that make a word need quotes to survive `parser.tokenize` (shlex).
_SPECIAL = frozenset("\"'\\")


#: Fight-level keywords (folded spelling → canonical Spanish keyword).
KEYWORDS = {
    "alta": "alta", "add": "alta",
    "baja": "baja", "remove": "baja",
    "momento": "momento", "start": "momento",
    "tirar": "tirar", "roll": "tirar",
    "sorpresa": "sorpresa", "surprise": "sorpresa",
    "empezar": "empezar", "begin": "empezar",
    "siguiente": "siguiente", "next": "siguiente",
    "turno": "turno", "newturn": "turno",
    "deshacer": "deshacer", "undo": "deshacer",
    "rehacer": "rehacer", "redo": "rehacer",
    "estado": "estado", "cond": "estado",
    "dano": "dano", "damage": "dano",
    "cambiar": "cambiar", "swap": "cambiar",
    "nombre": "nombre", "title": "nombre",
    "blancos": "blancos", "targets": "blancos",
    "rapida": "rapida", "quick": "rapida",
    "bono": "bono", "bonus": "bono",
    "duelo": "duelo", "duel": "duelo",
    "monta": "monta", "mount": "monta",
    "desmonta": "desmonta", "dismount": "desmonta",
    "curar": "curar", "heal": "curar",
    "descanso": "descanso", "rest": "descanso",
    "casa": "casa", "house": "casa",
    "nota": "nota", "note": "nota",
    "revelar": "revelar", "reveal": "revelar",
    "ocultar": "ocultar", "hide": "ocultar",
    "fatiga-cc": "fatiga-cc", "melee-fatigue": "fatiga-cc",
}

#: Words that introduce the target of an attack (`NAME MANIOBRA [N] a BLANCO`) or the
#: companion of a leader's bonus (`bono LIDER a BLANCO`).
TARGET_WORDS = frozenset({"a", "contra", "at", "vs", "to"})

#: Keywords that follow a combatant's name.
ACTIONS = {
    "gasta": "gasta", "spend": "gasta",
    "retrasa": "retrasa", "hold": "retrasa",
    "actua": "actua", "act": "actua",
    "espera": "espera", "wait": "espera",
    "interrumpe": "interrumpe", "trigger": "interrumpe",
    "fin": "fin", "done": "fin",
    # The book's ids of hold and wait (RULES.md §4 "Book ids of the special actions").
    "retrasar-la-accion": "retrasa",
    "quedarse-a-la-espera": "espera",
}

#: `NAME interrumpe MANIOBRA … ahora`: the interrupt happens at the current moment,
#: not in the reaction window (RULES.md §3).
NOW_WORDS = frozenset({"ahora", "now"})

#: Words no part of a combatant's name may be (RULES.md §2: names must stay parseable).
RESERVED = frozenset(KEYWORDS) | frozenset(ACTIONS) | {"juntos", "together", "grupo", "group"}


def option(key: str, value: object) -> list[str]:
    """`key=value` as a command line writes it, nothing when the value is None."""
    return [] if value is None else [f"{key}={value}"]


def quote(name: str) -> str:
    """A name as typed on a command line: quoted (and escaped) when it must be,
    so that parsing the line gives back exactly `name`."""
    if name and not name.startswith(":") and not any(
        ch.isspace() or ch in _SPECIAL for ch in name
    ):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


@frozen
class Add:
    name: str
    ac: int
    ini: int = 0
    agi: int = 0
    ate: int = 0
    skill: int = 0
    mov: int = 0
    side: str = "pnj"
    hidden: bool = False
    private: bool = False
    talents: tuple[str, ...] = ()
    start: int | None = None
    wounds: tuple[int, ...] | None = None
    #: A group or Horda: its member count, and the Daño that puts one member out.
    members: int = 0
    toughness: int = 1
    #: `copias=N`: N combatants «NAME 1» … «NAME N» with these stats (0: just one).
    copies: int = 0

    def line(self) -> str:
        parts = ["alta", quote(self.name), f"ac={self.ac}"]
        for key, value in (("ini", self.ini), ("agi", self.agi), ("ate", self.ate),
                           ("hab", self.skill), ("mov", self.mov)):
            if value:
                parts.append(f"{key}={value}")
        parts.append(f"bando={quote(self.side)}")
        if self.talents:
            parts.append("talentos=" + ",".join(self.talents))
        if self.start is not None:
            parts.append(f"momento={self.start}")
        if self.wounds is not None:
            parts.append("vida=" + ",".join(str(n) for n in self.wounds))
        if self.members:
            parts.append(f"miembros={self.members}")
        if self.toughness != 1:
            parts.append(f"aguante={self.toughness}")
        if self.copies:
            parts.append(f"copias={self.copies}")
        if self.hidden:
            parts.append("oculto")
        if self.private:
            parts.append("privado")
        return " ".join(parts)


@frozen
class Remove:
    name: str

    def line(self) -> str:
        return f"baja {quote(self.name)}"


@frozen
class SetStart:
    name: str
    start: int

    def line(self) -> str:
        return f"momento {quote(self.name)} {self.start}"


@frozen
class Roll:
    """Roll 1d6+INI; `together` shares one die among all the named (a group roll)."""

    names: tuple[str, ...] = ()
    together: bool = False

    def line(self) -> str:
        head = "tirar juntos" if self.together else "tirar"
        return " ".join([head, *map(quote, self.names)])


@frozen
class Surprise:
    names: tuple[str, ...]

    def line(self) -> str:
        return " ".join(["sorpresa", *map(quote, self.names)])


@frozen
class Begin:
    def line(self) -> str:
        return "empezar"


@frozen
class Perform:
    """A catalog maneuver, or a free action when `maneuver` is None (`gasta N`).

    `target`: the combatant an attack is aimed at (for a Bloqueo: the attacker it
    blocked).  `degree`: Liderazgo's degree of success (`NAME liderazgo gde=N`).
    """

    name: str
    maneuver: str | None
    amount: int | None = None
    text: str = ""
    target: str | None = None
    degree: int | None = None

    def line(self) -> str:
        if self.maneuver is None:
            tail = f" {quote(self.text)}" if self.text else ""
            return f"{quote(self.name)} gasta {self.amount}{tail}"
        parts = [quote(self.name), self.maneuver]
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.degree is not None:
            parts.append(f"gde={self.degree}")
        if self.target is not None:
            parts += ["a", quote(self.target)]
        return " ".join(parts)


@frozen
class Hold:
    name: str

    def line(self) -> str:
        return f"{quote(self.name)} retrasa"


@frozen
class Act:
    name: str

    def line(self) -> str:
        return f"{quote(self.name)} actua"


@frozen
class Wait:
    name: str
    text: str = ""

    def line(self) -> str:
        tail = f" {quote(self.text)}" if self.text else ""
        return f"{quote(self.name)} espera{tail}"


@frozen
class Trigger:
    """A waiter's trigger happened: it interrupts with `action` (a Perform).  `now`
    (`… ahora`): at the current moment, not in the reaction window (RULES.md §3)."""

    action: Perform
    now: bool = False

    def line(self) -> str:
        head = quote(self.action.name)
        return (head + " interrumpe" + self.action.line()[len(head):]
                + (" ahora" if self.now else ""))


@frozen
class Done:
    name: str

    def line(self) -> str:
        return f"{quote(self.name)} fin"


@frozen
class Next:
    def line(self) -> str:
        return "siguiente"


@frozen
class NewTurn:
    def line(self) -> str:
        return "turno"


@frozen
class Condition:
    """Add or remove a condition; `turns`: it ends by itself at the end of the
    `turns`-th turn counting the current one (RULES.md §5 "Durations")."""

    name: str
    condition: str
    on: bool
    turns: int | None = None

    def line(self) -> str:
        tail = f" turnos={self.turns}" if self.turns is not None else ""
        return f"estado {quote(self.name)} {'+' if self.on else '-'}{self.condition}{tail}"


@frozen
class Note:
    """A free note about a combatant (no rules effect); `text` None clears its notes
    (`nota NAME -`).  `turns` as for `Condition`."""

    name: str
    text: str | None
    turns: int | None = None

    def line(self) -> str:
        if self.text is None:
            return f"nota {quote(self.name)} -"
        tail = f" turnos={self.turns}" if self.turns is not None else ""
        return f"nota {quote(self.name)} {quote(self.text)}{tail}"


@frozen
class Reveal:
    """`revelar NAME` (players see it from now on) or `ocultar NAME` (`on` False)."""

    name: str
    on: bool = True

    def line(self) -> str:
        return f"{'revelar' if self.on else 'ocultar'} {quote(self.name)}"


@frozen
class MeleeFatigue:
    """The book's 1 fatigue point per turn of melee (RULES.md §6), on or off."""

    on: bool

    def line(self) -> str:
        return f"fatiga-cc {'si' if self.on else 'no'}"


@frozen
class Damage:
    """Damage (Daño − RD) to wounds or fatigue; against a Horda, `shots` caps the
    members put out (000: "con un máximo marcado por la cantidad de proyectiles")."""

    name: str
    amount: int
    rd: int = 0
    fatigue: bool = False
    shots: int | None = None

    def line(self) -> str:
        parts = ["dano", quote(self.name), str(self.amount)]
        if self.rd:
            parts.append(f"rd={self.rd}")
        if self.shots is not None:
            parts.append(f"balas={self.shots}")
        if self.fatigue:
            parts.append("fatiga")
        return " ".join(parts)


@frozen
class Heal:
    """Remove `amount` marked boxes (the worst first) from wounds or fatigue."""

    name: str
    amount: int
    fatigue: bool = False

    def line(self) -> str:
        return f"curar {quote(self.name)} {self.amount}" + (" fatiga" if self.fatigue else "")


@frozen
class Rest:
    """After the battle: everyone's Rasguños are wiped (CdB cap. 9, Curación)."""

    def line(self) -> str:
        return "descanso"


@frozen
class Bonus:
    """A leader hands one +1 of its Liderazgo pool to a companion's next roll."""

    leader: str
    target: str

    def line(self) -> str:
        return f"bono {quote(self.leader)} a {quote(self.target)}"


@frozen
class Duel:
    """Start a duel (optional rule): both act at their INI; with Duelista the winner of
    the opposed roll adds its degree of success (`winner`+`degree`)."""

    first: str
    second: str
    winner: str | None = None
    degree: int = 0

    def line(self) -> str:
        parts = ["duelo", quote(self.first), quote(self.second)]
        if self.winner is not None and self.degree:
            parts.append(f"{quote(self.winner)}+{self.degree}")
        return " ".join(parts)


@frozen
class Mount:
    """A rider mounts a combatant: the mount acts at its rider's moment."""

    rider: str
    mount: str

    def line(self) -> str:
        return f"monta {quote(self.rider)} {quote(self.mount)}"


@frozen
class Dismount:
    rider: str

    def line(self) -> str:
        return f"desmonta {quote(self.rider)}"


@frozen
class Swap:
    """Swap two combatants tied on every key (RULES.md §3: the GM decides)."""

    first: str
    second: str

    def line(self) -> str:
        return f"cambiar {quote(self.first)} {quote(self.second)}"


@frozen
class Targets:
    """Extra targets attacked this turn: −1 to all actions per extra target (RULES.md §4)."""

    name: str
    extra: int

    def line(self) -> str:
        return f"blancos {quote(self.name)} {self.extra}"


@frozen
class Quick:
    """Switch Iniciativa Rápida on or off (RULES.md §3, Walküre's optional rule)."""

    on: bool

    def line(self) -> str:
        return f"rapida {'si' if self.on else 'no'}"


@frozen
class Rename:
    """Rename the fight itself (shown in the header and the start screen)."""

    title: str

    def line(self) -> str:
        return f"nombre {quote(self.title)}"


@frozen
class HouseRules:
    """The fight's house rules: TOML text merged into the book's catalog ("" = none)."""

    text: str

    def line(self) -> str:
        return f"casa {quote(self.text)}" if self.text else "casa no"


@frozen
class Undo:
    def line(self) -> str:
        return "deshacer"


@frozen
class Redo:
    def line(self) -> str:
        return "rehacer"


Command = (
    Add | Remove | SetStart | Roll | Surprise | Begin | Perform | Hold | Act | Wait
    | Trigger | Done | Next | NewTurn | Condition | Damage | Swap | Targets | Quick | Rename
    | Heal | Rest | Bonus | Duel | Mount | Dismount | HouseRules | Note | Reveal | MeleeFatigue
)
