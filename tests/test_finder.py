"""`view.finder`: the `/` name matcher, Tab's walk and where the selection lands."""

from __future__ import annotations

from itertools import product

from cdbtui.view import selection_order
from cdbtui.view.finder import after_command, match_rank, matches, step, tab_order
from fights import demo_lines, play

NAMES = (
    "Mike", "Sven", "Brunilda Peña", "La Viuda Negra", "Orco número 23", "Orco número 28",
    "Soldado 1", "Soldado 2", "Ana", "Bea", "Capitán Ñúñez", "Perro",
)


def test_letters_are_the_beginnings_of_words_in_order_accents_and_case_optional():
    assert matches("sv", NAMES) == ("Sven",)
    assert matches("SVEN", NAMES) == ("Sven",)
    assert matches("vn", NAMES) == ("La Viuda Negra",)
    assert matches("viu", NAMES) == ("La Viuda Negra",)
    assert matches("23", NAMES) == ("Orco número 23",)
    assert matches("o28", NAMES) == ("Orco número 28",)
    assert set(matches("nu", NAMES)) == {"Capitán Ñúñez", "Orco número 23", "Orco número 28"}
    assert matches("ñú", NAMES) == matches("nu", NAMES)
    assert matches("pena", NAMES) == ("Brunilda Peña",)
    assert matches("so 2", NAMES) == ("Soldado 2",)  # spaces typed are ignored
    assert matches("nv", NAMES) == ()  # the words' order counts
    assert matches("vx", NAMES) == ()
    assert matches("", NAMES) == () and matches("  ", NAMES) == ()


def test_the_best_first_then_the_order_given():
    assert matches("s", NAMES) == ("Sven", "Soldado 1", "Soldado 2")
    # From the first word before a later word; the whole name first of all.
    assert matches("p", NAMES) == ("Perro", "Brunilda Peña")
    assert match_rank("Ana", "Ana") == 0
    assert match_rank("an", "Ana") == 1
    assert match_rank("ne", "La Viuda Negra") == 2
    assert match_rank("x", "Ana") is None
    assert matches("a", ("Bea Ana", "Ana")) == ("Ana", "Bea Ana")


def shortest(name: str, names) -> int:
    """Keys to reach `name` with the finder: `/`, then letters until it is the only
    one left (the next key is then for it), or until it is first and ⏎."""
    alphabet = sorted({ch for n in names for ch in n.casefold() if ch.isalnum()})
    for length in (1, 2, 3):
        for letters in product(alphabet, repeat=length):
            found = matches("".join(letters), names)
            if found == (name,):
                return 1 + length
            if found and found[0] == name:
                best = 2 + length
                return best
    return 99


def test_any_of_twelve_is_three_keys_away():
    counts = {name: shortest(name, NAMES) for name in NAMES}
    assert max(counts.values()) <= 3, counts


def test_tab_walks_the_queue_then_holders_and_waiters():
    session = play(*demo_lines())
    fight = session.fight
    order = selection_order(fight)
    assert tab_order(fight, order) == ("Mike",)
    session.execute("mike retrasa")  # moment 6: Soldado 1; Mike holds
    assert tab_order(session.fight, selection_order(session.fight)) == ("Soldado 1", "Mike")
    assert step(("a", "b", "c"), "c", 1) == "a"
    assert step(("a", "b", "c"), "a", -1) == "c"
    assert step(("a", "b"), "z", 1) == "a" and step(("a", "b"), "z", -1) == "b"
    assert step((), "a", 1) is None


def test_the_selection_stays_on_who_acted_while_it_may_and_follows_the_head():
    two = ("alta A ac=5 agi=4", "alta B ac=5 agi=3", "momento A 5", "momento B 5", "empezar")
    session = play(*two)
    before = session.fight
    session.execute("B gasta 1")  # the second of two at moment 5
    assert after_command(before, session.fight, "B", "B") == "B"
    before = session.fight
    session.execute("A gasta 1")  # the head finished: follow the queue
    assert after_command(before, session.fight, "A", "A") is None
    # A command about somebody else, or about nobody: follow the queue.
    assert after_command(before, session.fight, "B", "A") is None
    assert after_command(before, session.fight, "B", None) is None
    # Still in the queue (a holder acting now): it stays.
    session = play(*demo_lines(), "mike retrasa")
    before = session.fight
    session.execute("mike actua")
    assert after_command(before, session.fight, "Mike", "Mike") == "Mike"
