"""The players' view (`cdbtui view`): what it paints, how it follows the save, and
that no key touches the fight.

Most tests drive the polling by hand (`poll_seconds` huge, `poll_now`) so they are
deterministic; one follows a `cdbtui do` run in another process with the real timer.
"""

from __future__ import annotations

import asyncio
import os
import sys

from textual.widgets import Digits

from cdbtui.files import write_atomic
from cdbtui.tui import player
from cdbtui.tui.player import PlayerApp, file_signature
from conftest import demo_lines
from screen_text import screen_text

SIZE = (120, 36)
#: No automatic polling: the test says when the view looks at the file.
MANUAL = 3600.0

#: Mike and Sven against the demo's soldiers, with a hidden Ninja who acts first.
AMBUSH = [*demo_lines()[:-1], "alta Ninja ac=6 momento=12 oculto", "empezar"]
assert demo_lines()[-1] == "empezar"


async def poll_now(app: PlayerApp, pilot) -> None:
    """One poll of the save, waited for until it is painted."""
    app.poll()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def wait_for(pilot, check, *, rounds: int = 100) -> bool:
    """Let the app run until `check()` holds (at most `rounds` short pauses)."""
    for _ in range(rounds):
        if check():
            return True
        await pilot.pause(0.05)
    return check()


def run_cdbtui(*args: str) -> None:
    """`cdbtui ARGS` in another process, as the DJ's shell would run it."""
    import subprocess

    subprocess.run([sys.executable, "-m", "cdbtui", *args], check=True, capture_output=True)


# ---------------------------------------------------------------- what it shows


async def test_a_hidden_pnj_appears_nowhere_on_the_screen(save_from):
    path = save_from(AMBUSH)
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert app.fight.moment == 12  # the DJ's countdown stands at the Ninja's moment
        assert "ninja" not in text.casefold()
        assert "12" not in text and "11" not in text  # no rows above the visible ones
        assert "Turno 1 · Momento 7 · Actúa: Mike" in text
        assert "Cola: Mike" in text
        assert "Mike" in text and "Sven" in text and "Soldado 2" in text


async def test_a_private_pnj_shows_question_marks_and_its_numbers_stay_out_of_the_log(save_from):
    path = save_from([*demo_lines(), "mike disparar-armas-largas", '"soldado 1" cubierto',
                      "sven disparar-armas-largas", '"soldado 1" disparar-armas-largas',
                      '"soldado 2" cubierto'])
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "● ?" in text                          # Soldado 2's marker, AC hidden
        assert "Alta de Soldado 2" not in text        # its AC per turn would show
        assert "Soldado 2: Ponerse a Cubierto" not in text
        assert "Soldado 1: Disparar Armas Largas (3 AC)" in text  # not private: shown
        assert "Alta de Soldado 1 (PNJ, 6 AC)" in text


async def test_the_pj_strip_shows_each_pj_ac_left_and_status(save_from):
    path = save_from([*demo_lines(), "mike disparar-armas-largas"])
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "AC 4 / 7  ●●●●○○○" in text and "ha actuado" in text
        assert "AC 5 / 5  ●●●●●" in text and "por actuar" in text
        cards = app.query(".player-pc")
        assert [str(c.border_title) for c in cards] == ["Mike", "Sven"]
        assert not any(c.has_class("-acting") for c in cards)  # Soldado 1 acts now


async def test_a_pj_joining_mid_fight_gets_a_card(save_from):
    path = save_from(demo_lines())
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        run_cdbtui("do", str(path), "alta Lia ac=6 bando=pj momento=3", "alta Sombra ac=4 oculto momento=2")
        await poll_now(app, pilot)
        cards = app.query(".player-pc")
        assert [str(c.border_title) for c in cards] == ["Mike", "Sven", "Lia"]
        text = screen_text(app)
        assert "AC 6 / 6" in text and "Sombra" not in text


async def test_an_empty_fight_says_so_instead_of_the_djs_hint(save_from):
    path = save_from(["alta Mike ac=7 bando=pj"])
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Aún no hay nadie en la plantilla" in text
        assert "«a» añade" not in text
        assert "preparación" in text and "AC 7 / 7" in text


# ---------------------------------------------------------------- following the save


async def test_it_follows_a_change_made_by_cdbtui_do_in_another_process(save_from):
    path = save_from(AMBUSH)
    app = PlayerApp(path)  # the real timer
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Actúa: Mike" in screen_text(app)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cdbtui", "do", str(path), "ninja fin", "mike disparar-armas-largas",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )
        _, errors = await process.communicate()
        assert process.returncode == 0, errors.decode()
        assert await wait_for(pilot, lambda: "Actúa: Soldado 1" in screen_text(app))
        text = screen_text(app)
        assert "AC 4 / 7" in text and "● 4" in text
        assert "ninja" not in text.casefold()


async def test_one_poll_after_a_save_is_enough(save_from):
    """The latency is one poll (≤ 0.25 s) plus a read: no second look is needed."""
    assert player.POLL_SECONDS <= 0.25
    path = save_from(demo_lines())
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        run_cdbtui("do", str(path), "mike disparar-armas-largas")
        await poll_now(app, pilot)
        assert "Actúa: Soldado 1" in screen_text(app)


async def test_an_atomic_replace_is_seen_even_with_the_same_size_and_time(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text("uno", "utf-8")
    before = file_signature(path)
    other = tmp_path / "b.toml"
    other.write_text("dos", "utf-8")
    os.utime(other, ns=(before[0], before[0]))
    os.replace(other, path)
    after = file_signature(path)
    assert after[:2] == before[:2] and after != before
    path.unlink()
    assert file_signature(path) is None


async def test_it_survives_the_save_going_missing_and_coming_back(save_from):
    path = save_from(demo_lines())
    good = path.read_bytes()
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # the first read, before the file goes
        path.unlink()
        await poll_now(app, pilot)
        assert "Esperando" not in screen_text(app)  # one miss may be a save mid-write
        await poll_now(app, pilot)
        text = screen_text(app)
        assert f"Esperando a la partida: no existe {path.name}" in text
        assert "Turno 1 · Momento 7 · Actúa: Mike" in text and "Mike 7" in text  # last sheet kept
        write_atomic(path, good.decode("utf-8"))
        run_cdbtui("do", str(path), "mike disparar-armas-largas")
        await poll_now(app, pilot)
        text = screen_text(app)
        assert "Esperando" not in text
        assert "Actúa: Soldado 1" in text


async def test_it_survives_garbage_and_recovers(save_from):
    path = save_from(demo_lines())
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        good = path.read_bytes()
        path.write_bytes(b"\x00 esto no es una partida [[[")
        await poll_now(app, pilot)
        await poll_now(app, pilot)
        text = screen_text(app)
        assert "Esperando a la partida:" in text
        assert app.waiting and str(path) in app.waiting
        assert "Turno 1 · Momento 7 · Actúa: Mike" in text and "Mike 7" in text
        path.write_bytes(good)
        await poll_now(app, pilot)
        assert "Esperando" not in screen_text(app)
        assert app.waiting is None


async def test_a_missing_save_at_start_shows_the_waiting_line_until_it_appears(tmp_path, save_from):
    path = tmp_path / "luego.toml"
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Esperando a la partida: no existe" in text
        assert "Esperando a la partida…" in text
        source = save_from(demo_lines(), name="fuente")
        os.replace(source, path)
        await poll_now(app, pilot)
        text = screen_text(app)
        assert "Esperando" not in text and "Actúa: Mike" in text


# ---------------------------------------------------------------- keys


async def test_g_toggles_the_large_layout(save_from):
    path = save_from(demo_lines())
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        root = app.query_one("#player-root")
        assert not app.large and not root.has_class("-large")
        assert "Actúa: MIKE" not in screen_text(app)
        await pilot.press("g")
        await pilot.pause()
        assert app.large and root.has_class("-large")
        assert app.query_one("#player-moment", Digits).value == "7"
        text = screen_text(app)
        assert "Actúa: MIKE" in text
        assert "Turno 1 · Momento 7" not in text  # the one-line headline gives way
        await pilot.press("g")
        await pilot.pause()
        assert not app.large and "Turno 1 · Momento 7 · Actúa: Mike" in screen_text(app)


async def test_the_large_layout_can_be_asked_for_at_start(save_from):
    path = save_from(demo_lines())
    app = PlayerApp(path, large=True, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.query_one("#player-root").has_class("-large")
        assert "Actúa: MIKE" in screen_text(app)


async def test_no_key_changes_the_save(save_from):
    path = save_from(AMBUSH)
    before = path.read_bytes()
    signature = file_signature(path)
    app = PlayerApp(path, poll_seconds=MANUAL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in ("space", "enter", "t", "u", "ctrl+z", "ctrl+y", "1", "e", "c", "r", "w",
                    "f", "d", "s", "a", "i", "colon", "question_mark", "ctrl+p", "escape",
                    "left", "right", "tab", "g", "g", "n"):
            await pilot.press(key)
            await pilot.pause()
        await poll_now(app, pilot)
        assert app.is_running
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running
    assert path.read_bytes() == before
    assert file_signature(path) == signature
