"""How the DJ reaches a combatant without walking the columns: pure, no Textual.

- `matches(query, names)`: the `/` finder.  The letters typed are the beginnings of
  words of the name, in order, words skipped allowed, accents and case optional:
  "sv" finds "Sven", "o23" and "23" find "Orco número 23", "vn" finds "La Viuda
  Negra", "nu" finds "Orco número 23".  Spaces typed are ignored.  The best first:
  the name itself, then a match from its first word, then the order given.
- `tab_order(fight)`: what Tab walks: the queue at this moment, then those who
  may still step in (holders, waiters), then nobody else.
- `after_command(...)`: where the selection goes after a command.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.model import Fight, Status
from ..engine.queries import queue
from ..engine.text import fold


def _words(name: str) -> tuple[str, ...]:
    return tuple("".join(ch if ch.isalnum() else " " for ch in fold(name)).split())


def _from(query: str, words: tuple[str, ...], first: int) -> bool:
    """`query` is a concatenation of prefixes of words[first:], in order."""
    if not query:
        return True
    for index in range(first, len(words)):
        word = words[index]
        length = 0
        while length < len(word) and length < len(query) and word[length] == query[length]:
            length += 1
            if _from(query[length:], words, index + 1):
                return True
    return False


def _key(query: str) -> str:
    return "".join(ch for ch in fold(query) if ch.isalnum())


def match_rank(query: str, name: str) -> int | None:
    """How well `query` names `name`: 0 the whole name, 1 from its first word, 2 from
    a later word; None: it does not."""
    key = _key(query)
    if not key:
        return None
    words = _words(name)
    if key == "".join(words):
        return 0
    if _starts_first(key, words):
        return 1
    return 2 if _from(key, words, 0) else None


def _starts_first(key: str, words: tuple[str, ...]) -> bool:
    """A match of `key` that begins on the first word."""
    return bool(words) and any(
        words[0].startswith(key[:n]) and _from(key[n:], words, 1)
        for n in range(1, min(len(key), len(words[0])) + 1)
    )


def matches(query: str, names: Sequence[str]) -> tuple[str, ...]:
    """The names `query` finds, the best first (ties keep the order of `names`)."""
    ranked = []
    for position, name in enumerate(names):
        rank = match_rank(query, name)
        if rank is not None:
            ranked.append((rank, position, name))
    return tuple(name for _, _, name in sorted(ranked))


def tab_order(fight: Fight, names: Sequence[str]) -> tuple[str, ...]:
    """Whom Tab walks: the queue at this moment (its order), then the holders and the
    waiters who may still step in (in `names`' order, the sheet's)."""
    line = [c.name for c in queue(fight)]
    seen = set(line)
    rest = [
        name for name in names
        if name not in seen and (c := fight.find(name)) is not None
        and c.status in (Status.HOLDING, Status.WAITING)
    ]
    return (*line, *rest)


def step(order: Sequence[str], current: str | None, amount: int) -> str | None:
    """The name `amount` places from `current` in `order`, wrapping (not in it: the
    first, or the last going back)."""
    if not order:
        return None
    if current not in order:
        return order[0] if amount > 0 else order[-1]
    return order[(list(order).index(current) + amount) % len(order)]


def after_command(before: Fight, after: Fight, selected: str | None, actor: str | None) -> str | None:
    """Who is selected after a command, or None: the head of the queue.

    After a command by the selected combatant (`actor`), the selection stays on it
    while it can still act at this moment (the countdown has not moved on and it is
    still in the queue), or when it was not the head of the queue (the DJ chose it:
    a reaction, the second of two at a moment); it follows the queue when the head
    has just finished.  Any other command follows the queue.
    """
    if selected is None or actor is None or selected != actor:
        return None
    if after.find(selected) is None:
        return None
    if after.moment == before.moment and any(c.name == selected for c in queue(after)):
        return selected
    line = queue(before)
    was_head = bool(line) and line[0].name == selected
    return None if was_head else selected
