"""The end of a storyteller turn and the ambush, by the spec's words.

- SYSTEMS.md §3.4: «`phase` ∈ `initiative`, `declare`, `act`, `over`»; STORYTELLER.md
  §4: «The turn ends when the last in the order has acted (delayed actions not taken
  by then are lost). Then the next turn's initiative phase starts.»; SYSTEMS.md §3.5:
  «`turno` from any phase ends the turn (delayed and undone actions are lost) and
  starts the next initiative phase».  The turn is `over` once the last in the order
  has acted; `turno` or `siguiente` start the next initiative phase, and so does the
  next turn's first command (`iniciativa`, `tirar`, `cambiar`, `fv`, `emboscada`); every
  command that worked once the last go was over still works.
- SYSTEMS.md §3.2: «`emboscada A B exitos=N` | resolve an ambush before turn 1»;
  §3.3's refusals list none for it, and its warnings («kept after confirmation») list
  «an ambush on someone already fighting»; §3.5: «Warnings are applied by `cdbtui do`
  with the warning on stderr (exit 0) … the TUI asks first».

Engine steps through `Session`, the shell through the in-process `cdbtui` (exit
codes, stderr, the save unchanged after a refusal), the screen through Pilot.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))
sys.path.insert(0, str(Path(__file__).parent))

import pytest
from _narr_lines import SEED, TURN_1, narr_session
from _narr_now import current_sheet
from helpers import keys
from screen_text import screen_text
from shell import cdbtui

from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session
from cdbtui.roster import NARR_DEMO_LINES
from cdbtui.store import create
from cdbtui.view.narrador import narr_state_json

NAMES = ("Kara", "Matón", "Víctor", "Cadáver")
#: Turn 1 with nobody doing anything: every place passes (the demo ends in the declarations).
PASS_ALL = ("siguiente", "siguiente", "siguiente", "siguiente")
#: Turn 1 with Víctor delaying and nobody taking an action at their place.
DELAYED = ("declara cadaver golpe", "declara victor retrasa", "declara maton disparo", "declara kara disparo",
           "kara fin", "maton fin", "cadaver fin")


def sh(session: Session, name: str):
    return current_sheet(session.fight, name)


def texts(session: Session, since: int) -> list[str]:
    return [e.text for e in session.fight.log[since:]]


def refused(session: Session, line: str) -> str:
    before = session.fight
    with pytest.raises(Refusal) as caught:
        session.execute(line)
    assert session.fight is before
    return str(caught.value)


# ================================================================ the turn is over


def test_phase_over_when_the_last_in_the_order_has_acted():
    """§3.4 `over`; STORYTELLER §4: «The turn ends when the last in the order has acted»
    (the worked example's turn 1: the stunned Cadáver's place passes last)."""
    s = narr_session(*TURN_1)
    fight = s.fight
    assert (fight.turn, fight.narr.phase, fight.actor, fight.narr.declarer, fight.narr.attack) == \
        (1, "over", None, None, None)
    assert fight.narr.order == NAMES  # this turn's order, still shown
    assert {sh(s, n).status for n in NAMES} == {"acted"}
    assert any(t.startswith("Fin del turno 1") for t in texts(s, 0))


def test_phase_over_when_nobody_declared_anything():
    s = narr_session(*PASS_ALL)
    assert (s.fight.turn, s.fight.narr.phase) == (1, "over")


def test_delayed_actions_not_taken_by_then_are_lost():
    """STORYTELLER §4 «(delayed actions not taken by then are lost)»: the delayer's go is
    over with the turn, its action lost and said so."""
    s = narr_session()
    for line in DELAYED[:-1]:
        s.execute(line)
    since = len(s.fight.log)
    s.execute(DELAYED[-1])
    assert (s.fight.turn, s.fight.narr.phase) == (1, "over")
    assert sh(s, "Víctor").status == "acted" and sh(s, "Víctor").declared == ()
    assert any("Víctor" in t and "pierde" in t for t in texts(s, since))
    refused(s, "victor actua disparo a cadaver exitos=1")  # no later point of the action phase


def test_turno_from_over_starts_the_next_initiative_phase():
    """§3.5: «`turno` from any phase ends the turn … and starts the next initiative
    phase» (over: nobody has anything left to lose)."""
    s = narr_session(*TURN_1)
    since = len(s.fight.log)
    s.execute("turno")
    assert (s.fight.turn, s.fight.narr.phase, s.fight.narr.order) == (2, "initiative", ())
    assert all(sh(s, n).initiative is None and sh(s, n).declared == () for n in NAMES)
    assert not any("pierden" in t for t in texts(s, since))
    assert any("Turno 2" in t for t in texts(s, since))


def test_turno_from_over_starts_one_turn_not_two():
    s = narr_session(*TURN_1, "turno")
    assert s.fight.turn == 2


def test_siguiente_from_over_starts_the_next_initiative_phase():
    """§3.5 «`siguiente` forces the step»: once over, the step is the next turn."""
    s = narr_session(*PASS_ALL, "siguiente")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")
    refused(s, "siguiente")  # and then, as ever, not before everyone has an initiative


def test_empezar_from_over_starts_the_next_initiative_phase():
    s = narr_session(*PASS_ALL, "empezar")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")


@pytest.mark.parametrize("line", ["iniciativa Matón 13", "tirar", "tirar Matón"])
def test_the_next_turn_s_initiative_typed_or_rolled_from_over_starts_it(line):
    """§3.5 «combatants are added and initiatives typed or rolled there»: what worked once
    the last go was over still works, in turn 2's initiative phase."""
    s = narr_session(*TURN_1, line)
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")
    assert sh(s, "Matón").initiative is not None
    assert s.fight.narr.order[0] == "Matón" or line == "tirar"


def test_the_worked_example_s_turn_2_from_over_as_before():
    """STORYTELLER §15 turn 2's initiatives typed right after turn 1's last go."""
    s = narr_session(*TURN_1, "iniciativa Matón 13", "iniciativa Kara 11", "iniciativa Víctor 8",
                     "iniciativa Cadáver 4", "siguiente")
    assert (s.fight.turn, s.fight.narr.phase, s.fight.narr.declarer) == (2, "declare", "Cadáver")
    assert s.fight.narr.order == ("Matón", "Kara", "Víctor", "Cadáver")


def test_one_willpower_point_per_turn_from_over_counts_for_the_next_turn():
    """STORYTELLER §12 «one Willpower point per turn»: a point spent in turn 1, then one
    after its end: the second is turn 2's, not refused."""
    s = narr_session("fv kara -1", *PASS_ALL)
    assert s.fight.narr.phase == "over"
    s.execute("fv kara -1")
    assert s.fight.turn == 2 and sh(s, "Kara").points == 3 and sh(s, "Kara").spent
    refused(s, "fv kara -1")


@pytest.mark.parametrize("line", [
    "dano Víctor 1 contundente", "estado Víctor +derribado", "estado Víctor +desequilibrado",
    "cobertura Kara 2", "oponentes Matón 2", "municion Víctor rifle-de-asalto 10", "nota Kara sangra",
    "arma Kara pistola-ligera", "alta Refuerzo des=2 ast=2 fv=1", "baja Cadáver", "nombre Depósito 2",
])
def test_every_command_that_worked_after_the_last_go_still_works(line):
    """Before `over`, the last go led straight into turn 2's initiative phase; these
    lines worked there and work in `over` (applied to the turn that just ended)."""
    s = narr_session(*TURN_1)
    s.execute(line)
    s.execute("turno")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")


def test_desequilibrado_after_the_last_go_counts_in_the_next_turn():
    """STORYTELLER §15 row 13 (typed once the turn is over): Víctor +1 dif in turn 3 —
    here turn 2, the turn after the one just over."""
    s = narr_session(*TURN_1, "estado Víctor +desequilibrado", "turno")
    until = next(c.until for c in sh(s, "Víctor").conditions if c.id == "desequilibrado")
    assert until == 2


def test_aturdido_after_the_last_go_loses_the_next_turn_s_action():
    """STORYTELLER §10: Aturdido loses the next action; once the turn is over, that is
    the next turn's (Kara, Resistencia 2, takes 3)."""
    s = narr_session(*TURN_1, "dano Kara 3 letal")
    assert any(c.id == "aturdido" and c.until == 2 for c in sh(s, "Kara").conditions)
    for line in ("turno", "iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10",
                 "iniciativa Cadáver 8", "siguiente", "declara cadaver golpe", "declara victor recarga",
                 "declara maton disparo"):
        s.execute(line)
    # Kara, stunned, is passed in the declaration: the action phase starts with Matón
    assert sh(s, "Kara").status in ("stunned", "acted") and s.fight.narr.phase == "act"
    assert s.fight.actor == "Matón"


@pytest.mark.parametrize("line", ["declara kara disparo", "kara actua", "kara fin", "kara retrasa",
                                  "kara defiende esquiva exitos=1", "kara aborta tira exitos=1 esquiva",
                                  "sorpresa Kara"])
def test_nothing_of_the_ended_turn_is_done_once_it_is_over(line):
    s = narr_session(*TURN_1)
    refused(s, line)


def test_undo_from_over_goes_back_to_the_last_go():
    s = narr_session(*TURN_1)
    s.execute("deshacer")
    assert (s.fight.turn, s.fight.narr.phase) == (1, "act")
    s.execute("rehacer")
    assert (s.fight.turn, s.fight.narr.phase) == (1, "over")


def test_the_json_shows_phase_over():
    state = narr_state_json(narr_session(*TURN_1).fight)
    assert (state["turn"], state["phase"], state["actor"], state["declarer"]) == (1, "over", None, None)


def test_turno_from_the_action_phase_still_goes_straight_to_the_next_initiative():
    """§3.5: `turno` «from any phase … starts the next initiative phase» (no `over` between)."""
    s = narr_session("declara cadaver golpe", "declara victor disparo", "declara maton disparo",
                     "declara kara disparo", "turno")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")


# ---------------------------------------------------------------- through the shell


def build(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "deposito.toml"
    made = cdbtui("new", str(path), "--rules", "narrador")
    assert made.returncode == 0, made.stderr
    if lines:
        result = cdbtui("do", str(path), *lines)
        assert result.returncode == 0, result.stderr
    return path


def state(path: Path) -> dict:
    shown = cdbtui("show", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def refuse(path: Path, line: str) -> str:
    """Exit 1, one line on stderr, the save byte for byte as it was."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), line)
    assert result.returncode == 1, (line, result.stdout[-300:], result.stderr)
    prefix = f"cdbtui: «{line}»: "
    assert result.stderr.startswith(prefix) and result.stderr.count("\n") == 1, result.stderr
    assert path.read_bytes() == before, f"«{line}» changed the save"
    return result.stderr[len(prefix):-1]


def test_cli_show_json_phase_over_then_turno_starts_the_next_turn(tmp_path):
    path = build(tmp_path, *NARR_DEMO_LINES, *TURN_1)
    assert (state(path)["turn"], state(path)["phase"]) == (1, "over")
    assert "turno terminado" in cdbtui("show", str(path)).stdout.splitlines()[0]
    result = cdbtui("do", str(path), "turno")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert (state(path)["turn"], state(path)["phase"]) == (2, "initiative")


def test_cli_tirar_from_over_rolls_the_next_turn(tmp_path):
    path = build(tmp_path, *NARR_DEMO_LINES, *TURN_1)
    result = cdbtui("do", str(path), "tirar")
    assert result.returncode == 0, result.stderr
    got = state(path)
    assert (got["turn"], got["phase"]) == (2, "initiative")
    assert all(c["initiative"] is not None for c in got["combatants"])


def test_cli_declaring_once_the_turn_is_over_is_refused_and_the_save_unchanged(tmp_path):
    path = build(tmp_path, *NARR_DEMO_LINES, *TURN_1)
    assert "declaración" in refuse(path, "declara kara disparo")
    assert "acción" in refuse(path, "kara actua")


# ---------------------------------------------------------------- the screen and the players


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


def _app(tmp_path: Path, *lines: str):
    from cdbtui.tui.app import CdbApp

    path = tmp_path / "deposito.toml"
    create(path, narr_session(*lines))
    return CdbApp(path)


async def test_the_screen_says_the_turn_is_over_and_t_rolls_the_next(tmp_path):
    """The header names the phase (§3.1); «t tirar» in the key bar starts turn 2."""
    app = _app(tmp_path, *TURN_1)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Turno 1 · turno terminado · «turno» empieza el turno 2" in text.splitlines()[0]
        assert "t tirar" in text.splitlines()[-1] and "␣ siguiente" in text.splitlines()[-1]
        assert "+def" not in text.splitlines()[3]  # Kara: no more defenses this turn
        await keys(pilot, "t")
        assert (app.fight.turn, app.fight.narr.phase) == (2, "initiative")
        assert all(current_sheet(app.fight, n).initiative is not None for n in NAMES)


async def test_the_screen_i_types_the_next_turn_s_initiative(tmp_path):
    from textual.widgets import Input

    app = _app(tmp_path, *TURN_1)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "i")
        assert app.screen.query_one(Input).value.startswith("iniciativa ")


async def test_the_screen_shift_t_from_over_asks_nothing(tmp_path):
    """«T» (turno) asks only when someone would lose something: nobody, once over."""
    app = _app(tmp_path, *TURN_1)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "T")
        assert (app.fight.turn, app.fight.narr.phase) == (2, "initiative")


def test_the_players_see_the_turn_over():
    from cdbtui.players import narr_player_banner, narr_player_headline

    fight = narr_session(*TURN_1).fight
    assert narr_player_headline(fight) == "Turno 1 · turno terminado"
    banner = narr_player_banner(fight)
    assert (banner.note, banner.actor, banner.later) == ("turno terminado", "", "esperando al turno siguiente")


async def test_the_players_screen_in_over(tmp_path):
    from cdbtui.tui.player import PlayerApp

    path = tmp_path / "deposito.toml"
    create(path, narr_session(*TURN_1))
    app = PlayerApp(path, poll_seconds=3600.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert "turno terminado" in screen_text(app)


# ================================================================ the ambush


def test_emboscada_resolves_an_ambush_before_turn_1():
    """§3.2 «resolve an ambush before turn 1 (free attack with N − 1 extra dice)»;
    STORYTELLER §7.7: on a win the target is sorprendido; no warning."""
    s = Session.new("Depósito", "narrador", SEED)
    for line in NARR_DEMO_LINES[:7]:
        s.execute(line)
    since = len(s.fight.log)
    s.execute("emboscada Matón Kara exitos=3")
    assert any(c.id == "sorprendido" for c in sh(s, "Kara").conditions)
    assert not any(e.warning for e in s.fight.log[since:])
    assert any("+2 dados" in t for t in texts(s, since))


def test_an_ambush_on_someone_already_fighting_is_a_warning_not_a_refusal():
    """§3.3's refusals have no ambush; its warnings: «an ambush on someone already
    fighting» (here turn 1's declarations are under way)."""
    s = narr_session()
    since = len(s.fight.log)
    s.execute("emboscada Matón Kara exitos=3")
    warnings = [e.text for e in s.fight.log[since:] if e.warning]
    assert len(warnings) == 1 and "Kara ya está en combate" in warnings[0]
    assert any(c.id == "sorprendido" for c in sh(s, "Kara").conditions)
    assert s.fight.narr.phase == "declare"  # nothing else moves


def test_an_ambush_on_someone_already_fighting_in_a_later_turn():
    s = narr_session(*TURN_1, "turno")
    since = len(s.fight.log)
    s.execute("emboscada Matón Kara exitos=1")
    assert any(e.warning and "ya está en combate (turno 2)" in e.text for e in s.fight.log[since:])
    assert any(c.id == "sorprendido" and c.until == 2 for c in sh(s, "Kara").conditions)


def test_an_ambush_once_the_turn_is_over_is_before_the_next_turn():
    """After the last go the ambush comes before the coming turn: it starts it first,
    and the target is sorprendido in it (not in the turn already over)."""
    s = narr_session(*TURN_1)
    s.execute("emboscada Matón Kara exitos=2")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")
    assert any(c.id == "sorprendido" and c.until == 2 for c in sh(s, "Kara").conditions)


def test_an_ambush_detected_is_a_warning_too_once_fighting():
    s = narr_session()
    since = len(s.fight.log)
    s.execute("emboscada Matón Kara exitos=0")
    assert any(e.warning for e in s.fight.log[since:])
    assert not any(c.id == "sorprendido" for c in sh(s, "Kara").conditions)


def test_the_ambush_warning_is_undone_with_its_command():
    s = narr_session()
    before = s.fight
    s.execute("emboscada Matón Kara exitos=3")
    s.execute("deshacer")
    assert s.fight == before


def test_cli_an_ambush_before_turn_1_exit_0_and_nothing_on_stderr(tmp_path):
    path = build(tmp_path, *NARR_DEMO_LINES[:7])
    result = cdbtui("do", str(path), "emboscada Matón Kara exitos=3")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    kara = next(c for c in state(path)["combatants"] if c["name"] == "Kara")
    assert [c["id"] for c in kara["conditions"]] == ["sorprendido"]


def test_cli_an_ambush_on_someone_already_fighting_warns_on_stderr_exit_0_and_is_kept(tmp_path):
    """§3.5: «Warnings are applied by `cdbtui do` with the warning on stderr (exit 0)»."""
    path = build(tmp_path, *NARR_DEMO_LINES)
    before = path.read_bytes()
    result = cdbtui("do", str(path), "emboscada Matón Kara exitos=3")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("cdbtui: Aviso: Kara ya está en combate"), result.stderr
    assert result.stderr.count("\n") == 1
    assert path.read_bytes() != before
    kara = next(c for c in state(path)["combatants"] if c["name"] == "Kara")
    assert "sorprendido" in [c["id"] for c in kara["conditions"]]
    assert cdbtui("do", str(path), "deshacer").returncode == 0
    kara = next(c for c in state(path)["combatants"] if c["name"] == "Kara")
    assert "sorprendido" not in [c["id"] for c in kara["conditions"]]


def test_cli_ambush_in_english_once_fighting_is_the_same_warning(tmp_path):
    path = build(tmp_path, *NARR_DEMO_LINES)
    result = cdbtui("do", str(path), "ambush Matón Kara exitos=2")
    assert result.returncode == 0 and "ya está en combate" in result.stderr, result.stderr


def test_cli_an_ambush_with_negative_successes_is_still_refused(tmp_path):
    path = build(tmp_path, *NARR_DEMO_LINES)
    refuse(path, "emboscada Matón Kara exitos=-1")


def test_the_tui_asks_first_before_an_ambush_on_someone_already_fighting():
    """§3.5: «Warnings … the TUI asks first»: `Session.cautions` gives the warning."""
    s = narr_session()
    assert any("ya está en combate" in w for w in s.cautions("emboscada Matón Kara exitos=3"))


# ================================================================ the marks in a short list (§3.1)


@pytest.mark.parametrize("width", [30, 40, 50, 60])
def test_the_plus_def_mark_stays_whole_when_the_chips_give_way(width):
    """§3.1 «`+def 3` | the next extra defense would roll 3 dice»: a short Declarado
    column cuts the done chips (their dice are spent) before the mark; the narrowest
    lists cap the names too."""
    from cdbtui.view.narrlist import build_list
    from cdbtui.view.rows import Kind

    fight = narr_session(*TURN_1[:-4]).fight  # Kara has dodged Matón's first shot
    lines = [line for line in build_list(fight, width=width).lines if line.kind is Kind.ROW]
    kara = "".join(span.text for span in next(line for line in lines if line.name == "Kara").spans)
    if width >= 40:
        assert len(kara) <= width and "+def 3" in kara, kara
