"""The command palette (ctrl+p): the same commands as the keys and the `:` line.

Each hit runs a command line through `app.run_line` (or opens the dialog the key
would open).  Only what the engine would accept now is offered (`engine.options`,
the same answers the keys and the maneuver picker use).  Typing a whole command line offers to run it as it is.  Labels
and lines hold names and typed text: they are shown literally (`text`).  `Palette`
is Textual's palette with its own words in Spanish.
"""

from __future__ import annotations

from functools import partial

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.widgets.option_list import Option

from ..engine.commands import quote
from ..engine.errors import Refusal
from ..engine.model import Fight
from ..engine.options import Options, advance, maneuver_option, new_turn, options
from ..engine.parser import parse
from ..printable import literal
from ..view import maneuver_choices
from .text import as_markup, plain

#: (label, line, the engine's answer to "may it run now?" or None: always offered).
GLOBAL = (
    ("Avanzar la cuenta atrás", "siguiente", advance),
    ("Turno nuevo", "turno", new_turn),
    ("Deshacer", "deshacer", None),
    ("Rehacer", "rehacer", None),
    ("Empezar el combate", "empezar", None),
    ("Tirar iniciativa de quien no tiene", "tirar", None),
)
DIALOGS = (
    ("Añadir combatiente…", "open_add_form"),
    ("Momentos iniciales…", "open_setup"),
    ("Línea de órdenes…", "open_command_line"),
    ("Ayuda", "open_help"),
)
#: The entries of a C-System or storyteller fight (no countdown, no CdB maneuvers):
#: (label, line).
LIST_GLOBAL = (
    ("Siguiente", "siguiente"),
    ("Turno nuevo", "turno"),
    ("Deshacer", "deshacer"),
    ("Rehacer", "rehacer"),
    ("Tirar iniciativa de quien no tiene", "tirar"),
)
LIST_DIALOGS = (
    ("Línea de órdenes…", "open_command_line"),
    ("Ayuda", "open_help"),
)
#: (label, word of the line, what `engine.options` must allow: a reaction's id, or a
#: verb of `Options`), offered for every combatant who may do it now.
PER_COMBATANT = (
    ("esquiva", "esquivar", "esquivar"),
    ("se pone a cubierto", "ponerse-a-cubierto", "ponerse-a-cubierto"),
    ("retrasa", "retrasa", "hold"),
    ("actúa ahora", "actua", "act_now"),
    ("fin (declina)", "fin", "decline"),
)
VERBS = ("hold", "act_now", "decline")


def highlight(matcher: Matcher, label: str) -> Content:
    """`matcher.highlight(label)` without reading `label` as markup (a name like
    `[/b]` would raise): the literal label with the matched letters styled."""
    content = Content(label)
    score, offsets = matcher.fuzzy_search.match(matcher.query, label)
    if score:
        for offset in offsets:
            if not label[offset].isspace():
                content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def _allowed(fight: Fight, name: str, can: Options, what: str) -> bool:
    if what in VERBS:
        return bool(getattr(can, what))
    try:
        return maneuver_option(fight, name, what).ok
    except Refusal:  # not a maneuver of this ruleset
        return False


class FightCommands(Provider):
    """Offers every command that applies to the open fight: those the engine would
    accept now (`engine.options`), for the selected combatant and for everyone."""

    _cached: tuple[object, object, list] | None = None

    def _entries(self) -> list[tuple[str, object, str]]:
        app = self.app
        fight = getattr(app, "fight", None)
        cached = self._cached
        if cached is not None and cached[0] is fight and cached[1] == app.selected:
            return cached[2]  # one palette session, one state: asked once
        entries: list[tuple[str, object, str]] = []
        listed = fight is not None and fight.rules in ("csystem", "narrador")
        for label, method in LIST_DIALOGS if listed else DIALOGS:
            entries.append((label, getattr(app, method), ""))
        if listed:
            # CdB's entries (the countdown, AC, its maneuvers) mean nothing here.
            entries += [(label, partial(app.run_line, line), line) for label, line in LIST_GLOBAL]
        elif fight is not None:
            entries += self._fight_entries(fight)
        self._cached = (fight, app.selected, entries)
        return entries

    def _fight_entries(self, fight: Fight) -> list[tuple[str, object, str]]:
        app = self.app
        entries: list[tuple[str, object, str]] = []
        for label, line, may in GLOBAL:
            if may is None or may(fight):
                # «turno» asks first while anyone has AC left, as the key `t` does.
                run = app.ask_new_turn if line == "turno" else partial(app.run_line, line)
                entries.append((label, run, line))
        selected = fight.find(app.selected or "")
        if selected is not None:
            for choice in maneuver_choices(fight, selected):
                if choice.variable is not None or not choice.allowed:
                    continue
                line = f"{quote(selected.name)} {choice.id}"
                entries.append((f"{selected.name}: {choice.name} ({choice.cost} AC)",
                                partial(app.run_line, line), line))
        for c in fight.combatants:
            can = options(fight, c.name, maneuvers=False)
            for label, word, what in PER_COMBATANT:
                if _allowed(fight, c.name, can, what):
                    line = f"{quote(c.name)} {word}"
                    entries.append((f"{c.name} {label}", partial(app.run_line, line), line))
        return entries

    async def discover(self) -> Hits:
        for label, callback, line in self._entries()[:30]:
            yield DiscoveryHit(plain(label), callback, text=literal(label),
                               help=as_markup(line) if line else None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, callback, line in self._entries():
            label = literal(label)
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, highlight(matcher, label), callback, text=label,
                          help=as_markup(line) if line else None)
        fight = getattr(self.app, "fight", None)
        if fight is not None and query.strip():
            try:
                parse(query, fight)
            except Refusal:
                return
            shown = literal(f"Ejecutar «{query}»")
            yield Hit(0.01, Content(shown), partial(self.app.run_line, query), text=shown)


class Palette(CommandPalette):
    """Textual's command palette with its last English words in Spanish: the prompt
    (`placeholder`) and the line shown when nothing matches."""

    NO_MATCHES = "Ninguna orden coincide"

    def _start_no_matches_countdown(self, search_value: str) -> None:
        # Textual 8.2.8's own method (pinned), with the text in Spanish.
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(Option(
                    Align.center(Text(self.NO_MATCHES, style="not bold")),
                    disabled=True, id=self._NO_MATCHES,
                ))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
