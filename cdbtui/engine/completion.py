"""Completion of a command line being typed: keywords, names, maneuver ids, talents,
conditions and the options of each command.

Part of the command language (the parser's vocabulary), so it lives with it: the
TUI's `:` line only shows what this proposes.  The typed text is scanned the way the
parser's `tokenize` splits it (shlex, typographic quotes as quotes), so completion
knows whether the cursor is inside a quoted name; a name of several words completes
to the whole name, quoted (`commands.quote`), replacing what was typed of it
(«la» → `"La Viuda Negra"`); after a complete name comes what may follow it (verbs,
maneuver ids), never another name's words.

`candidates` says what the last word may become; `tab` is what Tab does with them:
one candidate completes, several are listed (the line only grows by what all of them
share) and none is chosen.
"""

from __future__ import annotations

from importlib import import_module

from attrs import frozen

from .catalog import TALENT_ES, Maneuver, catalog_for
from .commands import ACTIONS, KEYWORDS, NOW_WORDS, TARGET_WORDS, quote
from .conditions import known_conditions
from .errors import Refusal
from .model import Combatant, Fight
from .parser import take_name, words_match
from .spending import BLOCKS
from .text import fold

#: Typographic quotes the parser reads as `"` (`parser.tokenize`).
_QUOTES = {"«": '"', "»": '"', "“": '"', "”": '"', "„": '"', '"': '"', "'": "'"}

#: C-System's `alta` words (SYSTEMS.md §2.2).

def _ruleset(module: str):
    """A module of another ruleset (`csystem.parser`, `narrador.tables`…), imported
    on first use: completing a CdB line loads none of them (start-up time)."""
    return import_module(f"{__package__}.{module}")


CS_ADD_WORDS = ("nh=", "des=", "ale=", "per=", "con=", "vol=", "fue=", "vel=", "pv=", "aplomo=", "energia=",
                "bdef=", "escudo=", "rd=", "ini=", "bando=", "rasgos=", "oculto", "privado")
#: `alta`'s keys (Spanish spelling, with the `=`) and flags, in the order of its usage.
ADD_KEYS = ("ac=", "ini=", "agi=", "ate=", "hab=", "mov=", "bando=", "talentos=", "vida=",
            "momento=", "miembros=", "aguante=", "copias=")
ADD_FLAGS = ("oculto", "privado")
SIDES = ("pj", "pnj")
#: The verbs after a name (canonical spellings; `ACTIONS` has the English ones too).
VERBS = ("gasta", "retrasa", "actua", "espera", "interrumpe", "fin")
DAMAGE_OPTIONS = ("rd=", "balas=", "fatiga")
TURNS = "turnos="
DEGREE = "gde="
SWITCHES = ("si", "no")
#: Keywords after which nothing is completed (their arguments are free text or numbers).
_FREE = frozenset({"empezar", "siguiente", "turno", "deshacer", "rehacer", "descanso",
                   "casa", "nombre"})


@frozen
class Token:
    """A word of the typed line: its value as the parser will see it, where it starts
    in the text, whether it was (partly) quoted and whether a quote is still open."""

    value: str
    start: int
    quoted: bool = False
    open: bool = False


@frozen
class Candidate:
    """One way to finish the line: `text` replaces the typed text from `start` on
    (a name of several words replaces all its typed words); `label` is what the
    list of candidates shows; accepting it adds a space unless `space` is false
    (`ac=` waits for its value)."""

    start: int
    text: str
    label: str
    space: bool = True

    def line(self, typed: str) -> str:
        return typed[:self.start] + self.text


@frozen
class TabResult:
    """What Tab does: `value` is the new text of the line (None: unchanged) and
    `shown` the candidates to list when there are several (nothing was chosen)."""

    value: str | None
    shown: tuple[str, ...] = ()


def scan(text: str) -> tuple[list[Token], Token]:
    """The finished words of `text` and the word being typed (empty after a space),
    split as `parser.tokenize` would (shlex in POSIX mode)."""
    done: list[Token] = []
    value: list[str] = []
    start: int | None = None
    quote_char: str | None = None
    quoted = False
    i = 0
    while i < len(text):
        ch = text[i]
        mapped = _QUOTES.get(ch)
        if quote_char is not None:
            if mapped == quote_char:
                quote_char = None
            elif ch == "\\" and quote_char == '"' and i + 1 == len(text):
                pass  # an escape begun: of what comes next
            elif ch == "\\" and quote_char == '"' and text[i + 1] in '"\\':
                value.append(text[i + 1])
                i += 1
            else:
                value.append(ch)
        elif ch.isspace():
            if start is not None:
                done.append(Token("".join(value), start, quoted))
                value, start, quoted = [], None, False
        else:
            if start is None:
                start = i
            if mapped is not None:
                quote_char, quoted = mapped, True
            elif ch == "\\":
                value.append(text[i + 1:i + 2])  # nothing yet at the end of the text
                i += 1
            else:
                value.append(ch)
        i += 1
    if start is None:
        return done, Token("", len(text))
    return done, Token("".join(value), start, quoted, quote_char is not None)


# ---------------------------------------------------------------- what may come next


@frozen
class _State:
    """What the word being typed may be: `kinds` (see `_offer`), whom the line is
    about, and where a name being typed began (`name_from`: the index of its first
    word, when the word being typed may still continue it)."""

    kinds: tuple[str, ...]
    who: Combatant | None = None
    maneuver: Maneuver | None = None
    name_from: int | None = None
    interrupt: bool = False
    #: The words from `name_from` name nobody yet: the word being typed continues them.
    unfinished: bool = False


_NOTHING = _State(())


def _name_at(fight: Fight, done: list[Token], i: int) -> tuple[Combatant, int] | None:
    """The combatant named from word `i` on and the index after its name (the parser's
    `take_name`), or None when those words name nobody yet (an unfinished name)."""
    try:
        c, rest = take_name(fight, [t.value for t in done[i:]])
    except Refusal:
        return None
    return c, len(done) - len(rest)


def _continues(done: list[Token], i: int) -> int | None:
    """`i` if the words from `i` on were typed bare (a bare name may go on: «la viu»)."""
    return i if not any(t.quoted for t in done[i:]) else None


def _names_then(fight: Fight, done: list[Token], i: int, after, *, many: bool = False) -> _State:
    """A name from word `i`; `after(c, j)` says what follows it (j: the next word).
    With `many`, names follow one another (`tirar A B`, `sorpresa A B`)."""
    while True:
        if i == len(done):
            return _State(("name",))
        found = _name_at(fight, done, i)
        if found is None:
            return _State(("name",), name_from=_continues(done, i), unfinished=True)
        c, j = found
        if j == len(done):
            state = _State(("name",)) if many else after(c, j)
            return _State(state.kinds, state.who, state.maneuver, _continues(done, i),
                          state.interrupt, state.unfinished)
        if not many:
            state = after(c, j)
            if not state.kinds:  # nothing follows that name: the words may go on a
                # longer one ("orco numero 2": Orco, then Orco número 23)
                return _State(("name",), name_from=_continues(done, i), unfinished=True)
            return state
        i = j


def _after_maneuver(fight: Fight, c: Combatant, done: list[Token], j: int, interrupt: bool) -> _State:
    """`NAME [interrumpe] MANIOBRA` from word `j`: [N] [gde=N] [a BLANCO] [ahora]."""
    if j == len(done):
        return _State(("maneuver",), c, interrupt=interrupt)
    try:
        m = catalog_for(fight).lookup(done[j].value)
    except Refusal:
        return _NOTHING
    if m is None:
        return _NOTHING
    rest = done[j + 1:]
    k = 0
    if k < len(rest) and rest[k].value.lstrip("-").isdigit():
        k += 1  # the amount
    if k < len(rest) and "=" in rest[k].value:
        k += 1  # gde=N
    if k == len(rest):
        return _State(("after-maneuver",), c, m, interrupt=interrupt)
    if fold(rest[k].value) in TARGET_WORDS:
        def after_target(target: Combatant, _: int) -> _State:
            return _State(("now",) if interrupt else (), c)
        state = _names_then(fight, done, j + 1 + k + 1, after_target)
        kinds = tuple("target" if kind == "name" else kind for kind in state.kinds)
        return _State(kinds, c, m, state.name_from, interrupt, state.unfinished)
    return _NOTHING


def _after_name(fight: Fight, done: list[Token], c: Combatant, j: int) -> _State:
    """What follows a combatant's name at the start of a line."""
    if j == len(done):
        return _State(("verb", "maneuver"), c)
    action = ACTIONS.get(fold(done[j].value))
    if action == "interrumpe":
        return _after_maneuver(fight, c, done, j + 1, True)
    if action is not None:
        return _NOTHING  # numbers and free text
    return _after_maneuver(fight, c, done, j, False)


def _cs_after_name(fight: Fight, done: list[Token], c: Combatant, j: int) -> _State:
    """C-System: what follows a name (an action id or a verb), then a target."""
    if j == len(done):
        return _State(("verb", "maneuver"), c)
    word = fold(done[j].value)
    verbs = _ruleset("csystem.parser").ACTIONS
    if word in verbs:
        return _State(("target-word",), c) if verbs[word] == "retrasa" and j + 1 == len(done) else _NOTHING
    try:
        action = _ruleset("csystem.tables").find_action(word)
    except Refusal:
        return _NOTHING
    if action is None:
        return _NOTHING
    rest = done[j + 1:]
    if action.id in ("atacar", "primeros-auxilios", "golpe-de-gracia", "sacudir") and not any(fold(t.value) in TARGET_WORDS for t in rest):
        state = _names_then(fight, done, j + 1, lambda target, _: _State(("attack-options",), c))
        kinds = tuple("target" if kind == "name" else kind for kind in state.kinds)
        return _State(kinds, c, None, state.name_from, False, state.unfinished)
    if not rest:
        return _State(("after-action",), c)
    if fold(rest[-1].value) in TARGET_WORDS or fold(rest[0].value) in TARGET_WORDS:
        def after_target(target: Combatant, _: int) -> _State:
            return _State(("attack-options",), c)
        at = next(i for i, t in enumerate(rest) if fold(t.value) in TARGET_WORDS)
        state = _names_then(fight, done, j + 2 + at, after_target)
        kinds = tuple("target" if kind == "name" else kind for kind in state.kinds)
        return _State(kinds, c, None, state.name_from, False, state.unfinished)
    return _State(("attack-options",), c)


def _state(fight: Fight, done: list[Token]) -> _State:
    if not done:
        return _State(("keyword", "name"))
    if fight.rules == "csystem":
        return _cs_state(fight, done)
    if fight.rules == "narrador":
        return _narr_state(fight, done)
    keyword = KEYWORDS.get(fold(done[0].value))
    n = len(done)
    if keyword is None:
        return _names_then(fight, done, 0, lambda c, j: _after_name(fight, done, c, j))
    if keyword in _FREE:
        return _NOTHING
    if keyword == "alta":
        return _State(("add",)) if n >= 2 else _NOTHING
    if keyword in ("baja", "revelar", "ocultar", "desmonta", "momento", "blancos"):
        return _names_then(fight, done, 1, lambda c, j: _NOTHING)
    if keyword in ("tirar", "sorpresa"):
        state = _names_then(fight, done, 1, lambda c, j: _NOTHING, many=True)
        if keyword == "tirar" and n == 1:
            return _State(("name", "together"))
        return state
    if keyword in ("cambiar", "monta", "duelo"):
        return _names_then(fight, done, 1, lambda c, j: _names_then(fight, done, j, lambda d, k: _NOTHING))
    if keyword == "bono":
        def companion(c: Combatant, j: int) -> _State:
            if j == n:
                return _State(("to", "other"), c)
            if fold(done[j].value) in TARGET_WORDS:
                if j + 1 == n:  # the companion being typed: never the leader itself
                    return _State(("other",), c)
                return _names_then(fight, done, j + 1, lambda d, k: _NOTHING)
            return _names_then(fight, done, j, lambda d, k: _NOTHING)
        return _names_then(fight, done, 1, companion)
    if keyword == "estado":
        def condition(c: Combatant, j: int) -> _State:
            if j == n:
                return _State(("condition",), c)
            if j == n - 1 and done[j].value[:1] == "+":
                return _State(("turns",), c)
            return _NOTHING
        return _names_then(fight, done, 1, condition)
    if keyword == "nota":
        return _names_then(fight, done, 1, lambda c, j: _State(("turns",), c) if j < n else _NOTHING)
    if keyword in ("dano", "curar"):
        kind = "damage" if keyword == "dano" else "heal"
        return _names_then(fight, done, 1, lambda c, j: _State((kind,), c) if j < n else _NOTHING)
    if keyword in ("fatiga-cc", "rapida"):
        return _State(("switch",)) if n == 1 else _NOTHING
    return _NOTHING


def _cs_state(fight: Fight, done: list[Token]) -> _State:
    """C-System's lines (SYSTEMS.md §2.2): the same shapes, its own words."""
    keyword = _ruleset("csystem.parser").KEYWORDS.get(fold(done[0].value))
    n = len(done)
    if keyword is None:
        return _names_then(fight, done, 0, lambda c, j: _cs_after_name(fight, done, c, j))
    if keyword in _FREE:
        return _NOTHING
    if keyword == "alta":
        return _State(("cs-add",)) if n >= 2 else _NOTHING
    if keyword in ("tirar", "sorpresa"):
        return _names_then(fight, done, 1, lambda c, j: _NOTHING, many=True)
    if keyword in ("cambiar", "orden"):
        return _names_then(fight, done, 1, lambda c, j: _names_then(fight, done, j, lambda d, k: _NOTHING)
                           if keyword == "cambiar" or j < n else _State(("order-word",), c))
    if keyword == "estado":
        return _names_then(fight, done, 1, lambda c, j: _State(("condition",), c) if j == n else _NOTHING)
    return _names_then(fight, done, 1, lambda c, j: _NOTHING)


def _narr_state(fight: Fight, done: list[Token]) -> _State:
    """The storyteller system's lines (SYSTEMS.md §3.2)."""
    keyword = _ruleset("narrador.parser").KEYWORDS.get(fold(done[0].value))
    n = len(done)
    if keyword is None:
        def after(c: Combatant, j: int) -> _State:
            if j == n:
                return _State(("narr-verb",), c)
            verb = _ruleset("narrador.parser").ACTIONS.get(fold(done[j].value))
            if verb in ("defiende", "aborta") and j + 1 == n:
                return _State(("narr-defense" if verb == "defiende" else "narr-abort",), c)
            if verb == "actua" and j + 1 == n:
                return _State(("narr-maneuver", "to"), c)
            if verb == "actua" and fold(done[-1].value) in TARGET_WORDS:
                return _State(("target",), c)
            return _NOTHING
        return _names_then(fight, done, 0, after)
    if keyword in _FREE:
        return _NOTHING
    if keyword == "declara":
        return _names_then(fight, done, 1, lambda c, j: _State(("narr-maneuver",), c))
    if keyword == "alta":
        return _State(("narr-add",)) if n >= 2 else _NOTHING
    if keyword == "estado":
        return _names_then(fight, done, 1, lambda c, j: _State(("narr-condition",), c) if j == n else _NOTHING)
    if keyword == "dano":
        return _names_then(fight, done, 1, lambda c, j: _State(("narr-damage",), c) if j + 1 == n else _NOTHING)
    if keyword in ("tirar",):
        return _names_then(fight, done, 1, lambda c, j: _NOTHING, many=True)
    return _names_then(fight, done, 1, lambda c, j: _NOTHING)


def _narr_offer(kind: str, at: int, key: str) -> list[Candidate]:
    if kind == "narr-verb":
        return _words(at, key, ("actua", "defiende", "aborta", "retrasa", "fin"))
    if kind == "narr-maneuver":
        ids = {m.id for m in _ruleset("narrador.tables").maneuvers().values()}
        return _words(at, key, sorted(ids | {"defensa-total", "retrasa"}))
    if kind == "narr-defense":
        return _words(at, key, ("esquiva", "bloqueo", "parada"))
    if kind == "narr-abort":
        return _words(at, key, ("tira", "gasta"))
    if kind == "narr-condition":
        known = _ruleset("narrador.tables").CONDITIONS
        return _words(at, key, [f"+{c}" for c in known] + [f"-{c}" for c in known])
    if kind == "narr-damage":
        return _words(at, key, ("letal", "contundente"))
    if kind == "narr-add":
        return _words(at, key, ("ini=", "des=", "ast=", "fv=", "res=", "fue=", "per=", "salud=", "rasgos=", "bando=",
                                "sobrenatural", "ambidiestro", "oculto", "privado"))
    return []


# ---------------------------------------------------------------- the candidates


def _matching_names(names, typed: str) -> list[str]:
    """The names whose consecutive words start with the typed words (the parser's
    `take_name`); every name when nothing is typed."""
    words = fold(typed).split()
    return [name for name in names if not words or words_match(tuple(fold(name).split()), words)]


def _spelled(spellings: dict[str, str], canonical, key: str) -> list[str]:
    """Each canonical word the typed `key` may become: itself when it starts with
    `key`, else another spelling of it that does («undo» → deshacer's «undo»)."""
    out = []
    for word in canonical:
        if word.startswith(key):
            out.append(word)
            continue
        other = next((s for s, c in spellings.items() if c == word and s.startswith(key)), None)
        if other is not None:
            out.append(other)
    return out


def _words(start: int, key: str, words, *, space: bool = True, prefix: str = "") -> list[Candidate]:
    return [Candidate(start, prefix + w, prefix + w, space and not w.endswith("="))
            for w in words if w.startswith(key)]


def _others(fight: Fight, c: Combatant | None, *, allies: bool = False) -> list[str]:
    """Everyone but `c`: the other side first (a target), or its own (`allies`: the
    companion of a leader's bonus)."""
    others = [x for x in fight.combatants if c is None or x.key != c.key]
    if c is None:
        return [x.name for x in others]
    first = [x.name for x in others if (x.side == c.side) == allies]
    return first + [x.name for x in others if x.name not in first]


def _offer(fight: Fight, done: list[Token], word: Token, state: _State) -> list[Candidate]:
    at, typed = word.start, word.value
    key = fold(typed)
    bare = not word.quoted
    out: list[Candidate] = []
    names = [c.name for c in fight.combatants]
    c = state.who
    cs_fight = fight.rules == "csystem"
    for kind in state.kinds:
        if kind.startswith("narr-"):
            out += _narr_offer(kind, at, key) if bare else []
            continue
        if kind == "keyword" and bare:
            spellings = (_ruleset("csystem.parser").KEYWORDS if cs_fight
                         else _ruleset("narrador.parser").KEYWORDS if fight.rules == "narrador" else KEYWORDS)
            canonical = sorted(set(spellings.values()))
            out += _words(at, key, _spelled(spellings, canonical, key))
        elif cs_fight and kind in _CS_KINDS:
            out += _cs_offer(fight, kind, c, at, key, typed)
        elif kind in ("name", "other", "target"):
            pool = names if kind == "name" else _others(fight, c, allies=kind == "other")
            out += [Candidate(at, quote(n), n) for n in _matching_names(pool, typed)]
        elif not bare:
            continue
        elif kind == "verb":
            out += _words(at, key, _spelled(ACTIONS, VERBS, key))
        elif kind == "maneuver" and c is not None:
            out += _words(at, key, [m.id for m in catalog_for(fight).available(c)])
        elif kind == "after-maneuver" and state.maneuver is not None:
            m = state.maneuver
            if m.attack or m.id in BLOCKS:
                out += _words(at, key, ("a", "contra"))
                if key and c is not None:
                    out += [Candidate(at, "a " + quote(n), n)
                            for n in _matching_names(_others(fight, c), typed)]
            if m.id == "liderazgo" and not any("=" in t.value for t in done):
                out += _words(at, key, (DEGREE,))
            if state.interrupt:
                out += _words(at, key, sorted(NOW_WORDS)[:1])
        elif kind == "now":
            out += _words(at, key, ("ahora",))
        elif kind == "to":
            out += _words(at, key, ("a",))
        elif kind == "together":
            out += _words(at, key, ("juntos",))
        elif kind == "turns":
            out += _words(at, key, (TURNS,))
        elif kind == "damage":
            used = {fold(t.value).partition("=")[0] for t in done}
            out += _words(at, key, [o for o in DAMAGE_OPTIONS if o.rstrip("=") not in used])
        elif kind == "heal":
            out += _words(at, key, ("fatiga",))
        elif kind == "switch":
            out += _words(at, key, SWITCHES)
        elif kind == "condition" and c is not None:
            out += _conditions(fight, c, at, typed)
        elif kind == "add":
            out += _add_options(done, at, typed)
    return out


#: What C-System's lines complete with words of their own.
_CS_KINDS = frozenset({"verb", "maneuver", "after-action", "attack-options", "target-word", "order-word",
                       "cs-add", "condition"})


def _cs_offer(fight: Fight, kind: str, c: Combatant | None, at: int, key: str, typed: str) -> list[Candidate]:
    if kind == "verb":
        return _words(at, key, ("compleja", "simple", "gratis", "retrasa", "fin"))
    if kind == "maneuver" and c is not None:
        return _words(at, key, _ruleset("csystem.actions").available(fight, c.name))
    if kind == "after-action":
        return _words(at, key, ("a", "simple", "compleja"))
    if kind == "attack-options":
        return _words(at, key, ("tirada=", "dano=", "tipo=", "arma=", "mod="))
    if kind == "target-word":
        return _words(at, key, ("tras", "final"))
    if kind == "order-word":
        return _words(at, key, ("tras", "antes"))
    if kind == "cs-add":
        return _words(at, key, CS_ADD_WORDS)
    if kind == "condition" and c is not None:
        return _conditions(fight, c, at, typed)
    return []


def _conditions(fight: Fight, c: Combatant, at: int, typed: str) -> list[Candidate]:
    """`+COND` from the ruleset's known conditions, `-COND` from those it has."""
    sign, word = typed[:1], fold(typed[1:])
    if fight.rules == "csystem":
        has = tuple(x.id for x in c.sheet.conditions)
        known = tuple(_ruleset("csystem.tables").CONDITIONS)
    else:
        has = c.conditions
        known = known_conditions(fight.rules)
    adds = [f"+{k}" for k in known if k.startswith(word) and k not in has]
    removes = [f"-{k}" for k in has if k.startswith(word)]
    if sign == "+":
        words = adds
    elif sign in ("-", "−"):
        words = removes
    elif not typed:
        words = adds + removes
    else:
        words = []
    return [Candidate(at, w, w) for w in words]


def talent_completions(value: str) -> tuple[str, ...]:
    """The ways to finish a comma-separated list of talent ids being typed (the value
    of `talentos=`, or the add form's field): the last id completed, those already
    listed left out («punteria-zen,ar» → «punteria-zen,artista-marcial»)."""
    chosen, comma, last = value.rpartition(",")
    taken = {fold(t).strip() for t in chosen.split(",")}
    before = chosen + comma
    return tuple(before + t for t in TALENT_ES if t.startswith(fold(last).strip()) and t not in taken)


def _add_options(done: list[Token], at: int, typed: str) -> list[Candidate]:
    """`alta`'s keys and flags; after `talentos=` the talent ids (comma-separated),
    after `bando=` pj or pnj."""
    head, sep, value = typed.partition("=")
    if sep:
        key = fold(head)
        if key in ("talentos", "talents"):
            return [Candidate(at, f"{head}={whole}", whole.rpartition(",")[2])
                    for whole in talent_completions(value)]
        if key in ("bando", "side"):
            return [Candidate(at, f"{head}={s}", s) for s in SIDES if s.startswith(fold(value))]
        return []
    used = {fold(t.value).partition("=")[0] + ("=" if "=" in t.value else "") for t in done}
    key = fold(typed)
    return _words(at, key, [w for w in (*ADD_KEYS, *ADD_FLAGS) if w not in used])


def candidates(fight: Fight, text: str) -> tuple[Candidate, ...]:
    """What the word being typed at the end of `text` may become (the exact word
    included, so that a word that is also the start of others stays ambiguous)."""
    done, word = scan(text)
    state = _state(fight, done)
    found = [] if state.unfinished else _offer(fight, done, word, state)
    going_on = state.unfinished or bool(word.value)
    if state.name_from is not None and going_on and not word.quoted:
        # The typed word is (unfinished) or may be (a bare name that already names
        # someone: «la viu») part of a name of several words typed bare.
        start = done[state.name_from].start
        typed = " ".join([t.value for t in done[state.name_from:]] + [word.value])
        found = [Candidate(start, quote(n), n) for n in _matching_names(
            [c.name for c in fight.combatants], typed)] + found
    seen: dict[tuple[int, str], Candidate] = {}
    for candidate in found:
        seen.setdefault((candidate.start, candidate.text), candidate)
    return tuple(seen.values())


def completions(fight: Fight, text: str) -> tuple[str, ...]:
    """The lines `text` may become by finishing its last word (those that change it)."""
    lines = [candidate.line(text) for candidate in candidates(fight, text)]
    return tuple(dict.fromkeys(line for line in lines if line != text))


def _common_prefix(lines: list[str]) -> str:
    first, last = min(lines), max(lines)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def tab(fight: Fight, text: str) -> TabResult:
    """What Tab does at the end of `text`: a single candidate completes (with a space
    after it); several are listed and the line only grows by what they all share (a
    Tab never chooses one); none leaves the line as it is."""
    found = candidates(fight, text)
    if not found:
        return TabResult(None)
    if len(found) == 1:
        only = found[0]
        return TabResult(only.line(text) + (" " if only.space else ""))
    shown = tuple(dict.fromkeys(candidate.label for candidate in found))
    common = _common_prefix([candidate.line(text) for candidate in found])
    grown = common if len(common) > len(text) and common.startswith(text) else None
    return TabResult(grown, shown)


def suggestion(fight: Fight, text: str) -> str | None:
    """The ghost text an input shows after `text`: what Tab would make of it, when
    that only adds to what is typed (an input shows the suggestion's tail after the
    typed length, so one that rewrites the typed part is never proposed)."""
    result = tab(fight, text)
    value = result.value
    if value is None:
        return None
    value = value.rstrip(" ") if not result.shown else value
    if len(value) <= len(text) or value[:len(text)].casefold() != text.casefold():
        return None
    return value
