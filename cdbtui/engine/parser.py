"""The command language of COMMANDS.md: one line of text → one command.

Shared by every front end.  Keywords have a Spanish and an English spelling and
accents are optional; combatant names are matched case-insensitively, an exact
name wins, otherwise a unique prefix; the same for maneuver ids.  Anything that
cannot be understood raises `Refusal` with one Spanish line; nothing else escapes.
"""

from __future__ import annotations

import difflib
import shlex
from functools import lru_cache

from . import commands as cmd
from .commands import ACTIONS, KEYWORDS, TARGET_WORDS
from .catalog import TALENT_ES, catalog_for, load_house_rules
from .errors import Refusal
from .limits import MOST_TURNS, NAME_LENGTH, check_name, check_text, normalise
from .model import Combatant, Fight
from .text import fold, slug

TALENTS = tuple(TALENT_ES)

ADD_KEYS = {
    "ac": "ac", "ini": "ini", "agi": "agi", "agilidad": "agi",
    "ate": "ate", "atencion": "ate", "att": "ate",
    "hab": "hab", "habilidad": "hab", "skill": "hab",
    "mov": "mov", "bando": "bando", "side": "bando",
    "talentos": "talentos", "talents": "talentos",
    "momento": "momento", "start": "momento",
    "vida": "vida", "wounds": "vida",
    "miembros": "miembros", "members": "miembros", "horda": "miembros", "horde": "miembros",
    "aguante": "aguante", "toughness": "aguante",
    "copias": "copias", "copies": "copias",
}
ADD_FLAGS = {"oculto": "oculto", "hidden": "oculto", "privado": "privado", "private": "privado"}
#: Other spellings of the conditions with an effect: feminine forms, English names.
CONDITION_ALIASES = {
    "agarrada": "agarrado", "grappled": "agarrado",
    "inmovilizada": "inmovilizado", "pinned": "inmovilizado",
    "sorprendida": "sorprendido", "surprised": "sorprendido",
    "incapacitada": "incapacitado", "incapacitated": "incapacitado",
    "moribunda": "moribundo", "dying": "moribundo",
    "exhausta": "exhausto", "exhausted": "exhausto",
    "a-cubierta": "a-cubierto", "in-cover": "a-cubierto", "cubierto": "a-cubierto",
    "cubierta": "a-cubierto", "cover": "a-cubierto",
    "en-duel": "en-duelo", "duelo": "en-duelo", "dueling": "en-duelo", "in-duel": "en-duelo",
    "montada": "montado", "mounted": "montado",
}
SWITCH = {"si": True, "on": True, "yes": True, "no": False, "off": False}
SIDES = {"pj": "pj", "pc": "pj", "pnj": "pnj", "npc": "pnj"}

USAGE = {
    "alta": ("alta NOMBRE ac=N [ini=N] [agi=N] [ate=N] [hab=N] [mov=N] [bando=pj|pnj|NOMBRE]"
             " [talentos=a,b] [vida=a,b,c,d,e] [momento=N] [miembros=M [aguante=N]] [copias=N]"
             " [oculto] [privado]"),
    "baja": "baja NOMBRE",
    "momento": "momento NOMBRE N",
    "estado": "estado NOMBRE +ESTADO [turnos=N] | -ESTADO",
    "nota": "nota NOMBRE TEXTO [turnos=N] | nota NOMBRE -",
    "revelar": "revelar NOMBRE",
    "ocultar": "ocultar NOMBRE",
    "fatiga-cc": "fatiga-cc si|no",
    "dano": "dano NOMBRE N [rd=N] [balas=N] [fatiga]",
    "curar": "curar NOMBRE N [fatiga]",
    "bono": "bono LIDER a COMPAÑERO",
    "duelo": "duelo A B [A+N]",
    "monta": "monta JINETE MONTURA",
    "desmonta": "desmonta JINETE",
    "cambiar": "cambiar NOMBRE NOMBRE",
    "blancos": "blancos NOMBRE N",
    "rapida": "rapida si|no",
    "casa": 'casa "TEXTO TOML" | casa no',
}


def _parse_house(fight: Fight, text: str) -> cmd.HouseRules:
    """`casa "TOML"` / `casa no`: split without turning «» into quotes (the TOML may
    use them), and check the rules now so that a wrong text is refused with why."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        raise Refusal("Comillas sin cerrar en la orden") from None
    if len(words) != 1:
        raise Refusal(f"Se usa «{USAGE['casa']}»")
    if fold(words[0]) in ("no", "-", "ninguna", "none"):
        return cmd.HouseRules("")
    load_house_rules(words[0], fight.rules)
    return cmd.HouseRules(words[0])


#: The longest command line (a `casa` line carries a whole TOML file: `HOUSE_LINE`).
LINE_LENGTH = 2_000
HOUSE_LINE = 200_000
#: A name has at most this many words (NAME_LENGTH characters): look no further.
NAME_WORDS = NAME_LENGTH // 2 + 1


class Quoted(str):
    """A word typed in quotes: a name in quotes is one name (`take_name`), never
    the start of a longer one, never merged with the words after it."""

    __slots__ = ()


def tokenize(line: str) -> list[str]:
    """Split a command line (shlex, POSIX); typographic quotes count as quotes, and a
    word that was quoted comes back as `Quoted`; odd spaces and invisible characters
    typed by accident are normalised (limits.normalise)."""
    if len(line) > LINE_LENGTH:
        raise Refusal(f"Orden demasiado larga ({len(line)} caracteres; como mucho {LINE_LENGTH})")
    line = normalise(line)
    for quote in "«»“”„":
        line = line.replace(quote, '"')
    if '"' not in line and "'" not in line and "\\" not in line:
        return line.split()  # nothing quoted, no escapes: what shlex would give
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    start = 0
    try:
        while (word := lexer.get_token()) is not None:
            end = lexer.instream.tell()
            raw = line[start:end]
            words.append(Quoted(word) if '"' in raw or "'" in raw else word)
            start = end
    except ValueError:
        raise Refusal("Comillas sin cerrar en la orden") from None
    return words


def number(token: str, what: str) -> int:
    try:
        value = int(token)
    except ValueError:
        raise Refusal(f"{what}: «{token}» no es un número entero") from None
    if abs(value) > 999:
        raise Refusal(f"{what}: {value} está fuera de rango")
    return value


def words_match(name_words: tuple[str, ...], typed: list[str]) -> bool:
    """Whether the typed words are prefixes of consecutive words of a name (`take_name`;
    completion offers names by it too)."""
    size = len(typed)
    return any(
        all(word.startswith(t) for word, t in zip(name_words[i:i + size], typed))
        for i in range(len(name_words) - size + 1)
    )


@lru_cache(maxsize=64)
def _names(names: tuple[str, ...]) -> tuple[dict[str, str], tuple[tuple[str, tuple[str, ...]], ...]]:
    """A roster's names folded once: folded name → name, and each name's folded words
    (every command line looks a name up; a roster changes far less often)."""
    folded = [fold(name) for name in names]
    exact: dict[str, str] = {}
    for key, name in zip(folded, names):
        exact.setdefault(key, name)  # «Iñigo» and «Inigo»: the first on the roster
    return exact, tuple(zip(names, (tuple(f.split()) for f in folded)))


def take_name(fight: Fight, tokens: list[str]) -> tuple[Combatant, list[str]]:
    """The combatant named at the start of `tokens`, and the tokens after its name.

    An exact name wins (the longest, so «Soldado 1» is never «Soldado»); otherwise
    the typed words are prefixes of consecutive words of a name, the most words
    first («viuda» and «la viu» find «La Viuda Negra»); more than one name at the
    longest match is refused, listing them."""
    if not tokens or not tokens[0].strip():
        raise Refusal("Falta el nombre de un combatiente")
    exact, words = _names(tuple(c.name for c in fight.combatants))
    # A quoted word is a whole name: it starts one of its own, and no name runs into it.
    longest = 1 if isinstance(tokens[0], Quoted) else min(len(tokens), NAME_WORDS)
    for size in range(2, longest + 1):
        if isinstance(tokens[size - 1], Quoted):
            longest = size - 1
            break
    for size in range(longest, 0, -1):
        name = exact.get(fold(" ".join(tokens[:size])))
        if name is not None:
            return fight.find(name), tokens[size:]
    for size in range(longest, 0, -1):
        typed = fold(" ".join(tokens[:size])).split()
        if not typed:
            continue
        matches = [name for name, split in words if words_match(split, typed)]
        if len(matches) == 1:
            return fight.find(matches[0]), tokens[size:]
        if matches:
            shown = " ".join(tokens[:size])
            raise Refusal(f"«{shown}» es ambiguo: {', '.join(matches)}")
    raise Refusal(f"No hay nadie llamado «{tokens[0]}» en este combate")


def _copies_named(fight: Fight, word: str) -> list[str]:
    """The copies «WORD 1» … «WORD N» made by `alta WORD … copias=N` (RULES: `tirar
    juntos WORD` rolls one die for all of them), when WORD is no one's own name."""
    base = fold(word)
    if not base or fight.find(word) is not None:
        return []
    found = []
    for c in fight.combatants:
        head, _, number = fold(c.name).rpartition(" ")
        if head == base and number.isdigit():
            found.append(c.name)
    return found if len(found) >= 2 else []


def take_names(fight: Fight, tokens: list[str], *, copies: bool = False) -> tuple[str, ...]:
    """The combatants named one after another; with `copies`, a bare name whose copies
    are on the roster («Orco» for «Orco 1» … «Orco 4») stands for all of them."""
    names: list[str] = []
    while tokens:
        group = _copies_named(fight, tokens[0]) if copies else []
        if group:
            names.extend(name for name in group if name not in names)
            tokens = tokens[1:]
            continue
        combatant, tokens = take_name(fight, tokens)
        names.append(combatant.name)
    return tuple(names)


def no_more(tokens: list[str], usage: str) -> None:
    """Refuse what is left after a command's last word (every ruleset's parser)."""
    if tokens:
        raise Refusal(f"Sobra «{' '.join(tokens)}»: se usa «{usage}»")


def key_values(tokens: list[str], usage: str) -> tuple[dict[str, str], list[str]]:
    """`key=value` words (keys folded) and the other words, in order; a key twice or
    without its value is refused."""
    values: dict[str, str] = {}
    words: list[str] = []
    for token in tokens:
        key, eq, value = token.partition("=")
        if eq:
            folded = fold(key)
            if folded in values:
                raise Refusal(f"«{key}=» aparece dos veces")
            if not value:
                raise Refusal(f"«{key}=» sin valor: se usa «{usage}»")
            values[folded] = value
        else:
            words.append(token)
    return values, words


def name_then_number(fight: Fight, tokens: list[str], usage: str, what: str) -> tuple[str, int]:
    """`NOMBRE N`: a combatant's name (possibly several words) and a number last."""
    if len(tokens) < 2:
        raise Refusal(f"Se usa «{usage}»")
    combatant, tail = take_name(fight, tokens[:-1])
    no_more(tail, usage)
    return combatant.name, number(tokens[-1], what)


def parse(line: str, fight: Fight) -> cmd.Command | cmd.Undo | cmd.Redo:
    """The command a line means in the context of `fight`, or `Refusal`."""
    if len(line) > HOUSE_LINE:
        raise Refusal(f"Orden demasiado larga ({len(line)} caracteres)")
    if fight.rules == "csystem":
        from .csystem.parser import parse as parse_csystem  # (it builds on this module)
        return parse_csystem(line, fight)
    if fight.rules == "narrador":
        from .narrador.parser import parse as parse_narrador
        return parse_narrador(line, fight)
    body = line.strip().removeprefix(":").strip()
    head, _, text = body.partition(" ")
    if KEYWORDS.get(fold(head[:20])) == "casa":
        return _parse_house(fight, text)
    tokens = tokenize(body)
    if not tokens:
        raise Refusal("Orden vacía: escribe una orden (p. ej. «siguiente» o «NOMBRE MANIOBRA»)")
    keyword = KEYWORDS.get(fold(tokens[0]))
    rest = tokens[1:]
    if keyword is None:
        return _parse_combatant_line(fight, tokens)
    if keyword in ("empezar", "siguiente", "turno", "deshacer", "rehacer", "descanso"):
        no_more(rest, keyword)
        return {
            "empezar": cmd.Begin, "siguiente": cmd.Next, "turno": cmd.NewTurn,
            "deshacer": cmd.Undo, "rehacer": cmd.Redo, "descanso": cmd.Rest,
        }[keyword]()
    if keyword == "alta":
        return _parse_add(rest)
    if keyword == "baja":
        combatant, rest = take_name(fight, rest)
        no_more(rest, USAGE["baja"])
        return cmd.Remove(combatant.name)
    if keyword == "momento":
        return cmd.SetStart(*_name_and_number(fight, rest, "momento", "Momento inicial"))
    if keyword == "tirar":
        together = bool(rest) and fold(rest[0]) in ("juntos", "together", "grupo", "group")
        if together:  # bare: one die for all without a start moment (COMMANDS.md `copias=`)
            rest = rest[1:]
        return cmd.Roll(take_names(fight, rest, copies=True), together)
    if keyword == "sorpresa":
        if not rest:
            raise Refusal("«sorpresa» necesita los nombres de los sorprendidos")
        return cmd.Surprise(take_names(fight, rest))
    if keyword == "estado":
        return _parse_condition(fight, rest)
    if keyword == "nota":
        return _parse_note(fight, rest)
    if keyword in ("revelar", "ocultar"):
        combatant, rest = take_name(fight, rest)
        no_more(rest, USAGE[keyword])
        return cmd.Reveal(combatant.name, keyword == "revelar")
    if keyword == "fatiga-cc":
        if len(rest) != 1 or fold(rest[0]) not in SWITCH:
            raise Refusal(f"Se usa «{USAGE['fatiga-cc']}»")
        return cmd.MeleeFatigue(SWITCH[fold(rest[0])])
    if keyword == "dano":
        return _parse_damage(fight, rest)
    if keyword == "cambiar":
        first, rest = take_name(fight, rest)
        second, rest = take_name(fight, rest)
        no_more(rest, USAGE["cambiar"])
        return cmd.Swap(first.name, second.name)
    if keyword == "blancos":
        return cmd.Targets(*_name_and_number(fight, rest, "blancos", "Blancos adicionales"))
    if keyword == "rapida":
        if len(rest) != 1 or fold(rest[0]) not in SWITCH:
            raise Refusal(f"Se usa «{USAGE['rapida']}»")
        return cmd.Quick(SWITCH[fold(rest[0])])
    if keyword == "nombre":
        if not rest:
            raise Refusal("«nombre» necesita el nombre del combate")
        return cmd.Rename(check_text(" ".join(rest), "el nombre del combate", empty=False))
    if keyword == "curar":
        return _parse_heal(fight, rest)
    if keyword == "bono":
        return _parse_bonus(fight, rest)
    if keyword == "duelo":
        return _parse_duel(fight, rest)
    if keyword == "monta":
        rider, rest = take_name(fight, rest)
        if not rest:
            raise Refusal(f"Falta la montura: se usa «{USAGE['monta']}»")
        mount, rest = take_name(fight, rest)
        no_more(rest, USAGE["monta"])
        return cmd.Mount(rider.name, mount.name)
    if keyword == "desmonta":
        rider, rest = take_name(fight, rest)
        no_more(rest, USAGE["desmonta"])
        return cmd.Dismount(rider.name)
    raise AssertionError(keyword)  # pragma: no cover - every keyword is handled above


def shared_command(keyword: str, fight: Fight, rest: list[str]) -> cmd.Command | None:
    """The other rulesets' lines that are the same in all of them (`baja`, `cambiar`,
    `nombre`, `nota`, `revelar`, `ocultar`: CdB's commands), or None for any other
    keyword.  CdB's own parser reads these itself (its `nota` takes `turnos=`)."""
    if keyword == "baja":
        c, rest = take_name(fight, rest)
        no_more(rest, "baja NOMBRE")
        return cmd.Remove(c.name)
    if keyword == "cambiar":
        a, rest = take_name(fight, rest)
        b, rest = take_name(fight, rest)
        no_more(rest, "cambiar A B")
        return cmd.Swap(a.name, b.name)
    if keyword == "nombre":
        if not rest:
            raise Refusal("«nombre» necesita el nombre del combate")
        return cmd.Rename(check_text(" ".join(rest), "el nombre del combate", empty=False))
    if keyword == "nota":
        return _parse_note(fight, rest)
    if keyword in ("revelar", "ocultar"):
        c, rest = take_name(fight, rest)
        no_more(rest, f"{keyword} NOMBRE")
        return cmd.Reveal(c.name, keyword == "revelar")
    return None


def _name_and_number(fight: Fight, tokens: list[str], keyword: str, what: str) -> tuple[str, int]:
    return name_then_number(fight, tokens, USAGE[keyword], what)


def _parse_add(tokens: list[str]) -> cmd.Add:
    name_parts: list[str] = []
    while tokens and "=" not in tokens[0] and fold(tokens[0]) not in ADD_FLAGS:
        name_parts.append(tokens.pop(0))
    name = " ".join(name_parts).strip()
    if not name:
        raise Refusal(f"Falta el nombre: se usa «{USAGE['alta']}»")
    name = check_name(name)
    values: dict = {}
    for token in tokens:
        if fold(token) in ADD_FLAGS:
            values[ADD_FLAGS[fold(token)]] = True
            continue
        key, sep, value = token.partition("=")
        canonical = ADD_KEYS.get(fold(key))
        if not sep or canonical is None:
            raise Refusal(f"No entiendo «{token}»: se usa «{USAGE['alta']}»")
        if canonical in values:
            raise Refusal(f"«{key}» aparece dos veces")
        values[canonical] = value
    if "ac" not in values:
        raise Refusal(f"Falta ac=N (las AC por turno de {name})")
    side = values.get("bando", "pnj")
    side = SIDES.get(fold(side), side.strip())
    side = check_text(side, "el bando", limit=40)
    if not side:
        raise Refusal("bando= necesita pj, pnj o el nombre de una facción")
    talents = tuple(slug(t) for t in values.get("talentos", "").split(",") if slug(t))
    unknown = [t for t in talents if t not in TALENTS]
    if unknown:
        raise Refusal(f"Talento desconocido «{unknown[0]}»: conozco {', '.join(TALENTS)}")
    wounds = None
    if "vida" in values:
        wounds = tuple(number(n, "vida") for n in values["vida"].split(","))
    members = number(values["miembros"], "miembros") if "miembros" in values else 0
    toughness = number(values["aguante"], "aguante") if "aguante" in values else 1
    copies = number(values["copias"], "copias") if "copias" in values else 0
    if "copias" in values and copies < 2:  # 0 would read as "no copias" further on
        raise Refusal(f"copias= entre 2 y 50 (pedido: {copies}); para uno solo, quita copias=")
    return cmd.Add(
        name=name,
        ac=number(values["ac"], "ac"),
        ini=number(values.get("ini", "0"), "ini"),
        agi=number(values.get("agi", "0"), "agi"),
        ate=number(values.get("ate", "0"), "ate"),
        skill=number(values.get("hab", "0"), "hab"),
        mov=number(values.get("mov", "0"), "mov"),
        side=side,
        hidden=values.get("oculto", False),
        private=values.get("privado", False),
        talents=talents,
        start=number(values["momento"], "momento") if "momento" in values else None,
        wounds=wounds,
        members=members,
        toughness=toughness,
        copies=copies,
    )


#: The key of a duration (`turnos=N`: until the end of the N-th turn, RULES.md §5).
TURNS_KEYS = ("turnos", "turns")


def _take_turns(tokens: list[str]) -> tuple[list[str], int | None]:
    """`tokens` without a trailing `turnos=N`, and N (None if there is none)."""
    if not tokens:
        return tokens, None
    key, sep, value = tokens[-1].partition("=")
    if not sep or fold(key) not in TURNS_KEYS:
        return tokens, None
    turns = number(value, "Turnos")
    if not 1 <= turns <= MOST_TURNS:
        raise Refusal(f"turnos= entre 1 y {MOST_TURNS} (pedido: {turns}): turnos=1 acaba al final de este turno")
    return tokens[:-1], turns


def _parse_condition(fight: Fight, tokens: list[str]) -> cmd.Condition:
    tokens, turns = _take_turns(tokens)
    if len(tokens) < 2 or tokens[-1][:1] not in "+-−" or len(tokens[-1]) < 2:
        raise Refusal(f"Se usa «{USAGE['estado']}»")
    combatant, tail = take_name(fight, tokens[:-1])
    no_more(tail, USAGE["estado"])
    sign, word = tokens[-1][0], tokens[-1][1:]
    if not slug(word):
        raise Refusal(f"Se usa «{USAGE['estado']}»")
    if turns is not None and sign != "+":
        raise Refusal(f"turnos= va con un estado que se añade («+ESTADO»): se usa «{USAGE['estado']}»")
    condition = CONDITION_ALIASES.get(slug(word), slug(word))
    return cmd.Condition(combatant.name, condition, sign == "+", turns)


def _parse_note(fight: Fight, tokens: list[str]) -> cmd.Note:
    """`nota NOMBRE TEXTO [turnos=N]` or `nota NOMBRE -`: the name is the longest
    match at the start (exact, or word prefixes), the rest is the note."""
    tokens, turns = _take_turns(tokens)
    combatant, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"Falta el texto de la nota: se usa «{USAGE['nota']}»")
    if rest == ["-"] or rest == ["−"]:
        if turns is not None:
            raise Refusal("«nota NOMBRE -» borra sus notas: no lleva turnos=")
        return cmd.Note(combatant.name, None)
    text = check_text(" ".join(rest), "la nota", empty=False)
    return cmd.Note(combatant.name, text, turns)


def _parse_damage(fight: Fight, tokens: list[str]) -> cmd.Damage:
    combatant, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"Falta el daño: se usa «{USAGE['dano']}»")
    amount = number(rest[0], "Daño")
    rd, fatigue, shots = 0, False, None
    for token in rest[1:]:
        key, sep, value = token.partition("=")
        if sep and fold(key) == "rd":
            rd = number(value, "RD")
        elif sep and fold(key) in ("balas", "shots"):
            shots = number(value, "Balas")
        elif not sep and fold(token) in ("fatiga", "fatigue"):
            fatigue = True
        else:
            raise Refusal(f"No entiendo «{token}»: se usa «{USAGE['dano']}»")
    return cmd.Damage(combatant.name, amount, rd, fatigue, shots)


def _parse_heal(fight: Fight, tokens: list[str]) -> cmd.Heal:
    combatant, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"Falta cuántas casillas: se usa «{USAGE['curar']}»")
    amount = number(rest[0], "Casillas")
    fatigue = False
    for token in rest[1:]:
        if fold(token) in ("fatiga", "fatigue") and not fatigue:
            fatigue = True
        else:
            raise Refusal(f"No entiendo «{token}»: se usa «{USAGE['curar']}»")
    return cmd.Heal(combatant.name, amount, fatigue)


def _parse_bonus(fight: Fight, tokens: list[str]) -> cmd.Bonus:
    leader, rest = take_name(fight, tokens)
    if rest and fold(rest[0]) in TARGET_WORDS and len(rest) > 1:
        rest = rest[1:]
    if not rest:
        raise Refusal(f"Falta a quién: se usa «{USAGE['bono']}»")
    target, rest = take_name(fight, rest)
    no_more(rest, USAGE["bono"])
    return cmd.Bonus(leader.name, target.name)


def _parse_duel(fight: Fight, tokens: list[str]) -> cmd.Duel:
    first, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"Un duelo es entre dos: se usa «{USAGE['duelo']}»")
    second, rest = take_name(fight, rest)
    if not rest:
        return cmd.Duel(first.name, second.name)
    who, plus, degree = " ".join(rest).rpartition("+")
    if not plus or not who.strip():
        raise Refusal(f"No entiendo «{' '.join(rest)}»: se usa «{USAGE['duelo']}»")
    if not degree.strip().isdigit():
        raise Refusal(f"El Grado de Éxito del duelo va como «NOMBRE+N», con N ≥ 0 (no «{degree}»)")
    value = number(degree.strip(), "Grado de Éxito")
    winner, _ = take_name(fight, [who.strip()])
    if winner.key not in (first.key, second.key):
        raise Refusal(f"{winner.name} no está en este duelo: el Grado de Éxito es de {first.name} o de {second.name}")
    if value == 0:
        return cmd.Duel(first.name, second.name)
    return cmd.Duel(first.name, second.name, winner.name, value)


#: The key of Liderazgo's degree of success (`NAME liderazgo gde=N`): a bare number
#: after a fixed-cost maneuver stays a cost error.
DEGREE_KEYS = ("gde", "degree")


def _parse_action(fight: Fight, name: str, tokens: list[str]) -> cmd.Perform:
    """`MANIOBRA [N] [gde=N] [a BLANCO]` or `gasta N [TEXTO]` after a name."""
    if not tokens:
        raise Refusal(f"¿Qué hace {name}? Escribe una maniobra o «gasta N»")
    head = fold(tokens[0])
    if ACTIONS.get(head) == "gasta":
        if len(tokens) < 2:
            raise Refusal(f"Se usa «{name} gasta N [texto]»")
        text = check_text(" ".join(tokens[2:]), "el texto de la acción")
        return cmd.Perform(name, None, number(tokens[1], "AC"), text)
    book = catalog_for(fight)
    maneuver = book.lookup(tokens[0])
    if maneuver is None:
        close = difflib.get_close_matches(fold(tokens[0]), [m.id for m in book.maneuvers], n=1)
        raise Refusal(f"No conozco la maniobra «{tokens[0]}»" + (f": ¿{close[0]}?" if close else ""))
    usage = f"{name} {maneuver.id} [N] [a BLANCO]"
    rest = tokens[1:]
    amount = degree = None
    if rest and fold(rest[0]) not in TARGET_WORDS and "=" not in rest[0]:
        amount = number(rest[0], maneuver.name)
        rest = rest[1:]
    if rest and "=" in rest[0]:
        key, _, value = rest[0].partition("=")
        if fold(key) not in DEGREE_KEYS:
            raise Refusal(f"No entiendo «{rest[0]}»: se usa «{usage}» (Liderazgo: «gde=N»)")
        degree = number(value, "Grado de Éxito")
        rest = rest[1:]
    target = None
    if rest:
        if fold(rest[0]) not in TARGET_WORDS:
            no_more(rest, usage)
        if len(rest) < 2:
            raise Refusal(f"Falta el blanco: se usa «{name} {maneuver.id} [N] a BLANCO»")
        combatant, tail = take_name(fight, rest[1:])
        no_more(tail, usage)
        target = combatant.name
    return cmd.Perform(name, maneuver.id, amount, target=target, degree=degree)


def _parse_combatant_line(fight: Fight, tokens: list[str]) -> cmd.Command:
    combatant, rest = take_name(fight, tokens)
    name = combatant.name
    if not rest:
        raise Refusal(f"¿Qué hace {name}? Escribe una maniobra o «gasta N»")
    action = ACTIONS.get(fold(rest[0]))
    if action in ("retrasa", "actua", "fin"):
        no_more(rest[1:], f"{name} {action}")
        return {"retrasa": cmd.Hold, "actua": cmd.Act, "fin": cmd.Done}[action](name)
    if action == "espera":
        return cmd.Wait(name, check_text(" ".join(rest[1:]), "lo que espera"))
    if action == "interrumpe":
        tail = rest[1:]
        now = bool(tail) and fold(tail[-1]) in cmd.NOW_WORDS
        return cmd.Trigger(_parse_action(fight, name, tail[:-1] if now else tail), now)
    return _parse_action(fight, name, rest)
