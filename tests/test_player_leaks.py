"""What players see is decided once, from the structured log (issue 10, items 1–2).

Each leak the issue lists is a test here; then a property: random fights with
hidden and private PNJ doing random commands, and nothing players read (the player
view's data, the players' sheet, `export --jugadores` in Markdown and HTML) names a
hidden combatant or shows a private PNJ's numbers.  And the engine side of it:
every log entry is about every combatant its text names.
"""

from __future__ import annotations

import html
import re

from attrs import evolve
from fights import demo_lines, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdbtui import library, store
from cdbtui.engine.commands import quote
from cdbtui.engine.countdown import follow_countdown
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import LogKind, Role
from cdbtui.engine.session import Session
from cdbtui.engine.text import fold
from cdbtui.export import export_html, export_markdown
from cdbtui.players import player_log, player_view, players_fight, shown_to_players
from cdbtui.view import build_sheet, sheet_lines


def player_texts(fight) -> list[str]:
    """Everything of the player view as text: its data and the painted sheet."""
    view = player_view(fight, log_lines=10_000)
    texts = [view.headline, view.queue, view.banner.turn, view.banner.moment,
             view.banner.note, view.banner.actor, view.banner.later]
    texts += [f"{row.name} {row.ac_text} {row.status}" for row in view.pcs]
    texts += [str(entry) for entry in view.log]
    sheet = build_sheet(players_fight(fight), for_players=True)
    texts += sheet_lines(sheet)
    texts += list(sheet.waiting_for_start)
    texts += [c.name for c in view.fight.combatants]
    return texts


def names_in(text: str, names) -> set[str]:
    folded = fold(text)
    return {n for n in names if re.search(rf"(?<!\w){re.escape(fold(n))}(?!\w)", folded)}


# ---------------------------------------------------------------- the leaks of the issue


def test_a_removed_hidden_pnj_leaves_nothing_in_the_players_export():
    """Before: `baja` made the export forget it was hidden: its «Alta de …» line and
    its action came out, and the tie line showed with the PJ's Agilidad masked."""
    fight = play(
        "alta Mike ac=7 agi=4 bando=pj", "alta Ninja ac=6 agi=5 oculto",
        "momento Mike 7", "momento Ninja 7", "empezar", "ninja gasta 2", "baja ninja",
        "mike disparar-armas-largas",
    ).fight
    for export in (export_markdown, export_html):
        players = export(fight, for_players=True)
        assert "ninja" not in players.casefold()
        assert "Mike: Disparar Armas Largas (3 AC) → momento 4" in players
        assert "?" not in players.split("Registro", 1)[1]
    assert "ninja" not in "\n".join(player_texts(fight)).casefold()


def test_the_players_export_shows_no_moment():
    """The players' countdown went 8 → 5 (a hidden PNJ acts at 6): "M6 Mike:
    Esquivar" would tell them something happened at 6."""
    fight = play(
        "alta Mike ac=7 bando=pj", "alta Ninja ac=6 oculto", "momento Mike 8",
        "momento Ninja 6", "empezar", "mike gasta 3", "mike esquivar",
    ).fight
    assert fight.moment == 6
    assert "`M" not in export_markdown(fight, for_players=True)
    assert all(e.moment is None for e in player_log(fight))


def test_a_removed_hidden_pnj_of_a_faction_with_parentheses_stays_hidden():
    """Before: the regex remembering removed combatants did not match
    «Alta de Ninja (Clan (sombra), 6 AC)», so every line of it showed."""
    fight = play(
        "alta Mike ac=7 bando=pj", 'alta Ninja ac=6 oculto momento=6 "bando=Clan (sombra)"',
        "momento Mike 7", "empezar", "mike gasta 1", "ninja esquivar", "baja ninja",
    ).fight
    assert any(e.text == "Alta de Ninja (Clan (sombra), 6 AC)" for e in fight.log)
    assert not any("ninja" in t.casefold() for t in player_texts(fight))
    assert "ninja" not in export_markdown(fight, for_players=True).casefold()


def test_a_visible_combatant_with_a_removed_hidden_ones_name_shows_only_its_own_past():
    fight = play(
        "alta Mike ac=7 bando=pj", "alta Ninja ac=6 oculto momento=6",
        "momento Mike 7", "empezar", "mike gasta 1", "ninja esquivar", "baja ninja",
        "alta Ninja ac=3 bando=pj momento=2",
    ).fight
    texts = [e.text for e in player_log(fight)]
    assert [t for t in texts if "Ninja" in t] == ["Alta de Ninja (PJ, 3 AC)"]
    players = export_markdown(fight, for_players=True)
    assert "Ninja: Esquivar" not in players and "Alta de Ninja (PNJ" not in players
    assert "Alta de Ninja (PJ, 3 AC)" in players


def test_a_private_pnjs_start_reads_the_same_on_the_sheet_and_in_the_export():
    """Before: "?" in the export while the players' sheet showed its name on its start
    row.  Now both show the start (a column's rows are the public countdown: its
    marker stands there until it acts); its AC are "?" in both."""
    fight = play(*demo_lines())
    sheet = build_sheet(players_fight(fight.fight), for_players=True)
    (column,) = [c for c in sheet.columns if c.name == "Soldado 2"]
    row = next(sheet.moments[i] for i, cell in enumerate(column.cells) if "Soldado 2" in cell.text)
    assert row == 4 and column.cells[sheet.moments.index(4)].text == "Soldado 2 ?"
    md = export_markdown(fight.fight, for_players=True)
    assert "| Soldado 2 | PNJ | ? | 4 |" in md


def test_the_djs_fight_list_counts_hidden_pnj_apart(tmp_path):
    path = tmp_path / "emboscada.toml"
    store.create(path, play(*demo_lines()[:-1], "alta Ninja ac=6 oculto momento=5", "empezar"))
    entry = library.describe(path)
    assert (entry.combatants, entry.hidden, entry.count_text) == (5, 1, "4 (+1 oculto)")
    shown = library.describe(tmp_path / "none.toml")
    assert shown.problem and shown.count_text == "0"
    plain = tmp_path / "puerto.toml"
    store.create(plain, play(*demo_lines()))
    assert library.describe(plain).count_text == "4"


def test_free_texts_naming_a_hidden_pnj_are_about_it():
    fight = play(
        "alta Mike ac=7 bando=pj", "alta Señor Ñu ac=4 oculto", "momento Mike 7",
        'momento "Señor Ñu" 3', "empezar", 'mike espera "que se mueva el SENOR NU"',
    ).fight
    last = fight.log[-1]
    assert last.kind is LogKind.ACTION
    assert [(m.name, m.role, m.hidden) for m in last.about] == [
        ("Mike", Role.ACTOR, False), ("Señor Ñu", Role.NAMED, True)]
    assert last not in player_log(fight) and not any("nu" in t.casefold().split() for t in
                                                     player_texts(fight))


def test_a_private_pnj_as_a_target_leaves_the_attackers_entry():
    fight = play(*demo_lines(), 'mike disparar-armas-largas a "soldado 2"').fight
    entry = fight.log[-1]
    assert entry.text == "Mike: Disparar Armas Largas a Soldado 2 (3 AC) → momento 4"
    assert [(m.name, m.role, m.private) for m in entry.about] == [
        ("Mike", Role.ACTOR, False), ("Soldado 2", Role.TARGET, True)]
    assert entry.text in [e.text for e in player_log(fight)]


def test_damage_is_bold_by_its_kind():
    fight = play("alta Horda ac=4 miembros=5 aguante=2", "alta Ana ac=5",
                 "momento horda 3", "momento ana 2", "empezar", "dano horda 4", "dano ana 1").fight
    kinds = [e.kind for e in fight.log[-2:]]
    assert kinds == [LogKind.DAMAGE, LogKind.DAMAGE]
    md = export_markdown(fight)
    assert "**Horda: 2 miembro(s) inutilizado(s)" in md and "**Ana: 1 casilla(s)" in md


# ---------------------------------------------------------------- the property

VISIBLE = ["Mike", "Sven", "Bob"]
HIDDEN = ["Ninja", "Sombra Gris"]
PRIVATE = ["Bruto", "Orco 7"]
CAST = {
    "Mike": "ac=7 agi=4 bando=pj", "Sven": "ac=5 agi=3 bando=pj", "Bob": "ac=4 agi=4",
    "Ninja": "ac=6 agi=5 oculto", "Sombra Gris": "ac=4 agi=3 oculto bando=sombras",
    "Bruto": "ac=5 agi=4 privado", "Orco 7": "ac=6 agi=2 privado talentos=duelista",
}
ALL = [*VISIBLE, *HIDDEN, *PRIVATE]
MANEUVERS = ["punetazo", "esquivar", "apuntar", "mover 2", "disparar-armas-largas",
             "ponerse-a-cubierto", "reconocimiento", "liderazgo gde=1", "abandonar-duelo"]
CONDITIONS = ["agarrado", "inmovilizado", "a-cubierto", "moribundo", "incapacitado"]
#: Conditions given a duration (`estado NAME +COND turnos=N`, RULES.md §5).
TIMED = ["aturdido", "derribado", "a-cubierto", "cegado"]


def secret_note(name: str) -> str:
    """The text of a note about `name` (`nota`): it names its combatant, so that a
    private PNJ's note can be looked for in everything players read."""
    return f"secreto de {name.lower()}"


def commands(fight) -> st.SearchStrategy[str]:
    """A command for this state, naming combatants on the roster (free texts too:
    the DJ types names that exist) or in the cast."""
    roster = [c.name for c in fight.combatants] or ALL
    who = st.sampled_from(roster).map(quote)
    anyone = st.sampled_from(ALL).map(quote)
    text = st.sampled_from(roster).map(lambda n: f"vigila a {n.lower()}")
    return st.one_of(
        st.builds(lambda n, s: f"alta {quote(n)} {CAST[n]} momento={s}", st.sampled_from(ALL),
                  st.integers(-1, 9)),
        st.builds(lambda n, m: f"momento {n} {m}", who, st.integers(-1, 9)),
        st.sampled_from(["tirar", "empezar", "siguiente", "turno", "deshacer", "rehacer",
                         "siguiente", "descanso", "rapida si", "rapida no"]),
        st.builds(lambda n, m: f"{n} {m}", who, st.sampled_from(MANEUVERS)),
        st.builds(lambda n, m, t: f"{n} {m} a {t}", who,
                  st.sampled_from(["punetazo", "disparar-armas-largas", "bloqueo"]), who),
        st.builds(lambda n, c, w: f"{n} gasta {c} {w}", who, st.integers(1, 4), text),
        st.builds(lambda n, a: f"{n} {a}", who, st.sampled_from(["retrasa", "actua", "fin"])),
        st.builds(lambda n, w: f"{n} espera {w}", who, text),
        st.builds(lambda n: f"{n} interrumpe punetazo", who),
        st.builds(lambda n, s, c: f"estado {n} {s}{c}", who, st.sampled_from("+-"),
                  st.sampled_from(CONDITIONS)),
        st.builds(lambda n, d, rd: f"dano {n} {d} rd={rd}", who, st.integers(0, 9),
                  st.integers(0, 3)),
        st.builds(lambda n, k: f"curar {n} {k}", who, st.integers(1, 3)),
        st.builds(lambda a, b: f"duelo {a} {b}", who, who),
        st.builds(lambda a, b: f"monta {a} {b}", who, who),
        st.builds(lambda a: f"desmonta {a}", who),
        st.builds(lambda a, b: f"bono {a} a {b}", who, who),
        st.builds(lambda a, n: f"blancos {a} {n}", who, st.integers(1, 2)),
        st.builds(lambda a, b: f"cambiar {a} {b}", who, who),
        st.builds(lambda n: f"baja {n}", anyone),
        # Issue 11: notes, durations, reveal and hide (RULES.md §5).
        st.builds(lambda n, k: f"nota {quote(n)} {secret_note(n)}" + (f" turnos={k}" if k else ""),
                  st.sampled_from(roster), st.integers(0, 3)),
        st.builds(lambda n: f"nota {n} -", who),
        st.builds(lambda verb, n: f"{verb} {n}", st.sampled_from(["revelar", "ocultar"]), who),
        st.builds(lambda n, c, k: f"estado {n} +{c} turnos={k}", who, st.sampled_from(TIMED),
                  st.integers(1, 3)),
    )


def _outside_names(text: str) -> str:
    folded = fold(text)
    for name in sorted(ALL, key=len, reverse=True):
        folded = re.sub(rf"(?<!\w){re.escape(fold(name))}(?!\w)", " ", folded)
    return folded


def _private_numbers_shown(text: str, actors=VISIBLE) -> bool:
    """The test's own oracle for a log text players read: it names a private PNJ and
    carries a number, and it is not an entry of someone else's (a visible combatant's
    name first: "Mike: Puñetazo a Bruto (2 AC)", "Mike ataca a 2 blancos (Bruto…)");
    `actors`: those not private (a hidden PNJ revealed is one)."""
    if not names_in(text, PRIVATE) or not any(ch.isdigit() for ch in _outside_names(text)):
        return False
    return not text.startswith(tuple(f"{name}{after}" for name in actors for after in ": "))


def _players_roster(md: str) -> str:
    """The roster section of a players' Markdown export."""
    return md.split("\n## Combatientes\n", 1)[1].split("\n## Registro\n", 1)[0]


def check_players_side(fight, never_seen=HIDDEN, secret_entries=()) -> None:
    """What players read of `fight`: `never_seen` (hidden PNJ never revealed) appear
    nowhere; whoever is hidden now is on no sheet, queue or roster; no entry made
    while one it names was hidden (`secret_entries`: positions in the log) is read;
    a private PNJ's notes are read nowhere (RULES.md §5)."""
    texts = player_texts(fight)
    md = export_markdown(fight, for_players=True)
    page = html.unescape(export_html(fight, for_players=True))
    for text in (*texts, md, page):
        assert not names_in(text, never_seen), text
        assert not any(secret_note(n) in fold(text) for n in PRIVATE), text
    hidden_now = [c.name for c in fight.combatants if c.hidden]
    view = player_view(fight, log_lines=0)
    now = [view.headline, view.queue, view.banner.actor, view.banner.later,
           *(row.name for row in view.pcs), *(c.name for c in view.fight.combatants),
           *sheet_lines(build_sheet(players_fight(fight), for_players=True)), _players_roster(md)]
    for text in now:
        assert not names_in(text, hidden_now), text
    for position in secret_entries:
        assert not shown_to_players(fight.log[position]), fight.log[position]
    actors = [*VISIBLE, *(n for n in HIDDEN if n not in never_seen)]
    for entry in player_log(fight):
        assert not _private_numbers_shown(entry.text, actors), entry.text
    log_lines = md.split("\n## Registro\n", 1)[1].splitlines()
    for line in log_lines:
        if line.startswith("- "):
            assert not _private_numbers_shown(line[2:].replace("\\", ""), actors), line
    # The players' sheet: a private PNJ's column has no number but its name's.
    sheet = build_sheet(players_fight(fight), for_players=True)
    for column in sheet.columns:
        if column.name in PRIVATE:
            for text in (column.label, *(cell.text for cell in column.cells)):
                assert not any(ch.isdigit() for ch in text.replace(column.name, "")), text
    for row in _players_roster(md).splitlines():
        cells = [cell.strip() for cell in row.split("|")[1:-1]]
        if cells and cells[0] in PRIVATE:
            assert cells[2] == "?", row
    assert not {row.name for row in player_view(fight).pcs} & set(PRIVATE)


def check_every_name_is_mentioned(fight) -> None:
    """The engine side: an entry names no combatant it is not about."""
    for entry in fight.log:
        about = {m.name.casefold() for m in entry.about}
        for name in names_in(entry.text, ALL):
            assert name.casefold() in about, (entry.text, entry.about)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_nothing_players_read_names_a_hidden_pnj_or_shows_a_private_number(data):
    session = Session.new(seed=data.draw(st.integers(0, 5), label="seed"))
    cast = data.draw(st.lists(st.sampled_from(ALL), min_size=2, max_size=6, unique=True),
                     label="cast")
    for index, name in enumerate(cast):
        session.execute(f"alta {quote(name)} {CAST[name]} momento={9 - index}")
    if data.draw(st.booleans(), label="begin"):
        session.execute("empezar")
    revealed: set[str] = set()
    last_hidden = {c.name: c.hidden for c in session.fight.combatants}
    secret = [_made_while_hidden(e, session.fight, session.fight, last_hidden)
              for e in session.fight.log]
    for _ in range(data.draw(st.integers(0, 40), label="length")):
        line = data.draw(commands(session.fight), label="command")
        before = session.fight
        try:
            session.execute(line)
        except Refusal:
            continue
        after = session.fight
        secret = _track_secret(secret, before, after, last_hidden)
        revealed |= {c.name for c in after.combatants if not c.hidden}
        check_players_side(after, [n for n in HIDDEN if n not in revealed],
                           [i for i, flag in enumerate(secret) if flag])
    check_players_side(session.fight, [n for n in HIDDEN if n not in revealed],
                       [i for i, flag in enumerate(secret) if flag])
    check_every_name_is_mentioned(session.fight)
    # Entries are made deterministically: the saved history replays to the saved state.
    loaded = store.loads(store.dumps(session))
    assert loaded.fight == session.fight
    assert Session(session.base, list(session.lines)).fight == session.fight


def _hidden_through(name: str, before, after, last_hidden: dict[str, bool]) -> bool:
    """The test's own oracle: `name` was hidden all through a command from `before` to
    `after` (added hidden, removed while hidden, or hidden on both sides; off the
    roster on both sides, as hidden as it was when last on one, a name never on one
    as hidden)."""
    b, a = before.find(name), after.find(name)
    if b is None and a is None:
        return last_hidden.get(name, True)
    if b is None or a is None:
        return (a or b).hidden
    return b.hidden and a.hidden


def _made_while_hidden(entry, before, after, last_hidden) -> bool:
    """An entry made by a command from `before` to `after` players may never read: it
    names someone hidden all through it, or it is a private PNJ's note (`secret_note`)."""
    if any(_hidden_through(n, before, after, last_hidden) for n in names_in(entry.text, ALL)):
        return True
    return any(secret_note(n) in fold(entry.text) for n in PRIVATE)


def _track_secret(secret: list[bool], before, after, last_hidden) -> list[bool]:
    """`secret` (one flag per entry of `before.log`) for `after.log`: the entries both
    logs share keep their flags (undo shortens the log; the reaction window may remake
    the entries of an advance), the new ones get the oracle's; then `last_hidden` learns
    who is hidden in `after`."""
    shared = 0
    for old, new in zip(before.log, after.log):
        if old is not new and old != new:
            break
        shared += 1
    flags = [_made_while_hidden(e, before, after, last_hidden) for e in after.log[shared:]]
    last_hidden.update({c.name: c.hidden for c in after.combatants})
    return secret[:shared] + flags


def test_revealing_keeps_the_past_hidden_and_shows_what_follows():
    """RULES.md §5 "Hidden combatants", with the engine's commands."""
    s = play("alta Mike ac=7 agi=4 bando=pj", "alta Ninja ac=6 agi=5 oculto momento=8",
             "momento Mike 7", "empezar", "ninja gasta 2 se acerca", "nota ninja acecha",
             "revelar ninja")
    assert not s.fight.find("Ninja").hidden
    texts = [e.text for e in player_log(s.fight)]
    assert not any("se acerca" in t or "acecha" in t or "Alta de Ninja" in t for t in texts)
    assert "Ninja" in [c.name for c in players_fight(s.fight).combatants]
    s.execute("mike gasta 1 saluda")
    s.execute("ninja gasta 1 huye")
    texts = [e.text for e in player_log(s.fight)]
    assert "Ninja: huye (1 AC) → momento 5" in texts
    s.execute("ocultar ninja")
    s.execute("nota ninja escondido")
    texts = [e.text for e in player_log(s.fight)]
    assert "Ninja: huye (1 AC) → momento 5" in texts  # what players saw stays seen
    assert not any("escondido" in t for t in texts)
    assert "Ninja" not in [c.name for c in players_fight(s.fight).combatants]
    assert "Ninja" not in export_markdown(s.fight, for_players=True).split("## Registro")[0]


def test_a_private_pnjs_notes_reach_no_player():
    s = play(*demo_lines(), 'nota "Soldado 2" tiene miedo turnos=2', "nota sven cojea turnos=2",
             'estado "Soldado 2" +aturdido turnos=2', "turno")
    players = [str(e) for e in player_log(s.fight)]
    assert not any("miedo" in t for t in players)
    assert any("cojea" in t for t in players)
    for export in (export_markdown, export_html):
        assert "miedo" not in export(s.fight, for_players=True)
        assert "miedo" in export(s.fight)
    assert players_fight(s.fight).find("Soldado 2").notes == ()


# ---------------------------------------------------------------- players_fight uses the engine


def test_players_fight_moves_followers_with_the_engines_own_function():
    fight = play(
        "alta Mike ac=7 agi=4 bando=pj", "alta Sven ac=5 agi=3 bando=pj",
        "alta Ninja ac=4 agi=5 oculto", "momento Mike 7", "momento Ninja 6",
        "momento Sven 4", "empezar", "mike espera algo",
    ).fight
    seen = players_fight(fight)
    assert seen.moment == 4
    visible = evolve(fight, combatants=tuple(c for c in fight.combatants if not c.hidden))
    assert seen.combatants == follow_countdown(visible, 4).combatants
    mike = seen.find("Mike")
    assert (mike.marker, mike.ac) == (4, 4)
