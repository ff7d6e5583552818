"""The command palette (ctrl+p): the same commands as the keys and the `:` line.

Each hit runs a command line through `app.run_line` (or opens the dialog the key
would open).  Typing a whole command line offers to run it as it is.  Labels
and lines hold names and typed text: they are shown literally (`text`).
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from ..engine.commands import quote
from ..engine.errors import Refusal
from ..engine.parser import parse
from ..printable import literal
from ..view import maneuver_choices
from .text import as_markup, plain

GLOBAL = (
    ("Avanzar la cuenta atrás", "siguiente"),
    ("Turno nuevo", "turno"),
    ("Deshacer", "deshacer"),
    ("Rehacer", "rehacer"),
    ("Empezar el combate", "empezar"),
    ("Tirar iniciativa de quien no tiene", "tirar"),
)
DIALOGS = (
    ("Añadir combatiente…", "open_add_form"),
    ("Momentos iniciales…", "open_setup"),
    ("Línea de órdenes…", "open_command_line"),
    ("Ayuda", "open_help"),
)
PER_COMBATANT = (
    ("esquiva", "esquivar"),
    ("se pone a cubierto", "ponerse-a-cubierto"),
    ("retrasa", "retrasa"),
    ("actúa ahora", "actua"),
    ("fin (declina)", "fin"),
)


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


class FightCommands(Provider):
    """Offers every command that applies to the open fight."""

    def _entries(self) -> list[tuple[str, object, str]]:
        app = self.app
        fight = getattr(app, "fight", None)
        entries: list[tuple[str, object, str]] = []
        for label, method in DIALOGS:
            entries.append((label, getattr(app, method), ""))
        if fight is None:
            return entries
        for label, line in GLOBAL:
            entries.append((label, partial(app.run_line, line), line))
        selected = fight.find(app.selected or "")
        if selected is not None:
            for choice in maneuver_choices(fight, selected):
                if choice.variable is not None:
                    continue
                line = f"{quote(selected.name)} {choice.id}"
                entries.append((f"{selected.name}: {choice.name} ({choice.cost} AC)",
                                partial(app.run_line, line), line))
        for c in fight.combatants:
            for label, word in PER_COMBATANT:
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
