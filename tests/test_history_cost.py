"""The history in linear time and memory (issue 9, item 12), and the Session API the
store relies on: `mark`/`rollback`, `verify`, `HistoryMismatch`, `resume(known=…)`.

States share their log (`model.Log`), and a session keeps only some states (every
CHECKPOINT-th and the last RECENT): undo rebuilds the others by replay, and what
it rebuilds must be exactly the states the history went through.  Several tests
shrink CHECKPOINT and RECENT so that short histories cross many checkpoints.
"""

from __future__ import annotations

import gc
import pickle
import sys
import tracemalloc

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbtui.engine import session as session_module
from cdbtui.engine.commands import quote
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import LOG_CHUNK, Fight, Log, LogEntry
from cdbtui.engine.rules import queue
from cdbtui.engine.session import HistoryMismatch, Session

CAST = ["alta Mike ac=7 agi=4 ate=3 bando=pj", "alta Sven ac=5 agi=3 bando=pj",
        'alta "Soldado 1" ac=6 agi=3', 'alta "Soldado 2" ac=5 agi=2',
        "momento Mike 7", "momento Sven 5", 'momento "Soldado 1" 6', 'momento "Soldado 2" 4',
        "empezar"]


def next_line(session: Session) -> str:
    """A fight played on: spends, attacks at a target, reactions, damage, new turns."""
    fight = session.fight
    n = len(session.lines)
    if not fight.started:
        return CAST[n] if n < len(CAST) else "empezar"
    head = queue(fight)
    if fight.turn_over or (not head and fight.moment is not None and fight.moment <= 0):
        return "turno"
    if not head:
        return "siguiente"
    actor = head[0]
    foes = [c for c in fight.combatants if c.side != actor.side]
    target = quote(foes[n % len(foes)].name)
    name = quote(actor.name)
    return [f"{name} gasta {1 + n % 3}", f"{name} punetazo a {target}", f"{name} esquivar",
            f"dano {target} 1" if n % 9 == 3 else f"{name} gasta 1"][n % 4]


def played(count: int, *, seed: int = 0) -> tuple[Session, list[Fight]]:
    """A session with `count` lines of history, and every state it went through."""
    session = Session.new("Largo", seed=seed)
    states = [session.fight]
    for line in CAST:
        states.append(session.execute(line).fight)
    while len(session.lines) < count:
        states.append(session.execute(next_line(session)).fight)
    return session, states


@pytest.fixture
def small_checkpoints(monkeypatch):
    """Checkpoints every 4 lines and 3 recent states: short histories exercise it all."""
    monkeypatch.setattr(session_module, "CHECKPOINT", 4)
    monkeypatch.setattr(session_module, "RECENT", 3)


def snapshot(session: Session) -> tuple:
    """Everything a session holds, by identity where it matters (for rollback)."""
    return (
        list(session.lines), list(session.redo_lines),
        [id(s) for s in session.redo_states],
        {i: id(s) for i, s in session._kept.items()},
        list(session._gaps),
        session.fight,
        list(session.states),
    )


# ---------------------------------------------------------------- the log


entries = st.lists(st.builds(LogEntry, st.integers(0, 3), st.none() | st.integers(0, 9),
                             st.sampled_from("abc")), max_size=3 * LOG_CHUNK)


@given(entries, st.data())
@settings(max_examples=40, deadline=None)
def test_a_log_reads_like_the_tuple_of_its_entries(items, data):
    plain = tuple(items)
    built = Log()
    for entry in items:
        built = built.appended(entry)
    for log in (built, Log(plain)):
        assert isinstance(log, tuple) and len(log) == len(plain) and bool(log) == bool(plain)
        assert log == plain and plain == log and not log != plain and log == built
        assert hash(log) == hash(plain) and repr(log) == repr(plain)
        assert tuple(log) == plain and list(reversed(log)) == list(reversed(plain))
        assert (*log, 1) == (*plain, 1) and log + (1,) == plain + (1,)
        assert pickle.loads(pickle.dumps(log)) == plain
        n = len(plain)
        for _ in range(5):
            start = data.draw(st.integers(-n - 2, n + 2))
            stop = data.draw(st.integers(-n - 2, n + 2))
            step = data.draw(st.sampled_from([None, 1, 2, -1]))
            assert log[start:stop:step] == plain[start:stop:step]
            assert log[start:] == plain[start:] and type(log[start:]) is tuple
            if -n <= start < n:
                assert log[start] == plain[start]
        size = data.draw(st.integers(0, n))
        assert log.prefix(size) == plain[:size]
        if items:
            assert items[-1] in log and log.count(items[-1]) == plain.count(items[-1])
    if items:
        changed = Log((*plain[:-1], LogEntry(99, None, "otra")))
        assert changed != built and built != changed


def test_a_fight_built_with_a_tuple_log_equals_one_with_a_shared_log():
    fight = Fight().note("uno").note("dos")
    assert type(fight.log) is Log
    rebuilt = Fight(log=tuple(fight.log))
    assert rebuilt == fight and fight == rebuilt and hash(rebuilt) == hash(fight)
    assert repr(rebuilt) == repr(fight)  # fingerprints of saves hash the repr
    assert type(rebuilt.note("tres").log) is Log and rebuilt.note("tres").log[:2] == fight.log


def test_states_share_their_log_instead_of_copying_it():
    session, states = played(LOG_CHUNK * 2)
    first, last = states[-2].log, states[-1].log
    assert first._chunks and all(a is b for a, b in zip(first._chunks, last._chunks))


# ---------------------------------------------------------------- undo and replay


@pytest.mark.parametrize("tiny", [False, True])
def test_undo_after_a_long_history_rebuilds_exactly_the_states_it_went_through(
        tiny, monkeypatch):
    if tiny:
        monkeypatch.setattr(session_module, "CHECKPOINT", 4)
        monkeypatch.setattr(session_module, "RECENT", 3)
    session, states = played(400)
    kept = len(session._kept)
    assert kept < 400 // session_module.CHECKPOINT + session_module.RECENT + 3
    assert list(session.states) == states  # the view rebuilds what is not kept
    for expected in reversed(states[:-1]):
        assert session.undo().fight == expected
    assert not session.can_undo
    for expected in states[1:]:
        assert session.redo().fight == expected
    assert session.fight == states[-1] and not session.can_redo


@pytest.mark.parametrize("tiny", [False, True])
def test_a_resumed_session_undoes_through_the_same_states(tiny, monkeypatch):
    if tiny:
        monkeypatch.setattr(session_module, "CHECKPOINT", 4)
        monkeypatch.setattr(session_module, "RECENT", 3)
    session, states = played(300)
    loaded = evolve(session.fight, log=tuple(session.fight.log))  # as the store decodes it
    resumed = Session.resume(session.base, list(session.lines), loaded, [])
    assert not resumed.fully_known and None in resumed.states
    assert resumed.states[1:-1] == [None] * (len(states) - 2)
    for expected in reversed(states[:-1]):
        assert resumed.undo().fight == expected
    assert resumed.fully_known
    for expected in states[1:]:
        assert resumed.redo().fight == expected


@given(st.lists(st.sampled_from(["do", "do", "do", "undo", "redo", "mark"]), max_size=60),
       st.integers(0, 3))
@settings(max_examples=25, deadline=None)
def test_random_walks_through_the_history_match_a_plain_list_of_states(steps, seed):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "CHECKPOINT", 4)
        patch.setattr(session_module, "RECENT", 2)
        session = Session.new(seed=seed)
        states, redo = [session.fight], []
        for line in CAST:
            states.append(session.execute(line).fight)
        for step in steps:
            if step == "do":
                states.append(session.execute(next_line(session)).fight)
                redo.clear()
            elif step == "undo" and session.can_undo:
                redo.append(states.pop())
                assert session.undo().fight == states[-1]
            elif step == "redo" and session.can_redo:
                states.append(redo.pop())
                assert session.redo().fight == states[-1]
            elif step == "mark":
                token, before = session.mark(), snapshot(session)
                session.execute(next_line(session))
                session.undo() if session.can_undo else None
                session.rollback(token)
                assert snapshot(session) == before
            assert session.fight == states[-1]
            assert len(session.redo_lines) == len(redo)
        assert list(session.states) == states


def test_redo_deep_in_the_stack_applies_its_line_again():
    session, states = played(200)
    for _ in range(150):
        session.undo()
    assert session.redo_states[0] is None and session.redo_states[-1] is not None
    for expected in states[-150:]:
        assert session.redo().fight == expected


# ---------------------------------------------------------------- mark and rollback


@pytest.mark.parametrize("command", ["do", "undo", "redo"])
def test_rollback_puts_the_session_back_exactly(command, small_checkpoints):
    session, _ = played(60)
    for _ in range(5):
        session.undo()
    session.redo()
    before = snapshot(session)
    token = session.mark()
    if command == "do":
        session.execute(next_line(session))
        assert session.redo_lines == []
    elif command == "undo":
        for _ in range(6):  # down past the rebuilt states: a replay from a checkpoint
            session.undo()
    else:
        session.redo()
    session.rollback(token)
    assert snapshot(session) == before
    session.rollback(token)  # a second time: nothing more to take back
    assert snapshot(session) == before


def test_rollback_of_an_undo_that_checked_a_loaded_history():
    session, states = played(120)
    resumed = Session.resume(session.base, list(session.lines), session.fight, [])
    before = snapshot(resumed)
    token = resumed.mark()
    resumed.undo()
    assert resumed.fully_known
    resumed.rollback(token)
    assert snapshot(resumed) == before and not resumed.fully_known
    assert resumed.undo().fight == states[-2]


def test_only_the_latest_mark_can_be_rolled_back():
    session, _ = played(20)
    old = session.mark()
    new = session.mark()
    session.execute(next_line(session))
    with pytest.raises(ValueError):
        session.rollback(old)
    with pytest.raises(ValueError):
        Session.new().rollback(new)
    session.rollback(new)
    assert len(session.lines) == 20


def test_a_forgotten_mark_expires_instead_of_holding_every_state(monkeypatch):
    monkeypatch.setattr(session_module, "MAX_TRAIL", 50)
    session, _ = played(20)
    token = session.mark()
    for _ in range(40):
        session.execute(next_line(session))
    assert session._trail is None
    with pytest.raises(ValueError):
        session.rollback(token)


def test_a_refused_command_leaves_no_trace_to_roll_back():
    session, _ = played(30)
    before = snapshot(session)
    token = session.mark()
    with pytest.raises(Refusal):
        session.execute("Nadie gasta 1")
    session.rollback(token)
    assert snapshot(session) == before


# ---------------------------------------------------------------- a history that lies


def harder(lines: list[str], after: int = 0) -> int:
    """Change the first damage line after position `after` (an edit by hand): the
    history still applies, but it leads to another fight.  Returns its position."""
    at = next(i for i, line in enumerate(lines) if i > after and line.startswith("dano "))
    lines[at] = lines[at][: -len(" 1")] + " 2"
    return at


def tampered(count: int = 100) -> tuple[Session, list[Fight]]:
    """A resumed session whose history was edited: it no longer leads to its fight."""
    session, states = played(count)
    lines = list(session.lines)
    harder(lines)
    return Session.resume(session.base, lines, session.fight, []), states


def test_undo_never_jumps_to_another_fight():
    resumed, _ = tampered()
    before = snapshot(resumed)
    with pytest.raises(HistoryMismatch, match="no lleva al estado actual") as raised:
        resumed.undo()
    assert isinstance(raised.value, Refusal)
    assert "no se puede deshacer más allá de este punto" in str(raised.value)
    assert snapshot(resumed) == before and not resumed.fully_known
    assert resumed.verify() is False and snapshot(resumed) == before
    # playing on still works, and undoing what was played since the load too
    resumed.execute(next_line(resumed))
    resumed.undo()
    with pytest.raises(HistoryMismatch):
        resumed.undo()


def test_a_history_line_that_no_longer_applies_is_a_mismatch_too():
    session, _ = played(50)
    lines = [*session.lines[:20], "Nadie gasta 1", *session.lines[21:]]
    resumed = Session.resume(session.base, lines, session.fight, [])
    with pytest.raises(HistoryMismatch):
        resumed.undo()
    assert resumed.verify() is False


def test_verify_replays_the_whole_history():
    session, states = played(150)
    resumed = Session.resume(session.base, list(session.lines), session.fight, [])
    assert resumed.verify() is True and resumed.fully_known
    assert resumed.undo().fight == states[-2]
    assert session.verify() is True


def test_adopt_refuses_a_replay_that_does_not_reach_the_current_state():
    resumed, _ = tampered()
    lines = list(resumed.lines)
    replay = Session(resumed.base, lines).states  # what the app's thread computes
    before = snapshot(resumed)
    with pytest.raises(HistoryMismatch):
        resumed.adopt(lines, replay)
    assert snapshot(resumed) == before


def test_adopt_takes_a_faithful_replay():
    session, states = played(200)
    resumed = Session.resume(session.base, list(session.lines), session.fight, [])
    lines = list(resumed.lines)
    replay = Session(resumed.base, lines).states
    resumed.execute(next_line(resumed))  # the DJ plays on meanwhile
    assert resumed.adopt(lines, replay) == len(lines) - 1
    assert resumed.fully_known and None not in resumed.states
    resumed.undo()
    assert resumed.undo().fight == states[-2]


# ---------------------------------------------------------------- states saved with a save


def test_saved_states_make_the_first_undo_after_a_load_replay_little(monkeypatch):
    session, states = played(1000)
    known = session.saved_states()
    assert known and max(known) >= 1000 - session_module.CHECKPOINT
    assert all(known[p] == states[p] for p in known)
    resumed = Session.resume(session.base, list(session.lines), session.fight, [], known)
    steps = []
    real = session_module._step
    monkeypatch.setattr(session_module, "_step",
                        lambda fight, line: steps.append(line) or real(fight, line))
    assert resumed.undo().fight == states[-2]
    assert len(steps) <= 2 * session_module.CHECKPOINT
    assert not resumed.fully_known  # the older steps are checked when undo gets there
    assert resumed.verify() and resumed.fully_known


def test_a_tampered_history_below_a_saved_state_is_found_when_undo_gets_there(monkeypatch):
    monkeypatch.setattr(session_module, "CHECKPOINT", 16)
    monkeypatch.setattr(session_module, "RECENT", 4)
    session, states = played(100)
    known = session.saved_states()
    assert len(known) >= 2
    lines = list(session.lines)
    at = harder(lines, 20)
    position = min(p for p in known if p > at)  # the lowest saved state above the edit
    resumed = Session.resume(session.base, lines, session.fight, [], known)
    while len(resumed.lines) > position:
        assert resumed.undo().fight == states[len(resumed.lines)]
    with pytest.raises(HistoryMismatch):
        resumed.undo()
    assert len(resumed.lines) == position


# ---------------------------------------------------------------- linear cost


def retained(root: object) -> int:
    """Bytes of the objects reachable from `root` (each counted once; classes,
    modules and functions, shared with the rest of the program, left out)."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    skip = (type, type(sys), type(retained), type(len))
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def test_memory_grows_linearly_with_the_history():
    small, _ = played(1000)
    large, _ = played(2000)  # before: 7 MB and 25 MB kept (×3.6), as the peaks
    # What a long evening keeps: doubling the history about doubles it (quadratic: ×4).
    assert retained(large) / retained(small) < 3
    # The peak of the first undo after a load (a replay of the whole history).
    peaks = []
    for session in (small, large):
        resumed = Session.resume(session.base, list(session.lines), session.fight, [])
        gc.collect()
        tracemalloc.start()
        resumed.undo()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] / peaks[0] < 3
