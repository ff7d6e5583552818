"""The one set of limits on what a fight may hold, shared by the engine and the loader.

Whatever a command is allowed to put into a fight, a save must be able to load
again, so both sides use these definitions: `rules.apply` checks every state it
makes (`check_state`) and the command line normalises and checks what is typed
(`clean_line`, `check_name`, `check_text`); `codec` and `store` check a file
against the same bounds and the same text rules when they read it.

Text, per character class (Unicode general categories):

- typed by accident, normalised: any space separator (no-break space, thin space,
  ideographic space…) and the tab become a plain space; invisible characters that
  keyboards and copy-paste insert (zero-width space and joiners, word joiner,
  soft hyphen, byte-order mark) are removed; the text is put in NFC form (an
  accent typed as a combining mark and a precomposed one are the same name);
- refused, naming the character: control characters (newline, ESC…), direction
  controls (U+202E and friends: they reorder what a terminal shows), other format
  characters, private-use, unassigned and surrogate code points, line and
  paragraph separators.
"""

from __future__ import annotations

import typing
import unicodedata

import attrs

from .errors import Refusal

# ---------------------------------------------------------------- numbers

#: Start moments as typed or rolled (1d6+INI).
START = (-999, 999)
#: Where the countdown, markers and ticks may go: never above the highest start,
#: but far below the lowest (spending from a low start, `siguiente` stepping down
#: through negative moments).
MOMENT = (-9_999, 999)
STAT = (-99, 99)

#: Bounds of every integer field of the model, by field name.  The loader refuses a
#: value outside them as absurd; the engine refuses a command that would make one.
BOUNDS: dict[str, tuple[int, int]] = {
    "ac_per_turn": (0, 99),
    "ac": (-99, 99),
    "ini": STAT,
    "agi": STAT,
    "ate": STAT,
    "skill": STAT,
    "mov": STAT,
    "start": START,
    "marker": MOMENT,
    "moment": MOMENT,
    "begin": MOMENT,
    "turn": (0, 99_999),
    "attacks": (0, 999),
    "extra_targets": (0, 99),
    "aim": (-99, 99),
    "remaining": (0, 99),
    "boxes": (0, 99),
    "marked": (0, 999),
    "cleared": (0, 999),
    "block_penalty": (-99, 99),
    "leadership": (0, 999),
    "lead_bonus": (-99, 99),
    "members": (0, 9_999),
    "toughness": (0, 99),
    "degree": (-999, 999),
    "seed": (0, 2**63 - 1),
    "rolls": (0, 2**63 - 1),
    "clock": (0, 2**63 - 1),
    "arrival": (0, 2**63 - 1),
    "log": (0, 2**63 - 1),
    "until": (0, 200_000),
}
DEFAULT_BOUNDS = (-1_000_000, 1_000_000)

#: How the DJ calls each bounded field, for refusals.
FIELD_ES = {
    "ac_per_turn": "AC por turno", "ac": "AC", "ini": "INI", "agi": "Agilidad",
    "ate": "Atención", "skill": "Habilidad", "mov": "Movimiento",
    "start": "momento inicial", "marker": "marcador", "moment": "momento",
    "begin": "momento", "turn": "turno", "attacks": "ataques",
    "extra_targets": "blancos adicionales", "aim": "Apuntar", "boxes": "casillas",
    "marked": "casillas marcadas", "members": "miembros", "toughness": "aguante",
}

# ---------------------------------------------------------------- text

#: Longest combatant name, and longest other text (sides, free texts, fight name).
NAME_LENGTH = 60
#: The longest duration one may give (`turnos=N`, RULES.md §5), in turns.
MOST_TURNS = 99
TEXT_LENGTH = 200

#: Invisible characters a keyboard or a paste slips in: removed.
_DROPPED = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff\u180e"), None)
#: Tab and every space separator but the plain space: a plain space.
_SPACES = dict.fromkeys(
    map(ord, "\t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
             "\u2009\u200a\u202f\u205f\u3000"),
    " ",
)
_NORMALISE = {**_DROPPED, **_SPACES}
_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_KIND_ES = {
    "Cc": "un carácter de control",
    "Cf": "un carácter invisible de formato",
    "Cs": "un carácter no válido (suplente suelto)",
    "Co": "un carácter de uso privado",
    "Cn": "un carácter sin asignar en Unicode",
    "Zl": "un separador de línea",
    "Zp": "un separador de párrafo",
}
_CONTROL_NAMES = {"\n": "salto de línea", "\r": "retorno de carro", "\x1b": "ESC", "\x07": "BEL",
                  "\x00": "NUL", "\x7f": "DEL"}


def normalise(text: str) -> str:
    """`text` with accidental characters fixed: odd spaces → space, invisible ones
    dropped, NFC.  Nothing is refused here (see `problem`)."""
    if text.isascii() and text.isprintable():
        return text
    return unicodedata.normalize("NFC", text.translate(_NORMALISE))


def shown(text: str) -> str:
    """`text` for a one-line message: characters that could not be shown escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else f"\\u{ord(ch):04x}" for ch in text)


def problem(text: str) -> str | None:
    """Why `text` (already normalised) can't be kept, or None: names the first bad
    character in Spanish, with its code point."""
    if text.isprintable():
        return None
    for ch in text:
        if ch.isprintable():
            continue
        category = unicodedata.category(ch)
        if category == "Zs" and ch == " ":
            continue
        if ch in _DIRECTION:
            kind = "un control de dirección del texto"
        else:
            kind = _KIND_ES.get(category, "un carácter que no se puede mostrar")
        label = _CONTROL_NAMES.get(ch)
        code = f"U+{ord(ch):04X}" + (f", {label}" if label else "")
        return f"lleva {kind} ({code})"
    return None


def check_text(text: str, what: str, *, limit: int = TEXT_LENGTH, empty: bool = True) -> str:
    """`text` normalised, or `Refusal` saying which character or length is wrong."""
    text = normalise(text)
    if not empty and not text.strip():
        raise Refusal(f"{what.capitalize()} está vacío")
    trouble = problem(text)
    if trouble is not None:
        raise Refusal(f"{what.capitalize()} «{shown(text)}» {trouble}: no se admite")
    if len(text) > limit:
        raise Refusal(f"{what.capitalize()} es demasiado largo ({len(text)} caracteres;"
                      f" como mucho {limit})")
    return text


def check_name(name: str) -> str:
    """A combatant's name normalised (spaces collapsed), or `Refusal`."""
    name = " ".join(normalise(name).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    return check_text(name, "el nombre", limit=NAME_LENGTH, empty=False)


def name_problem(name: str) -> str | None:
    """What the loader says of a name no version of the engine would have accepted,
    or None.  (Lenient on length and repeated spaces, which older versions took.)"""
    if not name.strip():
        return "está vacío"
    return problem(name)


def text_problem(text: str, limit: int = TEXT_LENGTH) -> str | None:
    """What the loader says of a free text the engine would not have accepted."""
    trouble = problem(text)
    if trouble is not None:
        return trouble
    if len(text) > limit:
        return f"es demasiado largo (como mucho {limit} caracteres)"
    return None


# ---------------------------------------------------------------- states


_CHECKERS: dict[type, object] = {}
#: A field holding one of several attrs classes (see `_checker`).
_ANY = object()


def _by_type(value: object):
    return _checker(type(value))(value)


def _checker(cls: type):
    """A function `check(obj) -> None | (field, value, low, high) | (field, text)`
    for attrs class `cls`, generated once: bounded integers compared inline, texts
    checked printable, attrs children (and tuples of them) checked in turn.  This is
    on the path of every command (a new turn changes every combatant), so it is
    compiled rather than interpreted field by field."""
    checker = _CHECKERS.get(cls)
    if checker is not None:
        return checker
    attrs.resolve_types(cls)
    body = ["def check(o, p=None):"]
    children: dict[str, type] = {}
    for f in attrs.fields(cls):
        kind, text, name = f.type, str(f.type), f.name
        block: list[str] = []
        if kind is int or text == "int | None":
            low, high = BOUNDS.get(name, DEFAULT_BOUNDS)
            block.append(f"v = o.{name}")
            test = f"not {low} <= v <= {high}"
            block.append(f"if {'v is not None and ' if kind is not int else ''}{test}:")
            block.append(f"    return ({name!r}, v, {low}, {high})")
        elif kind is str or text == "str | None":
            block.append(f"v = o.{name}")
            block.append(f"if {'v is not None and ' if kind is not str else ''}not v.isprintable():")
            block.append(f"    return ({name!r}, v)")
        elif text == "tuple[str, ...]":
            block.append(f"for v in o.{name}:")
            block.append("    if not v.isprintable():")
            block.append(f"        return ({name!r}, v)")
        else:
            inner = typing.get_args(kind)
            found = [t for t in (kind, *inner) if isinstance(t, type) and attrs.has(t)]
            if not found:
                continue
            # Several attrs classes (a ruleset's sheet): the value's own class decides.
            children[name] = found[0] if len(found) == 1 else _ANY
            many = typing.get_origin(kind) is tuple
            block.append(f"for v in o.{name}:" if many else f"v = o.{name}")
            pad = "    " if many else ""
            if not many:
                block.append("if v is not None:")
                pad = "    "
            block.append(f"{pad}found = _{name}(v)")
            block.append(f"{pad}if found is not None:")
            block.append(f"{pad}    return found")
        # Against `p`, the same combatant before the command: what it still shares
        # with it was checked then (a new turn copies 200 combatants, changing few fields).
        body.append(f"    if p is None or o.{name} is not p.{name}:")
        body.extend("        " + line for line in block)
    body.append("    return None")
    scope: dict[str, object] = {f"_{name}": _by_type if child is _ANY else _checker(child)
                                for name, child in children.items()}
    exec("\n".join(body), scope)  # noqa: S102 - generated from attrs fields, no input
    checker = _CHECKERS[cls] = scope["check"]
    return checker


def _check_value(obj: object, who: str, before: object | None = None) -> None:
    found = _checker(type(obj))(obj, before)
    if found is None:
        return
    if len(found) == 4:
        name, value, low, high = found
        raise Refusal(f"{who}: {FIELD_ES.get(name, name)} {value} fuera de los límites"
                      f" ({low} a {high})")
    raise Refusal(f"{who}: el texto «{shown(found[1])}» {problem(found[1])}")


#: The renewal vouched for (`vouch`): (the roster renewed, the renewed roster), for
#: the next `check_state` only (it empties it).
_RENEWAL: list[tuple[tuple, tuple]] = []


def vouch(sources: tuple, renewed: tuple) -> None:
    """Tell the next `check_state` that each combatant of `renewed` that is not the
    one at the same place in `sources` is a copy of it whose other fields the
    copier set to values within every bound whatever the source holds (a new
    turn's reset, turn.py): where the source is the combatant the state before the
    command had at that place (so it was checked), the copy needs no look.  Anyone
    else is checked."""
    _RENEWAL[:] = [(sources, renewed)]


#: The fight's own numbers (its combatants are checked one by one).
_FIGHT_INTS = ("seed", "rolls", "turn", "moment", "clock")


def check_state(after: object, before: object | None = None) -> None:
    """`Refusal` if `after` (a `Fight`) holds a value a save could not load (see
    `_check_state`); what was vouched for is for this check only, refused or not."""
    try:
        _check_state(after, before)
    finally:
        _RENEWAL.clear()


def _check_state(after: object, before: object | None) -> None:
    """`Refusal` if `after` (a `Fight`) holds a value a save could not load.

    Only what changed since `before` is looked at: combatants are immutable, so the
    ones a command left alone are the same objects and need no second look, and of
    one that changed only the fields that are not the same objects as before; a
    copy vouched for (`vouch`: a new turn's renewal of a combatant `before` had)
    needs none either.
    """
    for name in _FIGHT_INTS:
        value = getattr(after, name)
        low, high = BOUNDS.get(name, DEFAULT_BOUNDS)
        if value is not None and not low <= value <= high:
            raise Refusal(f"El combate: {FIELD_ES.get(name, name)} {value} fuera de los"
                          f" límites ({low} a {high})")
    name = getattr(after, "name")
    if before is None or name != getattr(before, "name"):
        trouble = text_problem(name, TEXT_LENGTH)
        if trouble is not None:
            raise Refusal(f"El nombre del combate «{shown(name)}» {trouble}")
    prev = getattr(before, "combatants", ())
    now = getattr(after, "combatants")
    if prev is not now:
        find = getattr(before, "find", None)
        if len(prev) == len(now):  # the usual case: the same names in the same order
            pairs = zip(prev, now)
            renewal = _RENEWAL[0] if _RENEWAL else None
            if renewal is not None and len(renewal[0]) == len(now) == len(renewal[1]):
                # A copy vouched for, made from the combatant checked before: nothing
                # to look at (its source at its place is `was`, the same name).
                pairs = ((was, c) for was, c, source, fresh in zip(prev, now, *renewal)
                         if was is not c and not (c is fresh and source is was))
            old = None
        else:
            pairs = ((None, c) for c in now)
            old = {id(c) for c in prev}
        for was, combatant in pairs:
            if was is combatant:
                continue
            if was is None or was.name != combatant.name:
                if old is not None and id(combatant) in old:
                    continue
                was = find(combatant.name) if find is not None else None
            # The same combatant before the command: the values it still shares with
            # it (the same objects) were checked when they were made.
            _check_value(combatant, combatant.name if combatant.name.isprintable()
                         else shown(combatant.name), was)
    before_log = len(getattr(before, "log", ()))
    log = getattr(after, "log")
    for entry in log[before_log:] if len(log) >= before_log else log:
        if not entry.text.isprintable():
            raise Refusal(f"El registro no admite «{shown(entry.text)}»: {problem(entry.text)}")
