"""An audit of the CLI, the command language and the sheet against the letter of
../shared/COMMANDS.md and ../shared/SHEET.md (CdB and Walküre).

Each test cites the section it checks and keeps the spec's expectation.
Everything goes through `cdbtui new`/`do`/`show`/`export` (in this process with
`shell.cdbtui`, or in a real one with `shell.process` where the exit code or the
absence of a traceback matters).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from shell import cdbtui, process

#: RULES.md §7's cast: Mike 7 AC start 7, Sven 5 AC start 5, Soldado 1 6 AC start 6,
#: Soldado 2 5 AC start 4 (Agilidad decides Sven before Soldado 1 at 5).
CAST = [
    "alta Mike ac=7 ini=1 agi=3 bando=pj",
    "alta Sven ac=5 agi=2 bando=pj",
    'alta "Soldado 1" ac=6 agi=1',
    'alta "Soldado 2" ac=5 agi=1',
    "momento mike 7",
    "momento sven 5",
    'momento "soldado 1" 6',
    'momento "Soldado 2" 4',
]

#: Turn 1 of RULES.md §7, line by line.
TURN_1 = [
    "empezar",
    "mike disparar-armas-largas",
    '"soldado 1" ponerse-a-cubierto',
    "sven disparar-armas-largas",
    '"soldado 2" ponerse-a-cubierto',
    '"soldado 1" disparar-armas-largas',
    "mike ponerse-a-cubierto",
    '"soldado 2" disparar-armas-largas',
    "mike apuntar",
    '"soldado 1" apuntar',
    "sven disparar-armas-largas",
    "mike disparar-armas-largas",
    '"soldado 2" disparar-armas-largas',
]


def new(tmp_path: Path, rules: str | None = None) -> Path:
    path = tmp_path / "f.toml"
    result = cdbtui("new", str(path), *(["--rules", rules] if rules else []))
    assert result.returncode == 0, result.stderr
    return path


def fight(tmp_path: Path, *lines: str, rules: str | None = None, cast: bool = True) -> Path:
    """A new save with the cast (unless `cast=False`) and `lines` played; all must pass."""
    path = new(tmp_path, rules)
    played = [*(CAST if cast else []), *lines]
    if played:
        result = cdbtui("do", str(path), *played)
        assert result.returncode == 0, result.stderr
    return path


def state(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def who(path: Path, name: str) -> dict:
    return next(c for c in state(path)["combatants"] if c["name"] == name)


def without_log(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "log"}


def do(path: Path, *lines: str):
    return cdbtui("do", str(path), *lines)


# ------------------------------------------------------------ Shell interface


def test_new_creates_an_empty_fight_with_each_ruleset(tmp_path):
    """COMMANDS.md, Shell interface: `cdbtui new PATH [--rules cdb|walkure|…]`
    creates an empty fight."""
    for rules in ("cdb", "walkure"):
        path = tmp_path / f"{rules}.toml"
        result = process("new", str(path), "--rules", rules)
        assert result.returncode == 0, result.stderr
        data = state(path)
        assert data["rules"] == rules
        assert data["combatants"] == []
        assert data["turn"] == 0 and data["moment"] is None


def test_new_default_rules_are_cdb(tmp_path):
    """COMMANDS.md, Shell interface / JSON: a fight made without --rules is CdB."""
    assert state(new(tmp_path))["rules"] == "cdb"


def test_new_refuses_to_overwrite_an_existing_file(tmp_path):
    """COMMANDS.md, Shell interface: `new` "refuses to overwrite an existing file"."""
    path = fight(tmp_path, "empezar")
    before = path.read_bytes()
    result = process("new", str(path))
    assert result.returncode != 0
    assert result.stderr.strip() and "Traceback" not in result.stderr
    assert path.read_bytes() == before


def test_do_applies_each_argument_in_order_and_prints_the_board(tmp_path):
    """COMMANDS.md, Shell interface: `do` applies each argument as one command line,
    in order, saving after each, and prints the board as text."""
    path = new(tmp_path)
    result = process("do", str(path), *CAST, "empezar", "mike disparar-armas-largas")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0] == "f · CdB · Turno 1 · Momento 6 · Actúa: Soldado 1"
    assert who(path, "Mike")["marker"] == 4
    # the board `do` prints is the board `show` prints
    assert cdbtui("show", str(path)).stdout == result.stdout


def test_do_dash_reads_lines_from_stdin(tmp_path):
    """COMMANDS.md, Shell interface: `-` reads lines from stdin."""
    path = new(tmp_path)
    result = process("do", str(path), "-", stdin="\n".join([*CAST, "empezar"]) + "\n")
    assert result.returncode == 0, result.stderr
    assert state(path)["turn"] == 1


def test_do_dash_mixes_with_arguments_in_order(tmp_path):
    """COMMANDS.md, Shell interface: the arguments are applied in order, `-` among them."""
    path = fight(tmp_path)
    result = process("do", str(path), "empezar", "-", "sven retrasa",
                     stdin="mike disparar-armas-largas\n\"soldado 1\" ponerse-a-cubierto\n")
    assert result.returncode == 0, result.stderr
    assert who(path, "Sven")["status"] == "holding"
    assert who(path, "Soldado 1")["marker"] == 5


def test_do_stops_at_the_first_failure_exit_1_one_line_naming_it(tmp_path):
    """COMMANDS.md, Shell interface: "Stops at the first command that fails: exit status
    1, a one-line error on stderr naming the command, and the save left exactly as it
    was before that command"; the earlier commands are saved."""
    path = fight(tmp_path)
    result = process("do", str(path), "empezar", "mike vuela", "siguiente")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "mike vuela" in lines[0]
    assert "Traceback" not in result.stderr
    data = state(path)
    assert data["turn"] == 1 and data["moment"] == 7  # empezar kept, siguiente never ran


def test_a_failed_command_leaves_the_save_byte_for_byte(tmp_path):
    """COMMANDS.md, Shell interface: "the save left exactly as it was before that command"."""
    path = fight(tmp_path, "empezar")
    before = path.read_bytes()
    result = process("do", str(path), "sven esquivar-disparos")
    assert result.returncode == 1
    assert path.read_bytes() == before


def test_show_changes_nothing(tmp_path):
    """COMMANDS.md, Shell interface: `show PATH [--json]` "changes nothing"."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas")
    before = path.read_bytes(), os.stat(path).st_mtime_ns
    listing = sorted(p.name for p in tmp_path.iterdir())
    for args in ((), ("--json",)):
        assert process("show", str(path), *args).returncode == 0
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing


def test_show_json_is_json_on_stdout_only(tmp_path):
    """COMMANDS.md, The JSON state: `show PATH --json` prints the state as JSON."""
    path = fight(tmp_path, "empezar")
    result = process("show", str(path), "--json")
    assert result.returncode == 0 and result.stderr == ""
    assert isinstance(json.loads(result.stdout), dict)


@pytest.mark.parametrize("args", [
    ("show",),
    ("show", "nada.toml"),
    ("do", "nada.toml", "siguiente"),
    ("new",),
    ("new", "x.toml", "--rules", "ajedrez"),
    ("show", "f.toml", "--xml"),
    ("ordenquenoexiste", "f.toml"),
    ("view", "nada.toml"),
    ("open", "nada.toml"),
])
def test_usage_errors_and_unreadable_files_exit_2(tmp_path, args):
    """COMMANDS.md, Shell interface: "Exit status: … 2 usage error or unreadable file.
    Never a traceback for bad input." """
    new(tmp_path)
    result = process(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() and "Traceback" not in result.stderr


def test_a_file_that_is_not_a_save_exits_2(tmp_path):
    """COMMANDS.md, Shell interface: 2 for an unreadable file, for show and do alike."""
    (tmp_path / "g.toml").write_text("esto no es toml\n", "utf-8")
    (tmp_path / "o.toml").write_text("a = 1\n", "utf-8")
    (tmp_path / "b.toml").write_bytes(b"\x00\xff\xfe")
    for name in ("g.toml", "o.toml", "b.toml"):
        for args in (("show", name), ("show", name, "--json"), ("do", name, "siguiente")):
            result = process(*args, cwd=tmp_path)
            assert result.returncode == 2, (args, result)
            assert "Traceback" not in result.stderr


def test_refused_command_exits_1_and_prints_no_board(tmp_path):
    """COMMANDS.md, Shell interface: exit 1 "a command was refused (rules or bad input)";
    the error goes to stderr."""
    path = fight(tmp_path)
    result = process("do", str(path), "siguiente")  # not started
    assert result.returncode == 1
    assert result.stderr.startswith("cdbtui: «siguiente»")
    assert result.stdout == ""


# ------------------------------------------------------------ Command lines: words


PAIRS = [
    (["empezar"], ["begin"]),
    (["empezar", "mike retrasa"], ["begin", "mike hold"]),
    (["empezar", "mike retrasa", "mike actua"], ["begin", "mike hold", "mike act"]),
    (["empezar", "mike espera algo"], ["begin", "mike wait algo"]),
    (["empezar", "mike espera algo", '"soldado 1" mover 1', "mike interrumpe disparar-armas-largas"],
     ["begin", "mike wait algo", '"soldado 1" mover 1', "mike trigger disparar-armas-largas"]),
    (["empezar", "mike fin"], ["begin", "mike done"]),
    (["empezar", "siguiente"], ["begin", "next"]),
    (["empezar", "turno"], ["begin", "newturn"]),
    (["empezar", "mike gasta 2 abrir la puerta"], ["begin", "mike spend 2 abrir la puerta"]),
    (["baja sven"], ["remove sven"]),
    (["momento sven 3"], ["start sven 3"]),
    (["sorpresa sven mike", "empezar"], ["surprise sven mike", "begin"]),
    (["estado sven +agarrado"], ["cond sven +agarrado"]),
    (["estado sven +agarrado", "estado sven -agarrado"], ["cond sven +agarrado", "cond sven -agarrado"]),
    (["empezar", "estado sven +aturdido turnos=2"], ["begin", "cond sven +aturdido turnos=2"]),
    (["dano sven 3 rd=1"], ["damage sven 3 rd=1"]),
    (["dano sven 3 fatiga"], ["damage sven 3 fatiga"]),
    (["nota sven hola mundo turnos=2"], ["note sven hola mundo turnos=2"]),
    (["nota sven hola", "nota sven -"], ["note sven hola", "note sven -"]),
    (["alta X ac=3 oculto", "revelar x"], ["add X ac=3 oculto", "reveal x"]),
    (["ocultar sven"], ["hide sven"]),
    (["fatiga-cc no"], ["melee-fatigue off"]),
    (["fatiga-cc no", "fatiga-cc si"], ["melee-fatigue off", "melee-fatigue on"]),
    (["alta Orco ac=4 copias=3"], ["add Orco ac=4 copies=3"]),
    (["empezar", "mike disparar-armas-largas", "deshacer"], ["begin", "mike disparar-armas-largas", "undo"]),
    (["empezar", "mike disparar-armas-largas", "deshacer", "rehacer"],
     ["begin", "mike disparar-armas-largas", "undo", "redo"]),
]


@pytest.mark.parametrize("spanish, english", PAIRS, ids=[" ; ".join(p[0]) for p in PAIRS])
def test_every_keyword_has_its_english_spelling(tmp_path, spanish, english):
    """COMMANDS.md, Command lines: "Keywords have an English and a Spanish spelling"
    (the table, Spanish first): both give the same state."""
    (tmp_path / "es").mkdir()
    (tmp_path / "en").mkdir()
    es = fight(tmp_path / "es", *spanish)
    en = fight(tmp_path / "en", *english)
    assert without_log(state(es)) == without_log(state(en))


@pytest.mark.parametrize("typed, plain", [
    ("dano sven 3", "daño sven 3"),
    ("mike actua", "mike actúa"),
])
def test_accents_are_optional_in_keywords(tmp_path, typed, plain):
    """COMMANDS.md, Command lines: "accents are optional when typing (`dano` = `daño`)"."""
    setup = ["empezar", "mike retrasa"] if "actua" in typed else []
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = fight(tmp_path / "a", *setup, typed)
    b = fight(tmp_path / "b", *setup, plain)
    assert without_log(state(a)) == without_log(state(b))


def test_fatiga_cc_si_with_an_accent(tmp_path):
    """COMMANDS.md, Command lines: `fatiga-cc si|no`, accents optional (`sí`)."""
    path = fight(tmp_path, "fatiga-cc no", "fatiga-cc sí")
    assert do(path, "fatiga-cc no").returncode == 0  # it was on again


def test_keywords_are_case_insensitive(tmp_path):
    """COMMANDS.md, Command lines: names (and words) are matched case-insensitively."""
    path = fight(tmp_path, "EMPEZAR", "MIKE DISPARAR-ARMAS-LARGAS", "Siguiente")
    assert who(path, "Mike")["marker"] == 4


# ------------------------------------------------------------ names and ids


def test_maneuver_ids_are_book_names_folded(tmp_path):
    """COMMANDS.md, Command lines: "Puñetazo → `punetazo`, Disparar Armas Largas →
    `disparar-armas-largas`, Atacar con Armas de 1 Mano → `atacar-con-armas-de-1-mano`"."""
    for line, name in [("mike punetazo", "Puñetazo"),
                       ("mike disparar-armas-largas", "Disparar Armas Largas"),
                       ("mike atacar-con-armas-de-1-mano", "Atacar con Armas de 1 Mano")]:
        sub = tmp_path / name.replace(" ", "_")
        sub.mkdir()
        path = fight(sub, "empezar", line)
        assert who(path, "Mike")["maneuvers"] == [name]


def test_a_maneuver_typed_with_its_accent_is_its_id(tmp_path):
    """COMMANDS.md, Command lines: accents optional: `puñetazo` is `punetazo`."""
    path = fight(tmp_path, "empezar", "mike puñetazo")
    assert who(path, "Mike")["maneuvers"] == ["Puñetazo"]


def test_talent_ids_fold_the_same_way(tmp_path):
    """COMMANDS.md, Command lines: "Artista Marcial → `artista-marcial`, Gun Kata →
    `gun-kata`, Maestro de Esgrima → `maestro-de-esgrima`, Puntería Zen → `punteria-zen`"."""
    path = fight(tmp_path, "alta X ac=6 talentos=artista-marcial,gun-kata,maestro-de-esgrima,punteria-zen",
                 cast=False)
    assert who(path, "X")["talents"] == ["artista-marcial", "gun-kata", "maestro-de-esgrima",
                                         "punteria-zen"]


def test_a_talent_makes_its_maneuver_possible(tmp_path):
    """COMMANDS.md, `alta … [talentos=a,b]` (RULES §4: a maneuver needing a talent)."""
    path = fight(tmp_path, "alta X ac=6 talentos=artista-marcial", "momento x 5", "empezar",
                 "x proyectar", cast=False)
    assert who(path, "X")["maneuvers"] == ["Proyectar"]


def test_names_are_case_insensitive_and_quoted_with_spaces(tmp_path):
    """COMMANDS.md, Command lines: "Names are matched case-insensitively; a name with
    spaces is quoted (`"Soldado 1"`)"."""
    path = fight(tmp_path, "empezar", "MIKE disparar-armas-largas", '"SOLDADO 1" ponerse-a-cubierto')
    assert who(path, "Soldado 1")["marker"] == 5
    assert who(path, "Soldado 2")["marker"] == 4


def test_an_exact_name_wins_over_a_prefix(tmp_path):
    """COMMANDS.md, Command lines: "an exact name or id wins, otherwise a unique prefix"."""
    path = fight(tmp_path, "alta Sol ac=3", "alta Soldado ac=4", "dano sol 1", cast=False)
    assert who(path, "Sol")["wounds"] == 1 and who(path, "Soldado")["wounds"] == 0


def test_a_unique_name_prefix_is_accepted(tmp_path):
    """COMMANDS.md, Command lines: "otherwise a unique prefix is accepted (for names …)"."""
    path = fight(tmp_path, "empezar", "mi disparar-armas-largas")
    assert who(path, "Mike")["marker"] == 4


def test_a_unique_maneuver_prefix_is_accepted(tmp_path):
    """COMMANDS.md, Command lines: "a unique prefix is accepted (for names and maneuver
    ids alike)"."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-l")
    assert who(path, "Mike")["maneuvers"] == ["Disparar Armas Largas"]


def test_an_ambiguous_name_prefix_is_refused_listing_them(tmp_path):
    """COMMANDS.md, Command lines: only a *unique* prefix: an ambiguous one is refused
    (exit 1) and the fight is unchanged."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas")
    before = path.read_bytes()
    result = process("do", str(path), "sold ponerse-a-cubierto")
    assert result.returncode == 1
    assert "Soldado 1" in result.stderr and "Soldado 2" in result.stderr
    assert path.read_bytes() == before


def test_an_ambiguous_maneuver_prefix_is_refused(tmp_path):
    """COMMANDS.md, Command lines: only a unique maneuver prefix is accepted."""
    path = fight(tmp_path, "empezar")
    result = process("do", str(path), "mike disparar")
    assert result.returncode == 1
    assert "disparar-armas-largas" in result.stderr and "disparar-armas-cortas" in result.stderr


def test_a_quoted_prefix_of_a_name_with_spaces_is_accepted(tmp_path):
    """COMMANDS.md, Command lines: "a name with spaces is quoted (`"Soldado 1"`); an exact
    name or id wins, otherwise a unique prefix is accepted (for names …)"."""
    path = fight(tmp_path, 'alta "Capitán Garfio" ac=5', 'dano "Capitán Garf" 1', cast=False)
    assert who(path, "Capitán Garfio")["wounds"] == 1


def test_a_quoted_ambiguous_prefix_is_refused_as_ambiguous(tmp_path):
    """COMMANDS.md, Command lines: a quoted name is one name; "sold" is a prefix of both
    soldiers, so not a unique prefix: refused as ambiguous, naming both."""
    path = fight(tmp_path, "empezar")
    result = process("do", str(path), 'dano "sold" 2')
    assert result.returncode == 1
    assert "Soldado 1" in result.stderr and "Soldado 2" in result.stderr


def test_keywords_are_matched_before_maneuver_ids(tmp_path):
    """COMMANDS.md, Command lines: "the command keywords below are matched before maneuver
    ids": `fin` is done, not a prefix of `fintar`."""
    path = fight(tmp_path, "empezar", "mike fin")
    assert who(path, "Mike")["status"] == "done"
    assert who(path, "Mike")["maneuvers"] == []


def test_book_ids_of_hold_and_wait(tmp_path):
    """COMMANDS.md's id rule (RULES §4): `retrasar-la-accion` / `quedarse-a-la-espera`."""
    (tmp_path / "a").mkdir()
    path = fight(tmp_path / "a", "empezar", "mike retrasar-la-accion")
    assert who(path, "Mike")["status"] == "holding"
    path = fight(tmp_path, "empezar", "mike quedarse-a-la-espera que se mueva")
    assert who(path, "Mike")["status"] == "waiting"


# ------------------------------------------------------------ each command


def test_alta_with_every_optional_argument(tmp_path):
    """COMMANDS.md, `alta NAME ac=N [ini=N] [agi=N] [ate=N] [hab=N] [mov=N]
    [bando=pj|pnj|NAME] [oculto] [talentos=a,b]`."""
    path = fight(tmp_path, 'alta "Capitán Garfio" ac=6 ini=2 agi=1 ate=2 hab=3 mov=4 bando=piratas'
                 ' oculto talentos=gun-kata', "alta Ana ac=4 bando=pj", "alta Bob ac=4 bando=pnj",
                 "alta Cid ac=4", cast=False)
    c = who(path, "Capitán Garfio")
    assert (c["ac_per_turn"], c["ini"], c["agi"], c["ate"], c["hab"], c["mov"]) == (6, 2, 1, 2, 3, 4)
    assert c["side"] == "piratas" and c["hidden"] is True and c["talents"] == ["gun-kata"]
    assert who(path, "Ana")["side"] == "pj"
    assert who(path, "Bob")["side"] == "pnj"
    assert who(path, "Cid")["side"] == "pnj"


def test_alta_mid_fight_joins_at_its_start_moment(tmp_path):
    """COMMANDS.md, `alta`: "also mid-fight: it joins at its start moment"."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", "alta Rex ac=4", "momento rex 5")
    rex = who(path, "Rex")
    assert rex["start"] == 5 and rex["marker"] == 5 and rex["status"] == "ready"
    assert do(path, '"soldado 1" gasta 1').returncode == 0
    assert state(path)["moment"] == 5 and "Rex" in state(path)["queue"]


def test_baja_removes(tmp_path):
    """COMMANDS.md, `baja NAME` / `remove NAME`."""
    path = fight(tmp_path, 'baja "soldado 2"')
    assert [c["name"] for c in state(path)["combatants"]] == ["Mike", "Sven", "Soldado 1"]


def test_tirar_without_names_rolls_for_everyone_without_a_start(tmp_path):
    """COMMANDS.md, `tirar [NAME ...]`: "roll 1d6+INI … for everyone without a start moment"."""
    path = fight(tmp_path, "alta A ac=5 ini=3", "alta B ac=5 ini=10", "alta C ac=4",
                 "momento c 2", "tirar", cast=False)
    assert 4 <= who(path, "A")["start"] <= 9
    assert 11 <= who(path, "B")["start"] <= 16
    assert who(path, "C")["start"] == 2


def test_tirar_with_names_rolls_only_for_those(tmp_path):
    """COMMANDS.md, `tirar [NAME ...]` / `roll …`: "roll 1d6+INI for those named"."""
    path = fight(tmp_path, "alta A ac=5 ini=3", "alta B ac=5", "alta C ac=4 ini=1",
                 "momento c 2", "roll a c", cast=False)
    assert 4 <= who(path, "A")["start"] <= 9
    assert who(path, "B")["start"] is None
    assert 2 <= who(path, "C")["start"] <= 7


def test_empezar_needs_everyone_to_have_a_start(tmp_path):
    """COMMANDS.md, `empezar`: "start turn 1 (everyone needs a start moment)"."""
    path = fight(tmp_path, "alta A ac=5", "alta B ac=5", "momento a 3", cast=False)
    result = process("do", str(path), "empezar")
    assert result.returncode == 1 and "B" in result.stderr
    assert state(path)["turn"] == 0


def test_sorpresa_halves_ac_in_the_first_turn(tmp_path):
    """COMMANDS.md, `sorpresa NAME ...`: surprised in the first turn (RULES §5: ⌈AC/2⌉)."""
    path = fight(tmp_path, "sorpresa sven mike", "empezar")
    assert who(path, "Sven")["ac"] == 3 and who(path, "Mike")["ac"] == 4


def test_variable_cost_maneuver_takes_n(tmp_path):
    """COMMANDS.md, `NAME MANIOBRA [N]`: "`N` is the movement AC for variable-cost maneuvers"."""
    path = fight(tmp_path, "empezar", "mike mover 2")
    assert who(path, "Mike")["ac"] == 5 and who(path, "Mike")["marker"] == 5


def test_gasta_spends_n_with_a_text(tmp_path):
    """COMMANDS.md, `NAME gasta N [TEXT]`: spend N AC on a free action."""
    path = fight(tmp_path, "empezar", "mike gasta 2 abre la puerta")
    assert who(path, "Mike")["ac"] == 5 and who(path, "Mike")["marker"] == 5
    assert "abre la puerta" in state(path)["log"][-1]


def test_espera_keeps_the_trigger_text(tmp_path):
    """COMMANDS.md, `NAME espera [TEXT]`: wait for a trigger described by TEXT."""
    path = fight(tmp_path, "empezar", "mike espera que Sven se mueva")
    assert who(path, "Mike")["status"] == "waiting"
    assert who(path, "Mike")["trigger"] == "que Sven se mueva"


def test_interrumpe_with_the_movement_ac(tmp_path):
    """COMMANDS.md, `NAME interrumpe MANIOBRA [N]`."""
    path = fight(tmp_path, "empezar", "mike espera algo", "mike interrumpe mover 2")
    assert who(path, "Mike")["maneuvers"] == ["Mover"]
    assert who(path, "Mike")["status"] == "acted"


def test_siguiente_makes_who_did_not_act_a_holder(tmp_path):
    """COMMANDS.md, `siguiente`: "anyone at this moment who did not act starts holding"."""
    path = fight(tmp_path, "empezar", "siguiente")
    assert who(path, "Mike")["status"] == "holding"
    assert state(path)["moment"] == 6


def test_turno_ends_the_turn_and_starts_the_next(tmp_path):
    """COMMANDS.md, `turno`: "end this turn and start the next (holders and waiters decline)"."""
    path = fight(tmp_path, "empezar", "mike retrasa", "turno")
    data = state(path)
    assert data["turn"] == 2 and data["moment"] == 7
    assert who(path, "Mike")["status"] == "ready" and who(path, "Mike")["ac"] == 7


@pytest.mark.parametrize("line", [
    "nota sven x", "fatiga-cc no", "alta X ac=3 oculto", "ocultar sven", "estado sven +agarrado",
    "dano sven 3", "baja sven", "sorpresa sven", "momento sven 2", "alta Orco ac=4 copias=2",
])
def test_everything_is_undoable(tmp_path, line):
    """COMMANDS.md, `deshacer` / `undo`: "(everything is undoable)"."""
    path = fight(tmp_path)
    before = without_log(state(path))
    assert do(path, line).returncode == 0
    assert do(path, "deshacer").returncode == 0
    assert without_log(state(path)) == before


def test_undo_and_redo_across_invocations(tmp_path):
    """COMMANDS.md, `deshacer` / `rehacer` with `do` saving after each command."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas")
    after = without_log(state(path))
    assert do(path, "undo").returncode == 0
    assert who(path, "Mike")["marker"] == 7
    assert do(path, "redo").returncode == 0
    assert without_log(state(path)) == after


def test_estado_adds_and_removes_the_listed_conditions(tmp_path):
    """COMMANDS.md, `estado NAME +COND` / `-COND`: `agarrado`, `inmovilizado`,
    `sorprendido`, `a-cubierto`."""
    path = fight(tmp_path, "estado sven +agarrado", "estado sven +inmovilizado",
                 "estado sven +sorprendido", "estado sven +a-cubierto", "estado sven -inmovilizado")
    assert who(path, "Sven")["conditions"] == ["agarrado", "sorprendido", "a-cubierto"]


def test_an_unknown_condition_is_refused_with_the_closest(tmp_path):
    """RULES §5 (named by COMMANDS.md's estado): "No conozco el estado «agarado»: ¿agarrado?"."""
    path = fight(tmp_path)
    result = process("do", str(path), "estado sven +agarado")
    assert result.returncode == 1
    assert "No conozco el estado «agarado»: ¿agarrado?" in result.stderr


def test_dano_to_wounds_with_rd_and_to_fatigue(tmp_path):
    """COMMANDS.md, `dano NAME N [rd=N] [fatiga]`: damage (Daño − RD), to wounds or fatigue."""
    path = fight(tmp_path, "dano sven 3 rd=1", "dano mike 4 fatiga")
    assert who(path, "Sven")["wounds"] == 2 and who(path, "Sven")["fatigue"] == 0
    assert who(path, "Mike")["fatigue"] == 4 and who(path, "Mike")["wounds"] == 0


def test_nota_adds_and_dash_clears(tmp_path):
    """COMMANDS.md, `nota NAME TEXTO [turnos=N]`; `nota NAME -` clears its notes; JSON notes
    are `{"text": …, "turns_left": N or null}`."""
    path = fight(tmp_path, "empezar", "nota sven herido en el brazo turnos=2", "nota sven otra cosa")
    assert who(path, "Sven")["notes"] == [{"text": "herido en el brazo", "turns_left": 2},
                                          {"text": "otra cosa", "turns_left": None}]
    assert do(path, "nota sven -").returncode == 0
    assert who(path, "Sven")["notes"] == []


def test_a_condition_with_turnos_appears_in_expires(tmp_path):
    """COMMANDS.md, JSON: "a condition with a duration also appears in `expires`:
    `{"aturdido": 3}` (the turn at whose end it ends)"; `conditions` stays a list of ids."""
    path = fight(tmp_path, "empezar", "estado sven +aturdido turnos=3")
    sven = who(path, "Sven")
    assert sven["conditions"] == ["aturdido"]
    assert sven["expires"] == {"aturdido": 3}


def test_a_condition_with_turnos_ends_by_itself(tmp_path):
    """COMMANDS.md, `estado NAME +COND turnos=N`: "ends by itself at the end of the N-th turn"."""
    path = fight(tmp_path, "empezar", "estado sven +aturdido turnos=1", "turno")
    assert who(path, "Sven")["conditions"] == [] and who(path, "Sven")["expires"] == {}


def test_revelar_and_ocultar(tmp_path):
    """COMMANDS.md, `revelar NAME` / `ocultar NAME`."""
    path = fight(tmp_path, "alta Ninja ac=6 oculto", "revelar ninja")
    assert who(path, "Ninja")["hidden"] is False
    assert do(path, "hide ninja").returncode == 0
    assert who(path, "Ninja")["hidden"] is True


def test_copias_make_numbered_combatants(tmp_path):
    """COMMANDS.md, `alta NAME … copias=N`: "N combatants `NAME 1` … `NAME N` with the same
    stats, each its own column"."""
    path = fight(tmp_path, "alta Orco ac=4 ini=1 agi=2 copias=3", cast=False)
    orcs = state(path)["combatants"]
    assert [c["name"] for c in orcs] == ["Orco 1", "Orco 2", "Orco 3"]
    assert {(c["ac_per_turn"], c["ini"], c["agi"]) for c in orcs} == {(4, 1, 2)}


def test_tirar_juntos_with_the_group_name_rolls_one_for_all(tmp_path):
    """COMMANDS.md, copias: "`tirar juntos` rolls one for all" (named by the copies' name)."""
    path = fight(tmp_path, "alta Orco ac=4 ini=1 copias=3", "tirar juntos orco", cast=False)
    starts = {c["start"] for c in state(path)["combatants"]}
    assert len(starts) == 1 and 2 <= starts.pop() <= 7


def test_tirar_juntos_as_written_rolls_one_for_all_the_copies(tmp_path):
    """COMMANDS.md, `alta NAME … copias=N`: "(start moments rolled or typed one by one;
    `tirar juntos` rolls one for all)"."""
    path = fight(tmp_path, "alta Orco ac=4 ini=1 copias=3", cast=False)
    result = do(path, "tirar juntos")
    assert result.returncode == 0, result.stderr
    starts = {c["start"] for c in state(path)["combatants"]}
    assert len(starts) == 1 and None not in starts


def test_fatiga_cc_no_turns_melee_fatigue_off(tmp_path):
    """COMMANDS.md, `fatiga-cc si|no` / `melee-fatigue on|off`: on by default."""
    (tmp_path / "on").mkdir()
    on = fight(tmp_path / "on", "empezar", "mike punetazo", "turno")
    off = fight(tmp_path, "fatiga-cc no", "empezar", "mike punetazo", "turno")
    assert who(on, "Mike")["fatigue"] == 1
    assert who(off, "Mike")["fatigue"] == 0


# ------------------------------------------------------------ refusals


def test_a_refusal_is_one_spanish_line_and_changes_nothing(tmp_path):
    """COMMANDS.md, Command lines: "A refused command leaves the fight unchanged and says
    why in one line, in Spanish"."""
    path = fight(tmp_path, "empezar")
    before = path.read_bytes()
    for line in ("sven disparar-armas-largas", "mike vuela", "nadie fin", "momento mike x",
                 "alta Mike ac=3", "mike gasta 0", "empezar", "estado sven +agarado"):
        result = process("do", str(path), line)
        assert result.returncode == 1, line
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
        assert path.read_bytes() == before


def test_the_no_ac_to_dodge_message(tmp_path):
    """COMMANDS.md, Command lines: a refusal "naming the rule ("Sven no tiene AC para
    esquivar (le quedan 0)")"."""
    path = fight(tmp_path, "empezar", "mike gasta 3", '"soldado 1" gasta 1', "sven gasta 5")
    result = process("do", str(path), "sven esquivar")
    assert result.returncode == 1
    assert "Sven no tiene AC para esquivar (le quedan 0)" in result.stderr


# ------------------------------------------------------------ the JSON state


def test_json_top_level_fields_and_types(tmp_path):
    """COMMANDS.md, The JSON state: schema, rules, turn, moment, turn_over, queue,
    window, combatants."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto')
    data = state(path)
    assert data["schema"] == 1 and data["rules"] == "cdb"
    assert data["turn"] == 1 and data["moment"] == 5 and data["turn_over"] is False
    assert data["queue"] == ["Sven", "Soldado 1"]
    assert data["window"] == 7
    assert isinstance(data["combatants"], list)


def test_json_combatant_fields_of_the_example(tmp_path):
    """COMMANDS.md, The JSON state: Mike after his shot: the example's fields and values."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto')
    mike = who(path, "Mike")
    expected = {"name": "Mike", "side": "pj", "hidden": False, "start": 7, "marker": 4, "ac": 4,
                "ac_per_turn": 7, "status": "acted", "attacks": 1, "carried": None,
                "conditions": [], "modifier": -1, "notes": [], "expires": {}}
    assert {k: mike[k] for k in expected} == expected
    for key in ("start", "marker", "ac", "ac_per_turn", "attacks", "modifier"):
        assert type(mike[key]) is int


def test_json_before_empezar(tmp_path):
    """COMMANDS.md, JSON: "`turn` is 0 before `empezar`. `moment` … (null before the fight
    starts)"; window null."""
    data = state(fight(tmp_path))
    assert data["turn"] == 0 and data["moment"] is None and data["window"] is None
    assert data["queue"] == []


def test_json_empty_fight(tmp_path):
    """COMMANDS.md, JSON: an empty fight still has the contract's fields."""
    data = state(new(tmp_path))
    for key in ("schema", "rules", "turn", "moment", "turn_over", "queue", "combatants", "window"):
        assert key in data
    assert data["combatants"] == [] and data["queue"] == []


@pytest.mark.parametrize("lines, name, status", [
    ([], "Mike", "ready"),
    (["mike disparar-armas-largas"], "Mike", "acted"),
    (["mike retrasa"], "Mike", "holding"),
    (["mike espera algo"], "Mike", "waiting"),
    (["mike fin"], "Mike", "done"),
    (["dano sven 40"], "Sven", "out"),
])
def test_json_status_values(tmp_path, lines, name, status):
    """COMMANDS.md, JSON: "`status` is one of `ready`, `acted`, `holding`, `waiting`,
    `done`, `out`"."""
    assert who(fight(tmp_path, "empezar", *lines), name)["status"] == status


def test_json_queue_holders_who_act_go_last(tmp_path):
    """COMMANDS.md, JSON: "`queue`: who acts at the current moment, in order (holders who
    chose to act included, last)"."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto',
                 "sven retrasa")
    assert state(path)["queue"] == ["Soldado 1"]
    assert do(path, "sven actua").returncode == 0
    assert state(path)["queue"] == ["Soldado 1", "Sven"]


def test_json_carried_is_the_maneuver_id_and_remaining(tmp_path):
    """COMMANDS.md, JSON: "`carried`: null, or the maneuver still to complete and its
    remaining AC" (the example: `{"maneuver": "disparar-armas-largas", "remaining": 2}`)."""
    path = fight(tmp_path, *TURN_1)
    data = state(path)
    assert data["turn_over"] is True
    assert who(path, "Mike")["carried"] == {"maneuver": "disparar-armas-largas", "remaining": 2}
    assert who(path, "Sven")["carried"] == {"maneuver": "disparar-armas-largas", "remaining": 1}
    assert who(path, "Soldado 1")["carried"] is None
    assert who(path, "Soldado 2")["carried"] == {"maneuver": "disparar-armas-largas", "remaining": 2}


def test_json_window_closes(tmp_path):
    """COMMANDS.md, JSON: "`window` … or null when no window is open" (closed by siguiente)."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", "siguiente")
    assert state(path)["window"] is None


def test_json_walkure_rules(tmp_path):
    """COMMANDS.md, JSON: `rules` names the ruleset."""
    path = fight(tmp_path, "empezar", rules="walkure")
    assert state(path)["rules"] == "walkure"


# ------------------------------------------------------------ the sheet (text board)


def test_board_header_of_the_example(tmp_path):
    """SHEET.md: "<name> · CdB · Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1"."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto')
    first = cdbtui("show", str(path)).stdout.splitlines()[0]
    assert first.strip() == "f · CdB · Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1"


def test_board_header_names_walkure(tmp_path):
    """SHEET.md header: the ruleset after the fight's name."""
    path = fight(tmp_path, "empezar", rules="walkure")
    assert cdbtui("show", str(path)).stdout.splitlines()[0].startswith("f · Walküre · Turno 1")


def _rows(text: str) -> dict[int, str]:
    rows = {}
    for line in text.splitlines():
        head, bar, rest = line.partition("│")
        label = head.replace("▸", "").strip()
        if bar and label.lstrip("-").isdigit():
            rows[int(label)] = rest
    return rows


def test_board_marks_of_the_first_sketch(tmp_path):
    """SHEET.md, first sketch: the name at its start row, `│` spent, `● n` the marker with n
    AC left, `▶` acts now, `▸` on the current moment's label."""
    path = fight(tmp_path, "empezar", "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto')
    text = cdbtui("show", str(path)).stdout
    rows = _rows(text)
    assert "Mike" in rows[7]
    assert "Soldado 1" in rows[6] and "│" in rows[6]
    assert "● 5" in rows[5] and "▶Sven" in rows[5]
    assert "● 4" in rows[4] and "Soldado 2" in rows[4]
    current = [line for line in text.splitlines() if "▸" in line]
    assert len(current) == 1 and current[0].partition("│")[0].replace("▸", "").strip() == "5"


def test_board_ticks_of_the_second_sketch(tmp_path):
    """SHEET.md, second sketch: Mike `├ 4` at 4, `├ 3` at 3, `● 1` at 1."""
    path = fight(tmp_path, *TURN_1[:9])
    rows = _rows(cdbtui("show", str(path)).stdout)
    mike = {m: rows[m][:10] for m in (7, 6, 5, 4, 3, 2, 1)}
    assert "Mike" in mike[7]
    assert "├ 4" in mike[4] and "├ 3" in mike[3] and "● 1" in mike[1]
    assert "│" in mike[6] and "│" in mike[5] and "│" in mike[2]


def test_board_holding_waiting_and_carried_marks(tmp_path):
    """SHEET.md, marks: `‖` holding, `…` waiting, `┊` a carried maneuver under the start."""
    base = ["empezar", "mike disparar-armas-largas", '"soldado 1" ponerse-a-cubierto']
    (tmp_path / "h").mkdir()
    (tmp_path / "w").mkdir()
    hold = _rows(cdbtui("show", str(fight(tmp_path / "h", *base, "sven retrasa"))).stdout)
    wait = _rows(cdbtui("show", str(fight(tmp_path / "w", *base, "sven espera algo"))).stdout)
    assert "‖" in hold[5]
    assert "…" in wait[5]
    carried = _rows(cdbtui("show", str(fight(tmp_path, *TURN_1, "turno"))).stdout)
    assert "┊" in carried[4]  # under Sven's start (5): 1 AC still to complete


# ------------------------------------------------------------ the player view


def test_players_export_leaves_the_hidden_pnj_out(tmp_path):
    """SHEET.md, The player view: "hidden PNJ absent" (as `export --jugadores` gives it)."""
    path = fight(tmp_path, "alta Ninja ac=6 oculto", "momento ninja 9", "empezar",
                 "ninja disparar-armas-largas")
    for kind in ("md", "html"):
        result = cdbtui("export", str(path), "--format", kind, "--jugadores")
        assert result.returncode == 0
        assert "ninja" not in result.stdout.casefold()
        assert "Mike" in result.stdout


SIZE = (120, 36)


async def test_the_player_view_headline_and_hidden_pnj(tmp_path):
    """SHEET.md, The player view: "hidden PNJ absent, … a large line at the top: **Turno 2 ·
    Momento 5 · Actúa: Sven**, and the queue"."""
    sys.path.insert(0, str(Path(__file__).parent / "tui"))
    from screen_text import screen_text
    from cdbtui.tui.player import PlayerApp

    path = fight(tmp_path, "alta Sven ac=5 bando=pj", "alta Ninja ac=6 oculto", "momento sven 5",
                 "momento ninja 6", "empezar", "turno", cast=False)
    assert state(path)["moment"] == 6  # the DJ stands at the Ninja's moment
    app = PlayerApp(path, poll_seconds=3600.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
    assert "ninja" not in text.casefold()
    assert "Turno 2 · Momento 5 · Actúa: Sven" in text
    assert "Sven" in text.split("Actúa: Sven", 1)[1]  # the queue below the headline


async def test_the_player_view_shows_private_numbers_as_question_marks(tmp_path):
    """SHEET.md, The player view: "PNJ numbers the DJ marks private shown as `?`"."""
    sys.path.insert(0, str(Path(__file__).parent / "tui"))
    from screen_text import screen_text
    from cdbtui.tui.player import PlayerApp

    path = fight(tmp_path, "alta Sven ac=5 bando=pj", "alta Jefe ac=9 privado", "momento sven 5",
                 "momento jefe 6", "empezar", "jefe disparar-armas-largas", cast=False)
    app = PlayerApp(path, poll_seconds=3600.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
    assert "Jefe" in text
    assert "● ?" in text
    assert "● 6" not in text and "9" not in text.split("Jefe", 1)[1].split("\n", 1)[0]


# ------------------------------------------------------------ cautions (SYSTEMS.md §3)


def test_a_cdb_caution_is_applied_with_the_warning_on_stderr(tmp_path):
    """SYSTEMS.md §3 (STORYTELLER): "**Warnings** are applied by `cdbtui do` with the warning
    on stderr (exit 0), as for CdB's cautions"; RULES §4: a grappled Puñetazo "is a caution
    the DJ confirms"."""
    path = fight(tmp_path, "estado mike +agarrado", "empezar")
    result = process("do", str(path), "mike punetazo")
    assert result.returncode == 0
    assert who(path, "Mike")["maneuvers"] == ["Puñetazo"]
    assert "agarrado" in result.stderr
