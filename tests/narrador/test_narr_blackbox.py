"""Black-box acceptance tests of the storyteller ruleset, written from the spec text
alone (SYSTEMS.md §3 and §4, STORYTELLER.md, COMMANDS.md) and driving only the real
CLI: `cdbtui new PATH --rules narrador`, `cdbtui do PATH LINE …`, `cdbtui show PATH
[--json]`.  Each test is named after the spec's words and cites them in its docstring.
The dice actually rolled are read from the log lines of the JSON («N dados»).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shell import cdbtui
from spec_cli import ok, state, who

try:
    from _narr_fights import ARMS, CADAVER, KARA, MATON, T1, T2, VICTOR
    from _narr_fights import SHELL_CAST as CAST
except ImportError:  # tests/narrador made a package
    from ._narr_fights import ARMS, CADAVER, KARA, MATON, T1, T2, VICTOR
    from ._narr_fights import SHELL_CAST as CAST
#: Turn 1 up to Kara's declaration (she declares last).
UP_TO_KARA = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico")
#: §15 turn 1's declarations: Kara acts.
DECL1 = (*UP_TO_KARA, "declara maton disparos-multiples 2", "declara kara disparo esquiva")


# ------------------------------------------------------------------ helpers


def fight(tmp_path: Path, *lines: str, cast: tuple[str, ...] = CAST, inits: tuple[str, ...] = T1) -> Path:
    path = tmp_path / "deposito.toml"
    made = cdbtui("new", str(path), "--rules", "narrador", "--seed", "7")  # the same dice every run
    assert made.returncode == 0, made.stderr
    if cast or inits or lines:
        result = cdbtui("do", str(path), *cast, *inits, *lines)
        assert result.returncode == 0, result.stderr
    return path


def conds(path: Path, name: str) -> list[str]:
    return [c["id"] if isinstance(c, dict) else c for c in who(path, name)["conditions"]]


def refusal(path: Path, line: str) -> str:
    """`cdbtui do PATH LINE` refuses: exit 1, one line on stderr, the save unchanged."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), line)
    assert result.returncode == 1, (line, result.stdout[-300:], result.stderr)
    prefix = f"cdbtui: «{line}»: "
    assert result.stderr.startswith(prefix) and result.stderr.count("\n") == 1, result.stderr
    assert path.read_bytes() == before
    return result.stderr[len(prefix):-1]


def new_log(path: Path, *lines: str) -> list[str]:
    """The log lines that `lines` added."""
    count = len(state(path)["log"])
    ok(path, *lines)
    return state(path)["log"][count:]


def rolled(log: list[str], who: str) -> list[tuple[int, int]]:
    """(dice, difficulty) of each «N dados, dificultad D» in the lines about `who`."""
    return [(int(n), int(d)) for line in log if f"· {who}" in line
            for n, d in re.findall(r"(\d+) dados, dificultad (\d+)", line)]


# ------------------------------------------------------------------ setting up (SYSTEMS §3.2, STORYTELLER §2)


def test_a_new_fight_is_in_turn_1_s_initiative_phase(tmp_path):
    """SYSTEMS §3.5: «A new fight is in turn 1's initiative phase (`"turn": 1, "phase":
    "initiative"`)»."""
    s = state(fight(tmp_path, cast=(), inits=()))
    assert (s["rules"], s["turn"], s["phase"], s["order"], s["actor"], s["declarer"]) == (
        "narrador", 1, "initiative", [], None, None)


def test_alta_rating_is_destreza_plus_astucia(tmp_path):
    """STORYTELLER §2: «`rating` = Destreza + Astucia»; willpower points [= rating]."""
    path = fight(tmp_path, inits=())
    assert [(who(path, n)["rating"], who(path, n)["willpower"]["rating"], who(path, n)["willpower"]["points"])
            for n in ("Kara", "Víctor", "Matón", "Cadáver")] == [(6, 5, 5), (6, 4, 4), (5, 3, 3), (3, 0, 0)]


def test_alta_salud_sets_the_number_of_health_levels(tmp_path):
    """SYSTEMS §3.2 `[salud=7]`; STORYTELLER §11 «The number of levels is editable per
    combatant (creatures)»."""
    path = fight(tmp_path, "alta Bestia ini=4 salud=9", "alta Uno ini=3", cast=(), inits=())
    assert who(path, "Bestia")["health"] == {"levels": 9, "lethal": 0, "bashing": 0, "penalty": 0}
    assert who(path, "Uno")["health"]["levels"] == 7


def test_alta_accepts_every_trait_of_the_command(tmp_path):
    """SYSTEMS §3.2: `[sobrenatural] [ambidiestro]
    [rasgos=pelea:3,esquivar:4,armas-de-fuego:2,atletismo:3,combate-cc:2]`."""
    path = fight(tmp_path, cast=(), inits=())
    ok(path, "alta Ana des=3 ast=2 fv=3 res=2 fue=2 per=2 salud=7 sobrenatural ambidiestro "
             "rasgos=pelea:3,esquivar:4,armas-de-fuego:2,atletismo:3,combate-cc:2")
    assert who(path, "Ana")["rating"] == 5


@pytest.mark.parametrize(("preset", "rate", "magazine", "chamber", "ammo"), [
    ("revolver-ligero", 3, 6, False, 6),
    ("revolver-pesado", 2, 6, False, 6),
    ("pistola-ligera", 4, 17, True, 18),
    ("pistola-pesada", 3, 7, True, 8),
    ("rifle", 1, 5, True, 6),
    ("ametralladora-pesada", 3, 32, True, 33),
    ("rifle-de-asalto", 3, 42, True, 43),
    ("escopeta", 1, 5, True, 6),
    ("escopeta-semiautomatica", 3, 8, True, 9),
    ("ballesta", 1, 1, False, 1),
])
def test_arma_presets_are_the_seed_s_table_loaded_full(tmp_path, preset, rate, magazine, chamber, ammo):
    """SYSTEMS §3.5: «`arma NAME ARMA` loads it full; presets are the seed's table names
    folded»; STORYTELLER §9's ranged table (cadencia, cargador, «+1»)."""
    path = fight(tmp_path, f"arma Kara {preset}", cast=(KARA,), inits=())
    weapon = next(w for w in who(path, "Kara")["weapons"] if w["name"] == preset)
    assert (weapon["rate"], weapon["magazine"], weapon["chamber"], weapon["ammo"], weapon["shots"]) == (
        rate, magazine, chamber, ammo, 0)


@pytest.mark.parametrize("preset", ["porra", "garrote", "cuchillo", "espada", "hacha-pequena", "hacha-grande",
                                    "estaca"])
def test_arma_melee_presets(tmp_path, preset):
    """STORYTELLER §9 melee table; SYSTEMS §3.2 «the seed's table names work as presets»."""
    path = fight(tmp_path, f"arma Kara {preset}", cast=(KARA,), inits=())
    assert preset in [w["name"] for w in who(path, "Kara")["weapons"]]


def test_a_typed_weapon_without_a_chamber(tmp_path):
    """SYSTEMS §3.2 `arma NAME ARMA [dano=N] [alcance=N] [cad=N] [cargador=N+1] [mira]`:
    `cargador=6` is 6 rounds, no chamber."""
    path = fight(tmp_path, "weapon Kara tambor dano=5 alcance=20 cad=2 cargador=6 mira", cast=(KARA,), inits=())
    weapon = next(w for w in who(path, "Kara")["weapons"] if w["name"] == "tambor")
    assert (weapon["rate"], weapon["magazine"], weapon["chamber"], weapon["ammo"]) == (2, 6, False, 6)


def test_municion_sets_the_rounds(tmp_path):
    """SYSTEMS §3.2 `municion NAME ARMA N` / `ammo …`: set rounds."""
    path = fight(tmp_path, "municion Víctor rifle-de-asalto 12", inits=())
    assert who(path, "Víctor")["weapons"][0]["ammo"] == 12


# ------------------------------------------------------------------ initiative (STORYTELLER §5)


def test_tirar_rolls_1d10_plus_rating(tmp_path):
    """STORYTELLER §5.1: «initiative = 1d10 + rating (Destreza + Astucia) − the current
    health penalty»; SYSTEMS §3.5 «`tirar` works for anyone»."""
    path = fight(tmp_path, "tirar", inits=())
    for c in state(path)["combatants"]:
        assert c["rating"] + 1 <= c["initiative"] <= c["rating"] + 10, c


def test_roll_names_only_those_named(tmp_path):
    """SYSTEMS §3.2 `tirar [NAME …]` / `roll …`."""
    path = fight(tmp_path, "roll Kara", inits=())
    assert 7 <= who(path, "Kara")["initiative"] <= 16
    assert who(path, "Matón")["initiative"] is None


def test_tirar_subtracts_the_health_penalty(tmp_path):
    """STORYTELLER §5.1: − the current health penalty: Matón at Herido (−2)."""
    path = fight(tmp_path, "dano maton 4 contundente", "tirar matón", inits=())
    assert who(path, "Matón")["health"]["penalty"] == -2
    assert 5 - 2 + 1 <= who(path, "Matón")["initiative"] <= 5 - 2 + 10


def test_tirar_subtracts_derribado_s_two_next_turn(tmp_path):
    """STORYTELLER §5.2: «−2 on the next turn's total (automatic, then gone)»; SYSTEMS
    §3.2 tirar: «1d10 + rating − health − derribado»."""
    path = fight(tmp_path, *DECL1, "estado kara +derribado", "turno", "tirar kara")
    assert 6 - 2 + 1 <= who(path, "Kara")["initiative"] <= 6 - 2 + 10
    ok(path, "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8", "siguiente", "turno",
       "tirar kara")
    # §13: «Derribado's −2 is used up by the next initiative roll» (still on the ground)
    assert "derribado" in conds(path, "Kara")
    assert 7 <= who(path, "Kara")["initiative"] <= 16


def test_typed_initiative_is_final(tmp_path):
    """SYSTEMS §3.5: «`iniciativa NAME N` is the total as the table rolled and added it
    (rating, health penalty and Derribado's −2 included); only `tirar` applies them»."""
    path = fight(tmp_path, "dano kara 4 letal", "iniciativa Kara 9", inits=())
    assert who(path, "Kara")["initiative"] == 9


def test_ties_higher_rating_then_higher_destreza_then_roster_order(tmp_path):
    """STORYTELLER §5.3: «higher rating first; then higher Destreza; then the GM's order
    (roster order, swappable)»."""
    path = fight(tmp_path, "alta Ana des=2 ast=4 fv=1", "alta Bea des=4 ast=2 fv=1", "alta Cris des=4 ast=2 fv=1",
                 "alta Dan des=2 ast=2 fv=1",
                 "iniciativa Ana 10", "iniciativa Bea 10", "iniciativa Cris 10", "iniciativa Dan 10",
                 "siguiente", cast=(), inits=())
    assert state(path)["order"] == ["Bea", "Cris", "Ana", "Dan"]


def test_the_gm_s_order_is_swappable(tmp_path):
    """STORYTELLER §5.3: «then the GM's order (roster order, swappable)»; SYSTEMS §4 the
    shared `swap` command."""
    path = fight(tmp_path, "alta Bea des=4 ast=2 fv=1", "alta Cris des=4 ast=2 fv=1", "cambiar Bea Cris",
                 "iniciativa Bea 10", "iniciativa Cris 10", "siguiente", cast=(), inits=())
    assert state(path)["order"] == ["Cris", "Bea"]


def test_baja_removes_a_combatant(tmp_path):
    """COMMANDS.md `baja NAME` / `remove NAME`; SYSTEMS §4 add/remove are shared."""
    path = fight(tmp_path, "baja Cadáver", inits=())
    assert [c["name"] for c in state(path)["combatants"]] == ["Kara", "Víctor", "Matón"]


def test_in_the_declaration_the_one_who_acts_later_declares_first(tmp_path):
    """STORYTELLER §5.3: «In the declaration phase the one who will act later declares
    first, so ties keep one consistent order» (Kara and Matón tied at 13)."""
    path = fight(tmp_path, *UP_TO_KARA)
    assert state(path)["declarer"] == "Matón"


def test_siguiente_or_empezar_ends_the_initiative_phase(tmp_path):
    """SYSTEMS §3.5: «`siguiente` (also `empezar`) ends it once everyone who is not out has
    an initiative»."""
    path = fight(tmp_path, "empezar")
    assert (state(path)["phase"], state(path)["declarer"]) == ("declare", "Cadáver")


def test_the_initiative_phase_never_ends_by_itself(tmp_path):
    """SYSTEMS §3.5: «The initiative phase never ends by itself (combatants may still be
    coming)»."""
    assert state(fight(tmp_path))["phase"] == "initiative"


def test_out_combatants_need_no_initiative(tmp_path):
    """SYSTEMS §3.5: «once everyone who is not out has an initiative»."""
    path = fight(tmp_path, "dano cadaver 7 letal", inits=T1[:3])
    ok(path, "siguiente")
    assert state(path)["phase"] == "declare"


# ------------------------------------------------------------------ declaration (STORYTELLER §4, §6)


def test_each_declara_passes_to_the_next_declarer_and_the_highest_starts_the_action(tmp_path):
    """SYSTEMS §3.5: «Each `declara` passes to the next declarer by itself; after the
    highest declares, the action phase starts by itself»."""
    path = fight(tmp_path, "siguiente")
    seen = []
    for line in ("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                 "declara kara disparo"):
        seen.append((state(path)["phase"], state(path)["declarer"]))
        ok(path, line)
    assert seen == [("declare", "Cadáver"), ("declare", "Víctor"), ("declare", "Matón"), ("declare", "Kara")]
    s = state(path)
    assert (s["phase"], s["actor"], s["declarer"]) == ("act", "Kara", None)


def test_siguiente_in_the_declaration_declares_nothing(tmp_path):
    """SYSTEMS §3.5: «`siguiente` forces the step (the declarer declares nothing …)»."""
    path = fight(tmp_path, "siguiente", "siguiente")
    assert state(path)["declarer"] == "Víctor"
    assert who(path, "Cadáver")["declared"] == []


@pytest.mark.parametrize(("n", "penalties"), [
    (2, [-2, -3]), (3, [-3, -4, -5]), (4, [-4, -5, -6, -7]), (5, [-5, -6, -7, -8, -9])])
def test_the_k_th_of_n_declared_actions_loses_n_plus_k_minus_1_dice(tmp_path, n, penalties):
    """STORYTELLER §6.2: «with N ≥ 2 declared actions in priority order, action k
    (1-based) rolls its pool − (N + k − 1) dice» (the table)."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton otra:3", "declara kara " + " ".join(["otra:12"] * n))
    declared = who(path, "Kara")["declared"]
    assert [d["penalty"] for d in declared] == penalties
    assert [d["pool"] for d in declared] == [12] * n
    assert [d["dice"] for d in declared] == [12 + p for p in penalties]


def test_one_action_has_no_penalty(tmp_path):
    """STORYTELLER §6.2: «With N = 1, no penalty»; SYSTEMS §3.4 `penalty` 0."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    assert [(d["action"], d["pool"], d["penalty"], d["dice"], d["defense"], d["done"])
            for d in who(path, "Cadáver")["declared"]] == [("golpe", 4, 0, 4, False, False)]


def test_the_kara_example_book_knife_dodge(tmp_path):
    """STORYTELLER §6.2: the book «se reduce a tres», the knife «se reduce en cuatro»,
    the dodge «se reduce en cinco dados … queda reducida a dos dados»."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton otra:3", "declara kara otra:6 otra:6 esquiva")
    assert [(d["pool"], d["penalty"], d["dice"], d["defense"]) for d in who(path, "Kara")["declared"]] == [
        (6, -3, 3, False), (6, -4, 2, False), (7, -5, 2, True)]


def test_traits_computed_pools_automatic_fire_17(tmp_path):
    """STORYTELLER §15: «Fuego automático … 4 + 3 + 10 = 17 dice»; SYSTEMS §3.5
    «`pool` … traits + Precisión (Víctor's automatic fire: 17)»."""
    path = fight(tmp_path, *UP_TO_KARA)
    assert [(d["action"], d["pool"], d["penalty"]) for d in who(path, "Víctor")["declared"]] == [
        ("fuego-automatico", 17, 0)]


def test_the_live_dice_follow_wounds_gained_later(tmp_path):
    """SYSTEMS §3.1 chip: «the `→` part is live: wounds gained later lower it»; §3.5 «a
    `dice` field gives the live dice (pool + penalty + health penalty + the rest)»."""
    path = fight(tmp_path, *DECL1)
    assert [d["dice"] for d in who(path, "Matón")["declared"]] == [3, 2]
    ok(path, "dano maton 3 letal")
    assert [d["dice"] for d in who(path, "Matón")["declared"]] == [2, 1]
    assert [d["pool"] for d in who(path, "Matón")["declared"]] == [5, 5]


def test_the_kara_example_of_the_json_contract(tmp_path):
    """SYSTEMS §3.4: the Kara combatant of the example, turn 1 with Matón acting."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton disparos-multiples 2", "declara kara disparo:6 esquiva:7",
                 "kara actua a maton exitos=2", "maton aborta tira exitos=0 esquiva", "dano maton 3 letal")
    s = state(path)
    assert (s["rules"], s["turn"], s["phase"], s["order"], s["actor"], s["declarer"]) == (
        "narrador", 1, "act", ["Kara", "Matón", "Víctor", "Cadáver"], "Matón", None)
    kara = who(path, "Kara")
    assert (kara["initiative"], kara["rating"], kara["status"]) == (13, 6, "acted")
    assert [{k: d[k] for k in ("action", "pool", "penalty", "defense", "done")} for d in kara["declared"]] == [
        {"action": "disparo", "pool": 6, "penalty": -2, "defense": False, "done": True},
        {"action": "esquiva", "pool": 7, "penalty": -3, "defense": True, "done": False}]
    assert (kara["full_defense"], kara["defenses"], kara["next_defense_penalty"], kara["aborted"]) == (
        None, 0, -3, False)
    assert kara["willpower"] == {"rating": 5, "points": 5, "spent_this_turn": False}
    assert kara["health"] == {"levels": 7, "lethal": 0, "bashing": 0, "penalty": 0}
    assert (kara["conditions"], kara["aim"], kara["cover"], kara["opponents"]) == ([], 0, 0, 1)
    assert [{k: w[k] for k in ("name", "ammo", "magazine", "chamber", "shots", "rate")} for w in kara["weapons"]] == [
        {"name": "revolver-ligero", "ammo": 5, "magazine": 6, "chamber": False, "shots": 1, "rate": 3}]


def test_defensa_total_declared(tmp_path):
    """SYSTEMS §3.2 `declara kara defensa-total esquiva:7`; §3.4 `full_defense`."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton disparo", "declara kara defensa-total esquiva:7")
    kara = who(path, "Kara")
    assert kara["full_defense"] is not None
    assert kara["next_defense_penalty"] == 0


def test_otra_declares_an_action_the_catalog_lacks(tmp_path):
    """SYSTEMS §3.5: «`otra[:N]` declares any action the catalog lacks («recoger el
    libro»), with its pool»."""
    path = fight(tmp_path, "siguiente", "declara cadaver otra:5")
    assert [(d["action"], d["pool"]) for d in who(path, "Cadáver")["declared"]] == [("otra", 5)]


def test_declara_retrasa_is_delaying(tmp_path):
    """SYSTEMS §3.2 `declara victor retrasa`; §3.4 status `delaying`."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor retrasa")
    assert who(path, "Víctor")["status"] == "delaying"


def test_too_many_shots_for_matón_s_glock(tmp_path):
    """SYSTEMS §3.3: “Cadencia 3: Matón no puede disparar 4 veces este turno” (with the
    Glock 17's Cadencia 4: five shots)."""
    path = fight(tmp_path, *UP_TO_KARA)
    assert refusal(path, "declara maton disparos-multiples:12 5") == (
        "Cadencia 4: Matón no puede disparar 5 veces este turno")


def test_declared_shots_equal_to_the_rate_are_allowed(tmp_path):
    """SYSTEMS §3.5 «Cadencia is checked at the declaration (declared shots ≤ rate)»."""
    path = fight(tmp_path, *UP_TO_KARA)
    ok(path, "declara maton disparos-multiples:12 4")
    assert len(who(path, "Matón")["declared"]) == 4


def test_a_three_round_burst_the_glock_cannot(tmp_path):
    """SYSTEMS §3.3: “Ráfaga de tres balas: la Glock 17 no puede”."""
    path = fight(tmp_path, *UP_TO_KARA)
    assert refusal(path, "declara maton rafaga-de-tres-balas") == "Ráfaga de tres balas: la Glock 17 no puede"


def test_an_empty_rifle_must_reload(tmp_path):
    """SYSTEMS §3.3: “El rifle está vacío: recarga”."""
    path = fight(tmp_path, "arma Víctor rifle", "municion Víctor rifle 0", "siguiente", "declara cadaver golpe",
                 cast=(*CAST[:-3], "arma Kara revolver-ligero", "arma Matón pistola-ligera"))
    assert refusal(path, "declara victor disparo") == "El rifle está vacío: recarga"


def test_aiming_with_a_scope_is_capped_at_percepcion_plus_2(tmp_path):
    """STORYTELLER §6.7: «the scope's +2 comes once, on the first turn of aiming with it,
    and may exceed the Percepción cap (cap = Percepción + 2)»; SYSTEMS §3.3 “Kara ya suma el
    máximo de Apuntar (Percepción 3)”."""
    turn = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
            "declara kara apuntar", "kara actua", "maton fin", "turno")
    path = fight(tmp_path, "arma Kara fusil dano=8 alcance=200 cad=1 cargador=5+1 mira", *turn,
                 cast=(KARA, MATON), inits=())
    assert who(path, "Kara")["aim"] == 3
    ok(path, *turn)
    assert who(path, "Kara")["aim"] == 4
    ok(path, *turn)
    assert who(path, "Kara")["aim"] == 5
    ok(path, "iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3")
    assert refusal(path, "declara kara apuntar") == "Kara ya suma el máximo de Apuntar (Percepción 3)"


def test_aim_adds_to_the_next_shot_and_is_used_up(tmp_path):
    """STORYTELLER §6.7: «por cada turno que pase apuntando tu personaje añade un dado a su
    reserva para el siguiente disparo»; «The bonus is used by the next shot»."""
    turn = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3")
    path = fight(tmp_path, "arma Kara revolver-ligero", *turn, "declara kara apuntar", "kara actua",
                 "maton fin", "turno", *turn, "declara kara disparo", cast=(KARA, MATON), inits=())
    assert who(path, "Kara")["aim"] == 1
    log = new_log(path, "kara actua a maton exitos=1")
    assert rolled(log, "Kara") == [(3 + 3 + 1, 6)]
    assert who(path, "Kara")["aim"] == 0


def test_aim_lost_by_another_action_is_a_warning(tmp_path):
    """SYSTEMS §3.3 Warnings: «aim lost by another action»; §3.5 «applied by `cdbtui do`
    with the warning on stderr (exit 0)»; STORYTELLER §6.7 «Any other action, declared or
    aborted, resets it to 0 (the tracker warns first)»."""
    turn = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3")
    path = fight(tmp_path, "arma Kara revolver-ligero", *turn, "declara kara apuntar", "kara actua",
                 "maton fin", "turno", *turn, cast=(KARA, MATON), inits=())
    assert who(path, "Kara")["aim"] == 1
    result = ok(path, "declara kara otra:4")
    assert "pierde lo apuntado" in result.stderr
    assert who(path, "Kara")["aim"] == 0  # reset once declared


# ------------------------------------------------------------------ the action phase (SYSTEMS §3.5)


def test_a_go_ends_when_all_declared_non_defensive_actions_are_done(tmp_path):
    """SYSTEMS §3.5: «a combatant's go ends when it has performed all its declared
    non-defensive actions … then the next acts»."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=0")
    assert state(path)["actor"] == "Matón"


def test_fin_drops_the_rest_of_the_declaration(tmp_path):
    """SYSTEMS §3.2 `NAME fin` / `NAME done`: drop what is left of its declaration."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=0", "maton actua a kara exitos=0", "maton done")
    assert state(path)["actor"] == "Víctor"
    assert who(path, "Matón")["status"] == "acted"


def test_a_dropped_action_is_not_done_struck_for_the_dj_and_absent_for_players(tmp_path):
    """«drop what is left of its declaration»: a dropped shot was never made, so JSON
    says `"done": false`, the DJ's board marks it ✗ (never ✓, «done»), and players,
    who see a declaration only once performed, never see it."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=0", "maton actua a kara exitos=0", "maton done")
    declared = who(path, "Matón")["declared"]
    assert [d["done"] for d in declared] == [True, False]
    board = cdbtui("show", str(path)).stdout
    line = next(row for row in board.splitlines() if "Matón" in row and "Disparo" in row)
    assert "✗Disparo" in line and line.count("✓") == 1, line
    players = cdbtui("export", str(path), "--jugadores", "--output", str(tmp_path / "p.md")).returncode
    assert players == 0 and "✗" not in (tmp_path / "p.md").read_text(encoding="utf-8")


def test_siguiente_in_the_action_phase_drops_the_actor_s_remaining_actions(tmp_path):
    """SYSTEMS §3.5: «`siguiente` forces the step (… the actor's remaining declared actions
    are dropped)»."""
    path = fight(tmp_path, *DECL1, "next")
    assert state(path)["actor"] == "Matón"
    assert who(path, "Kara")["status"] == "acted"
    assert who(path, "Kara")["weapons"][0]["ammo"] == 6
    assert not any(d["done"] for d in who(path, "Kara")["declared"])  # nothing was done


def test_a_stunned_combatant_s_place_is_passed(tmp_path):
    """SYSTEMS §3.5: «A stunned combatant's place is passed with a log line (it loses that
    action)»; §15 row 7."""
    path = fight(tmp_path, *DECL1, "kara fin", "maton fin", "victor actua a cadaver exitos=6")
    log = new_log(path, "dano cadaver 6 letal")
    assert any("Cadáver" in line and "aturdido" in line and "pierde" in line for line in log), log
    assert not any(d["done"] for d in who(path, "Cadáver")["declared"])
    assert state(path)["phase"] in ("over", "initiative")
    # §15 row 7: «the condition ends as its place passes»
    assert "aturdido" not in conds(path, "Cadáver")


def test_delaying_then_acting_later(tmp_path):
    """SYSTEMS §3.2 `NAME retrasa` / `NAME delay`, then `NAME actua …`; §3.5 «at any later
    point of the action phase, `NAME actua ACCION[:N] …`»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton delay", "declara kara disparo", "kara actua a cadaver exitos=0")
    assert who(path, "Matón")["status"] == "delaying"
    ok(path, "maton actua otra:4")
    assert who(path, "Matón")["status"] == "acted"


def test_a_delayer_may_abort(tmp_path):
    """SYSTEMS §3.5: «a delayer may abort like anyone who has not acted»."""
    cast = (KARA, VICTOR, MATON.replace("pelea:3", "pelea:3,esquivar:2"), CADAVER, *ARMS)
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton retrasa", "declara kara disparo", "kara actua a maton exitos=2", cast=cast)
    ok(path, "maton aborta tira exitos=1 esquiva defensa=3")
    assert who(path, "Matón")["aborted"] is True


def test_delayed_actions_are_lost_at_the_turn_s_end(tmp_path):
    """SYSTEMS §3.5: «what is not done by the turn's end is lost»; `turno` «(pending
    delayed actions lost)»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor retrasa",
                 "declara maton disparo", "declara kara disparo", "newturn")
    assert (state(path)["turn"], state(path)["phase"]) == (2, "initiative")
    assert who(path, "Víctor")["declared"] == []


def test_performing_fewer_actions_keeps_the_declared_penalties(tmp_path):
    """STORYTELLER §4: «a combatant may perform fewer actions than it declared (it may drop
    the rest), but the multiple-action penalties stay those of the declared number»."""
    path = fight(tmp_path, *DECL1)
    log = new_log(path, "kara actua a maton exitos=1")
    assert rolled(log, "Kara") == [(4, 6)]


def test_acting_a_named_action_out_of_priority_order(tmp_path):
    """SYSTEMS §3.2 `NAME actua [ACCION]`: the named one; its slot's penalty stays."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton otra:3", "declara kara otra:8 disparo:8")
    log = new_log(path, "kara actua disparo a maton exitos=1")
    assert rolled(log, "Kara") == [(8 - 3, 6)]


def test_metros_subtracts_a_die_per_metre(tmp_path):
    """STORYTELLER §6.5: «The tracker takes `metros=N` on an action and subtracts N
    dice»."""
    path = fight(tmp_path, *DECL1)
    log = new_log(path, "kara actua a maton exitos=1 metros=2")
    assert rolled(log, "Kara") == [(4 - 2, 6)]


def test_the_app_rolls_for_pnj_without_exitos(tmp_path):
    """SYSTEMS §3.2 `exitos` = the attack's successes (or the app rolls for PNJ)."""
    path = fight(tmp_path, *DECL1, "kara fin")
    log = new_log(path, "maton actua a kara")
    assert rolled(log, "Matón") == [(3, 6)]


# ------------------------------------------------------------------ attacks and damage (§7.2, §8, §9)


def test_the_damage_pool_is_weapon_plus_net_minus_1(tmp_path):
    """STORYTELLER §7.2: «the damage pool is the weapon's damage + (net successes − 1)»;
    §15 row 3: «Kara's damage pool 4 + (2 − 1) = 5 dice»."""
    path = fight(tmp_path, *DECL1)
    log = new_log(path, "kara actua a maton exitos=2")
    assert any("daño 4 + (2 − 1) = 5 dados" in line for line in log), log


def test_the_defender_s_successes_are_subtracted(tmp_path):
    """STORYTELLER §7.2: «Si obtiene más, sustrae los éxitos del defensor a los propios»:
    3 against a dodge of 1: net 2, damage 4 + 1 = 5."""
    path = fight(tmp_path, *DECL1, "kara fin", "maton actua a kara exitos=3")
    log = new_log(path, "kara defiende esquiva exitos=1")
    assert any("4 + (2 − 1) = 5 dados" in line for line in log), log


def test_a_tie_misses(tmp_path):
    """STORYTELLER §7.2: «Si el atacante consigue los mismo o menos éxitos, falla»; §15
    row 5: «1 ≥ 1: miss»."""
    path = fight(tmp_path, *DECL1, "kara fin", "maton actua a kara exitos=1")
    ok(path, "kara defiende esquiva exitos=1")
    attack = state(path)["attack"]
    assert attack is None or not attack["damage"]


def test_a_shot_spends_one_round(tmp_path):
    """STORYTELLER §9: «A shot −1»; `shots` this turn."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=1")
    assert (who(path, "Kara")["weapons"][0]["ammo"], who(path, "Kara")["weapons"][0]["shots"]) == (5, 1)


def test_automatic_fire_empties_the_magazine_chamber_included(tmp_path):
    """STORYTELLER §9: «Fuego automático and Dispersión empty the magazine (chamber
    included)»; §15 row 6: 17 dice at 8, rifle 43 → 0."""
    path = fight(tmp_path, *DECL1, "kara fin", "maton fin")
    log = new_log(path, "victor actua a cadaver exitos=6")
    assert rolled(log, "Víctor") == [(17, 8)]
    assert who(path, "Víctor")["weapons"][0]["ammo"] == 0
    assert any("7 + (6 − 1) = 12 dados" in line for line in log), log


def test_a_three_round_burst_counts_one_against_the_cadencia(tmp_path):
    """STORYTELLER §9: «a Ráfaga de Tres Balas −3 and counts 1 against Cadencia»; §8.3
    Precisión +2, dificultad +1: Víctor 4 + 3 + 2 = 9 dice at 7."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor rafaga-de-tres-balas",
                 "declara maton otra:3", "declara kara otra:3", "kara fin", "maton fin")
    log = new_log(path, "victor actua a cadaver exitos=1")
    assert rolled(log, "Víctor") == [(9, 7)]
    weapon = who(path, "Víctor")["weapons"][0]
    assert (weapon["ammo"], weapon["shots"]) == (40, 1)


def test_three_bursts_within_a_cadencia_of_3(tmp_path):
    """STORYTELLER §9: Cadencia counts bursts («balas o ráfagas cortas»)."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    ok(path, "declara victor rafaga-de-tres-balas:9 3")
    assert len(who(path, "Víctor")["declared"]) == 3


@pytest.mark.parametrize(("ammo", "after"), [(5, 18), (0, 17)])
def test_recarga_keeps_the_chambered_round(tmp_path, ammo, after):
    """STORYTELLER §9: «Recarga fills the magazine; the +1 stays only if a round was left in
    the chamber (a reload with 1+ rounds left → capacity + 1; from empty → capacity)»."""
    path = fight(tmp_path, f"municion Matón pistola-ligera {ammo}", *UP_TO_KARA, "declara maton recarga",
                 "declara kara otra:3", "kara fin", "maton actua")
    assert who(path, "Matón")["weapons"][0]["ammo"] == after


def test_recarga_of_a_revolver_fills_it(tmp_path):
    """STORYTELLER §9: Recarga fills the magazine (no chamber: 6)."""
    path = fight(tmp_path, "municion Kara revolver-ligero 2", *UP_TO_KARA, "declara maton otra:3",
                 "declara kara recarga", "kara actua")
    assert who(path, "Kara")["weapons"][0]["ammo"] == 6


def test_a_crossbow_takes_five_turns_to_reload(tmp_path):
    """STORYTELLER §6.6: «Se tardan cinco turnos en recargar una ballesta» (five consecutive
    turns of Recarga)."""
    turn = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
            "declara kara recarga", "kara actua", "maton fin", "turno")
    path = fight(tmp_path, "arma Kara ballesta", "municion Kara ballesta 0", *turn * 4,
                 cast=(KARA, MATON), inits=())
    assert who(path, "Kara")["weapons"][0]["ammo"] == 0
    ok(path, *turn)
    assert who(path, "Kara")["weapons"][0]["ammo"] == 1


def test_the_default_difficulty_is_6(tmp_path):
    """STORYTELLER §3: «difficulty = 6 + modifiers»; §15 row 1: «short range, dif 6»."""
    path = fight(tmp_path, *DECL1)
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4, 6)]


@pytest.mark.parametrize(("maneuver", "difficulty"), [
    ("patada", 7), ("desarmar", 7), ("barrido", 7), ("placaje", 7), ("estaca", 9), ("golpe", 6),
    ("presa", 6), ("longitud-del-arma", 7)])
def test_melee_maneuver_difficulties(tmp_path, maneuver, difficulty):
    """STORYTELLER §8.1: Patada 7, Desarmar **7**, Barrido 7, Placaje 7, Estaca **9**,
    Golpe 6, Presa 6, Longitud del Arma 7."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 f"declara maton {maneuver}", "declara kara otra:3", "kara fin")
    log = new_log(path, "maton actua a kara exitos=1")
    assert [d for _, d in rolled(log, "Matón")] == [difficulty]


@pytest.mark.parametrize(("maneuver", "damage"), [("golpe", 3), ("patada", 4), ("placaje", 4)])
def test_brawling_damage_is_fuerza_based(tmp_path, maneuver, damage):
    """STORYTELLER §8.1: Golpe «Fuerza», Patada «Fuerza + 1», Placaje «Fuerza + 1»
    (Matón Fuerza 3); one net success adds nothing."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 f"declara maton {maneuver}", "declara kara otra:3", "kara fin", "maton actua a kara exitos=1")
    assert state(path)["attack"]["damage"] == damage


def test_brawling_is_bashing_unless_said(tmp_path):
    """STORYTELLER §8.1: «Todas las maniobras de pelea infligen daño contundente a menos que
    se indique lo contrario»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton golpe", "declara kara otra:3", "kara fin", "maton actua a kara exitos=1")
    assert state(path)["attack"]["lethal"] is False


@pytest.mark.parametrize(("n", "difficulty"), [(1, 6), (2, 7), (3, 8), (5, 10), (6, 10)])
def test_oponentes_add_one_per_enemy_beyond_the_first_up_to_4(tmp_path, n, difficulty):
    """STORYTELLER §8.1: «the tracker adds min(N − 1, 4) to its attack and defense
    difficulties»."""
    path = fight(tmp_path, f"oponentes kara {n}", *DECL1)
    assert who(path, "Kara")["opponents"] == n
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4, difficulty)]


@pytest.mark.parametrize(("level", "difficulty"), [(1, 7), (2, 8), (3, 9)])
def test_cobertura_adds_to_the_difficulty_to_hit(tmp_path, level, difficulty):
    """STORYTELLER §8.3 Cobertura: Ligera +1, Buena +2, Superior +3; §10 `cobertura:N`
    «+N difficulty to hit it»."""
    path = fight(tmp_path, f"cover maton {level}", *DECL1)
    assert who(path, "Matón")["cover"] == level
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4, difficulty)]


def test_shooting_from_cover_is_its_cover_minus_1(tmp_path):
    """STORYTELLER §10 `cobertura:N`: «its own shots +(N − 1)»."""
    path = fight(tmp_path, "cobertura kara 3", *DECL1)
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4, 8)]


def test_cegado_adds_2_difficulty_and_2_dice_to_attackers(tmp_path):
    """STORYTELLER §10 cegado: «its actions +2 difficulty»; «attackers against it +2
    dice»."""
    path = fight(tmp_path, "estado maton +cegado", *DECL1)
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4 + 2, 6)]
    ok(path, "dano maton 1 contundente")
    assert rolled(new_log(path, "maton actua a kara exitos=1"), "Matón") == [(3, 6 + 2)]


def test_inmovilizado_gives_attackers_2_dice(tmp_path):
    """STORYTELLER §10 inmovilizado: «attacks against it +2 dice»."""
    path = fight(tmp_path, "estado maton +inmovilizado", *DECL1)
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4 + 2, 6)]


def test_desequilibrado_adds_1_difficulty_next_turn_then_ends(tmp_path):
    """STORYTELLER §10 desequilibrado: «+1 difficulty to all its actions … the next turn»;
    §13 «End of turn: a `desequilibrado` that applied to this turn ends»."""
    path = fight(tmp_path, *DECL1, "estado kara +desequilibrado", "turno", *T1, *DECL1)
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4, 7)]
    ok(path, "turno")
    assert "desequilibrado" not in conds(path, "Kara")


def test_derribado_counts_as_light_cover_against_ranged_attacks(tmp_path):
    """STORYTELLER §10 Derribado: «Until it stands it counts as *cobertura ligera*
    («tendido sobre el suelo») against ranged attacks»."""
    path = fight(tmp_path, "estado maton +derribado", *DECL1)
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(4, 7)]


def test_atado_every_attack_hits(tmp_path):
    """STORYTELLER §10 atado: «todos los ataques aciertan automáticamente»."""
    path = fight(tmp_path, "estado maton +atado", *DECL1)
    ok(path, "kara actua a maton exitos=0")
    attack = state(path)["attack"]
    assert attack is not None and attack["damage"] >= 4


def test_the_health_penalty_applies_to_every_pool(tmp_path):
    """STORYTELLER §11: «The current penalty … applies to every dice pool»; §15 row 4:
    «5 − 1 (wounds) − 2 = 2 dice»."""
    path = fight(tmp_path, *DECL1, "kara fin", "dano maton 3 letal")
    assert rolled(new_log(path, "maton actua a kara exitos=1"), "Matón") == [(2, 6)]


# ------------------------------------------------------------------ health (STORYTELLER §11)


@pytest.mark.parametrize(("levels", "penalty"), [(1, 0), (2, -1), (3, -1), (4, -2), (5, -2), (6, -5)])
def test_the_seven_health_levels_and_their_penalties(tmp_path, levels, penalty):
    """STORYTELLER §11: «Magullado 0, Lastimado −1, Lesionado −1, Herido −2, Malherido −2,
    Tullido −5, Incapacitado (no actions; out)»."""
    path = fight(tmp_path, f"dano kara {levels} contundente", inits=())
    assert who(path, "Kara")["health"] == {"levels": 7, "lethal": 0, "bashing": levels, "penalty": penalty}


def test_incapacitado_is_out(tmp_path):
    """STORYTELLER §11: «Incapacitado (no actions; out)»; SYSTEMS §3.4 status `out`."""
    path = fight(tmp_path, "dano kara 7 letal", inits=())
    assert who(path, "Kara")["status"] == "out"


def test_bashing_beyond_a_full_track_turns_into_lethal(tmp_path):
    """STORYTELLER §11: «bashing beyond a full track turns into lethal»."""
    path = fight(tmp_path, "dano kara 7 contundente", "dano kara 2 contundente", inits=())
    health = who(path, "Kara")["health"]
    assert health["lethal"] == 2 and health["lethal"] + health["bashing"] == 7


def test_lethal_fills_before_bashing(tmp_path):
    """STORYTELLER §11: «Lethal boxes fill before bashing ones»: the track keeps both."""
    path = fight(tmp_path, "dano kara 2 contundente", "dano kara 1 letal", inits=())
    assert who(path, "Kara")["health"] == {"levels": 7, "lethal": 1, "bashing": 2, "penalty": -1}


def test_lethal_beyond_incapacitado_kills(tmp_path):
    """STORYTELLER §11: «lethal beyond Incapacitado kills»."""
    path = fight(tmp_path, "dano kara 8 letal", inits=())
    assert who(path, "Kara")["status"] == "out"


@pytest.mark.parametrize(("levels", "stunned"), [(2, False), (3, True)])
def test_aturdido_when_one_damage_exceeds_resistencia(tmp_path, levels, stunned):
    """STORYTELLER §11: «the tracker compares the levels of one `dano` with Resistencia
    (+2 if `supernatural`) and applies `aturdido` when greater» (Kara Resistencia 2)."""
    path = fight(tmp_path, f"dano kara {levels} letal", inits=())
    assert ("aturdido" in conds(path, "Kara")) is stunned


@pytest.mark.parametrize(("levels", "stunned"), [(5, False), (6, True)])
def test_aturdido_of_a_supernatural_at_resistencia_plus_2(tmp_path, levels, stunned):
    """STORYTELLER §10: «Resistencia +2 (en el caso de las criaturas sobrenaturales)»; §15
    row 6: «6 > 3 + 2 = 5: Aturdido»."""
    path = fight(tmp_path, f"dano cadaver {levels} letal", inits=())
    assert ("aturdido" in conds(path, "Cadáver")) is stunned


def test_two_small_hits_do_not_stun(tmp_path):
    """STORYTELLER §11: «the levels of one `dano`»."""
    path = fight(tmp_path, "dano kara 2 letal", "dano kara 2 letal", inits=())
    assert "aturdido" not in conds(path, "Kara")


def test_a_stunned_combatant_who_acted_loses_next_turn_s_action(tmp_path):
    """STORYTELLER §10: «if it has already acted, its pending declared defenses are lost
    and it loses next turn's action»."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=0", "dano kara 3 letal")
    assert who(path, "Kara")["next_defense_penalty"] is None
    ok(path, "turno", *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico")
    assert who(path, "Kara")["status"] == "stunned"
    assert state(path)["declarer"] == "Matón"


# ------------------------------------------------------------------ defenses (STORYTELLER §6.4, §7)


def test_an_extra_defense_continues_the_chain(tmp_path):
    """STORYTELLER §6.4: «the (N+1)-th has − 2N dice» (Kara, N = 2: −4, 7 − 4 = 3, §15
    row 5); SYSTEMS §3.4 `next_defense_penalty`."""
    path = fight(tmp_path, *DECL1, "kara fin", "maton actua a kara exitos=1")
    assert who(path, "Kara")["next_defense_penalty"] == -3
    ok(path, "kara defiende esquiva exitos=2")
    kara = who(path, "Kara")
    assert (kara["defenses"], kara["next_defense_penalty"]) == (1, -4)
    log = new_log(path, "maton actua a kara exitos=1", "kara defiende esquiva exitos=1")
    assert (3, 6) in rolled(log, "Kara") or any("3 dados" in line for line in log if "Kara" in line)


def test_the_kara_n_3_second_dodge_is_minus_6(tmp_path):
    """STORYTELLER §6.4: «Kara, N = 3: a second dodge −6, 7 − 6 = 1 die»."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton golpe:30 3", "declara kara otra:6 otra:6 esquiva",
                 "kara actua otra", "kara actua otra", "maton actua a kara exitos=1",
                 "kara defiende esquiva exitos=0")
    assert who(path, "Kara")["next_defense_penalty"] == -6


def test_total_defense_loses_a_die_per_defense(tmp_path):
    """STORYTELLER §7.6: «Kara: 7, 6, 5, 4, 3, 2, 1 dice for the first seven attacks»."""
    lines = [*UP_TO_KARA, "declara maton golpe:30 8", "declara kara defensa-total esquiva"]
    path = fight(tmp_path, *lines)
    penalties = []
    for _ in range(7):
        penalties.append(who(path, "Kara")["next_defense_penalty"])
        ok(path, "maton actua a kara exitos=1", "kara defiende esquiva exitos=1")
    assert penalties == [0, -1, -2, -3, -4, -5, -6]
    assert who(path, "Kara")["defenses"] == 7


def test_dodging_a_dispersion_is_at_plus_1(tmp_path):
    """STORYTELLER §7.1: «Todo intento de esquivar un ataque de dispersión sufre una
    penalización de +1» (difficulty 7)."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor dispersion",
                 "declara maton otra:3", "declara kara defensa-total esquiva", "maton fin",
                 "victor actua a kara exitos=4")
    log = new_log(path, "kara defiende esquiva")
    line = next(line for line in log if "Esquiva" in line)
    dice = [int(n) for n in re.search(r"tira: ([\d ]+)", line).group(1).split()]
    hits, ones = sum(d >= 7 for d in dice), dice.count(1)
    if hits == 0 and ones:  # a botch (the dice are the fight's random seed's)
        assert "fracaso" in line, line
    else:
        assert f"{max(0, hits - ones)} éxito(s)" in line, line


def test_total_defense_each_defense_any_maneuver(tmp_path):
    """STORYTELLER §7.6 Decision: «each defense may be any of the three maneuvers (the count
    k is shared)»."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton golpe:12 2", "declara kara defensa-total esquiva",
                 "maton actua a kara exitos=1", "kara defiende esquiva exitos=1",
                 "maton actua a kara exitos=1", cast=(*CAST, "arma Kara cuchillo"))
    ok(path, "kara defiende parada exitos=1")
    assert who(path, "Kara")["defenses"] == 2


def test_abort_by_roll_passes_with_one_success(tmp_path):
    """STORYTELLER §7.4.2: «≥ 1 net success passes»; SYSTEMS §3.5 `NAME aborta [ACCION]
    tira exitos=N MANIOBRA [defensa=M]` gives both rolls; §3.4 `aborted`."""
    cast = (KARA, VICTOR, MATON.replace("pelea:3", "pelea:3,esquivar:2"), CADAVER, *ARMS)
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=2", cast=cast)
    ok(path, "maton aborta tira exitos=1 esquiva defensa=2")
    maton = who(path, "Matón")
    assert maton["aborted"] is True
    assert maton["willpower"] == {"rating": 3, "points": 3, "spent_this_turn": False}
    attack = state(path)["attack"]
    assert attack is None or not attack["damage"]


def test_abort_replaces_the_last_declared_action_by_default(tmp_path):
    """STORYTELLER §7.4.3: «(Decision: default the last declared) … the other declared
    actions stay, with their penalties, at its place»."""
    cast = (KARA, VICTOR, MATON.replace("pelea:3", "pelea:3,esquivar:2"), CADAVER, *ARMS)
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=2", "maton abort roll exitos=1 esquiva defensa=0",
                 cast=cast)
    declared = who(path, "Matón")["declared"]
    pending = [d for d in declared if not d["defense"] and not d["done"]]
    assert [(d["pool"], d["penalty"]) for d in pending] == [(5, -2)]


def test_abort_takes_the_penalty_of_the_replaced_slot(tmp_path):
    """STORYTELLER §7.4.3: «its pool takes the multiple-action penalty of the slot it
    replaces»: Matón Des 3 + Esquivar 2 = 5, slot 2 of 2: −3 → 2 dice (app roll)."""
    cast = (KARA, VICTOR, MATON.replace("pelea:3", "pelea:3,esquivar:2"), CADAVER, *ARMS)
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=2", cast=cast)
    log = new_log(path, "maton aborta gasta esquiva")
    assert any(re.search(r"\b2 dados", line) for line in log if "Matón" in line), log


def test_the_willpower_abort_roll_has_no_penalties(tmp_path):
    """STORYTELLER §7.4.2: «the pool is the Willpower *rating*, with no penalties
    (reflexive; health penalties do not apply to it)»: wounded Matón still rolls 3."""
    cast = (KARA, VICTOR, MATON.replace("pelea:3", "pelea:3,esquivar:4"), CADAVER, *ARMS)
    path = fight(tmp_path, "dano maton 2 contundente", "dano maton 2 contundente", *DECL1,
                 "kara actua a maton exitos=2", cast=cast)
    log = new_log(path, "maton aborta tira esquiva")
    assert any("FV 3 dados" in line for line in log), log


def test_abort_by_spending_a_point(tmp_path):
    """STORYTELLER §7.4.2: «Spending the point is chosen *instead of* rolling … the defense
    roll is still made»; §15 row 9: Kara FV 4 / 5."""
    path = fight(tmp_path, *UP_TO_KARA, "declara kara defensa-total esquiva", "declara maton patada",
                 "maton actua a kara exitos=2", inits=T2)
    ok(path, "kara abort spend esquiva exitos=3")
    kara = who(path, "Kara")
    assert kara["willpower"] == {"rating": 5, "points": 4, "spent_this_turn": True}
    assert kara["aborted"] is True


def test_a_failed_abort_leaves_the_declaration_and_may_try_again(tmp_path):
    """STORYTELLER §7.4.4: «The attack is resolved undefended; the declaration is
    unchanged. Decision: it may try again (a new roll) against a later attack before its
    place»."""
    path = fight(tmp_path, *UP_TO_KARA, "declara kara disparo", "declara maton disparo disparo",
                 "maton actua a kara exitos=1", "kara aborta tira exitos=0 esquiva", inits=T2)
    kara = who(path, "Kara")
    assert kara["aborted"] is False
    assert [d["action"] for d in kara["declared"]] == ["disparo"]
    ok(path, "maton actua a kara exitos=1", "kara aborta tira exitos=1 esquiva defensa=2")
    assert who(path, "Kara")["aborted"] is True


def test_no_abort_with_nothing_left_to_abandon(tmp_path):
    """STORYTELLER §7.4.1: «not with a declaration that has nothing left to abandon»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "siguiente", "declara maton disparo", "maton actua a kara exitos=1", inits=T2)
    assert "Kara" in refusal(path, "kara aborta tira exitos=1 esquiva")


# ------------------------------------------------------------------ Willpower (STORYTELLER §12)


def test_fv_spends_a_point(tmp_path):
    """SYSTEMS §3.2 `fv NAME -1` / `wp NAME -1`."""
    path = fight(tmp_path, "fv kara -1")
    assert who(path, "Kara")["willpower"] == {"rating": 5, "points": 4, "spent_this_turn": True}


def test_the_one_point_limit_resets_each_turn_and_points_do_not_come_back(tmp_path):
    """STORYTELLER §12: «Points do not come back during a fight»; §13 «End of turn: … the
    one-Willpower-point-per-turn limit resets»."""
    path = fight(tmp_path, "fv kara -1", "siguiente", "turno")
    assert who(path, "Kara")["willpower"] == {"rating": 5, "points": 4, "spent_this_turn": False}
    ok(path, "wp kara -1")
    assert who(path, "Kara")["willpower"]["points"] == 3


def test_an_abort_point_counts_as_the_turn_s_point(tmp_path):
    """STORYTELLER §12: «at most one point per combatant per turn»."""
    path = fight(tmp_path, *UP_TO_KARA, "declara kara defensa-total esquiva", "declara maton patada",
                 "maton actua a kara exitos=2", "kara aborta gasta esquiva exitos=3", inits=T2)
    assert refusal(path, "fv kara -1") == "Kara ya gastó un punto de Fuerza de Voluntad este turno"


# ------------------------------------------------------------------ conditions and grapples (§10)


@pytest.mark.parametrize("cond", ["derribado", "desequilibrado", "cegado", "inmovilizado", "atado",
                                  "sorprendido", "aturdido"])
def test_estado_adds_and_removes_each_condition(tmp_path, cond):
    """SYSTEMS §3.2: `estado NAME +COND` / `estado NAME -COND` (`cond …`): `derribado`,
    `desequilibrado`, `cegado`, `inmovilizado`, `atado`, `sorprendido`, `aturdido`."""
    path = fight(tmp_path, f"estado kara +{cond}", inits=())
    assert cond in conds(path, "Kara")
    ok(path, f"cond kara -{cond}")
    assert cond not in conds(path, "Kara")


def test_a_presa_with_a_net_success_links_the_two(tmp_path):
    """SYSTEMS §3.5: «A Presa performed with at least one net success links the two by
    itself; while linked, the only declarations accepted are `escapar`, `apretar` and
    `soltar`»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton presa", "declara kara otra:3", "kara fin", "maton actua a kara exitos=1",
                 "turno", *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico")
    assert "inmovilizado" in conds(path, "Kara")
    assert refusal(path, "declara maton golpe") == (
        "Matón está en una presa con Kara: solo puede apretar (daño Fuerza) o soltar")
    ok(path, "declara maton apretar")
    assert refusal(path, "declara kara disparo") == "Kara está apresada: solo puede intentar escapar"
    ok(path, "declara kara escapar")


def test_a_presa_without_a_net_success_links_nothing(tmp_path):
    """SYSTEMS §3.5: «with at least one net success»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton presa", "declara kara otra:3", "kara fin", "maton actua a kara exitos=0")
    assert "inmovilizado" not in conds(path, "Kara")


def test_suelta_unlinks_a_grapple(tmp_path):
    """SYSTEMS §3.2 `suelta A` / `release A`: unlink."""
    path = fight(tmp_path, "grapple Matón Kara", "suelta Matón", "siguiente", "declara cadaver golpe",
                 "declara victor fuego-automatico")
    ok(path, "declara maton golpe")
    assert "inmovilizado" not in conds(path, "Kara")


def test_sujeta_links_a_hold(tmp_path):
    """SYSTEMS §3.2 `sujeta A B`; STORYTELLER §10 Sujetar: «neither may do anything else
    meanwhile … the victim is `inmovilizado`»."""
    path = fight(tmp_path, "sujeta Matón Kara", "siguiente", "declara cadaver golpe",
                 "declara victor fuego-automatico")
    assert "inmovilizado" in conds(path, "Kara")
    refusal(path, "declara maton golpe")


def test_emboscada_free_attack_with_successes_above_the_first(tmp_path):
    """SYSTEMS §3.2: `emboscada A B exitos=N`: «resolve an ambush before turn 1 (free attack
    with N − 1 extra dice)»; STORYTELLER §7.7 «on a win the target cannot defend (it is
    *sorprendido*)»."""
    path = fight(tmp_path, "emboscada Matón Kara exitos=3", inits=())
    assert "sorprendido" in conds(path, "Kara")
    assert (state(path)["turn"], state(path)["phase"]) == (1, "initiative")
    assert any("Matón" in line and "2" in line for line in state(path)["log"][-3:])


# ------------------------------------------------------------------ undo, redo, the turn


def test_deshacer_and_rehacer(tmp_path):
    """SYSTEMS §3.2 `deshacer` / `undo`, `rehacer` / `redo`: «as in CdB»."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=1")
    ok(path, "deshacer")
    assert (state(path)["actor"], who(path, "Kara")["weapons"][0]["ammo"]) == ("Kara", 6)
    ok(path, "rehacer")
    assert who(path, "Kara")["weapons"][0]["ammo"] == 5


def test_turno_starts_the_next_initiative_phase_and_clears_the_declarations(tmp_path):
    """SYSTEMS §3.2 `turno` / `newturn`: «end this turn …, start the next initiative
    phase»; STORYTELLER §5.1 initiative «every turn»."""
    path = fight(tmp_path, *DECL1, "turno")
    s = state(path)
    assert (s["turn"], s["phase"]) == (2, "initiative")
    assert all(c["declared"] == [] for c in s["combatants"])
    assert all(w["shots"] == 0 for c in s["combatants"] for w in c["weapons"])


# ------------------------------------------------------------------ shell contract (COMMANDS.md)


def test_a_refused_command_exits_1_and_keeps_the_save(tmp_path):
    """COMMANDS.md: «Stops at the first command that fails: exit status 1, a one-line error
    on stderr naming the command, and the save left exactly as it was»."""
    path = fight(tmp_path, "siguiente")
    assert refusal(path, "declara kara disparo").startswith("Declara primero Cadáver")


def test_show_on_an_unreadable_file_exits_2(tmp_path):
    """COMMANDS.md: «2 usage error or unreadable file»."""
    bad = tmp_path / "roto.toml"
    bad.write_text("esto no es un combate [[[", encoding="utf-8")
    assert cdbtui("show", str(bad), "--json").returncode == 2


def test_an_unknown_rules_option_is_a_usage_error(tmp_path):
    """COMMANDS.md `cdbtui new PATH [--rules cdb|walkure|csystem|narrador]`; exit 2 usage."""
    assert cdbtui("new", str(tmp_path / "x.toml"), "--rules", "nada").returncode == 2


# ------------------------------------------------------------------ §15 through the JSON


TURN_1 = (*T1, *DECL1, "kara actua a maton exitos=2", "maton aborta tira exitos=0 esquiva", "dano maton 3 letal",
          "maton actua a kara exitos=1", "kara defiende esquiva exitos=2", "maton actua a kara exitos=1",
          "kara defiende esquiva exitos=1", "victor actua a cadaver exitos=6", "dano cadaver 6 letal")
TURN_2 = ("turno", *T2, "siguiente", "declara cadaver placaje", "declara victor recarga",
          "declara kara defensa-total esquiva", "declara maton patada", "maton actua a kara exitos=2",
          "kara aborta gasta esquiva exitos=3", "victor actua", "cadaver actua a victor exitos=1",
          "dano victor 2 contundente", "estado cadaver +derribado", "estado victor +desequilibrado")


def test_worked_example_turn_1_end(tmp_path):
    """STORYTELLER §15 turn 1: Matón −1 (3 letal), FV 3, Glock 16; Kara revolver 5;
    rifle 43 → 0; the Cadáver Aturdido, Tullido −5, its Golpe lost."""
    path = fight(tmp_path, *TURN_1, inits=())
    maton, kara, victor, cadaver = (who(path, n) for n in ("Matón", "Kara", "Víctor", "Cadáver"))
    assert maton["health"] == {"levels": 7, "lethal": 3, "bashing": 0, "penalty": -1}
    assert maton["willpower"]["points"] == 3
    assert [w["ammo"] for w in maton["weapons"]] == [16]
    assert [w["ammo"] for w in kara["weapons"]] == [5]
    assert [w["ammo"] for w in victor["weapons"]] == [0]
    assert cadaver["health"] == {"levels": 7, "lethal": 6, "bashing": 0, "penalty": -5}
    assert not any(d["done"] for d in cadaver["declared"])


def test_worked_example_turn_2_declarations(tmp_path):
    """STORYTELLER §15 turn 2 declarations: Cadáver Placaje «Fuerza 4 + Pelea 2 = 6 − 5 = 1
    die»; Víctor Recarga; Kara Defensa total 7; Matón Patada «6 − 1 = 5 dice»."""
    path = fight(tmp_path, *TURN_1, *TURN_2[:10], inits=())
    assert state(path)["order"] == ["Matón", "Kara", "Víctor", "Cadáver"]
    assert [(d["action"], d["pool"], d["dice"]) for d in who(path, "Cadáver")["declared"]] == [("placaje", 6, 1)]
    assert [d["action"] for d in who(path, "Víctor")["declared"]] == ["recarga"]
    assert who(path, "Kara")["full_defense"] is not None
    assert [(d["action"], d["pool"], d["dice"]) for d in who(path, "Matón")["declared"]] == [("patada", 6, 5)]
    assert (state(path)["phase"], state(path)["actor"]) == ("act", "Matón")


def test_worked_example_state_for_turn_3(tmp_path):
    """STORYTELLER §15: «State for turn 3: Matón −1 (3 letal), FV 3, Glock 16; Kara
    unhurt, FV 4 / 5, revolver 5; Víctor −1 (2 contundente), desequilibrado …, rifle 42;
    Cadáver Tullido −5, on the ground»."""
    path = fight(tmp_path, *TURN_1, *TURN_2, inits=())
    maton, kara, victor, cadaver = (who(path, n) for n in ("Matón", "Kara", "Víctor", "Cadáver"))
    assert (maton["health"]["lethal"], maton["health"]["penalty"], maton["willpower"]["points"],
            maton["weapons"][0]["ammo"]) == (3, -1, 3, 16)
    assert (kara["health"]["lethal"] + kara["health"]["bashing"], kara["willpower"]["points"],
            kara["willpower"]["rating"], kara["weapons"][0]["ammo"]) == (0, 4, 5, 5)
    assert (victor["health"]["bashing"], victor["health"]["penalty"], victor["weapons"][0]["ammo"]) == (2, -1, 42)
    assert "desequilibrado" in conds(path, "Víctor")
    assert cadaver["health"]["penalty"] == -5 and "derribado" in conds(path, "Cadáver")
    assert "aturdido" not in conds(path, "Cadáver")


def test_a_pool_the_penalties_empty_below_zero_is_written_with_a_minus_sign(tmp_path):
    """SYSTEMS §3.3: “Kara no puede declarar 4 acciones: la 4.ª tendría 7 − 7 = 0 dados”:
    the same line with the typographic minus when the pool goes below 0."""
    path = fight(tmp_path, *UP_TO_KARA, "declara maton otra:3")
    assert refusal(path, "declara kara otra:3 otra:3 otra:3") == (
        "Kara no puede declarar 3 acciones: la 1.ª tendría 3 − 3 = 0 dados")
    assert refusal(path, "declara kara otra:8 otra:8 otra:2") == (
        "Kara no puede declarar 3 acciones: la 3.ª tendría 2 − 5 = −3 dados")


def test_the_burst_and_empty_refusals_name_other_weapons_with_their_article(tmp_path):
    """SYSTEMS §3.3 “Ráfaga de tres balas: la Glock 17 no puede”, “El rifle está vacío:
    recarga”: the other table weapons the same way."""
    path = fight(tmp_path, "municion Kara revolver-ligero 0", *UP_TO_KARA, "declara maton otra:3")
    assert refusal(path, "declara kara disparo") == "El revólver está vacío: recarga"
    assert refusal(path, "declara kara rafaga-de-tres-balas") == "Ráfaga de tres balas: el revólver no puede"


# ------------------------------------------------------------------ the sheet as text (SYSTEMS §3.1)


def board(path: Path) -> str:
    shown = cdbtui("show", str(path))
    assert shown.returncode == 0, shown.stderr
    return shown.stdout


def test_the_header_names_the_phase_its_direction_and_who(tmp_path):
    """SYSTEMS §3.1: «Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)»; «the header
    `Declaración ↑ · Declara: Víctor`; rows above the declarer show “por declarar”»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    text = board(path)
    assert "Narrador · Turno 1 · Declaración ↑ · Declara: Víctor" in text.splitlines()[0]
    assert all("por declarar" in line for line in text.splitlines() if line[5:].startswith(("Kara", "Matón")))
    ok(path, "declara victor fuego-automatico", "declara maton disparos-multiples 2", "declara kara disparo esquiva",
       "kara actua a maton exitos=0")
    assert "Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)" in board(path).splitlines()[0]


def test_json_conditions_are_the_shared_condition_objects(tmp_path):
    """SYSTEMS §4: «a shared `Condition(id, value=None, ends=None)`» (C-System's JSON
    writes `{"id", "value", "ends"}`, §2.4); the storyteller's conditions are the same
    objects (COMMANDS.md's list of ids is CdB's JSON)."""
    path = fight(tmp_path, "estado kara +cegado", inits=())
    [condition] = who(path, "Kara")["conditions"]
    assert condition["id"] == "cegado" and "value" in condition and "ends" in condition