"""Saves: one human-readable TOML file per fight, a snapshot plus an append-only journal.

The layout of a save (schema 4; the README shows an example):

- a header: `schema`, `app = "cdbtui"`, and `digest`, the SHA-256 of the `[fight]`
  section as written, so that a hand edit is noticed (and accepted: see below);
- `[summary]`: what the fight list shows (name, rules, turn, combatants);
- `[fight]`, `[[fight.combatants]]`, `[fight_log]`: the current state in full; the
  log one inline table an entry: its turn and moment, its `kind`, its `text` (for
  display only) and `about`, the combatants it names, each with its `role` and
  whether it was `hidden`/`private` when the entry was made (what players may read
  is decided from these, players.py); `[fight.window]` and its
  `[[fight.window.before]]` while a reaction window is open (RULES.md §3: where a
  reaction lands, and the combatants as they were before the count moved on);
- `[base]` (only after a hand edit): the state the history starts from; without it
  the history starts from the empty fight named in `[history]`;
- `[history]`: the canonical command lines from the base (`lines`) and those undone
  since (`redo`), so undo/redo survive a resume; its last key, `end = true`, marks
  a snapshot written whole;
- `[[journal]]`: one table per command run since the snapshot (`do = "LINE"`,
  `undo = true` or `redo = true`), appended to the file and fsynced one by one.

This module is the format: text to session and back.  The files themselves
(atomic writes, the folder lock, safe reads) are `files.py`; playing a save
(the funnel: run a line, make it durable) is `funnel.py`; following one (the
player view) is `follow.py`.

Autosaving a command appends a few bytes (`funnel.SaveFile.play`); every
`funnel.COMPACT_EVERY` commands, on an undo past the snapshot and on closing, the file is
rewritten whole: to a temporary file in the same folder, fsynced, then put in place
with `os.replace` and the folder fsynced, the previous version kept as
`NAME.toml.bak`.  A crash leaves the old file or the new one; a torn last journal
entry is dropped on load.  A `[fight]` edited by hand (say, a typo in a name) is
loaded as it is and the undo history restarts there.  Saves of schema 1 and 2
are migrated when next written, keeping the original as `NAME.toml.v1` / `.v2`;
schema 3 too (`.v3`): its history is replayed by today's rules (`_session_v3`).

Migrating a save of schema 1 or 2, whose log entries are text only: its history is
replayed (once, on reading), and if it leads to the saved state (the same texts),
the replayed state is taken, with each entry's kind and names as the engine makes
them.  Otherwise (a hand edit) they are recovered from the text once
(`recover_log`: the roster's names found in it, longest first, with the flags the
combatant has now; a name no longer on the roster, or an earlier combatant of the
same name, counts as hidden and private, to be safe) and the history restarts there.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomli_w

try:  # an optional accelerator: everything works (slower) with tomllib alone
    import rtoml as _rtoml
except ImportError:  # pragma: no cover - rtoml is a dependency; kept for odd platforms
    _rtoml = None
from attrs import define, evolve, field, frozen

from .codec import DecodeError, from_data, to_data
from .engine.catalog import SYSTEMS, TALENT_ES, catalog_for
from .engine.limits import MOMENT, name_problem
from .engine.errors import Refusal
from .engine.tomlerrors import toml_error as _toml_error
from .engine.conditions import split_known
from .engine.model import Fight, Log, LogEntry, LogKind, Mention, Note, Role
from .engine.text import fold
from .engine.parser import parse
from .engine.rules import new_fight
from .engine.session import DO, REDO, UNDO, Outcome, Session
from .files import SaveError, read_bytes, reason, write_atomic

APP = "cdbtui"
#: The newest layout this version reads and writes.  Schema 5 is schema 4 with the
#: other rulesets' parts (`Combatant.sheet`, `Fight.cs`, `Fight.narr`): only those
#: fights are written as 5, so a CdB or Walküre save stays readable by a version that
#: reads up to 4, and an older version told a C-System save is newer says so.
SCHEMA = 5
#: The rulesets whose saves need schema 5.
_SCHEMA_5 = frozenset({"csystem", "narrador"})


def schema_for(rules: str) -> int:
    """The schema a save of a fight of `rules` is written with (see `SCHEMA`)."""
    return 5 if rules in _SCHEMA_5 else 4

HEADER = """\
# Partida de cdbtui (formato {schema}). Se puede leer y, con cuidado, corregir a mano:
#   [summary]   lo que muestra la lista de partidas
#   [fight]     el estado actual del combate (una errata en un nombre se corrige
#               aquí; el historial de deshacer empezará entonces en ese punto)
#   [history]   las órdenes desde el combate vacío, para deshacer y rehacer
#   [[journal]] las órdenes posteriores al último guardado completo
"""


# ---------------------------------------------------------------- to TOML


def _inline(value: Any) -> str:
    """A TOML value on one line (arrays inline, unlike tomli_w's one item a line)."""
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, dict):  # a list of small tables (notes): inline tables
        return _inline_table(value)
    return tomli_w.dumps({"v": value})[4:-1]


def table_text(header: str, table: dict[str, Any], *, array: bool) -> str:
    opener = f"[[{header}]]" if array else f"[{header}]"
    lines = [opener]
    lines += [f"{key} = {_inline(v)}" for key, v in table.items() if not isinstance(v, dict)]
    text = "\n".join(lines) + "\n"
    for key, sub in table.items():
        if isinstance(sub, dict):
            text += "\n" + table_text(f"{header}.{key}", sub, array=False)
    return text


@lru_cache(maxsize=1 << 16)
def _chunk(header: str, obj: Any) -> str:
    """One `[[header]]` table as TOML text; sub-tables are nested under `header`.

    States are immutable and a command changes few combatants and only appends to
    the log, so caching by value makes a save re-serialize only what changed.
    """
    return table_text(header, to_data(obj), array=True)


@lru_cache(maxsize=1 << 16)
def _log_line(entry: LogEntry) -> str:
    """One log entry as an inline table: `{turn = 1, moment = 7, kind = "action",
    text = "…", about = ["Mike", {name = "Ninja", role = "target", hidden = true}]}`
    (a missing moment, the kind `note`, no warning, the role `actor` and false flags
    are left out; a mention with nothing but its name is just the name)."""
    table: dict[str, Any] = {"turn": entry.turn}
    if entry.moment is not None:
        table["moment"] = entry.moment
    if entry.kind is not LogKind.NOTE:
        table["kind"] = entry.kind.value
    table["text"] = entry.text
    if entry.warning:
        table["warning"] = True
    text = _inline_table(table)
    if entry.about:
        text = text[:-1] + ", about = [" + ", ".join(map(_mention_text, entry.about)) + "]}"
    return "    " + text + ",\n"


@lru_cache(maxsize=4096)
def _mention_text(mention: Mention) -> str:
    """A mention: just the name when it is the actor and neither hidden nor private
    (most of a long log: quicker to read and smaller), else an inline table."""
    if mention.role is Role.ACTOR and not mention.hidden and not mention.private:
        return _inline(mention.name)
    table: dict[str, Any] = {"name": mention.name}
    if mention.role is not Role.ACTOR:
        table["role"] = mention.role.value
    if mention.hidden:
        table["hidden"] = True
    if mention.private:
        table["private"] = True
    return _inline_table(table)


def _inline_table(table: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{key} = {_inline(value)}" for key, value in table.items()) + "}"


def _fight_text(fight: Fight, header: str) -> str:
    """`[header]`, its combatants, and its log as `[header_log]`, one entry a line
    (the log is the longest part of a save: inline tables read fastest)."""
    scalars = to_data(fight, skip=_APART)
    parts = [tomli_w.dumps({header: scalars})]
    parts += [_chunk(f"{header}.combatants", c) for c in fight.combatants]
    parts += _window_parts(fight, header)
    parts.append(f"[{header}_log]\nentries = [\n" + "".join(map(_log_line, fight.log)) + "]\n")
    return "\n".join(parts)


#: Fields of a fight written in sections of their own, after its scalars.
_APART = frozenset({"combatants", "log", "window"})


def _window_parts(fight: Fight, header: str) -> list[str]:
    """The open reaction window as `[header.window]` and the combatants it remembers
    as `[[header.window.before]]`, after the fight's own combatants (so that the
    roster reads first)."""
    window = fight.window
    if window is None:
        return []
    scalars = to_data(window, skip=frozenset({"before"}))
    return [tomli_w.dumps({header: {"window": scalars}}),
            *(_chunk(f"{header}.window.before", c) for c in window.before)]


def _fight_table(document: dict[str, Any], header: str) -> Any:
    """The `[header]` table with its log put back in (see `_fight_text`)."""
    table = document.get(header)
    log = document.get(f"{header}_log")
    if isinstance(table, dict) and isinstance(log, dict) and "log" not in table:
        table = {**table, "log": log.get("entries", [])}
    return table


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_empty_base(base: Fight) -> bool:
    return base == new_fight(base.name, base.rules, base.seed)


def summary(fight: Fight) -> dict[str, Any]:
    """What the fight list shows: `combatants` counts everyone (the DJ's list), and
    `hidden`, written only when there are any, how many of them are hidden PNJ."""
    table: dict[str, Any] = {
        "name": fight.name,
        "rules": fight.rules,
        "turn": fight.turn,
        "combatants": len(fight.combatants),
    }
    hidden = sum(1 for c in fight.combatants if c.hidden)
    if hidden:
        table["hidden"] = hidden
    return table


#: States of the history saved beside the current one (`Session.saved_states`), so
#: that an undo after a load replays at most a few dozen lines instead of all of them.
SAVED_STATES = 2


def _state_text(position: int, state: Fight) -> str:
    """`[state_N]`: the state after N lines of the history, with its combatants; its
    log is the first `log` entries of `[fight]`'s (the log only grows)."""
    header = f"state_{position}"
    scalars = to_data(state, skip=_APART)
    parts = [tomli_w.dumps({header: {**scalars, "log": len(state.log)}})]
    parts += [_chunk(f"{header}.combatants", c) for c in state.combatants]
    parts += _window_parts(state, header)
    return "\n".join(parts)


def dumps(session: Session) -> str:
    """The whole save (a snapshot with an empty journal) as text."""
    fight_text = _fight_text(session.fight, "fight")
    # Inside what the [fight] digest covers: a hand edit of a saved state is an edit.
    fight_text += "".join("\n" + _state_text(position, state)
                          for position, state in session.saved_states(SAVED_STATES).items())
    history: dict[str, Any] = {}
    base = session.base
    base_text = ""
    if _is_empty_base(base):
        history.update(name=base.name, rules=base.rules, seed=base.seed)
    else:
        base_text = _fight_text(base, "base")
    history.update(lines=list(session.lines), redo=list(session.redo_lines), end=True)
    history_text = tomli_w.dumps({"history": history})
    head = tomli_w.dumps({
        "schema": schema_for(session.fight.rules),
        "app": APP,
        "digest": digest_of(fight_text),
        "history_digest": digest_of(base_text + history_text),
        "summary": summary(session.fight),
    })
    parts = [HEADER.replace("{schema}", str(schema_for(session.fight.rules))) + head, fight_text]
    if base_text:
        parts.append(base_text)
    parts.append(history_text)
    return "\n".join(parts)


def _history_digest(text: str) -> str | None:
    """The digest of `[base]` (if any) and `[history]` as they stand in `text`."""
    start = text.find("\n[history]\n")
    end = text.find("\nend = true\n", start)
    if start == -1 or end == -1:
        return None
    history_text = text[start + 1 : end + len("\nend = true\n")]
    base_start = text.find("\n[base]\n")
    base_text = text[base_start + 1 : start] if base_start != -1 else ""
    return digest_of(base_text + history_text)


def journal_entry(outcome: Outcome) -> str:
    """The text appended to a save for one command (always whole lines)."""
    if outcome.kind == DO:
        return "\n[[journal]]\n" + tomli_w.dumps({"do": outcome.line})
    return f"\n[[journal]]\n{outcome.kind} = true\n"


# ---------------------------------------------------------------- from TOML


@define
class Loaded:
    """A save as read: the session, and what the reading had to do."""

    session: Session
    schema: int = SCHEMA
    #: Journal entries replayed on top of the snapshot.
    journal: int = 0
    #: `[fight]` was changed by hand: the history restarts at the state as edited.
    edited: bool = False
    #: A torn last journal entry (a write cut short) was dropped.
    torn: bool = False
    #: What the DJ should be told about the reading (Spanish lines).
    notes: list[str] = field(factory=list)


JOURNAL = "\n[[journal]]\n"


def brief(text: object) -> str:
    """A value from a file, safe inside a one-line message (newlines escaped, cut short)."""
    value = str(text).encode("unicode_escape").decode("ascii") if not str(text).isprintable() else str(text)
    return value if len(value) <= 60 else value[:57] + "…"


def _fast_toml(text: str) -> dict[str, Any] | None:
    """The document read by rtoml (Rust: five times quicker than tomllib on a long
    log), or None when it isn't there or says no: then tomllib reads it, and its
    errors (translated, with the torn-journal recovery) are the ones the DJ sees."""
    if _rtoml is None:
        return None
    try:
        document = _rtoml.loads(text)
    except Exception:  # any refusal: tomllib decides and explains
        return None
    return document if isinstance(document, dict) else None


def _parse(text: str) -> tuple[dict[str, Any], bool]:
    """The TOML document, dropping a torn last journal entry if that is what broke it."""
    document = _fast_toml(text)
    if document is not None:
        return document, False
    try:
        return tomllib.loads(text), False
    except RecursionError:
        raise SaveError("el TOML anida listas o tablas a una profundidad absurda") from None
    except ValueError as error:
        if not isinstance(error, tomllib.TOMLDecodeError):  # a number of thousands of digits
            raise SaveError("hay un número absurdamente largo (archivo dañado)") from None
        return _parse_torn(text, error)


def _parse_torn(text: str, error: tomllib.TOMLDecodeError) -> tuple[dict[str, Any], bool]:
    """A journal entry is three short lines appended at once: a write cut short
    leaves a prefix of one.  Drop trailing lines, never into the snapshot."""
    floor = text.find("\nend = true\n")
    cut = len(text)
    for _ in range(3):
        cut = text.rfind("\n", 0, cut)
        if floor == -1 or cut <= floor + len("\nend = true"):
            break
        try:
            return tomllib.loads(text[: cut + 1]), True
        except (ValueError, RecursionError):
            continue
    raise SaveError(_toml_error(error)) from None


def section_text(text: str, header: str) -> str | None:
    """The text of `[header]` and its sub-tables as written by `_fight_text`."""
    start = text.find(f"\n[{header}]\n")
    if start == -1:
        return None
    ends = [text.find(f"\n[{name}]\n", start + 1) for name in ("base", "history") if name != header]
    ends = [end for end in ends if end != -1]
    return text[start + 1 : min(ends)] if ends else None


#: The keys a log entry may have (schema 3; earlier ones had no kind or about).
_ENTRY_KEYS = frozenset({"turn", "moment", "kind", "text", "warning", "about"})
_OLD_ENTRY_KEYS = frozenset({"turn", "moment", "text", "warning"})
_MENTION_KEYS = frozenset({"name", "role", "hidden", "private"})
_KINDS = {kind.value: kind for kind in LogKind}
_ROLES = {role.value: role for role in Role}


@lru_cache(maxsize=4096)
def _mention(name: str, role: Role, hidden: bool, private: bool) -> Mention:
    """Mentions read from a file, shared (a long log repeats a few of them)."""
    return Mention(name, role, hidden, private)


def _decode_about(value: Any) -> tuple[Mention, ...] | None:
    """The `about` of an entry, or None if it is not valid."""
    if not isinstance(value, list):
        return None
    about = []
    for item in value:
        if type(item) is str and item:
            about.append(_mention(item, Role.ACTOR, False, False))
            continue
        if not isinstance(item, dict) or not set(item) <= _MENTION_KEYS:
            return None
        name, role = item.get("name"), _ROLES.get(item.get("role", "actor"))
        hidden, private = item.get("hidden", False), item.get("private", False)
        if (type(name) is not str or not name or role is None
                or type(hidden) is not bool or type(private) is not bool):
            return None
        about.append(_mention(name, role, hidden, private))
    return tuple(about)


def _decode_log(entries: Any, header: str, structured: bool = True, first: int = 1) -> tuple[LogEntry, ...]:
    """The log, checked like `codec.from_data` would but quicker (it is long).
    `structured`: schema 3 (entries may have a kind and about); `first`: the number
    of the first of `entries` in the whole log (the errors name it)."""
    if isinstance(entries, _ReadLog):  # read a piece at a time (`_logs_apart`)
        return entries.entries
    where = f"[{header}_log] › entries"
    if not isinstance(entries, list):
        raise SaveError(f"{where}: se esperaba una lista")
    keys = _ENTRY_KEYS if structured else _OLD_ENTRY_KEYS
    log = []
    for number, entry in enumerate(entries, first):
        if not isinstance(entry, dict):
            raise SaveError(f"{where} nº {number}: se esperaba una tabla")
        turn, moment, text = entry.get("turn"), entry.get("moment"), entry.get("text")
        warning = entry.get("warning", False)
        kind = _KINDS.get(entry.get("kind", "note"))
        about = _decode_about(entry["about"]) if "about" in entry else ()
        if (type(turn) is not int or not 0 <= turn <= 99_999
                or not (moment is None or (type(moment) is int and MOMENT[0] <= moment <= MOMENT[1]))
                or type(text) is not str or type(warning) is not bool
                or kind is None or about is None
                or not set(entry) <= keys):
            raise SaveError(f"{where} nº {number}: entrada no válida {entry!r:.60}")
        log.append(LogEntry(turn, moment, text, warning, kind, about))
    return tuple(log)


# ---------------------------------------------------------------- migration

#: The engine's wordings before schema 3, to recover an entry's kind once, when a
#: save of schema 1 or 2 cannot be replayed (first match wins; `note` if none).
_OLD_KINDS: tuple[tuple[LogKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in (
        (LogKind.HEAL, r"^Descanso tras la batalla: "),
        (LogKind.TURN, (
            r"^— Turno \d+ —$|^Fin del turno \d+: |^Avanza la cuenta: |^Le toca a "
            r"|^El DJ cierra el turno: "
        )),
        (LogKind.ORDER, r"^Orden: |^El DJ cambia el orden de "),
        (LogKind.CONDITION, r"dejan de estar en duelo$|^Duelo entre "),
        (LogKind.SETUP, r"^Alta de |^Baja de |^Tirada de grupo: |^Combate «|^El combate se llama «"),
        (LogKind.RULE, (
            r"^Aviso: |^Reglas de la casa · |^Sin reglas de la casa|^Iniciativa Rápida "
            r"|^Caduca el Liderazgo de |^Bloqueo de "
        )),
    )
)
#: Wordings after the name that starts the entry ("Sven: …", "Sven cae …").
_OLD_KINDS_AFTER_NAME: tuple[tuple[LogKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in (
        (LogKind.DAMAGE, (
            r": \d+ casilla\(s\) de (?:heridas|fatiga) \(daño -?\d+ − RD -?\d+\)$"
            r"|: daño -?\d+ − RD -?\d+ < 0, sin efecto$"
            r"|: \d+ miembro\(s\) inutilizado\(s\) \(daño "
        )),
        (LogKind.HEAL, r"^: cura \d+ casilla"),
        (LogKind.SETUP, r"^ empieza en el momento -?\d+$|^: 1d6 \(\d\) \+ INI |^ entra en el combate "),
        (LogKind.CONDITION, (
            r"^: [+−]|^ cae inconsciente|^ queda incapacitado|^ se queda sin miembros"
            r"|^ monta a |^ desmonta de |^ se queda sin montura$"
        )),
        (LogKind.REACTION, r"^: .*, reacción \("),
        (LogKind.TURN, r"^ termina su actuación "),
        (LogKind.RULE, (
            r"^ aplica a esta tirada |^ ataca a \d+ blancos |^ lidera: |^ apoya a "
            r"|^ dispara desde una montura|^ está a cubierto: |^: \d+ blanco\(s\) "
            r"|^ gasta ahora, en el momento de "
        )),
        (LogKind.ACTION, (
            r"^: |^ retrasa su acción|^ deja de retrasar|^ se queda a la espera de: "
            r"|^ interrumpe: |^ declina: |^ abandona |^ agota sus AC a la espera"
        )),
    )
)


def _old_kind(text: str, first: str | None) -> LogKind:
    """The kind of a text-only entry (`first`: the name it starts with, if any)."""
    for kind, pattern in _OLD_KINDS:
        if pattern.search(text):
            return kind
    if first is not None:
        rest = text[len(first):]
        for kind, pattern in _OLD_KINDS_AFTER_NAME:
            if pattern.search(rest):
                return kind
    return LogKind.NOTE


def recover_log(fight: Fight) -> Fight:
    """`fight` with each entry's kind and names recovered from its text (the log of a
    save from before schema 3; see the module's docstring).  Every name found is an
    actor (its numbers may be in the text); a removed combatant's name (from "Baja
    de NAME" and "Alta de NAME (") and the entries of the earlier combatant of a name
    used twice are hidden and private: whether players saw them is unknown."""
    log = fight.log
    roster = {fold(c.name): c for c in fight.combatants}
    names = {key: c.name for key, c in roster.items()}
    for entry in log:
        text = entry.text
        if text.startswith("Baja de "):
            name = text[len("Baja de "):].split(": ", 1)[0]
        elif text.startswith("Alta de ") and " (" in text:
            name = text[len("Alta de "):].split(" (", 1)[0]
        else:
            continue
        if name.strip():
            names.setdefault(fold(name), name)
    # The entry where the combatant now on the roster was added: before it, its name
    # belonged to someone else (or to no one).
    since = {}
    for index, entry in enumerate(log):
        for key, c in roster.items():
            if entry.text.startswith(f"Alta de {c.name} ("):
                since[key] = index
    words = sorted(names, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)") if words else None
    recovered = []
    for index, entry in enumerate(log):
        about: dict[str, Mention] = {}
        if pattern is not None:
            for key in pattern.findall(fold(entry.text)):
                c = roster.get(key)
                if c is not None and index >= since.get(key, 0):
                    about[key] = _mention(c.name, Role.ACTOR, c.hidden, c.private and not c.is_pc)
                else:
                    about[key] = _mention(names[key], Role.ACTOR, True, True)
        first = next((m.name for m in about.values() if entry.text.startswith(m.name)), None)
        recovered.append(evolve(entry, kind=_old_kind(entry.text, first), about=tuple(about.values())))
    return evolve(fight, log=tuple(recovered))


def _plain(fight: Fight) -> Fight:
    """`fight` with its log as text only (what a save before schema 3 held)."""
    return evolve(fight, log=tuple(LogEntry(e.turn, e.moment, e.text, e.warning) for e in fight.log))


def _migrated(base: Fight, lines: list[str], current: Fight, redo: list[str]) -> Session | None:
    """The session of a save from before schema 3 by replaying its history, if the
    replay leads to the saved state (else None): the log then carries the kinds and
    names the engine gives it."""
    try:
        session = Session(as_of_v4(base), list(lines), None, list(redo))
    except Refusal:
        return None
    current = as_of_v4(current)
    # The same state (a hand edit of [fight] is caught by its digest before this);
    # the log may differ in order where a reaction now lands in its window.
    same = _as_played_before_v4(session.fight) == _as_played_before_v4(current)
    return session if same else None


def _decode_fight(table: Any, header: str, structured: bool = True) -> Fight:
    if not isinstance(table, dict):
        raise SaveError(f"falta la sección [{header}]")
    log = _decode_log(table.get("log", []), header, structured)
    fight = evolve(from_data(Fight, {k: v for k, v in table.items() if k != "log"}, f"[{header}]"),
                   log=log)
    if fight.rules not in SYSTEMS:
        raise SaveError(f"[{header}] › rules: reglas desconocidas «{brief(fight.rules)}»"
                        " (cdb, walkure, csystem o narrador)")
    seen: set[str] = set()
    for number, combatant in enumerate(fight.combatants, 1):  # every ruleset's names
        trouble = name_problem(combatant.name)
        if trouble is not None:
            raise SaveError(f"[{header}] combatiente nº {number}: nombre no válido"
                            f" «{brief(combatant.name)}» ({trouble})")
        if combatant.key in seen:
            raise SaveError(f"[{header}]: el nombre «{brief(combatant.name)}» está repetido")
        seen.add(combatant.key)
    if fight.rules in ("csystem", "narrador"):
        return _checked_system(fight, header)
    if fight.cs is not None or fight.narr is not None or any(c.sheet is not None for c in fight.combatants):
        raise SaveError(f"[{header}]: datos de C-System en un combate de {brief(fight.rules)}")
    if fight.started and not fight.quick and fight.moment is None:
        raise SaveError(f"[{header}]: el combate va por el turno {fight.turn} pero falta «moment»")
    for combatant in fight.combatants:
        if fight.started and (combatant.start is None) != (combatant.marker is None):
            raise SaveError(f"[{header}] combatiente «{brief(combatant.name)}»: «start» y «marker»"
                            " deben estar los dos o ninguno")
    _check_window(fight, header, seen)
    _check_playable(fight, header, seen)
    return fight


def _checked_system(fight: Fight, header: str) -> Fight:
    """A C-System or storyteller fight opens only if it is one (their `consistency`)."""
    if fight.rules == "csystem":
        from .engine.csystem.rules import consistency
    else:
        from .engine.narrador.rules import consistency
    problem = consistency(fight)
    if problem is not None:
        raise SaveError(f"[{header}]: {problem}")
    if fight.rules == "csystem":
        from .engine.csystem.rules import stamped
    else:
        from .engine.narrador.now import stamped
    return stamped(fight)


def _check_window(fight: Fight, header: str, names: set[str]) -> None:
    """An open reaction window must fit its fight: a started countdown at or below
    its moment, a log at least as long as the one it remembers, and the combatants
    it remembers on the roster, once each."""
    window = fight.window
    if window is None:
        return
    where = f"[{header}.window]"
    if not fight.started or fight.quick or fight.moment is None or window.moment < fight.moment:
        raise SaveError(f"{where}: una ventana de reacciones sin cuenta atrás por debajo de ella")
    if window.log > len(fight.log) and not header.startswith("state_"):  # its log comes later
        raise SaveError(f"{where} › log: el registro tiene {len(fight.log)} entradas, no {window.log}")
    starts = [c.start for c in fight.combatants if c.start is not None]
    if not starts or window.moment > max(starts):
        raise SaveError(f"{where} › moment: nadie empieza tan arriba (momento {window.moment})")
    seen: set[str] = set()
    for c in window.before:
        if c.key not in names or c.key in seen:
            raise SaveError(f"{where} › before: «{brief(c.name)}» no está en el combate o está repetido")
        seen.add(c.key)


def _check_playable(fight: Fight, header: str, names: set[str]) -> None:
    """A file opens only if every later command on it can work: its house rules
    parse, the maneuvers and talents it names exist, its references point at
    combatants of the fight."""
    try:
        book = catalog_for(fight)
    except Refusal as refusal:
        raise SaveError(f"[{header}] › house: las reglas de la casa no valen: {refusal}") from None
    known = {m.id for m in book.maneuvers} | {"gasta"}  # a free action may be carried too
    for c in fight.combatants:
        where = f"[{header}] combatiente «{brief(c.name)}»"
        if c.carried is not None and c.carried.maneuver not in known:
            raise SaveError(f"{where}: la maniobra pendiente «{brief(c.carried.maneuver)}»"
                            " no existe en este reglamento")
        unknown = [t for t in c.talents if t not in TALENT_ES]
        if unknown:
            raise SaveError(f"{where}: talento desconocido «{brief(unknown[0])}»")
        for what, other in (("duel", c.duel), ("mount", c.mount)):
            if other is not None and other.casefold() not in names:
                raise SaveError(f"{where} › {what}: «{brief(other)}» no está en el combate")
    if fight.actor is not None and fight.actor.casefold() not in names:
        raise SaveError(f"[{header}] › actor: «{brief(fight.actor)}» no está en el combate")


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SaveError(f"{where}: se esperaba una lista de órdenes (textos)")
    return list(value)


def replay_journal(session: Session, entries: Any) -> tuple[int, bool]:
    """Apply the journal to the session; returns (entries applied, torn tail dropped)."""
    if not isinstance(entries, list):
        raise SaveError("[[journal]]: se esperaba una lista de órdenes")
    torn = False
    for number, entry in enumerate(entries, 1):
        if entry == {} and number == len(entries):
            torn = True  # the header of an entry whose line was never written
            break
        where = f"[[journal]] nº {number}"
        if not isinstance(entry, dict) or len(entry) != 1:
            raise SaveError(f"{where}: se esperaba una sola clave (do, undo o redo)")
        ((kind, value),) = entry.items()
        where = f"{where} ({brief(kind)})"
        try:
            if kind == DO and isinstance(value, str):
                session.run(parse(value, session.fight))
            elif kind == UNDO and value is True:
                session.undo()
            elif kind == REDO and value is True:
                session.redo()
            else:
                raise SaveError(f"{where}: entrada desconocida «{brief(kind)} = {brief(repr(value))}»")
        except Refusal as refusal:
            raise SaveError(f"{where} «{brief(value)}» no se puede aplicar: {refusal}") from None
    return (len(entries) - 1 if torn else len(entries)), torn


def _history(document: dict[str, Any]) -> tuple[dict[str, Any], list[str], list[str]]:
    """The `[history]` table with its command lines and redo lines, checked."""
    history = document.get("history")
    if not isinstance(history, dict):
        raise SaveError("falta la sección [history]")
    lines = _strings(history.get("lines", []), "[history] › lines")
    redo = _strings(history.get("redo", []), "[history] › redo")
    return history, lines, redo


def _empty_base(history: dict[str, Any]) -> Fight:
    """The empty fight the history starts from, named in `[history]`."""
    name, rules, seed = (history.get(key) for key in ("name", "rules", "seed"))
    if not isinstance(name, str) or rules not in SYSTEMS or not isinstance(seed, int):
        raise SaveError("[history]: faltan o están mal name, rules o seed")
    return new_fight(name, rules, seed)


def _session_v2(document: dict[str, Any], text: str, schema: int = SCHEMA) -> Loaded:
    structured = schema >= 3
    current = _decode_fight(_fight_table(document, "fight"), "fight", structured)
    history, lines, redo = _history(document)
    if history.get("end") is not True:
        raise SaveError("el archivo está cortado: falta el final de [history] (end = true)")
    if "base" in document:
        base = _decode_fight(_fight_table(document, "base"), "base", structured)
        if not structured:
            base = recover_log(base)
    else:
        base = _empty_base(history)
    written = section_text(text, "fight")
    edited = written is None or digest_of(written) != document.get("digest")
    notes: list[str] = []
    if edited:  # the DJ changed the state by hand: it is the new start of the history
        session = Session(tidy_edit(current, notes) if structured else recover_log(current))
    elif not structured:
        session, edited = _old_session(base, lines, current, redo, notes)
    elif schema < 4:
        session, edited = _session_v3(base, lines, current, redo, notes)
    else:
        log = Log(current.log)
        current = evolve(current, log=log)
        session = Session.resume(base, lines, current, redo, _saved_states(document, log))
        expected = document.get("history_digest")
        if expected is not None and _history_digest(text) != expected and not session.verify():
            # [history] was changed by hand and no longer leads to [fight]: undo
            # must never jump to another fight, so the history restarts here.
            session = Session(current)
            edited = True
            notes.append("El historial guardado no lleva a este estado del combate (¿se"
                         " editó a mano?): deshacer empieza aquí")
    applied, torn = replay_journal(session, document.get("journal", []))
    return Loaded(session, schema, applied, edited, torn, notes)


def tidy_edit(fight: Fight, notes: list[str]) -> Fight:
    """A state edited by hand, as the engine would hold it: a condition word the rules
    don't know becomes a note (as `estado` would have refused it and `nota` kept it),
    and a duration whose condition is gone is dropped; the DJ is told (`notes`)."""
    changed = []
    told: list[str] = []
    for c in fight.combatants:
        known, odd = split_known(fight.rules, c.conditions)
        expires = tuple(e for e in c.expires if e.condition in known)
        if odd or len(expires) != len(c.expires):
            changed.append(evolve(c, conditions=known, expires=expires,
                                  notes=(*c.notes, *(Note(x) for x in odd))))
            told.extend(f"«{brief(x)}» de {brief(c.name)}" for x in odd)
    if not changed:
        return fight
    if told:
        notes.append("Estados que estas reglas no conocen, guardados como notas: " + ", ".join(told))
    else:
        notes.append("Se quitaron duraciones de estados que ya no tiene nadie")
    return fight.replace(*changed)


def as_of_v4(fight: Fight) -> Fight:
    """A fight saved before schema 4 as the engine now holds it: a condition word the
    rules don't know (RULES.md §5 "Known conditions only") becomes a note, and the
    melee fatigue the book gives (§6) stays off, as the fight was played without it
    (`fatiga-cc si` turns it on).  (Schema 3 had no durations: `tidy_edit` only
    moves the words; its notice is for hand edits, not for this.)"""
    return evolve(tidy_edit(fight, []), melee_fatigue=False)


def _as_played_before_v4(fight: Fight) -> dict[str, Any]:
    """What a schema-3 save could say of a state (its log and the fields added since
    left out): a replay by today's engine that agrees with it is the same fight."""
    plain = evolve(fight, log=(), window=None, melee_fatigue=False,
                   combatants=tuple(evolve(c, melee_this_turn=False, first_aid=False)
                                    for c in fight.combatants))
    return to_data(plain)


def _session_v3(
    base: Fight, lines: list[str], current: Fight, redo: list[str], notes: list[str]
) -> tuple[Session, bool]:
    """A save of schema 3: the rules changed since (the reaction window, the book's
    limits, known conditions, first aid, melee fatigue), so its history is replayed
    once by today's engine from its start (`as_of_v4`).  If that leads to the saved
    state, undo keeps the whole history; if not (a reaction typed after the count
    moved on now lands elsewhere, a condition word is a note now…), the saved state
    is kept exactly and the history restarts there, and the DJ is told."""
    current = as_of_v4(evolve(current, log=Log(current.log)))
    try:
        session = Session(as_of_v4(base), list(lines), None, list(redo))
        if _as_played_before_v4(session.fight) == _as_played_before_v4(current):
            return session, False
    except Refusal:
        pass
    notes.append("Partida de una versión anterior: las reglas nuevas (ventana de reacciones,"
                 " límites del libro) no repiten igual su historial, así que se conserva el"
                 " estado tal cual y deshacer empieza aquí")
    return Session(current), True


def _saved_states(document: dict[str, Any], log: Log) -> dict[int, Fight]:
    """The `[state_N]` tables of a save: states of the history, their logs prefixes of
    the current one (checked like `[fight]`, and by the first undo that reaches them)."""
    known: dict[int, Fight] = {}
    for key, table in document.items():
        if not (key.startswith("state_") and key[6:].isdigit() and isinstance(table, dict)):
            continue
        length = table.get("log")
        if type(length) is not int or not 0 <= length <= len(log):
            raise SaveError(f"[{key}] › log: se esperaba el número de entradas del registro")
        state = _decode_fight({k: v for k, v in table.items() if k != "log"}, key, True)
        if state.window is not None and state.window.log > length:
            raise SaveError(f"[{key}.window] › log: el registro de ese estado tiene {length} entradas")
        known[int(key[6:])] = evolve(state, log=log.prefix(length))
    return known


def _old_session(
    base: Fight, lines: list[str], current: Fight, redo: list[str], notes: list[str]
) -> tuple[Session, bool]:
    """A save from before schema 3: its history replayed (`_migrated`), or, if that
    does not lead to its state, the state with its log recovered from the text and
    the history restarting there (and True: as if edited)."""
    session = _migrated(base, lines, current, redo)
    if session is not None:
        return session, False
    notes.append("El historial guardado no lleva a este estado del combate: deshacer"
                 " empieza aquí")
    return Session(as_of_v4(recover_log(current))), True


def _session_v1(document: dict[str, Any]) -> Loaded:
    """Schema 1 (`format = "cdbtui"`, `version = 1`): the state and the history lines."""
    current = _decode_fight(document.get("fight"), "fight", structured=False)
    history, lines, redo = _history(document)
    notes: list[str] = []
    session, edited = _old_session(_empty_base(history), lines, current, redo, notes)
    return Loaded(session, 1, edited=edited, notes=notes)


def loads(text: str) -> Session:
    """A session from the text of a save; `SaveError` says in Spanish what is wrong."""
    return read_text(text).session


@frozen
class _ReadLog:
    """A log already read and checked, standing in `[header_log] › entries`."""

    entries: tuple[LogEntry, ...]


#: The log is read this many characters at a time (about 1,500 entries).
_LOG_PIECE = 256 * 1024


def _log_span(text: str, header: str) -> tuple[int, int] | None:
    """Where `[header_log]`'s entries are in `text`, as `_fight_text` writes them
    (one entry a line, between `entries = [` and a line `]`): (first, end)."""
    marker = f"\n[{header}_log]\nentries = [\n"
    start = text.find(marker)
    if start == -1 or text.find(marker, start + 1) != -1:
        return None
    first = start + len(marker)
    end = text.find("\n]\n", first - 1)
    return None if end == -1 else (first, end + 1)


def _logs_apart(text: str) -> tuple[str, dict[str, str]] | None:
    """`text` with the logs' entries left out, and those entries' text by header.

    A long fight's log is most of its save; read with the rest in one document, its
    tables (and the TOML reader's own tree of them) would all be in memory at once,
    beside the entries made from them: about three times the memory a DJ's laptop
    needs once the fight is open (benchmarks/storage.py).  Only for a save laid out
    as this program writes it: no multi-line strings anywhere (so no line of the
    log can be inside a string), each log section once."""
    if '"""' in text or "'''" in text:
        return None
    logs: dict[str, str] = {}
    rest = text
    for header in ("fight", "base"):
        span = _log_span(rest, header)
        if span is None:
            continue
        first, end = span
        logs[header] = rest[first:end]
        rest = rest[:first] + rest[end:]
    return (rest, logs) if logs else None


def _read_log(entries: str, header: str, structured: bool) -> _ReadLog | None:
    """The entries' text read (by rtoml: `_document` comes here only once it has read
    the rest with it) and checked a piece at a time; None if a piece is not TOML
    (then the whole document is read as it stands, and its errors are told)."""
    log: list[LogEntry] = []
    position = 0
    while position < len(entries):
        cut = entries.find("\n", position + _LOG_PIECE)
        cut = len(entries) if cut == -1 else cut + 1
        try:
            piece = _rtoml.loads("entries = [\n" + entries[position:cut] + "]\n")["entries"]
        except Exception:  # any refusal: the whole document decides and explains
            return None
        log.extend(_decode_log(piece, header, structured, first=len(log) + 1))
        position = cut
    return _ReadLog(tuple(log))


def _document(text: str) -> tuple[dict[str, Any], bool]:
    """`_parse(text)`, reading a long log a piece at a time when it can (`_logs_apart`)."""
    apart = _logs_apart(text)
    if apart is None:
        return _parse(text)
    rest, logs = apart
    document = _fast_toml(rest)
    if document is None:
        return _parse(text)
    schema = document.get("schema", document.get("version"))
    if (document.get("app", document.get("format")) != APP or isinstance(schema, bool)
            or not isinstance(schema, int) or not 1 <= schema <= SCHEMA):
        return _parse(text)  # refused: `read_text` says why
    structured = schema >= 3
    for header, entries in logs.items():
        table = document.get(f"{header}_log")
        log = _read_log(entries, header, structured) if isinstance(table, dict) else None
        if log is None or table.get("entries") != []:
            return _parse(text)
        table["entries"] = log
    return document, False


def read_text(text: str) -> Loaded:
    document, torn = _document(text)
    app = document.get("app", document.get("format"))
    if app != APP:
        raise SaveError("no es una partida de cdbtui (falta app = \"cdbtui\")")
    schema = document.get("schema", document.get("version"))
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise SaveError("la partida no indica su formato (schema)")
    if schema > SCHEMA:
        raise SaveError(
            f"la partida es de una versión más nueva de cdbtui (formato {schema},"
            f" este programa lee hasta el {SCHEMA}): actualiza cdbtui"
        )
    if schema < 1:
        raise SaveError(f"formato de partida desconocido ({schema})")
    try:
        loaded = _session_v1(document) if schema == 1 else _session_v2(document, text, schema)
    except DecodeError as error:
        raise SaveError(str(error)) from None
    except SaveError:
        raise
    except RecursionError:
        raise SaveError("la partida anida valores a una profundidad absurda") from None
    except Refusal as refusal:
        raise SaveError(f"el historial no se puede aplicar: {refusal}") from None
    loaded.torn = loaded.torn or torn
    return loaded


def read(path: Path) -> Loaded:
    """Read a save from disk; errors name the file."""
    path = Path(path)
    return loaded_from(path, read_bytes(path))


def loaded_from(path: Path, data: bytes) -> Loaded:
    try:
        text, cut = save_text(data)
        loaded = read_text(text)
    except SaveError as error:
        raise SaveError(f"{path}: {error}") from None
    loaded.torn = loaded.torn or cut
    return loaded


def save_text(data: bytes) -> tuple[str, bool]:
    """The text of a save, and whether a torn last line had to be cut off.

    A journal entry cut short may end inside a multi-byte character: that last,
    unfinished line is dropped (only after the snapshot's end); invalid bytes
    anywhere else are damage.
    """
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark some editors add
        data = data[3:]
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError as error:
        end = data.find(b"\nend = true\n")
        if end != -1 and error.start > end and b"\n" not in data[error.start:]:
            return data[: data.rfind(b"\n", 0, error.start) + 1].decode("utf-8", "replace"), True
        line = data[: error.start].count(b"\n") + 1
        raise SaveError(f"línea {line}: no es texto UTF-8 (archivo dañado)") from None


def load(path: Path) -> Session:
    return read(path).session


# ---------------------------------------------------------------- writing


def save(path: Path, session: Session) -> None:
    """Write the whole fight to `path` (atomically, keeping the old one as .bak)."""
    try:
        write_atomic(path, dumps(session), backup=True)
    except OSError as error:
        raise SaveError(f"no se puede guardar {path}: {reason(error)}") from None


def create(path: Path, session: Session) -> None:
    """Write a new save; refuses to overwrite an existing file."""
    path = Path(path)
    if path.exists():
        raise SaveError(f"{path} ya existe: no se sobrescribe")
    if not path.parent.exists():
        raise SaveError(f"no existe la carpeta {path.parent}")
    save(path, session)
