"""The fight export (`cdbtui.export`): Markdown and HTML for the DJ's campaign notes.

Fights are built through command lines, as at the table.  Checked: the log grouped
by turn in order with its moments, damage in bold, warnings marked, the roster's
final states, a well-formed Markdown table and HTML page with everything escaped,
and the players' version (hidden combatants gone, private PNJ numbers as "?").
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib import resources

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Fight
from cdbtui.engine.session import Session
from cdbtui.engine.text import fold
from cdbtui.export import (
    FORMATS,
    build_report,
    escape_md,
    export_html,
    export_markdown,
    is_damage,
)



def demo_lines() -> list[str]:
    """The bundled demo fight's command lines (comments and blank lines left out)."""
    text = resources.files("cdbtui").joinpath("demo", "puerto.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def play(*lines: str, rules: str = "cdb") -> Session:
    session = Session.new(rules=rules)
    for line in lines:
        session.execute(line)
    return session

#: The demo, then a few turns with damage, a condition, a warning and a free action.
FIGHT_LINES = [
    *demo_lines(),
    "mike disparar-armas-largas",          # T1 M7
    '"soldado 1" ponerse-a-cubierto',      # T1 M7, reaction
    "dano sven 3 rd=1",                    # T1 M7, damage
    "dano mike 1 rd=3",                    # T1 M7, stopped by RD
    "siguiente",
    'estado "Soldado 2" +agarrado',
    "turno",                               # T2
    'dano "Soldado 2" 40',                 # out: warning
    "mike gasta 2 abre la puerta",
    "turno",                               # T3
]


def fight_of(*lines: str, rules: str = "cdb") -> Fight:
    return play(*lines, rules=rules).fight


def registro(md: str) -> list[tuple[str, list[str]]]:
    """The log section of a Markdown export: (turn heading, entry lines) in order."""
    section = md.split("\n## Registro\n", 1)[1]
    groups: list[tuple[str, list[str]]] = []
    for line in section.splitlines():
        if line.startswith("### "):
            groups.append((line[4:], []))
        elif line.startswith("- "):
            groups[-1][1].append(line)
    return groups


ENTRY = re.compile(r"- (?:`(?P<moment>M-?\d+)` )?(?P<warn>⚠ )?(?P<text>.*)")


def parse_entry(line: str) -> tuple[str | None, bool, bool, str]:
    """(moment, warning, bold, text) of one Markdown log line."""
    match = ENTRY.fullmatch(line)
    assert match is not None, line
    text = match["text"]
    bold = len(text) > 4 and text.startswith("**") and text.endswith("**")
    if bold:
        text = text[2:-2]
    return match["moment"], bool(match["warn"]), bold, text


def heading(turn: int) -> str:
    return "Preparación" if turn == 0 else f"Turno {turn}"


# ---------------------------------------------------------------- the log


def test_log_is_grouped_by_turn_in_order():
    fight = fight_of(*FIGHT_LINES)
    groups = registro(export_markdown(fight))
    assert [title for title, _ in groups] == ["Preparación", "Turno 1", "Turno 2", "Turno 3"]
    exported = [(title, parse_entry(line)[3]) for title, lines in groups for line in lines]
    assert exported == [(heading(e.turn), e.text) for e in fight.log]


def test_entries_carry_their_moment():
    md = export_markdown(fight_of(*FIGHT_LINES))
    assert "- `M7` Mike: Disparar Armas Largas (3 AC) → momento 4" in md.splitlines()
    assert "- Alta de Mike (PJ, 7 AC)" in md.splitlines()  # before turn 1: no moment
    html = export_html(fight_of(*FIGHT_LINES))
    assert '<span class="moment">M7</span> Mike: Disparar Armas Largas (3 AC) → momento 4' in html


def test_negative_moments_are_shown():
    fight = fight_of(
        "alta Ana ac=6", "momento Ana 1", "empezar", "ana gasta 2", "ana gasta 1 mira",
    )
    md = export_markdown(fight)
    assert "- `M-1` Ana: mira (1 AC) → momento -2" in md.splitlines()


def test_damage_entries_are_bold_and_nothing_else_is():
    fight = fight_of(*FIGHT_LINES)
    damage = {e.text for e in fight.log if "casilla(s)" in e.text or "sin efecto" in e.text}
    assert len(damage) == 3
    md = export_markdown(fight)
    for _, lines in registro(md):
        for line in lines:
            _, _, bold, text = parse_entry(line)
            assert bold == (text in damage), line
    # Damage typed right after the shot it follows is in that shot's reaction window:
    # logged at the shot's moment (RULES.md §3).
    assert "- `M7` **Sven: 2 casilla(s) de heridas (daño 3 − RD 1)**" in md.splitlines()
    assert "- `M7` **Mike: daño 1 − RD 3 < 0, sin efecto**" in md.splitlines()
    html = export_html(fight)
    assert html.count("<strong>") == 3
    assert '<li class="damage"><span class="moment">M7</span> <strong>Sven: 2 casilla(s) de heridas (daño 3 − RD 1)</strong></li>' in html


def test_damage_to_someone_removed_later_stays_bold():
    fight = fight_of(
        "alta Ana ac=6", "alta Bruno ac=5", "momento Ana 5", "momento Bruno 4", "empezar",
        "dano bruno 2", "baja bruno",
    )
    assert "- `M5` **Bruno: 2 casilla(s) de heridas (daño 2 − RD 0)**" in export_markdown(fight)


def test_text_typed_to_look_like_damage_is_not_bold():
    fight = fight_of(
        "alta Mike ac=7 bando=pj", "alta Sven ac=5 bando=pj", "momento Mike 5", "momento Sven 4",
        "empezar", "mike espera Sven: 2 casilla(s) de heridas (daño 3 − RD 0)",
        "mike interrumpe punetazo",
    )
    assert not any(entry.damage for group in build_report(fight).turns for entry in group.entries)
    assert "**" not in export_markdown(fight)
    # Damage is the entry's kind, not its wording.
    assert not any(is_damage(entry) for entry in fight.log)
    hit = fight_of("alta Sven ac=5 bando=pj", "dano sven 3").log[-1]
    assert is_damage(hit) and hit.text == "Sven: 3 casilla(s) de heridas (daño 3 − RD 0)"


def test_warnings_are_marked():
    fight = fight_of(*FIGHT_LINES)
    warnings = [e for e in fight.log if e.warning]
    assert [e.text for e in warnings] == ["Soldado 2 cae inconsciente: fuera de combate"]
    md = export_markdown(fight)
    assert md.count("⚠") == 1
    assert "- `M7` ⚠ Soldado 2 cae inconsciente: fuera de combate" in md.splitlines()
    html = export_html(fight)
    assert html.count("⚠") == 1
    assert '<li class="warning">' in html


# ---------------------------------------------------------------- the roster


def roster_rows(md: str) -> list[list[str]]:
    section = md.split("\n## Combatientes\n", 1)[1].split("\n## Registro\n", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]


def test_markdown_roster_is_a_table_with_the_final_states():
    md = export_markdown(fight_of(*FIGHT_LINES))
    rows = roster_rows(md)
    assert rows[0] == ["Nombre", "Bando", "AC por turno", "Momento inicial", "Heridas", "Fatiga", "Estado"]
    assert all(re.fullmatch(r"-{3}:?", cell) for cell in rows[1])
    assert all(len(row) == 7 for row in rows)
    body = {row[0]: row[1:] for row in rows[2:]}
    assert list(body) == ["Mike", "Sven", "Soldado 1", "Soldado 2"]
    assert body["Mike"] == ["PJ", "7", "7", "—", "—", "—"]
    assert body["Sven"] == ["PJ", "5", "5", "Rasguño", "—", "—"]
    assert body["Soldado 1"] == ["PNJ", "6", "6", "—", "—", "—"]
    assert body["Soldado 2"] == ["PNJ", "5", "4", "Moribundo", "—", "agarrado, fuera de combate"]


def test_fatigue_and_factions_in_the_roster():
    fight = fight_of(
        "alta Ana ac=6 bando=orcos", "momento Ana 5", "empezar", "dano ana 4 fatiga",
    )
    rows = roster_rows(export_markdown(fight))
    assert rows[2] == ["Ana", "orcos", "6", "5", "—", "Aturdido", "—"]
    assert "<td>Aturdido</td>" in export_html(fight)


def test_markdown_escapes_what_would_break_the_table_or_the_text():
    fight = fight_of('alta "A|B*c_" ac=5', 'alta "A<b>&" ac=3')
    md = export_markdown(fight)
    rows = roster_rows(md)
    assert [row[0] for row in rows[2:]] == [r"A\|B\*c\_", r"A\<b>&"]
    assert all(len(row) == 7 for row in rows)
    assert re.search(r"(?<!\\)<b>", md) is None  # every "<" that could open a tag is escaped
    assert escape_md("daño 1 − RD 3 < 0, sin efecto") == "daño 1 − RD 3 < 0, sin efecto"
    assert escape_md("a &amp; <i>b</i>") == r"a \&amp; \<i>b\</i>"


def test_title_names_the_fight_and_its_rules():
    md = export_markdown(fight_of('nombre "La <torre> & el foso"', rules="walkure"))
    assert md.splitlines()[0] == r"# La \<torre> & el foso · Walküre"
    html = export_html(fight_of('nombre "La <torre> & el foso"', rules="walkure"))
    assert "<h1>La &lt;torre&gt; &amp; el foso · Walküre</h1>" in html
    assert "<title>La &lt;torre&gt; &amp; el foso · Walküre</title>" in html


def test_an_empty_fight_exports():
    fight = Session.new("Vacío").fight
    md = export_markdown(fight)
    assert "Sin combatientes." in md
    assert [title for title, _ in registro(md)] == ["Preparación"]
    assert "Sin combatientes." in export_html(fight)


# ---------------------------------------------------------------- HTML


VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr"}


class Structure(HTMLParser):
    """Records start tags and checks that every non-void element is closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.seen: list[str] = []
        self.errors: list[str] = []
        self.doctype = ""
        self.text: list[str] = []

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag, attrs) -> None:
        self.seen.append(tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data) -> None:
        self.text.append(data)


def structure(html: str) -> Structure:
    parser = Structure()
    parser.feed(html)
    parser.close()
    return parser


def test_html_is_a_well_formed_standalone_document():
    page = export_html(fight_of(*FIGHT_LINES))
    parsed = structure(page)
    assert parsed.doctype.lower() == "doctype html"
    assert parsed.errors == []
    assert parsed.stack == []
    for tag in ("html", "head", "meta", "title", "style", "body", "main", "table", "thead", "tbody", "section", "ol", "h1", "h2", "h3"):
        assert tag in parsed.seen, tag
    assert parsed.seen.count("html") == parsed.seen.count("body") == parsed.seen.count("main") == 1
    assert '<meta charset="utf-8">' in page
    assert "@media print" in page
    assert parsed.seen.count("tr") == 1 + 4  # heading + one per combatant
    assert parsed.seen.count("li") == len(fight_of(*FIGHT_LINES).log)


def test_html_escapes_names():
    fight = fight_of('alta "A<b>&" ac=5', 'momento "A<b>&" 4', "empezar", 'dano "A<b>&" 2')
    page = export_html(fight)
    parsed = structure(page)
    assert "b" not in parsed.seen
    assert parsed.errors == [] and parsed.stack == []
    assert "<td>A&lt;b&gt;&amp;</td>" in page
    assert "<strong>A&lt;b&gt;&amp;: 2 casilla(s) de heridas (daño 2 − RD 0)</strong>" in page
    assert "A<b>&: 2 casilla(s)" in "".join(parsed.text)


# ---------------------------------------------------------------- for the players

SECRET_LINES = [
    "alta Mike ac=7 bando=pj",
    'alta "Señor Ñu" ac=4 oculto',
    "alta Bob ac=3",
    "alta Soldado ac=5 privado",
    "alta Sven ac=5 bando=pj privado",
    "momento Mike 7", 'momento "Señor Ñu" 6', "momento Bob 5", "momento soldado 4", "momento sven 3",
    "empezar",
    "mike gasta 2 vigila al senor nu",
    'dano "Señor Ñu" 3',
    "dano soldado 2 rd=1",
    "dano bob 1",
]


def test_hidden_combatants_are_left_out_for_players_only():
    fight = fight_of(*SECRET_LINES)
    mentioning = [e.text for e in fight.log if "senor nu" in fold(e.text)]
    assert len(mentioning) == 4  # alta, momento, the free action, damage
    for export in FORMATS.values():
        full = fold(export(fight))
        players = fold(export(fight, for_players=True))
        assert "senor nu" in full
        assert "senor nu" not in players
        assert "bob" in players  # a name that merely starts like another one stays
        for text in mentioning:
            assert fold(text) not in players
    rows = roster_rows(export_markdown(fight, for_players=True))
    assert [row[0] for row in rows[2:]] == ["Mike", "Bob", "Soldado", "Sven"]


def test_hidden_names_are_matched_on_word_boundaries():
    fight = fight_of("alta Bo ac=3 oculto", "alta Bob ac=3", "momento bob 4", "momento bo 3", "empezar", "dano bob 1")
    players = export_markdown(fight, for_players=True)
    assert "**Bob: 1 casilla(s) de heridas (daño 1 − RD 0)**" in players
    assert "Alta de Bob (PNJ, 3 AC)" in players
    assert "Alta de Bo " not in players and "Bo empieza" not in players


def test_private_pnj_numbers_are_left_out_for_players():
    """As in the player view (players.py): the roster's AC per turn is "?", the log
    entries with a private PNJ's numbers are left out (its start moment shows: the
    players' sheet shows its column from that row)."""
    fight = fight_of(*SECRET_LINES)
    players = export_markdown(fight, for_players=True)
    rows = {row[0]: row for row in roster_rows(players)[2:]}
    assert rows["Soldado"][2:4] == ["?", "4"]
    assert rows["Sven"][2:4] == ["5", "3"]  # a PJ's numbers are the player's own
    assert rows["Bob"][2:4] == ["3", "5"]
    texts = [parse_entry(line)[3] for _, lines in registro(players) for line in lines]
    assert not any("Soldado" in text for text in texts)  # each one carries its numbers
    assert "Alta de Bob (PNJ, 3 AC)" in texts and "Alta de Sven (PJ, 5 AC)" in texts
    full = export_markdown(fight)
    assert "Alta de Soldado (PNJ, 5 AC)" in full
    assert "**Soldado: 1 casilla(s) de heridas (daño 2 − RD 1)**" in full
    assert {row[0]: row for row in roster_rows(full)[2:]}["Soldado"][2:4] == ["5", "4"]
    page = export_html(fight, for_players=True)
    assert '<td class="num">?</td>' in page
    assert "Soldado: 1 casilla" not in page and "Alta de Soldado" not in page


def test_names_with_digits_are_not_numbers_for_players():
    fight = fight_of(*demo_lines(), 'estado "soldado 2" +agarrado')
    players = export_markdown(fight, for_players=True)
    assert "- Soldado 2: +agarrado" in players.splitlines()
    assert "Alta de Soldado 1 (PNJ, 6 AC)" in players  # Soldado 1 is not private
    assert "Alta de Soldado 2" not in players


def test_players_read_no_moments():
    """The players' countdown jumps over moments where only hidden PNJ act: the
    export must not show them either (it went 8 → 5; "M6 Mike: Esquivar" would
    tell that something happened at 6).  Mike dodges the Ninja's action at 6: the
    reaction window puts the dodge at 6 (RULES.md §3)."""
    fight = fight_of(
        "alta Mike ac=7 bando=pj", "alta Ninja ac=6 oculto", "momento Mike 8",
        "momento Ninja 6", "empezar", "mike gasta 3", "ninja gasta 1", "mike esquivar",
    )
    assert fight.moment == 5 and fight.log[-1].text.startswith("Mike: Esquivar")
    players = export_markdown(fight, for_players=True)
    assert "- Mike: Esquivar, reacción (1 AC) → momento 4" in players.splitlines()
    assert "`M" not in players
    assert '<span class="moment"></span> Mike: Esquivar' in export_html(fight, for_players=True)
    assert "- `M6` Mike: Esquivar, reacción (1 AC) → momento 4" in export_markdown(fight).splitlines()


def test_formats_table():
    assert FORMATS == {"md": export_markdown, "html": export_html}


# ---------------------------------------------------------------- property

NAMES = ["Ana", "Bruno", "Eva Luna", "Soldado 2"]
WORDS = ["mira", "la puerta", "corre", "grita"]
CONDITIONS = ["agarrado", "inmovilizado", "sorprendido", "a-cubierto", "moribundo"]


def q(name: str) -> str:
    return f'"{name}"' if " " in name else name


name = st.sampled_from(NAMES).map(q)
small = st.integers(0, 8)
command = st.one_of(
    st.builds(lambda n, ac, side, flag: f"alta {n} ac={ac} bando={side}{flag}",
              name, st.integers(1, 8), st.sampled_from(["pj", "pnj", "orcos"]),
              st.sampled_from(["", " oculto", " privado"])),
    st.builds(lambda n, m: f"momento {n} {m}", name, st.integers(-2, 12)),
    st.just("tirar"),
    st.just("empezar"),
    st.builds(lambda n, m: f"{n} {m}", name,
              st.sampled_from(["punetazo", "esquivar", "apuntar", "mover 2", "disparar-armas-largas"])),
    st.builds(lambda n, c, w: f"{n} gasta {c} {w}", name, st.integers(1, 4), st.sampled_from(WORDS)),
    st.builds(lambda n, a: f"{n} {a}", name, st.sampled_from(["retrasa", "actua", "fin"])),
    st.builds(lambda n, w: f"{n} espera {w}", name, st.sampled_from(WORDS)),
    st.builds(lambda n: f"{n} interrumpe punetazo", name),
    st.sampled_from(["siguiente", "turno", "deshacer", "rehacer"]),
    st.builds(lambda n, s, c: f"estado {n} {s}{c}", name, st.sampled_from("+-"), st.sampled_from(CONDITIONS)),
    st.builds(lambda n, d, rd, f: f"dano {n} {d} rd={rd}{f}", name, small, st.integers(-2, 4),
              st.sampled_from(["", " fatiga"])),
    st.builds(lambda n: f"baja {n}", name),
)


#: A cast that can start: unique names, each with AC, a start moment and maybe a flag.
cast = st.lists(
    st.tuples(st.sampled_from(NAMES), st.integers(1, 8), st.integers(-1, 10),
              st.sampled_from(["pj", "pnj"]), st.sampled_from(["", " oculto", " privado"])),
    min_size=1, max_size=4, unique_by=lambda member: member[0],
).map(lambda members: [
    f"alta {q(n)} ac={ac} momento={start} bando={side}{flag}" for n, ac, start, side, flag in members
])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cast, st.booleans(), st.lists(command, max_size=50))
def test_markdown_has_every_log_entry_once_in_order(setup, begin, lines):
    session = Session.new(seed=3)
    for line in [*setup, *(["empezar"] if begin else []), *lines]:
        try:
            session.execute(line)
        except Refusal:
            pass
    fight = session.fight
    exported = [
        (title, *parse_entry(line))
        for title, entries in registro(export_markdown(fight))
        for line in entries
    ]
    expected = [
        (heading(e.turn), None if e.moment is None else f"M{e.moment}", e.warning, e.text)
        for e in fight.log
    ]
    assert [(t, m, w, text) for t, m, w, _, text in exported] == expected
