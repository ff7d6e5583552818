"""The maneuver catalog of each ruleset, read from `cdbtui/rules/<rules>.toml`.

Costs, attack and reaction flags and talents are data (RULES.md §4); this module only
knows how to read and check them, how a combatant's talents change a cost, and how a
DJ's house rules are merged in.  The TOML format is documented at the top of
`cdbtui/rules/cdb.toml`; in short, each `[[maneuver]]` row becomes a `Maneuver`:

- `cost` is the fixed part; `variable` says what the number typed with the maneuver
  adds to it: `"movement"` (Mover N; Carga, Golpe en el Aire, Mover y Disparar and
  Disparo en el Aire, whose `cost` is the usual attack, 3), `"shot"` (Ráfagas: the
  weapon's shot cost) or `"attack"` (Fintar = attack + 1, Carga con Montura = 2 +
  attack: `cost` is the surcharge and N the attack's cost).
- `talents`: talent-only maneuvers (all listed talents are needed; `refusal` says why
  not).  `talent_costs`: a talent that lowers the cost (Artista Marcial on Agarrón,
  Asfixiar, Desarmar, Escapar and Presa; Gun Fu on Disparo Simultáneo).
- Surcharges the book gives as a modifier of another maneuver rather than a maneuver
  of its own (a one-handed weapon held in two hands: +1 AC) are *derived rows*: `of`
  names the other maneuver and `plus` the extra AC.  Their cost and talent costs are
  computed from `of` when the catalog is built (so a house rule that changes `of`'s
  cost carries over), and they inherit its kind (attack, reaction, talents…).
- `summary` is the one-line effect shown in the maneuver picker; `notes` the details.
- The book's limits (RULES.md §4) are flags too: `once_per_turn` (Esquivar Disparos),
  `no_carry` (Escapar), `while_grappled` / `while_pinned` (what an Agarrado or an
  Inmovilizado may still do; `grappled_caution` makes it a caution the DJ confirms),
  `recon` (a Reconocimiento: Sentidos de combate), `melee` (a melee attack, for the
  fatigue of RULES.md §6: by default the attacks of `MELEE_GROUPS`).
- `shares`: one book name, two talents (Bloqueo, Golpe en el Aire, Sentidos de
  combate).  The row whose id is the book's name is one version; rows with `shares =
  "<that id>"` are the others, and a row `of` it with `shares` is its explicit spelling
  («bloqueo-artista-marcial»).  `Catalog.resolve` turns the typed name into the
  version of the combatant's talent; `Catalog.available` lists each version once.

`[[command]]` rows are the book's "maneuvers" the engine runs as commands of their own
(Quedarse a la Espera → `espera`, Retrasar la Acción → `retrasa`, a free action →
`gasta`): listed in `Catalog.commands` for help screens, never looked up as maneuvers.

`load_house_rules(text, rules)` merges a DJ's TOML (new `[[maneuver]]` rows,
`[override.ID]` changes) into the book catalog; every field of the book files and of
house rules goes through the same checks, which refuse with one Spanish line naming
the maneuver and the field.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from attrs import field, frozen

from .commands import ACTIONS
from .errors import Refusal
from .limits import shown, text_problem
from .tomlerrors import toml_error
from .model import Combatant
from .text import fold, slug

#: The rulesets with a maneuver catalog in AC (the countdown: RULES.md).
RULESETS = ("cdb", "walkure")
#: Every ruleset a fight may choose (`cdbtui new --rules`): the countdown's and C-System.
SYSTEMS = ("cdb", "walkure", "csystem", "narrador")
RULES_ES = {"cdb": "CdB", "walkure": "Walküre", "csystem": "C-System", "narrador": "Narrador"}

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

#: The package that holds the rulebook files.
RULES_PACKAGE = "cdbtui.rules"


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
    summary: str = ""
    group: str = ""
    #: A derived row: the maneuver it is built on and the extra AC (cost already resolved).
    of: str | None = None
    plus: int = 0
    #: Added or changed by the DJ's house rules.
    house: bool = False
    #: The book's limits on single maneuvers (RULES.md §4): at most once per turn
    #: (Esquivar Disparos); never carried into the next turn (Escapar).
    once_per_turn: bool = False
    no_carry: bool = False
    #: A melee attack maneuver: it tires (RULES.md §6 "Melee costs fatigue").  When the
    #: row does not say, an attack of the melee groups (`MELEE_GROUPS`) is one.
    melee: bool = False
    #: A Reconocimiento: what a surprised combatant needs before attacking (RULES.md §4,
    #: §5; Sentidos de combate is one).
    recon: bool = False
    #: Allowed while Agarrado / Inmovilizado (RULES.md §4 "Grappled and pinned"); a
    #: grappled combatant may also react and spend on free actions.  `grappled_caution`:
    #: allowed while grappled only after the DJ confirms it (Puñetazo: "solo si le
    #: agarran por las piernas").
    while_grappled: bool = False
    while_pinned: bool = False
    grappled_caution: str = ""
    #: One book name, two talents (RULES.md §4): the id of the row whose name this row
    #: shares («bloqueo»).  Typing that id resolves to the version the combatant has
    #: the talent for (`Catalog.resolve`).
    shares: str = ""

    def refusal(self, combatant: Combatant) -> str | None:
        """None if `combatant` may do this maneuver, else why not (a missing talent)."""
        missing = [t for t in self.talents if not combatant.has_talent(t)]
        if not missing:
            return None
        names = ", ".join(TALENT_ES.get(t, t) for t in missing)
        if len(missing) == 1:
            return f"{self.name} requiere el talento {names} y {combatant.name} no lo tiene"
        return f"{self.name} requiere los talentos {names} y {combatant.name} no los tiene"

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

    def cost_text(self, combatant: Combatant | None = None) -> str:
        """The cost as the book would say it: "3", "3 + AC de movimiento", "AC del ataque + 1"."""
        cost = self.base_cost(combatant)
        if self.variable is None:
            return str(cost)
        what = VARIABLE_ES[self.variable]
        return what if cost == 0 else f"{cost} + {what}"


@frozen
class BookCommand:
    """A "maneuver" of the book that the engine runs as a command (`keyword`), not as a cost."""

    id: str
    name: str
    keyword: str
    summary: str = ""
    notes: str = ""
    group: str = ""


@frozen
class Catalog:
    """All maneuvers of one ruleset, with lookup by id, alias or unique prefix."""

    rules: str
    maneuvers: tuple[Maneuver, ...]
    commands: tuple[BookCommand, ...] = ()
    #: Book names two talents share: id → (its versions, the explicit id of that row).
    #: Worked out once (`versions` is asked for every maneuver of every combatant).
    _shared: dict[str, tuple[tuple[Maneuver, ...], str]] = field(
        init=False, eq=False, repr=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        for maneuver in self.maneuvers:
            others = tuple(m for m in self.maneuvers
                           if m.shares == maneuver.id and m.of != maneuver.id)
            if others:
                explicit = next((m.id for m in self.maneuvers
                                 if m.shares == maneuver.id and m.of == maneuver.id), maneuver.id)
                self._shared[maneuver.id] = ((maneuver, *others), explicit)

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

    def versions(self, maneuver: Maneuver) -> tuple[Maneuver, ...]:
        """The maneuvers a book name shared by two talents stands for (RULES.md §4 "One
        book name, two talents"): `maneuver` itself and the rows that share its name
        (`shares`), leaving out the explicit spellings of `maneuver` itself (a row `of`
        it, such as «bloqueo-artista-marcial»).  Empty when the name is not shared."""
        shared = self._shared.get(maneuver.id)
        return shared[0] if shared is not None else ()

    def _fitting(self, maneuver: Maneuver, combatant: Combatant) -> tuple[Maneuver, ...]:
        return tuple(m for m in self.versions(maneuver) if m.refusal(combatant) is None)

    def _spelling(self, maneuver: Maneuver) -> str:
        """The id that names `maneuver` alone: its explicit spelling when its own id is
        a shared book name («bloqueo» → «bloqueo-artista-marcial»)."""
        shared = self._shared.get(maneuver.id)
        return shared[1] if shared is not None else maneuver.id

    def resolve(self, maneuver_id: str, combatant: Combatant | None) -> Maneuver:
        """The maneuver `combatant` does when it types `maneuver_id` (RULES.md §4 "One
        book name, two talents"): a shared book name is the version of the talent it
        has; with both talents, `Refusal` listing the ids of each; with neither, the
        book's row (whose talent refusal then names its talent)."""
        maneuver = self.get(maneuver_id)
        if combatant is None:
            return maneuver
        fitting = self._fitting(maneuver, combatant)
        if len(fitting) == 1:
            return fitting[0]
        if len(fitting) > 1:
            each = " o ".join(
                f"«{self._spelling(m)}» ({', '.join(TALENT_ES.get(t, t) for t in m.talents)})"
                for m in fitting
            )
            many = ("dos maniobras", "los dos talentos") if len(fitting) == 2 else (
                f"{len(fitting)} maniobras", "los talentos de todas")
            raise Refusal(
                f"«{maneuver.id}» es en el libro el nombre de {many[0]} y {combatant.name}"
                f" tiene {many[1]}: usa {each}"
            )
        return maneuver

    def available(self, combatant: Combatant) -> tuple[Maneuver, ...]:
        """The maneuvers `combatant` may do: those whose talents it has, each once: a
        book name shared by two talents stands for the version it has, and when it has
        both, the explicit ids are listed instead of the shared name (`resolve`)."""
        out = []
        for m in self.maneuvers:
            if m.refusal(combatant) is not None:
                continue
            if len(self._fitting(m, combatant)) > 1:
                continue  # the shared name is ambiguous for it: its spellings are listed
            if m.shares and m.of == m.shares and m.shares in self._shared:
                if len(self._fitting(self._shared[m.shares][0][0], combatant)) <= 1:
                    continue  # the explicit spelling of what the shared name does
            out.append(m)
        return tuple(out)


# ---------------------------------------------------------------- checking the TOML rows

_BOOLS = ("attack", "reaction", "moves", "aim", "once_per_turn", "no_carry", "melee", "recon",
          "while_grappled", "while_pinned")
_TEXTS = ("name", "summary", "notes", "group", "grappled_caution")
#: Every key a [[maneuver]] row may have.
MANEUVER_KEYS = (
    "id", "name", "cost", "attack", "reaction", "talents", "talent_costs", "variable",
    "moves", "aim", "aliases", "summary", "notes", "group", "of", "plus",
    "once_per_turn", "no_carry", "melee", "recon", "while_grappled", "while_pinned",
    "grappled_caution", "shares",
)
#: What a derived row (`of`) takes from the row it is built on unless it says otherwise.
INHERITED = (
    "attack", "reaction", "variable", "moves", "aim", "group", "once_per_turn", "no_carry",
    "melee", "recon", "while_grappled", "while_pinned", "grappled_caution",
)
#: The groups whose attacks are melee attacks when a row does not say (`melee`): the
#: book's "Maniobras Cuerpo a Cuerpo", Artista Marcial and Maestro de Esgrima (folded).
MELEE_GROUPS = frozenset({"cuerpo a cuerpo", "artista marcial", "maestro de esgrima"})
#: Keys an [override.ID] table may change.
OVERRIDE_KEYS = tuple(k for k in MANEUVER_KEYS if k not in ("id", "of"))
COMMAND_KEYS = ("id", "name", "keyword", "summary", "notes", "group")
HOUSE = "Reglas de la casa"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"un sí/no ({str(value).lower()})"
    if isinstance(value, int):
        return f"el número {value}"
    if isinstance(value, str):
        return f"el texto «{value}»"
    if isinstance(value, list):
        return "una lista"
    if isinstance(value, dict):
        return "una tabla"
    return f"un valor de tipo {type(value).__name__}"


class _Checker:
    """Refusals that name the file, the maneuver and the field."""

    def __init__(self, where: str, what: str, ident: str) -> None:
        self.where, self.what, self.ident = where, what, ident

    def fail(self, key: str | None, problem: str) -> Refusal:
        field = f", campo «{key}»" if key else ""
        return Refusal(f"{self.where}, {self.what} «{self.ident}»{field}: {problem}")

    def integer(self, key: str, value: Any, *, minimum: int | None = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"debe ser un número entero, no {_kind(value)}")
        if not -999 <= value <= 999:
            raise self.fail(key, f"valor absurdo {value} (debe estar entre -999 y 999)")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"no puede ser negativo ({value})")
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"debe ser true o false, no {_kind(value)}")
        return value

    def text(self, key: str, value: Any, *, empty: bool = True) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"debe ser un texto entre comillas, no {_kind(value)}")
        if not empty and not value.strip():
            raise self.fail(key, "no puede estar vacío")
        trouble = text_problem(value)
        if trouble is not None:
            raise self.fail(key, f"«{shown(value)}» {trouble}")
        return value

    def ident_word(self, key: str, value: Any) -> str:
        value = self.text(key, value, empty=False)
        if slug(value) != value:
            hint = f"p. ej. «{slug(value)}»"
            raise self.fail(key, f"«{value}» debe ir en minúsculas, sin tildes y con guiones ({hint})")
        if value in ACTIONS:
            raise self.fail(key, f"«{value}» es una palabra de órdenes ({ACTIONS[value]}): elige otra")
        return value

    def talent(self, key: str, value: Any) -> str:
        value = self.text(key, value, empty=False)
        if value not in TALENT_ES:
            known = ", ".join(TALENT_ES)
            raise self.fail(key, f"talento desconocido «{value}» (se conocen: {known})")
        return value

    def words(self, key: str, value: Any, each) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(key, f"debe ser una lista entre corchetes, no {_kind(value)}")
        items = tuple(each(key, item) for item in value)
        repeated = next((item for i, item in enumerate(items) if item in items[:i]), None)
        if repeated is not None:
            raise self.fail(key, f"«{repeated}» está repetido")
        return items


def _check_fields(check: _Checker, row: Mapping[str, Any], allowed: Iterable[str]) -> dict[str, Any]:
    """The row's fields, type-checked and normalised (lists → tuples, tables → pairs)."""
    allowed = tuple(allowed)
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key not in allowed:
            raise check.fail(key, f"clave desconocida (se admiten: {', '.join(allowed)})")
        if key in ("id", "of", "shares"):
            out[key] = check.ident_word(key, value)
        elif key in _TEXTS:
            out[key] = check.text(key, value, empty=key != "name")
        elif key == "cost":
            out[key] = check.integer(key, value)
        elif key == "plus":
            out[key] = check.integer(key, value, minimum=None)
        elif key in _BOOLS:
            out[key] = check.boolean(key, value)
        elif key == "talents":
            out[key] = check.words(key, value, check.talent)
        elif key == "aliases":
            out[key] = check.words(key, value, check.ident_word)
        elif key == "variable":
            value = check.text(key, value)
            if value not in VARIABLE_ES:
                raise check.fail(key, f"«{value}» no vale: usa {', '.join(VARIABLE_ES)}")
            out[key] = value
        elif key == "talent_costs":
            if not isinstance(value, dict):
                raise check.fail(key, f"debe ser una tabla {{ talento = coste }}, no {_kind(value)}")
            out[key] = tuple(
                sorted((check.talent(key, t), check.integer(key, c)) for t, c in value.items())
            )
    return out


def _check_row(row: Any, where: str, index: int) -> dict[str, Any]:
    """One [[maneuver]] row, complete and type-checked (before `of` is resolved)."""
    ident = row.get("id") if isinstance(row, dict) else None
    check = _Checker(where, "maniobra", ident if isinstance(ident, str) else f"n.º {index + 1}")
    if not isinstance(row, dict):
        raise check.fail(None, f"cada [[maneuver]] debe ser una tabla, no {_kind(row)}")
    out = _check_fields(check, row, MANEUVER_KEYS)
    for key in ("id", "name"):
        if key not in out:
            raise check.fail(key, "falta (es obligatorio)")
    if "of" in out and "cost" in out:
        raise check.fail("cost", "una fila con «of» toma el coste de esa maniobra: quita «cost»")
    if "of" not in out and "cost" not in out:
        raise check.fail("cost", "falta (es obligatorio salvo en las filas con «of»)")
    if "plus" in out and "of" not in out:
        raise check.fail("plus", "solo tiene sentido junto a «of»")
    return out


def _check_command(row: Any, where: str, index: int) -> BookCommand:
    ident = row.get("id") if isinstance(row, dict) else None
    check = _Checker(where, "orden", ident if isinstance(ident, str) else f"n.º {index + 1}")
    if not isinstance(row, dict):
        raise check.fail(None, f"cada [[command]] debe ser una tabla, no {_kind(row)}")
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key not in COMMAND_KEYS:
            raise check.fail(key, f"clave desconocida (se admiten: {', '.join(COMMAND_KEYS)})")
        out[key] = check.text(key, value, empty=key not in ("id", "name", "keyword"))
    for key in ("id", "name", "keyword"):
        if key not in out:
            raise check.fail(key, "falta (es obligatorio)")
    if out["keyword"] not in ACTIONS.values():
        raise check.fail("keyword", f"«{out['keyword']}» no es una orden de combatiente")
    return BookCommand(**out)


def _tables(value: Any, where: str, key: str) -> list:
    if not isinstance(value, list):
        raise Refusal(f"{where}: «{key}» debe escribirse como [[{key}]], no {_kind(value)}")
    return value


def _check_limits(check: _Checker, fields: dict[str, Any], by_id: Mapping[str, Any]) -> None:
    """The fields that only make sense together (checked once a row is complete, so an
    override and the book's row are checked as one)."""
    if fields.get("grappled_caution") and not fields.get("while_grappled"):
        raise check.fail("grappled_caution", "solo tiene sentido junto a «while_grappled = true»")
    shared = fields.get("shares")
    if shared:
        if shared == fields["id"]:
            raise check.fail("shares", "una maniobra no comparte nombre consigo misma")
        if shared not in by_id:
            raise check.fail("shares", f"no existe la maniobra «{shared}»")
        if by_id[shared].get("shares"):
            raise check.fail("shares", f"«{shared}» ya comparte el nombre de «{by_id[shared]['shares']}»:"
                             " usa ese id")
        if not fields.get("talents"):
            raise check.fail("shares", "solo las maniobras de talento comparten nombre (falta «talents»)")


def _resolve(rows: list[dict[str, Any]], where: str) -> tuple[Maneuver, ...]:
    """Maneuvers from checked rows: derived rows (`of`) resolved, names unique."""
    by_id: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["id"] in by_id:
            check = _Checker(where, "maniobra", row["id"])
            raise check.fail("id", "está repetido")
        by_id[row["id"]] = row
    done: dict[str, Maneuver] = {}

    def build(ident: str, chain: tuple[str, ...]) -> Maneuver:
        if ident in done:
            return done[ident]
        row = by_id[ident]
        fields = {k: v for k, v in row.items() if k not in ("of", "plus")}
        if "of" in row:
            check = _Checker(where, "maniobra", ident)
            if row["of"] not in by_id:
                raise check.fail("of", f"no existe la maniobra «{row['of']}»")
            if row["of"] in chain:
                raise check.fail("of", "referencia circular: " + " → ".join((*chain, ident, row["of"])))
            base = build(row["of"], (*chain, ident))
            plus = row.get("plus", 0)
            if base.cost + plus < 0:
                raise check.fail("plus", f"el coste quedaría negativo ({base.cost} {plus:+d})")
            costs = {t: max(0, c + plus) for t, c in base.talent_costs}
            costs.update(dict(row.get("talent_costs", ())))
            fields.update(
                cost=base.cost + plus,
                talent_costs=tuple(sorted(costs.items())),
                talents=base.talents + tuple(t for t in row.get("talents", ()) if t not in base.talents),
                of=base.id,
                plus=plus,
            )
            for key in INHERITED:
                fields.setdefault(key, getattr(base, key))
        fields.setdefault(
            "melee", bool(fields.get("attack")) and fold(fields.get("group", "")) in MELEE_GROUPS
        )
        _check_limits(_Checker(where, "maniobra", ident), fields, by_id)
        maneuver = Maneuver(**fields)
        done[ident] = maneuver
        return maneuver

    maneuvers = tuple(build(row["id"], ()) for row in rows)
    owner: dict[str, str] = {m.id: m.id for m in maneuvers}
    for m in maneuvers:
        for alias in m.aliases:
            if alias in owner and owner[alias] != m.id:
                check = _Checker(where, "maniobra", m.id)
                raise check.fail("aliases", f"«{alias}» ya es el nombre de «{owner[alias]}»")
            owner[alias] = m.id
    return maneuvers


# ---------------------------------------------------------------- the book and house rules


def _toml(text: str, where: str) -> dict[str, Any]:
    """Parsed TOML, or a one-line refusal that says where the syntax breaks."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise Refusal(f"{where}: el TOML anida valores a una profundidad absurda") from None
    except tomllib.TOMLDecodeError as error:
        raise Refusal(f"{where}: {toml_error(error)}") from None


def _read_book(rules: str) -> str:
    return resources.files(RULES_PACKAGE).joinpath(f"{rules}.toml").read_text("utf-8")


@cache
def _book(rules: str) -> tuple[tuple[dict[str, Any], ...], tuple[BookCommand, ...]]:
    """The checked rows and commands of a rulebook file (rows before `of` is resolved)."""
    where = f"Catálogo de {RULES_ES[rules]}"
    data = _toml(_read_book(rules), where)
    for key in data:
        if key not in ("rules", "maneuver", "command"):
            raise Refusal(f"{where}: clave desconocida «{key}»")
    if data.get("rules") != rules:
        raise Refusal(f"{where}: «rules» debe ser «{rules}»")
    maneuvers = _tables(data.get("maneuver", []), where, "maneuver")
    rows = tuple(_check_row(r, where, i) for i, r in enumerate(maneuvers))
    commands = tuple(
        _check_command(r, where, i) for i, r in enumerate(_tables(data.get("command", []), where, "command"))
    )
    return rows, commands


def _known(rules: str) -> None:
    if rules not in RULESETS:
        raise Refusal(f"Reglas desconocidas «{rules}»: usa cdb o walkure")


@cache
def catalog(rules: str) -> Catalog:
    """The catalog of `rules` ("cdb" or "walkure"), read once from the package data."""
    _known(rules)
    rows, commands = _book(rules)
    maneuvers = _resolve(list(rows), f"Catálogo de {RULES_ES[rules]}")
    return Catalog(rules, maneuvers, commands)


def load_house_rules(text: str, rules: str) -> Catalog:
    """The book catalog of `rules` with a DJ's house rules (TOML `text`) merged in.

    `[[maneuver]]` rows add maneuvers (their ids must be new); `[override.ID]` tables
    change fields of a book maneuver (giving `cost` to a derived row makes it fixed).
    Anything wrong refuses the whole text with one line naming the maneuver and field.
    """
    _known(rules)
    data = _toml(text, HOUSE)
    for key in data:
        if key not in ("rules", "maneuver", "override"):
            raise Refusal(f"{HOUSE}: clave desconocida «{key}» (se admiten: rules, maneuver, override)")
    if "rules" in data and (not isinstance(data["rules"], str) or fold(data["rules"]) != rules):
        raise Refusal(
            f"{HOUSE}: son para «{data['rules']}» y el combate usa {RULES_ES[rules]} («{rules}»)"
        )
    book_rows, commands = _book(rules)
    rows = [dict(row) for row in book_rows]
    index = {row["id"]: i for i, row in enumerate(rows)}

    overrides = data.get("override", {})
    if not isinstance(overrides, dict):
        raise Refusal(f"{HOUSE}: «override» debe escribirse como [override.ID], no {_kind(overrides)}")
    for ident, changes in overrides.items():
        check = _Checker(HOUSE, "maniobra", ident)
        if ident not in index:
            raise check.fail(
                None, f"no existe en {RULES_ES[rules]} (para añadir una maniobra usa [[maneuver]])"
            )
        if not isinstance(changes, dict):
            raise check.fail(None, f"[override.{ident}] debe ser una tabla, no {_kind(changes)}")
        fields = _check_fields(check, changes, OVERRIDE_KEYS)
        row = rows[index[ident]]
        if "plus" in fields and "of" not in row:
            raise check.fail("plus", "solo tiene sentido en una fila con «of»")
        if "cost" in fields:
            row.pop("of", None)
            row.pop("plus", None)
        row.update(fields)
        row["house"] = True

    seen: set[str] = set()
    for i, raw in enumerate(_tables(data.get("maneuver", []), HOUSE, "maneuver")):
        row = _check_row(raw, HOUSE, i)
        check = _Checker(HOUSE, "maniobra", row["id"])
        if row["id"] in index:
            raise check.fail(
                "id", f"ya existe en {RULES_ES[rules]}: para cambiarla usa [override.{row['id']}]"
            )
        if row["id"] in seen:
            raise check.fail("id", "está repetido en las reglas de la casa")
        seen.add(row["id"])
        rows.append({**row, "house": True})

    return Catalog(rules, _resolve(rows, HOUSE), commands)


@lru_cache(maxsize=16)
def _house_catalog(rules: str, text: str) -> Catalog:
    return load_house_rules(text, rules)


def catalog_for(fight) -> Catalog:
    """The catalog a fight plays with: the book's, with its house rules if it has any."""
    if not fight.house:
        return catalog(fight.rules)
    return _house_catalog(fight.rules, fight.house)
