"""STORYTELLER.md §15 (two turns in a morgue) played from the keyboard, both turns.

The lines are /tmp/cs/NARR_SYNTAX.md's script of the example.  The fight opens on
the demo's cast (`roster.NARR_DEMO_LINES` without its initiatives), so both turns'
initiatives are typed with «i» and closed with space; the declarations with «d»,
the actions with «a» (and its target step), the defenses with «g», the aborts with
«b», the damage with «x» and the conditions with «e».  After the relevant rows the
test reads `app.fight`: the phase, the declarer or the actor, each declared action's
pool and penalty, Willpower points, health, ammo; at the end, turn 3's initiative
phase."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))

import pytest
from helpers import keys
from screen_text import screen_text

from cdbtui.engine.session import Session
from cdbtui.roster import NARR_DEMO_LINES
from cdbtui.store import create
from _narr_now import current_sheet

SEED = 1234
#: The demo's turn-1 initiatives and «siguiente»: typed here from the keyboard.
DEMO_INITIATIVES = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10",
                    "iniciativa Cadáver 8", "siguiente")


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


@pytest.fixture
def app(tmp_path):
    from cdbtui.tui.app import CdbApp

    assert NARR_DEMO_LINES[-5:] == DEMO_INITIATIVES
    session = Session.new("Depósito", "narrador", SEED)
    for line in NARR_DEMO_LINES[:-5]:
        session.execute(line)
    path = tmp_path / "deposito.toml"
    create(path, session)
    return CdbApp(path)


# ------------------------------------------------------------------ helpers


def sheet(app, name):
    return current_sheet(app.fight, name)  # as it stands in this turn


def declared(app, name) -> list[tuple[str, int | None, int, bool]]:
    """(action, pool, penalty, defense) of each declared action, in order."""
    return [(d.action, d.pool, d.penalty, d.defense) for d in sheet(app, name).declared]


def health(app, name) -> tuple[int, int, int]:
    """(lethal, bashing, dice penalty)."""
    s = sheet(app, name)
    return s.lethal, s.bashing, s.health_penalty


def ammo(app, name) -> int:
    return sheet(app, name).weapons[0].ammo


def points(app, name) -> tuple[int, int]:
    return sheet(app, name).points, sheet(app, name).willpower


def ids(app, name) -> set[str]:
    return {c.id for c in sheet(app, name).conditions}


async def line_value(app) -> str:
    from textual.widgets import Input

    return app.screen.query_one(Input).value


async def burst(pilot, *presses: tuple[str, str | None]) -> None:
    """(key, character) events posted in a row (the ones `pilot.press` sends, without
    waiting for the app to go idle after each: a fast typist), then one pause."""
    from textual import events

    for key, char in presses:
        pilot.app.post_message(events.Key(key, char))
    await pilot.pause()


async def type_line(pilot, text: str) -> None:
    """Finish the `:` line a key opened: `text` typed key by key, then Enter."""
    from textual.keys import _character_to_key

    await burst(pilot, *((char if char.isalnum() else _character_to_key(char), char)
                         for char in text))
    await keys(pilot, "enter")


async def select(pilot, app, name: str) -> None:
    """↓ or ↑ to `name`, in the list's order (top to bottom)."""
    from cdbtui.view import narrlist

    rows = narrlist.narr_selection_order(app.fight)
    steps = rows.index(name) - rows.index(app.selected)
    await burst(pilot, *(("down" if steps > 0 else "up", None),) * abs(steps))
    assert app.selected == name


async def initiatives(pilot, app, values: dict[str, int]) -> None:
    """«i» on each (selected with ↑/↓), its total typed; then space ends the phase.
    With the turn over (SYSTEMS §3.4 `over`) the first «i» starts the next turn."""
    assert app.fight.narr.phase in ("initiative", "over")
    for name, value in values.items():
        await select(pilot, app, name)
        await keys(pilot, "i")
        assert await line_value(app) == f"iniciativa {name} "
        await type_line(pilot, str(value))
        assert sheet(app, name).initiative == value
    await keys(pilot, "space")


async def declare(pilot, app, who: str, what: str) -> None:
    """«d» prefills the declarer (the selection follows it)."""
    assert app.fight.narr.declarer == who and app.selected == who
    await keys(pilot, "d")
    assert await line_value(app) == f"declara {who} "
    await type_line(pilot, what)


async def act_at(pilot, app, actor: str, target: str, successes: int) -> None:
    """«a» on the actor's go: the target step (↓ to `target`, ⏎), the successes."""
    assert app.fight.actor == actor
    await keys(pilot, "a")
    names = [c.label for c in app.screen.choices]
    assert target in names, names
    await burst(pilot, *(("down", None),) * names.index(target))
    await keys(pilot, "enter")
    assert await line_value(app) == f"{actor} actua a {target} exitos="
    await type_line(pilot, str(successes))
    attack = app.fight.narr.attack
    assert (attack.attacker, attack.target, attack.successes) == (actor, target, successes)
    assert app.selected == actor  # the selection stays with the attacker (SYSTEMS §3.1 step 4)


# ------------------------------------------------------------------ the example


async def test_the_worked_example_both_turns_from_the_keyboard(app):
    from cdbtui.tui.screens.narrfight import NarrFightScreen

    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NarrFightScreen)
        assert (app.fight.turn, app.fight.narr.phase) == (1, "initiative")
        # The cast: Willpower points and full ammo (magazine + the chamber round).
        assert [points(app, n) for n in ("Kara", "Víctor", "Matón", "Cadáver")] == [
            (5, 5), (4, 4), (3, 3), (0, 0)]
        assert (ammo(app, "Kara"), ammo(app, "Víctor"), ammo(app, "Matón")) == (6, 43, 18)

        # ======== turn 1: initiative; the tie at 13 goes to the higher rating (Kara).
        await initiatives(pilot, app, {"Kara": 13, "Matón": 13, "Víctor": 10, "Cadáver": 8})
        fight = app.fight
        assert (fight.turn, fight.narr.phase) == (1, "declare")
        assert fight.narr.order == ("Kara", "Matón", "Víctor", "Cadáver")
        assert "Turno 1 · Declaración ↑ · Declara: Cadáver (8)" in screen_text(app)

        # Declaration, lowest first.
        await declare(pilot, app, "Cadáver", "golpe")
        assert declared(app, "Cadáver") == [("golpe", 4, 0, False)]
        await declare(pilot, app, "Víctor", "fuego-automatico")
        assert declared(app, "Víctor") == [("fuego-automatico", 17, 0, False)]
        await declare(pilot, app, "Matón", "disparos-multiples 2")
        assert declared(app, "Matón") == [("disparos-multiples", 5, -2, False),
                                          ("disparos-multiples", 5, -3, False)]
        await declare(pilot, app, "Kara", "disparo esquiva")
        assert declared(app, "Kara") == [("disparo", 6, -2, False), ("esquiva", 7, -3, True)]
        # After the highest declares, the action phase starts by itself, highest first.
        assert (app.fight.narr.phase, app.fight.narr.declarer) == ("act", None)
        assert app.fight.actor == "Kara" and app.selected == "Kara"
        assert "Acción ↓ · Actúa: Kara (13)" in screen_text(app)

        # 1: Kara shoots Matón, 2 successes: revolver 6 → 5.
        await act_at(pilot, app, "Kara", "Matón", 2)
        assert ammo(app, "Kara") == 5
        # 2: Matón tries to abort («b»): FV roll, 0 successes: fails, no point spent.
        await keys(pilot, "b")
        assert await line_value(app) == "Matón aborta "
        await type_line(pilot, "tira exitos=0 esquiva")
        assert points(app, "Matón") == (3, 3)
        assert not sheet(app, "Matón").aborted
        assert app.fight.narr.attack is not None  # still waits for its damage
        # 3: «x» on the attack's target: 3 letal → −1; Matón keeps his two shots.
        await keys(pilot, "x")
        assert await line_value(app) == "dano Matón "
        await type_line(pilot, "3 letal")
        assert health(app, "Matón") == (3, 0, -1)
        assert app.fight.narr.attack is None
        assert [d.done for d in sheet(app, "Matón").declared] == [False, False]
        assert app.fight.actor == "Matón" and app.selected == "Matón"

        # 4, 5: Matón's two shots, Kara dodges each with «g»: Glock 18 → 17 → 16.
        for shot, (successes, dodge, left) in enumerate(((1, 2, 17), (1, 1, 16)), 1):
            await act_at(pilot, app, "Matón", "Kara", successes)
            assert ammo(app, "Matón") == left
            await keys(pilot, "g")
            assert await line_value(app) == "Kara defiende "
            await type_line(pilot, f"esquiva exitos={dodge}")
            assert app.fight.narr.attack is None
            assert sheet(app, "Kara").defenses == shot
            assert health(app, "Kara") == (0, 0, 0)
        assert sheet(app, "Matón").weapons[0].shots == 2
        assert app.fight.actor == "Víctor"

        # 6: Víctor's automatic fire at the Cadáver: 6 successes, rifle 43 → 0;
        # 6 letal: Tullido −5.
        await act_at(pilot, app, "Víctor", "Cadáver", 6)
        assert ammo(app, "Víctor") == 0
        await keys(pilot, "x")
        assert await line_value(app) == "dano Cadáver "
        await type_line(pilot, "6 letal")
        assert health(app, "Cadáver") == (6, 0, -5)

        # 7: the Cadáver, stunned, loses its Golpe; the turn is over (SYSTEMS §3.4).
        fight = app.fight
        assert (fight.turn, fight.narr.phase, fight.actor) == (1, "over", None)
        assert "Turno 1 · turno terminado" in screen_text(app)
        assert "aturdido" not in ids(app, "Cadáver")  # it ended as its place passed

        # ======== turn 2: initiative (the first «i» starts it).
        await initiatives(pilot, app, {"Matón": 13, "Kara": 11, "Víctor": 8, "Cadáver": 4})
        assert (app.fight.turn, app.fight.narr.phase) == (2, "declare")
        assert all(sheet(app, n).declared == () for n in ("Kara", "Víctor", "Matón", "Cadáver"))
        assert app.fight.narr.order == ("Matón", "Kara", "Víctor", "Cadáver")

        # Declaration, lowest first.  Pools are the base (traits): the wounds' penalty
        # (Cadáver −5, Matón −1) is the sheet's health.
        await declare(pilot, app, "Cadáver", "placaje")
        assert declared(app, "Cadáver") == [("placaje", 6, 0, False)]
        assert health(app, "Cadáver")[2] == -5
        await declare(pilot, app, "Víctor", "recarga")
        assert declared(app, "Víctor") == [("recarga", None, 0, False)]
        await declare(pilot, app, "Kara", "defensa-total esquiva")
        assert declared(app, "Kara") == [("esquiva", 7, 0, True)]
        assert sheet(app, "Kara").full_defense
        await declare(pilot, app, "Matón", "patada")
        assert declared(app, "Matón") == [("patada", 6, 0, False)]
        assert health(app, "Matón")[2] == -1
        assert (app.fight.narr.phase, app.fight.actor) == ("act", "Matón")

        # 8: Matón's Patada at Kara, 2 successes (before her place: her total defense
        # does not cover it).
        await act_at(pilot, app, "Matón", "Kara", 2)
        # 9: Kara aborts («b») spending a point: Esquiva, 3 successes ≥ 2: miss.
        await keys(pilot, "b")
        assert await line_value(app) == "Kara aborta "
        await type_line(pilot, "gasta esquiva exitos=3")
        assert points(app, "Kara") == (4, 5)
        assert sheet(app, "Kara").aborted and sheet(app, "Kara").spent
        assert not sheet(app, "Kara").full_defense  # given up: no more defenses
        assert app.fight.narr.attack is None and health(app, "Kara") == (0, 0, 0)
        # 10: Kara has nothing left: done; Víctor's go.
        assert sheet(app, "Kara").status == "acted"
        assert app.fight.actor == "Víctor"

        # 11: «a»: Víctor's Recarga runs as it is: the magazine, no chamber round: 42.
        await keys(pilot, "a")
        assert ammo(app, "Víctor") == 42
        assert app.fight.actor == "Cadáver"

        # 12: the Placaje at Víctor, 1 success, no defense: «x», 2 contundente → −1;
        # the last go ends: turn 2 is over (SYSTEMS §3.4).
        await act_at(pilot, app, "Cadáver", "Víctor", 1)
        await keys(pilot, "x")
        assert await line_value(app) == "dano Víctor "
        await type_line(pilot, "2 contundente")
        assert health(app, "Víctor") == (0, 2, -1)
        fight = app.fight
        assert (fight.turn, fight.narr.phase, fight.actor) == (2, "over", None)
        assert fight.narr.attack is None
        assert all(sheet(app, n).status == "acted" for n in ("Kara", "Víctor", "Matón", "Cadáver"))
        assert "Turno 2 · turno terminado" in screen_text(app)

        # 13: the Placaje's falls, typed by the GM with «e»: Cadáver derribado (−2 to
        # its next initiative), Víctor desequilibrado.
        await select(pilot, app, "Cadáver")
        await keys(pilot, "e")
        assert await line_value(app) == "estado Cadáver +"
        await type_line(pilot, "derribado")
        assert ids(app, "Cadáver") == {"derribado"} and sheet(app, "Cadáver").ini_penalty == 2
        await select(pilot, app, "Víctor")
        await keys(pilot, "e")
        assert await line_value(app) == "estado Víctor +"
        await type_line(pilot, "desequilibrado")
        assert ids(app, "Víctor") == {"desequilibrado"}

        # State for turn 3.
        assert (health(app, "Matón"), points(app, "Matón"), ammo(app, "Matón")) == ((3, 0, -1), (3, 3), 16)
        assert (health(app, "Kara"), points(app, "Kara"), ammo(app, "Kara")) == ((0, 0, 0), (4, 5), 5)
        assert (health(app, "Víctor"), ammo(app, "Víctor")) == ((0, 2, -1), 42)
        assert health(app, "Cadáver") == (6, 0, -5)

        # ======== turn 3: «T» (turno) starts its initiative phase, nobody left to ask about.
        await keys(pilot, "T")
        fight = app.fight
        assert (fight.turn, fight.narr.phase, fight.actor) == (3, "initiative", None)
        assert fight.narr.order == () and fight.narr.attack is None
        for name in ("Kara", "Víctor", "Matón", "Cadáver"):
            s = sheet(app, name)
            assert (s.status, s.initiative, s.declared) == ("to_declare", None, ()), name
        assert "Turno 3 · Iniciativa" in screen_text(app)
        assert ids(app, "Víctor") == {"desequilibrado"} and sheet(app, "Cadáver").ini_penalty == 2
        assert points(app, "Kara") == (4, 5) and not sheet(app, "Kara").spent
