"""Audit of the C-System and storyteller fight screens against SYSTEMS.md §2.1 and
§3.1 (the sheet, the marks, the side panel, the «Tirada» panel, the keys, the
player view).  Each test names the spec's words."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "narrador"))

import pytest
from helpers import keys
from screen_text import screen_text

from cdbtui.engine.session import Session
from cdbtui.roster import CS_DEMO_LINES, NARR_DEMO_LINES
from cdbtui.store import create

SEED = 1234
SIZE = (120, 36)

#: CSYSTEM.md §12 up to step 9 (Titán about to charge): SYSTEMS.md §2.1's picture.
CS_STEP_9 = (
    "centella apuntar", "centella ataca ruina tirada=31 dano=7",
    "ruina ataca centella tirada=30 dano=9 tipo=energia", "estado centella +ensordecido",
    "ruina mover", "ruina esquivar 5", "sicario rafaga-corta a titan tirada=20 dano=6+4",
    "sicario cubrirse simple",
)
CS_CHARGE = (*CS_STEP_9, "titan cargar a sicario tirada=21 dano=14")
CS_TO_STEP_19 = (
    *CS_CHARGE, "dolor sicario 20", 'critica sicario "corte profundo" +sangrando:1',
    'titan simple "¡Centella, cúbreme!"', "ruina ataca titan tirada=31 dano=9 tipo=energia",
    "dolor titan 25", "ruina ataca titan tirada=22 dano=4 tipo=energia", "dolor titan 13",
    "ruina mover", 'sicario simple "pide refuerzos por radio"', "centella retrasa tras titan",
)
#: STORYTELLER.md §15, turn 1.
N_DECLARED = ("declara cadaver golpe", "declara victor fuego-automatico",
              "declara maton disparos-multiples 2", "declara kara disparo esquiva")
N_STEP_4 = (*N_DECLARED, "kara actua a maton exitos=2", "maton aborta tira exitos=0 esquiva",
            "dano maton 3 letal", "maton actua a kara exitos=1")
N_TOTAL_DEFENSE = ("declara cadaver golpe", "declara victor fuego-automatico",
                   "declara maton disparos-multiples 2", "declara kara defensa-total esquiva")


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


def _save(tmp_path: Path, rules: str, title: str, lines) -> Path:
    session = Session.new(title, rules, SEED)
    for line in lines:
        session.execute(line)
    path = tmp_path / f"{rules}.toml"
    create(path, session)
    return path


@pytest.fixture
def cs(tmp_path):
    from cdbtui.tui.app import CdbApp

    return lambda lines=(), base=CS_DEMO_LINES: CdbApp(
        _save(tmp_path, "csystem", "Azotea", (*base, *lines)))


@pytest.fixture
def narr(tmp_path):
    from cdbtui.tui.app import CdbApp

    return lambda lines=(), base=NARR_DEMO_LINES: CdbApp(
        _save(tmp_path, "narrador", "Depósito", (*base, *lines)))


@pytest.fixture
def player(tmp_path):
    from cdbtui.tui.player import PlayerApp

    return lambda rules, title, lines: PlayerApp(
        _save(tmp_path, rules, title, lines), poll_seconds=3600.0)


def squash(text: str) -> str:
    """Runs of spaces as one (column padding is not the spec's)."""
    return re.sub(r" {2,}", " ", text)


def row(app, name: str) -> str:
    """The list's row of `name` (left box only), spaces squashed."""
    for line in screen_text(app).splitlines()[2:]:
        left = line.split("││")[0] if "││" in line else line
        if re.search(rf"(^|[\s▶⟳✓]){re.escape(name)}\b", left) and "·" not in left[:12] \
                and "T1 ·" not in left and "Estados:" not in left:
            return squash(left)
    raise AssertionError(f"no row for {name}:\n{screen_text(app)}")


def panel(app) -> str:
    """The side panel's text (right box), spaces squashed, wrapped lines joined."""
    parts = [line.split("││")[1] for line in screen_text(app).splitlines() if "││" in line]
    return squash(" ".join(p.strip("│ ") for p in parts))


def dice_panel(app) -> list[str]:
    """The «Tirada» box's lines, spaces squashed."""
    lines, inside = [], False
    for line in screen_text(app).splitlines():
        left = line.split("││")[0].split("│╰")[0]
        if "─ Tirada ─" in left:
            inside = True
            continue
        if inside:
            if left.startswith("╰"):
                break
            lines.append(squash(left.strip("│ ").strip()))
    return lines


def bar(app) -> str:
    return screen_text(app).splitlines()[-1]


def messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def line_value(app) -> str:
    from textual.widgets import Input

    return app.screen.query_one(Input).value


def style_of(app, text: str):
    """The style of the first painted segment holding `text` in the list."""
    for strip in app.screen._compositor.render_strips()[2:]:
        for seg in strip:
            if text in seg.text and "·" not in seg.text:
                return seg.style
    raise AssertionError(text)


# ====================================================================== C-System §2.1


async def test_cs_header_names_turn_actor_place_and_who_is_next(cs):
    """§2.1: « Azotea · C-System · Turno 1 · Actúa: Titán (4.º de 4) · luego: fin del turno»."""
    app = cs(CS_STEP_9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert screen_text(app).splitlines()[0].strip() == \
            "Azotea · C-System · Turno 1 · Actúa: Titán (4.º de 4) · luego: fin del turno"


async def test_cs_rows_este_turno_queda_def_and_vitalidad_as_in_the_example(cs):
    """§2.1 step 9: ✓ and the ■/□ taken, Queda «—» or «■□ o □□», ↓5 after INI,
    Def «34 (esq.+5)» and «22 · 18», Vitalidad current/max, ▶ on Titán."""
    app = cs(CS_STEP_9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "1 22 Doctor Ruina 9 ✓ ■ □ ■ — 34 (esq.+5) 43/48" in row(app, "Doctor Ruina")
        assert "2 18 Sicario 1 1 ✓ ■ □ — 22 · 18 16/16" in row(app, "Sicario 1")
        assert "3 17 ↓5 Centella 5 ✓ ■ ■ — 26 24/32" in row(app, "Centella")
        assert "▶4 14 Titán 1 ■□ o □□ 19 20/28" in row(app, "Titán")
        order = [n for n in ("Doctor Ruina", "Sicario 1", "Centella", "Titán")]
        text = "\n".join(screen_text(app).splitlines()[2:])
        assert [text.index(f" {n} ") for n in order] == sorted(text.index(f" {n} ") for n in order)


async def test_cs_estados_line_names_conditions_and_temporary_defense(cs):
    """§2.1: «Estados: Sicario 1 tumbado · Centella ensordecido (−5 ini)» and «Doctor
    Ruina esquivar +5 (hasta el inicio de su turno)»."""
    app = cs(CS_STEP_9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = squash(screen_text(app))
        assert "Estados:" in text
        assert "Sicario 1 tumbado" in text and "Centella ensordecido (−5 ini)" in text
        assert "Doctor Ruina esquivar +5 (hasta el inicio de su turno)" in text


async def test_cs_had_its_go_is_dimmed_and_out_is_struck(cs):
    """§2.1 marks: «✓ + dimmed | had its go this turn»; «struck / grey | out»."""
    app = cs((*CS_CHARGE, "dolor sicario 20", "critica sicario x +sangrando:1", "dano sicario 10"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        acted = style_of(app, "Centella").color.triplet
        acting = style_of(app, "Titán").color.triplet  # same side (PJ), not yet done
        assert sum(acted) < sum(acting)  # darker: dimmed
        assert app.fight.find("Sicario 1").sheet.vitality < 0
        assert style_of(app, "Sicario 1").strike


async def test_cs_tras_x_after_ini_when_it_lowered_its_place(cs):
    """§2.1 marks: «`(tras X)` after INI | it lowered its place behind X» (step 19)."""
    app = cs(CS_TO_STEP_19)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        centella = row(app, "Centella")
        assert re.search(r"14 (↓5 )?\(tras Titán\) Centella", centella), centella


async def test_cs_up_arrow_after_ini_for_a_power_s_change(cs):
    """§2.1 marks: «`↓5`, `↑5` after INI | Ensordecido's −5 (or a power's change)»."""
    app = cs(("iniciativa titan 19",))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "19 ↑5" in row(app, "Titán")


async def test_cs_vitalidad_bar_with_a_mark_at_the_con_threshold(cs):
    """§2.1 marks: «Vitalidad 20/28 | … in the TUI also a bar with a ▏ at the CON threshold»."""
    app = cs(CS_STEP_9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for name in ("Doctor Ruina", "Sicario 1", "Centella", "Titán"):
            assert "▏" in row(app, name), row(app, name)


async def test_cs_vitalidad_bar_red_below_zero(cs):
    """§2.1 marks: the Vitalidad bar is «red below 0»."""
    app = cs((*CS_CHARGE, "dolor sicario 20", "critica sicario x +sangrando:1", "dano sicario 10",
              "estado centella -ensordecido"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "▏" in row(app, "Sicario 1")
        strip = next(s for s in app.screen._compositor.render_strips()[2:] if "Sicario 1" in s.text)
        color = next(seg.style.color.triplet for seg in strip if "▏" in seg.text or "░" in seg.text)
        assert color.red > max(color.green, color.blue)


async def test_cs_side_panel_rows_of_the_selected(cs):
    """§2.1 side panel: «Titán · PJ · NH 1», Queda, Defensa with its breakdown
    «19 = 15 + 3 + 1», «Vitalidad 20/28 · Herido < 7», weapons «puños (3d6)»."""
    app = cs(CS_STEP_9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = panel(app)
        assert "Titán · PJ · NH 1" in screen_text(app)
        for part in ("Este turno —", "Queda ■□ o □□", "Maniobras —", "Defensa 19 = 15 + 3 + 1",
                     "Vitalidad 20/28 · Herido < 7", "Aplomo —", "Energía —", "Apuntar —",
                     "puños (3d6)", "Estados —"):
            assert part in text, (part, text)


async def test_cs_side_panel_pending_prompt_criticals_and_weapon(cs):
    """§2.1 side panel: critical wounds (count and the +N of the next roll), weapons
    (mode, ammo / magazine, rounds fired this turn), the pending prompt
    «tirada de dolor: CON vs ND 23»."""
    app = cs(CS_CHARGE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.selected != "Sicario 1":
            await keys(pilot, "up")
        text = panel(app)
        assert "tirada de dolor: CON vs ND 23" in text
        assert "Críticas 1" in text and "+ 1" in text
        assert "22/30" in text and "8 este turno" in text
        assert "⟳Sicario 1" in row(app, "Sicario 1")


async def test_cs_d_opens_damage_for_the_selected(cs):
    """§2.1 key bar: «d daño» (SYSTEMS §2.2 `dano NAME N`)."""
    from cdbtui.tui.screens.prompt import CommandLine

    app = cs()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "d")
        assert isinstance(app.screen, CommandLine)
        assert await line_value(app) == "dano Centella "
        await pilot.press(*"4")
        await keys(pilot, "enter")
        assert app.fight.find("Centella").sheet.vitality == 28


async def test_cs_keys_a_and_r_that_do_not_apply_say_why(cs):
    """§2.1 keys: «a atacar» with no ■ left and «r retrasarse» after acting say why
    (§2.3 «Centella ya ha actuado este turno: no puede retrasarse»); nothing runs."""
    app = cs(CS_CHARGE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = list(app.session.lines)
        await keys(pilot, "a")
        await keys(pilot, "r")
        assert list(app.session.lines) == before
        said = messages(app)
        assert any("no puede atacar" in m and "le queda □" in m for m in said), said
        assert any("Titán ya ha actuado este turno: no puede retrasarse" in m for m in said), said


async def test_cs_key_bar_lists_the_spec_keys(cs):
    """§2.1: « ■ compleja  □ simple  m maniobra  a atacar  r retrasarse  f fin  ␣ siguiente
    d daño  u deshacer  ? ayuda»."""
    app = cs()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for part in ("■ compleja", "□ simple", "m maniobra", "a atacar", "r retrasarse", "f fin",
                     "␣ siguiente", "d daño", "u deshacer", "? ayuda"):
            assert part in bar(app), (part, bar(app))


async def test_cs_player_view_hidden_absent_private_as_question_marks_big_line(player):
    """§2.1 «Player view: the same list, hidden PNJ absent, PNJ Vitalidad/Defensa shown
    as `?` when private, the big line Turno 2 · Actúa: Centella»."""
    lines = (*CS_DEMO_LINES[:-1], "alta Sombra nh=1 des=4 ale=3 per=4 con=4 oculto",
             "alta Jefe nh=1 des=4 ale=3 per=4 con=4 privado", "iniciativa Sombra 30",
             "iniciativa Jefe 10", "empezar", "sombra fin", "centella fin", "ruina fin",
             "sicario fin", "titan fin", "jefe fin", "sombra fin")
    app = player("csystem", "Azotea", lines)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert app.fight.turn == 2 and app.fight.actor == "Centella"
        assert "Turno 2 · Actúa: Centella" in text
        assert "sombra" not in text.casefold()
        jefe = row(app, "Jefe")
        assert jefe.count("?") >= 2 and "16/16" not in jefe and "20" not in jefe
        assert "32/32" in row(app, "Centella") and "29" in row(app, "Doctor Ruina")


# ====================================================================== Storyteller §3.1


async def test_narr_action_header_names_phase_direction_and_actor(narr):
    """§3.1: « Depósito · Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Depósito · Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)" in screen_text(app)


async def test_narr_rows_chips_fv_and_health_as_in_the_example(narr):
    """§3.1 step 4: Kara «✓Disparo 6→4 · Esquiva 7→4 (def.)» «●●●●●»; «▶13 Matón
    Disparo 5→2 · Disparo 5→1 ●●● XXX····» «actúa»; Cadáver «Golpe 4 —»; order by Ini."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "13 Kara ✓Disparo 6→4 · Esquiva 7→4 (def.) ●●●●● ·······" in row(app, "Kara")
        maton = row(app, "Matón")
        assert "▶13 Matón" in maton and "Disparo 5→2 · Disparo 5→1 ●●● XXX····" in maton
        assert "actúa" in maton
        assert "8 Cadáver Golpe 4 — ·······" in row(app, "Cadáver")
        text = "\n".join(screen_text(app).splitlines()[2:])
        assert [text.index(f" {n} ") for n in ("Kara", "Matón", "Víctor", "Cadáver")] == \
            sorted(text.index(f" {n} ") for n in ("Kara", "Matón", "Víctor", "Cadáver"))
        assert "Ini Nombre Declarado FV Salud Estado" in squash(text)


async def test_narr_estado_actuo_for_one_who_acted(narr):
    """§3.1 step 4: Kara's row ends «actuó»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "actuó" in row(app, "Kara")


async def test_narr_automatic_fire_chip_names_dice_and_difficulty(narr):
    """§3.1 step 4: «10 Víctor F. automático 17 dados, dif 8»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "F. automático 17 dados, dif 8" in row(app, "Víctor")


async def test_narr_side_panel_is_the_actor_s_during_its_attack(narr):
    """§3.1 step 4: the side panel is «Matón · PNJ» while Matón acts."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Matón · PNJ" in screen_text(app)


async def test_narr_side_panel_multiple_action_health_fv_weapon(narr):
    """§3.1 side panel (Matón): «Acción múltiple: 2 (−2, −3)», «Salud Lesionado −1»,
    «FV 3/3», «Glock 17 … 17+1 · …/4 este turno»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.selected != "Matón":
            await keys(pilot, "down")
        text = panel(app)
        assert "Matón · PNJ" in screen_text(app)
        assert "2 acciones (−2, −3)" in text or "Acción múltiple: 2 (−2, −3)" in text
        assert "Lesionado −1" in text and "FV 3/3" in text
        assert "Glock 17" in text and "17+1" in text and "/4 este turno" in text


async def test_narr_side_panel_says_the_abort_roll_failed(narr):
    """§3.1 side panel (Matón): «FV 3/3 · abortar: tirada fallida»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.selected != "Matón":
            await keys(pilot, "down")
        assert "abortar: tirada fallida" in panel(app)


async def test_narr_tirada_panel_lists_traits_subtractions_pool_difficulty(narr):
    """§3.1 «Tirada»: «Destreza 3 + Armas de Fuego 2 5», «Salud (Lesionado) −1», «Acción
    múltiple, 1.ª de 2 −2», «Reserva 2 dados», «Dificultad 6 (alcance corto)»; «(una
    defensa más: 3.ª → 3 dados)»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = dice_panel(app)
        assert lines[0].startswith("Matón → Kara")
        for part in ("Destreza 3 + Armas de Fuego 2 5", "Salud (Lesionado) −1",
                     "Acción múltiple, 1.ª de 2 −2", "Reserva 2 dados", "Dificultad 6 (alcance corto)"):
            assert part in lines, (part, lines)
        assert any("una defensa más: 3.ª → 3 dados)" in line for line in lines)


async def test_narr_tirada_panel_title_names_the_shot(narr):
    """§3.1 «Tirada»: «Matón → Kara · Disparo 1 de 2»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert dice_panel(app)[0] == "Matón → Kara · Disparo 1 de 2"


async def test_narr_tirada_panel_says_how_the_target_defends(narr):
    """§3.1 «Tirada»: «Kara se defiende: Esquiva declarada, 2.ª de 2 → 4 dados» /
    «(una defensa más: 3.ª → 3 dados)»."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = dice_panel(app)
        assert "Kara se defiende: Esquiva declarada, 2.ª de 2 → 4 dados" in lines
        assert "(una defensa más: 3.ª → 3 dados)" in lines


async def test_narr_tirada_panel_says_why_the_target_cannot_defend(narr):
    """§3.1 «Tirada»: «what the target can do to defend … (abort? … none, and why)»;
    Víctor's automatic fire: precision dice, «Reserva 17 dados», difficulty 8 with its
    modifier; the Cadáver has no Willpower to abort."""
    lines_ = (*N_STEP_4, "kara defiende esquiva exitos=2", "maton actua a kara exitos=1",
              "kara defiende esquiva exitos=1", "victor actua a cadaver exitos=6")
    app = narr(lines_)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = dice_panel(app)
        assert lines[0].startswith("Víctor → Cadáver")
        assert "Reserva 17 dados" in lines and any(l.startswith("Precisión") for l in lines)
        assert any(l.startswith("Dificultad 8") for l in lines)
        assert any("Cadáver" in l and "sin FV no puede abortar" in l for l in lines), lines


async def test_narr_tirada_panel_shows_the_app_s_own_npc_roll(narr):
    """§3.1 «Tirada»: «For the app's own NPC rolls it shows the dice and the successes»."""
    app = narr((*N_DECLARED, "kara actua a maton exitos=2", "maton aborta tira exitos=0 esquiva",
                "dano maton 3 letal", "maton actua a kara"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = dice_panel(app)
        assert "Reserva 2 dados" in lines
        assert any(re.match(r"Éxitos \d+ éxito", l) for l in lines), lines


async def test_narr_declaration_header_declarer_and_por_declarar(narr):
    """§3.1: header «Declaración ↑ · Declara: Víctor»; rows above the declarer show
    «por declarar»; the declarer marked; below, what was declared (Cadáver «Golpe 4»)."""
    app = narr(("declara cadaver golpe",))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Turno 1 · Declaración ↑ · Declara: Víctor" in screen_text(app)
        assert "por declarar" in row(app, "Kara") and "por declarar" in row(app, "Matón")
        victor = row(app, "Víctor")
        assert "▶10 Víctor declara…" in victor and "por declarar" not in victor
        assert "Golpe 4" in row(app, "Cadáver")
        assert app.selected == "Víctor"


async def test_narr_health_boxes_bashing_lethal_and_penalty(narr):
    """§3.1 marks: «health X/·· | one box per level: X lethal, / bashing, · empty; the
    current penalty beside»."""
    app = narr(("dano victor 2 contundente", "dano cadaver 5 letal"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "//····· −1" in row(app, "Víctor")
        assert "XXXXX·· −2" in row(app, "Cadáver")


async def test_narr_fv_ring_around_the_point_spent_this_turn(narr):
    """§3.1 marks: «FV ●●●○○ | Willpower points (filled) of the rating; a ring around
    the last one spent this turn»."""
    app = narr(("fv kara -1",))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        this_turn = row(app, "Kara")
        assert "●●●●" in this_turn
        app.run_line("turno")
        await pilot.pause()
        next_turn = row(app, "Kara")
        cell = lambda r: re.search(r"[●○◉◯◎()\[\]]{5,}", r).group(0)  # noqa: E731
        assert cell(this_turn) != cell(next_turn)


async def test_narr_plus_def_next_extra_defense_dice(narr):
    """§3.1 marks: «`+def 3` | the next extra defense would roll 3 dice»."""
    app = narr((*N_STEP_4, "kara defiende esquiva exitos=2"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "+def 3" in row(app, "Kara")


async def test_narr_defensa_total_chip(narr):
    """§3.1 marks: «`Defensa total 7·6·5…` | the dice of its next defenses»."""
    app = narr(N_TOTAL_DEFENSE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Defensa total 7·6·5…" in row(app, "Kara")


async def test_narr_defensa_total_used_dice_struck(narr):
    """§3.1 marks: «Defensa total 7·6·5… | … the used ones struck»."""
    app = narr((*N_TOTAL_DEFENSE, "maton actua a kara exitos=1", "kara defiende esquiva exitos=1"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "7·6·5" in row(app, "Kara")
        assert style_of(app, "7").strike


async def test_narr_derribado_minus_2_ini(narr):
    """§3.1 marks: «`−2 ini` | Derribado's penalty waiting for next turn's roll»."""
    app = narr(("estado kara +derribado",))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "−2 ini" in row(app, "Kara")


async def test_narr_plus_dif_total_difficulty_modifier(narr):
    """§3.1 marks: «`+1 dif` | desequilibrado (next turn), oponentes, cegado: the total
    difficulty modifier» (oponentes 3: +2; cegado: +2; desequilibrado: +1)."""
    app = narr(("oponentes matón 3", "estado victor +cegado", "estado kara +desequilibrado"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "+2 dif" in row(app, "Matón")
        assert "+2 dif" in row(app, "Víctor")
        assert "+1 dif" in row(app, "Kara")


async def test_narr_aturdido_names_the_lost_action(narr):
    """§3.1 marks: «`aturdido` | loses the next action (which one is named)»."""
    app = narr((*N_DECLARED, "dano victor 3 letal"))
    async with app.run_test(size=(200, 40)) as pilot:
        await pilot.pause()
        victor = row(app, "Víctor")
        assert "aturdido" in victor
        assert re.search(r"aturdido[^·]*(F\. automático|Fuego automático)", victor), victor


async def test_narr_t_key_rolls(narr):
    """§3.1 key bar: «t tirar» (§3.2 `tirar [NAME …]`: this turn's initiative)."""
    app = narr(base=NARR_DEMO_LINES[:-5])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "t")
        assert app.fight.turn == 1
        assert "t tirar" in bar(app)
        assert "tirar" in " ".join(app.session.lines[-1:])


async def test_narr_key_bar_lists_the_spec_keys(narr):
    """§3.1: « d declarar  a actuar  g defender  b abortar  t tirar  ␣ siguiente  x daño
    u deshacer  ? ayuda» (action phase, step 4)."""
    app = narr(N_STEP_4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for part in ("a actuar", "g defender", "b abortar", "␣ siguiente", "x daño", "u deshacer",
                     "? ayuda"):
            assert part in bar(app), (part, bar(app))


async def test_narr_initiative_phase_is_the_roster_with_totals_to_type(narr):
    """§3.1: «During initiative the list is the roster with a column to type totals»."""
    app = narr(base=NARR_DEMO_LINES[:-5])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Iniciativa" in screen_text(app).splitlines()[0]
        for name in ("Kara", "Víctor", "Matón", "Cadáver"):
            assert row(app, name).lstrip("│ ").startswith(f"— {name}")
        await keys(pilot, "i")
        assert (await line_value(app)).startswith("iniciativa ")


async def test_narr_player_view_hidden_absent_private_as_question_marks(player):
    """§2.1/§4 player view for the storyteller: hidden PNJ absent, a private PNJ's numbers
    «?», the big line with the phase and who declares."""
    lines = (*NARR_DEMO_LINES[:-5], "alta Sombra des=2 ast=2 fv=1 oculto",
             "alta Jefe des=2 ast=2 fv=2 privado", "iniciativa Kara 13", "iniciativa Matón 13",
             "iniciativa Víctor 10", "iniciativa Cadáver 8", "iniciativa Sombra 5",
             "iniciativa Jefe 4", "siguiente")
    app = player("narrador", "Depósito", lines)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "sombra" not in text.casefold()
        assert "Turno 1 · Declaración ↑ · Declara: Jefe" in text
        jefe = row(app, "Jefe")
        assert jefe.count("?") >= 2 and "●" not in jefe and "·······" not in jefe
