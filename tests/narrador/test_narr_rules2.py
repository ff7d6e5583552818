"""Black-box tests of the storyteller ruleset (second pass), written from
STORYTELLER.md and SYSTEMS.md §3 alone and driving only the CLI (`cdbtui new PATH
--rules narrador`, `cdbtui do PATH LINE …`, `cdbtui show PATH [--json]`).

Only what the other files of tests/narrador do not already check is here: range
bands and attack words, every weapon of the tables, the catalog's maneuvers one by
one, defense chains with the defense declared first or twice, defense difficulties,
Abandono de Acciones after a failed roll, grapples through the maneuvers, ammunition
edge cases, the crossbow's five *consecutive* turns, pools emptied by wounds.
Each test cites the sentence it follows in its docstring.  Dice results are typed
(`exitos=N`) or come from the save's fixed seed (then read back from the log).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shell import cdbtui
from spec_cli import ok, state, who

try:
    from _narr_fights import ARMS, CADAVER, KARA, MATON, T1, VICTOR
    from _narr_fights import SHELL_CAST as CAST
except ImportError:  # tests/narrador made a package
    from ._narr_fights import ARMS, CADAVER, KARA, MATON, T1, VICTOR
    from ._narr_fights import SHELL_CAST as CAST

#: Kara with Combate Cuerpo a Cuerpo 2 (Estocada, Parada, Estaca); Matón with Esquivar 2
#: (so that he can abort into a dodge).
KARA_CC = KARA.replace("esquivar:4", "esquivar:4,combate-cc:2")
MATON_D = MATON.replace("pelea:3", "pelea:3,esquivar:2")
#: A duel: Kara acts first (10), Matón declares first (5).
DUEL = (KARA_CC, MATON_D)
DUEL_INI = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente")
#: The same duel the other way round: Matón acts first, Kara declares first.
DUEL_INI_MATON_FIRST = ("iniciativa Kara 5", "iniciativa Matón 10", "siguiente")
#: STORYTELLER §15 turn 1 up to Matón's declaration.
UP_TO_MATON = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico")


# ------------------------------------------------------------------ helpers


def fight(tmp_path: Path, *lines: str, cast: tuple[str, ...] = CAST, inits: tuple[str, ...] = T1,
          seed: int = 7) -> Path:
    path = tmp_path / "deposito.toml"
    made = cdbtui("new", str(path), "--rules", "narrador", "--seed", str(seed))
    assert made.returncode == 0, made.stderr
    if cast or inits or lines:
        result = cdbtui("do", str(path), *cast, *inits, *lines)
        assert result.returncode == 0, result.stderr
    return path


def duel(tmp_path: Path, *lines: str, arms: tuple[str, ...] = ("arma Kara revolver-ligero",),
         inits: tuple[str, ...] = DUEL_INI, seed: int = 7, before: tuple[str, ...] = ()) -> Path:
    """Kara and Matón alone; `before` goes in the initiative phase, before `inits`."""
    return fight(tmp_path, *arms, *before, *inits, *lines, cast=DUEL, inits=(), seed=seed)


def refusal(path: Path, line: str) -> str:
    """`cdbtui do PATH LINE` refuses: exit 1, one line on stderr, the save unchanged."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), line)
    assert result.returncode == 1, (line, result.stdout[-400:], result.stderr)
    prefix = f"cdbtui: «{line}»: "
    assert result.stderr.startswith(prefix) and result.stderr.count("\n") == 1, result.stderr
    assert path.read_bytes() == before, f"«{line}» changed the save"
    return result.stderr[len(prefix):-1]


def new_log(path: Path, *lines: str) -> list[str]:
    """The log lines that `lines` added."""
    count = len(state(path)["log"])
    ok(path, *lines)
    return state(path)["log"][count:]


def rolled(log: list[str], name: str) -> list[tuple[int, int]]:
    """(dice, difficulty) of each «N dados, dificultad D» in the lines about `name`."""
    return [(int(n), int(d)) for line in log if f"· {name}" in line
            for n, d in re.findall(r"(-?\d+) dados, dificultad (\d+)", line)]


def defense_dice(log: list[str], name: str) -> list[int]:
    """The dice of each defense of `name` in `log` («Esquiva (…, N dados)»)."""
    return [int(n) for line in log if f"· {name}:" in line
            for n in re.findall(r"\((?:[^()]*), (-?\d+) dados\)", line)]


def conds(path: Path, name: str) -> list[str]:
    return [c["id"] if isinstance(c, dict) else c for c in who(path, name)["conditions"]]


def attack(path: Path) -> dict:
    pending = state(path)["attack"]
    assert pending is not None
    return pending


def weapon(path: Path, name: str, id: str | None = None) -> dict:
    weapons = who(path, name)["weapons"]
    return weapons[0] if id is None else next(w for w in weapons if w["name"] == id)


def check_faces(line: str, difficulty: int, lower: int) -> None:
    """The app-rolled line «tira: F F F: N éxito(s)» (or «: fracaso») counts successes
    at `difficulty`, not at `lower`: some face lies in [lower, difficulty) so that the two
    readings differ."""
    faces = [int(f) for f in re.search(r"tira: ([\d ]+):", line).group(1).split()]
    assert any(lower <= f < difficulty for f in faces), ("the seed's faces do not tell the difficulties apart",
                                                        faces)
    hits, ones = sum(f >= difficulty for f in faces), faces.count(1)
    if hits == 0 and ones:
        assert "fracaso" in line, line
    else:
        assert f": {max(hits - ones, 0)} éxito(s)" in line, (difficulty, faces, line)


# ------------------------------------------------------------------ range bands and attack words (§8.2, §8.3)


@pytest.mark.parametrize(("metres", "difficulty"), [(12, 6), (3, 6), (13, 8), (24, 8), (2, 4), (1, 4)])
def test_alcance_bands_by_distance(tmp_path, metres, difficulty):
    """STORYTELLER §8.3 Alcance: «short range 6; up to twice it 8; ≤ 2 m 4 («Aquellos
    ataques que se realizan a dos metros de distancia o menos se consideran a quemarropa.
    La dificultad … es 4»)» (the Revolver Ligero's range is 12 m)."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara disparo")
    log = new_log(path, f"kara actua a maton exitos=1 distancia={metres}")
    assert rolled(log, "Kara") == [(6, difficulty)]


@pytest.mark.parametrize(("word", "difficulty"), [("quemarropa", 4), ("larga", 8)])
def test_alcance_words(tmp_path, word, difficulty):
    """STORYTELLER §1 `range`: `short`, `long`, `point_blank` — «difficulty 6 / 8 / 4»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara disparo")
    assert rolled(new_log(path, f"kara actua a maton {word} exitos=1"), "Kara") == [(6, difficulty)]


def test_long_range_and_cover_add(tmp_path):
    """STORYTELLER §8.3: Alcance is «the base difficulty of every shot»; Cobertura Buena
    +2 on top: 8 + 2 = 10."""
    path = duel(tmp_path, "cobertura maton 2", "declara maton otra:3", "declara kara disparo")
    assert rolled(new_log(path, "kara actua a maton exitos=1 distancia=20"), "Kara") == [(6, 10)]


@pytest.mark.parametrize(("word", "dice"), [("flanco", 7), ("espalda", 8)])
def test_flank_and_back_add_dice(tmp_path, word, dice):
    """STORYTELLER §8.2 `flanco` / `espalda`: «+1 die / +2 dice to the attack»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara disparo")
    assert rolled(new_log(path, f"kara actua a maton {word} exitos=1"), "Kara") == [(dice, 6)]


def test_a_ciegas_shot_is_plus_2_and_warns(tmp_path):
    """STORYTELLER §8.2 `a-ciegas`: «+2 difficulty; «La mayoría de los ataques a distancia
    no pueden siquiera realizarse» (the tracker warns)»; SYSTEMS §3.5 warnings on stderr,
    exit 0."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara disparo")
    count = len(state(path)["log"])
    result = ok(path, "kara actua a maton a-ciegas exitos=1")
    assert rolled(state(path)["log"][count:], "Kara") == [(6, 8)]
    assert "ciegas" in result.stderr


def test_a_ciegas_melee_is_plus_2(tmp_path):
    """STORYTELLER §8.2 Disparo / **Combate** a Ciegas: +2 difficulty (a Golpe: 6 + 2)."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara golpe")
    assert rolled(new_log(path, "kara actua a maton a-ciegas exitos=1"), "Kara") == [(3, 8)]


# ------------------------------------------------------------------ the weapons tables (§9)


@pytest.mark.parametrize(("preset", "damage", "reach"), [
    ("revolver-ligero", 4, 12), ("revolver-pesado", 6, 35), ("pistola-ligera", 4, 20), ("pistola-pesada", 5, 30),
    ("rifle", 8, 200), ("ametralladora-ligera", 4, 25), ("ametralladora-pesada", 4, 50),
    ("rifle-de-asalto", 7, 150), ("escopeta", 8, 20), ("escopeta-semiautomatica", 8, 20), ("ballesta", 5, 20)])
def test_ranged_table_damage_and_range(tmp_path, preset, damage, reach):
    """STORYTELLER §9 ranged table: «daño» and «alcance (m)» of each row; §8.3 Alcance:
    within the range 6, beyond it (up to twice) 8; §7.2 one success: damage = the weapon's."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara disparo", arms=(f"arma Kara {preset}",))
    log = new_log(path, f"kara actua a maton exitos=1 distancia={reach}")
    assert rolled(log, "Kara") == [(6, 6)]
    assert attack(path)["damage"] == damage
    ok(path, "deshacer")
    assert rolled(new_log(path, f"kara actua a maton exitos=1 distancia={reach + 1}"), "Kara") == [(6, 8)]


@pytest.mark.parametrize(("preset", "damage"), [
    ("porra", 3), ("garrote", 3), ("cuchillo", 3), ("espada", 4), ("hacha-pequena", 4), ("hacha-grande", 5),
    ("estaca", 3)])
def test_melee_table_damage_is_fuerza_plus(tmp_path, preset, damage):
    """STORYTELLER §9 melee table: Porra / Garrote / Cuchillo / Estaca Fuerza +1, Espada /
    Hacha pequeña Fuerza +2, Hacha grande Fuerza +3 (Kara Fuerza 2); §8.1 Estocada: «Des +
    Combate CC | daño: weapon» (3 + 2 = 5 dice)."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara estocada", arms=(f"arma Kara {preset}",))
    assert [d["pool"] for d in who(path, "Kara")["declared"]] == [5]
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(5, 6)]
    assert attack(path)["damage"] == damage


@pytest.mark.parametrize(("preset", "lethal"), [("cuchillo", True), ("espada", True)])
def test_melee_weapon_damage_type_is_the_tables(tmp_path, preset, lethal):
    """STORYTELLER §9 melee table, column «type (Decision)»: Porra and Garrote
    contundente («algunas, como bates de béisbol o garrotes causan daño contundente»),
    Cuchillo and Espada letal; «El tipo de arma determina el daño causado en cuerpo a
    cuerpo»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara estocada", arms=(f"arma Kara {preset}",))
    ok(path, "kara actua a maton exitos=1")
    assert attack(path)["lethal"] is lethal




# ------------------------------------------------------------------ the maneuver catalog (§8.1)




def test_aranar_is_the_alias_of_aranazo(tmp_path):
    """STORYTELLER §8.1: `aranazo` (alias `aranar`) | Arañazo | Des + Pelea | 6 | Fuerza,
    contundente."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara aranar")
    assert [d["action"] for d in who(path, "Kara")["declared"]] == ["aranazo"]
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(3, 6)]
    assert (attack(path)["damage"], attack(path)["lethal"]) == (2, False)


def test_mordisco_fuerza_bashing_by_default(tmp_path):
    """STORYTELLER §8.1 Mordisco: Des + Pelea, 6, «Fuerza (contundente or letal, GM)»;
    «Todas las maniobras de pelea infligen daño contundente a menos que se indique lo
    contrario»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara mordisco")
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(3, 6)]
    assert (attack(path)["damage"], attack(path)["lethal"]) == (2, False)


def test_barrido_difficulty_7_damage_fuerza(tmp_path):
    """STORYTELLER §8.1 Barrido: Des + Pelea / Combate CC, **7**, daño Fuerza."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara barrido")
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(3, 7)]
    assert (attack(path)["damage"], attack(path)["lethal"]) == (2, False)


def test_estaca_difficulty_9_fuerza_plus_1_lethal(tmp_path):
    """STORYTELLER §8.1 `estaca`: «Des + Combate CC | **9** | Fuerza + 1»; §9 Estaca letal."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara estaca", arms=("arma Kara estaca",))
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(5, 9)]
    assert (attack(path)["damage"], attack(path)["lethal"]) == (3, True)


def test_sujetar_does_no_damage(tmp_path):
    """STORYTELLER §8.1: «Sujetar's entry says «Daño: Fuerza» but also «no pretende
    infligir daño alguno», and the table gives only «(C)»: **no damage**»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara sujetar")
    assert rolled(new_log(path, "kara actua a maton exitos=2"), "Kara") == [(2 + 0, 6)]  # Fuerza 2 + Pelea 0
    assert attack(path)["damage"] == 0


def test_sujetar_with_a_net_success_holds_the_victim_inmovilizado(tmp_path):
    """STORYTELLER §10 Sujetar: «consigue mantener sujeta a la víctima …»; «the victim is
    `inmovilizado`»; SYSTEMS §3.5: «A Presa performed with at least one net success links
    the two by itself» (Sujetar «se parece a una presa»)."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara sujetar", "kara actua a maton exitos=1", "turno")
    assert "inmovilizado" in conds(path, "Matón")


def test_sujetar_next_turn_neither_may_do_anything_else(tmp_path):
    """STORYTELLER §10 Sujetar: «like Presa, neither may do anything else meanwhile»; the
    victim «puede volver a intentarlo» (escapar)."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara sujetar", "kara actua a maton exitos=1", "turno",
                *DUEL_INI)
    refusal(path, "declara maton golpe")
    ok(path, "declara maton escapar")
    refusal(path, "declara kara disparo")


def test_presa_fully_dodged_links_nothing(tmp_path):
    """SYSTEMS §3.5: «A Presa performed with at least one net success links the two»:
    2 successes against a dodge of 2 is no net success."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara presa", "kara actua a maton exitos=2",
                "maton aborta gasta esquiva exitos=2", "turno")
    assert "inmovilizado" not in conds(path, "Matón")
    assert all("apres" not in c for c in conds(path, "Matón"))




PRESA_TURN_2 = ("declara maton presa", "declara kara otra:3", "kara actua", "maton actua a kara exitos=1", "turno",
                *DUEL_INI, "declara maton apretar", "declara kara escapar", "kara actua")




def test_soltar_frees_the_victim(tmp_path):
    """STORYTELLER §10 Presa: «at its place the attacker's only choices are *apretar* … or
    *soltar*»; «Ninguno de los dos puede realizar otro tipo de acción hasta que la víctima
    consiga soltarse o sea liberada»."""
    path = duel(tmp_path, "declara maton soltar", "declara kara escapar", "kara actua", "maton actua",
                before=("presa Matón Kara",))
    assert "inmovilizado" not in conds(path, "Kara")
    ok(path, "turno", *DUEL_INI, "declara maton golpe", "declara kara disparo")


# ------------------------------------------------------------------ defenses: slots, chains, difficulty (§6, §7)


def test_a_defense_declared_first_takes_the_first_slot(tmp_path):
    """STORYTELLER §6.2: «declared defenses go in that order too …; the defense slot's
    penalty is fixed at declaration, whenever the defense happens»: Esquiva first −2
    (7 → 5), the shot second −3 (6 → 3)."""
    path = duel(tmp_path, "declara maton golpe", "declara kara esquiva disparo")
    assert [(d["action"], d["penalty"]) for d in who(path, "Kara")["declared"]] == [("esquiva", -2), ("disparo", -3)]
    assert rolled(new_log(path, "kara actua a maton exitos=1"), "Kara") == [(3, 6)]
    ok(path, "dano maton 1 letal", "maton actua a kara exitos=1")
    assert defense_dice(new_log(path, "kara defiende esquiva exitos=0"), "Kara") == [5]


def test_two_declared_dodges_then_the_chain(tmp_path):
    """STORYTELLER §6.2 table N = 3: −3, −4, −5; §6.4 «each extra defense is the next
    action in its chain: the (N+1)-th has − 2N dice»: 7 − 4 = 3, 7 − 5 = 2, 7 − 6 = 1, then
    7 − 7 = 0 (§3.3 “Kara no tiene dados para defenderse …”)."""
    path = duel(tmp_path, "declara maton golpe:20 4", "declara kara otra:8 esquiva esquiva", "kara actua")
    seen = []
    for _ in range(3):
        ok(path, "maton actua a kara exitos=1")
        seen += defense_dice(new_log(path, "kara defiende esquiva exitos=1"), "Kara")
    assert seen == [3, 2, 1]
    ok(path, "maton actua a kara exitos=1")
    assert refusal(path, "kara defiende esquiva exitos=1").startswith("Kara no tiene dados para defenderse")


def test_a_single_declared_defense_then_minus_2n(tmp_path):
    """STORYTELLER §6.2 «With N = 1, no penalty»; §6.4 «the (N+1)-th has − 2N dice»: 7,
    then 7 − 2 = 5."""
    path = duel(tmp_path, "declara maton golpe:20 2", "declara kara esquiva")
    assert who(path, "Kara")["next_defense_penalty"] == 0
    ok(path, "maton actua a kara exitos=1")
    assert defense_dice(new_log(path, "kara defiende esquiva exitos=1"), "Kara") == [7]
    penalty = who(path, "Kara")["next_defense_penalty"]
    ok(path, "maton actua a kara exitos=1")
    assert defense_dice(new_log(path, "kara defiende esquiva exitos=1"), "Kara") == [5]
    assert penalty == -2  # SYSTEMS §3.4 `next_defense_penalty`: the one the next defense rolls with


def test_the_8th_total_defense_refusal_words(tmp_path):
    """SYSTEMS §3.3: “Kara no tiene dados para defenderse (defensa total, 8.ª defensa)”;
    STORYTELLER §7.6 «Cuando se produce el octavo ataque no quedan dados en su reserva»."""
    path = duel(tmp_path, "declara maton golpe:30 8", "declara kara defensa-total esquiva")
    for _ in range(7):
        ok(path, "maton actua a kara exitos=1", "kara defiende esquiva exitos=1")
    ok(path, "maton actua a kara exitos=1")
    assert refusal(path, "kara defiende esquiva exitos=1") == (
        "Kara no tiene dados para defenderse (defensa total, 8.ª defensa)")


def test_total_defense_with_a_typed_pool(tmp_path):
    """SYSTEMS §3.2 `declara kara defensa-total esquiva:7` (the typed pool); STORYTELLER
    §7.6 «defense k of the turn rolls its traits − (k − 1)»: typed 5 → 5, 4."""
    path = duel(tmp_path, "declara maton golpe:20 2", "declara kara defensa-total esquiva:5")
    seen = []
    for _ in range(2):
        ok(path, "maton actua a kara exitos=1")
        seen += defense_dice(new_log(path, "kara defiende esquiva exitos=1"), "Kara")
    assert seen == [5, 4]


def test_defensa_total_without_a_maneuver(tmp_path):
    """SYSTEMS §3.4 `full_defense`; STORYTELLER §7.6 «cuentas con una reserva de dados
    normal para la primera acción defensiva»: Kara's dodge, 7 dice."""
    path = duel(tmp_path, "declara maton golpe", "declara kara defensa-total")
    assert who(path, "Kara")["full_defense"] not in (None, False)
    ok(path, "maton actua a kara exitos=1")
    assert defense_dice(new_log(path, "kara defiende esquiva exitos=1"), "Kara") == [7]


def test_the_wound_penalty_applies_to_a_declared_defense(tmp_path):
    """STORYTELLER §11: «The current penalty … applies to every dice pool»; §6.2 «The
    wound penalty and other dice penalties apply on top»: Lastimado −1, 7 − 3 − 1 = 3."""
    path = duel(tmp_path, "declara maton golpe", "declara kara disparo esquiva", "kara actua a maton exitos=0",
                "maton actua a kara exitos=1", before=("dano kara 2 letal",))
    assert defense_dice(new_log(path, "kara defiende esquiva exitos=0"), "Kara") == [3]


def test_parada_with_a_knife_des_plus_combate_cc_minus_the_slot(tmp_path):
    """STORYTELLER §7.1 Parada: «Destreza + Combate Cuerpo a Cuerpo», «needs a melee
    weapon»; §6.2 slot 2 of 2: −3 → 3 + 2 − 3 = 2 dice."""
    path = duel(tmp_path, "declara maton golpe", "declara kara disparo parada", "kara actua a maton exitos=0",
                "maton actua a kara exitos=1", arms=("arma Kara revolver-ligero", "arma Kara cuchillo"))
    assert defense_dice(new_log(path, "kara defiende parada exitos=0"), "Kara") == [2]


def _app_rolled_dodge(tmp_path: Path, before: tuple[str, ...], seed: int) -> str:
    path = duel(tmp_path, "declara maton golpe", "declara kara defensa-total esquiva:20",
                "maton actua a kara exitos=1", before=before, seed=seed)
    return next(line for line in new_log(path, "kara defiende esquiva") if "Esquiva" in line)


def test_oponentes_add_to_the_defense_difficulty(tmp_path):
    """STORYTELLER §8.1 Oponentes Múltiples: «una penalización de +1 a todas sus acciones
    de ataque y **defensa** por cada enemigo por encima del primero»; §10 `oponentes:N`
    «+min(N − 1, 4) difficulty to its attacks and defenses»: 3 opponents, dodge at 8."""
    check_faces(_app_rolled_dodge(tmp_path, ("oponentes kara 3",), seed=7), 8, 6)


def test_desequilibrado_adds_to_the_defense_difficulty(tmp_path):
    """STORYTELLER §10 desequilibrado: «+1 difficulty to **all** its actions»: dodge at 7."""
    check_faces(_app_rolled_dodge(tmp_path, ("estado kara +desequilibrado",), seed=7), 7, 6)


def test_cegado_adds_to_the_defense_difficulty(tmp_path):
    """STORYTELLER §10 cegado: «its actions +2 difficulty («la dificultad de las acciones
    se incrementa en +2 para los personajes cegados»)»: dodge at 8."""
    check_faces(_app_rolled_dodge(tmp_path, ("estado kara +cegado",), seed=7), 8, 6)




def test_a_successful_dodge_does_not_impose_cover(tmp_path):
    """STORYTELLER §7.1 Decision: the tracker «offers (does not impose)» light cover."""
    path = duel(tmp_path, "declara maton disparo", "declara kara disparo esquiva", "kara actua a maton exitos=0",
                "maton actua a kara exitos=1", "kara defiende esquiva exitos=2",
                arms=("arma Kara revolver-ligero", "arma Matón pistola-ligera"))
    assert who(path, "Kara")["cover"] == 0
    assert "derribado" not in conds(path, "Kara")


# ------------------------------------------------------------------ Abandono de Acciones (§7.4)


FAILED_ABORT = ("declara maton disparo", "declara kara disparo", "kara actua a maton exitos=2",
                "maton aborta tira exitos=0 esquiva")






def test_abort_of_three_actions_replaces_the_last_with_minus_5(tmp_path):
    """STORYTELLER §7.4.3: «(Decision: default the last declared) … its pool takes the
    multiple-action penalty of the slot it replaces; the other declared actions stay, with
    their penalties»: Kara N = 3, the third slot −5: dodge 7 − 5 = 2 dice."""
    path = duel(tmp_path, "declara kara otra:8 otra:8 otra:8", "declara maton golpe", "maton actua a kara exitos=1",
                inits=DUEL_INI_MATON_FIRST)
    assert defense_dice(new_log(path, "kara aborta gasta esquiva exitos=0"), "Kara") == [2]
    pending = [(d["action"], d["penalty"]) for d in who(path, "Kara")["declared"] if not d["done"]]
    assert pending == [("otra", -3), ("otra", -4)]


def test_abort_of_a_named_first_action_takes_its_slot(tmp_path):
    """STORYTELLER §7.4.3: «One declared action …, chosen by the player … its pool takes the
    multiple-action penalty of the slot it replaces»: the shot, slot 1 of 3: 7 − 3 = 4."""
    path = duel(tmp_path, "declara kara disparo otra:8 otra:8", "declara maton golpe", "maton actua a kara exitos=1",
                inits=DUEL_INI_MATON_FIRST)
    assert defense_dice(new_log(path, "kara aborta disparo gasta esquiva exitos=0"), "Kara") == [4]
    assert [d["penalty"] for d in who(path, "Kara")["declared"] if not d["done"]] == [-4, -5]


def test_a_delayer_that_aborted_has_given_up_its_action(tmp_path):
    """STORYTELLER §7.3: Abandono de Acciones — «that action is gone»; §6.9 a delayer «may
    abort»: afterwards it has nothing left to do this turn."""
    path = duel(tmp_path, "declara maton retrasa", "declara kara disparo", "kara actua a maton exitos=2",
                "maton aborta gasta esquiva exitos=0", "dano maton 1 letal")
    assert state(path)["phase"] in ("over", "initiative")
    refusal(path, "maton actua otra:3")


def test_no_abort_while_held_by_sujetar(tmp_path):
    """STORYTELLER §7.4.1: abort «not in a Presa **or Sujetar** (§10)»."""
    cast = (KARA, VICTOR, MATON_D, CADAVER, *ARMS)
    path = fight(tmp_path, "sujeta Cadáver Matón", "siguiente", "declara cadaver apretar",
                 "declara victor fuego-automatico", "declara maton escapar", "declara kara disparo",
                 "kara actua a maton exitos=2", cast=cast)
    assert "Matón" in refusal(path, "maton aborta gasta esquiva exitos=1")


# ------------------------------------------------------------------ health, Aturdido, Derribado (§10, §11)




def test_a_stunned_delayer_loses_its_delayed_action(tmp_path):
    """STORYTELLER §10 Aturdido: «If it has not acted this turn, it loses this turn's
    action(s)»; §6.9 a delayer «has not acted»."""
    path = duel(tmp_path, "declara maton retrasa", "declara kara disparo", "kara actua a maton exitos=2",
                "dano maton 4 letal")
    assert any("aturdido" in line for line in state(path)["log"] if "Matón" in line)
    refusal(path, "maton actua otra:3")


def test_a_stunned_combatant_cannot_use_its_declared_defense(tmp_path):
    """STORYTELLER §10 Aturdido: «if it has already acted, its pending declared defenses
    are lost»; «no puede actuar ni defenderse»."""
    path = duel(tmp_path, "declara maton golpe", "declara kara disparo esquiva", "kara actua a maton exitos=0",
                "dano kara 3 letal", "maton actua a kara exitos=1")
    assert "aturdido" in refusal(path, "kara defiende esquiva exitos=1")


def test_tirar_subtracts_health_and_derribado_together(tmp_path):
    """STORYTELLER §5.1 «1d10 + rating − the current health penalty»; §5.2 Derribado «−2 on
    the next turn's total»; SYSTEMS §3.2 «1d10 + rating − health − derribado»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara otra:3", "estado kara +derribado", "turno",
                before=("dano kara 2 letal",))
    line = next(x for x in new_log(path, "tirar kara") if "Iniciativa de Kara" in x)
    die = int(re.search(r"Kara: (\d+) \+", line).group(1))
    assert 1 <= die <= 10
    assert who(path, "Kara")["initiative"] == die + 6 - 1 - 2, line


def test_tirar_for_a_pnj_is_1d10_plus_rating_logged(tmp_path):
    """STORYTELLER §5.1: «the app rolls for PNJ on request (seeded, logged)»."""
    path = duel(tmp_path, inits=())
    line = next(x for x in new_log(path, "tirar matón") if "Iniciativa de Matón" in x)
    die = int(re.search(r"Matón: (\d+) \+ 5", line).group(1))
    assert 1 <= die <= 10 and who(path, "Matón")["initiative"] == die + 5


@pytest.mark.parametrize(("levels", "lethal", "out"), [(3, 2, False), (3, 3, True), (9, 7, False), (9, 9, True)])
def test_salud_edits_when_the_track_is_full(tmp_path, levels, lethal, out):
    """STORYTELLER §11: «The number of levels is editable per combatant (creatures)»;
    the last level is Incapacitado («no actions; out»)."""
    path = fight(tmp_path, f"alta Bicho ini=3 fue=2 res=20 salud={levels}", f"dano bicho {lethal} letal", cast=(),
                 inits=())
    assert (who(path, "Bicho")["status"] == "out") is out


# ------------------------------------------------------------------ Cadencia and ammunition (§9)


def test_cadencia_3_maton_cannot_shoot_4_times(tmp_path):
    """SYSTEMS §3.3: “Cadencia 3: Matón no puede disparar 4 veces este turno” (Matón with the
    Sig P229, Cadencia 3)."""
    cast = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", "arma Víctor rifle-de-asalto",
            "arma Matón pistola-pesada")
    path = fight(tmp_path, *UP_TO_MATON, cast=cast)
    assert refusal(path, "declara maton disparos-multiples:12 4") == (
        "Cadencia 3: Matón no puede disparar 4 veces este turno")


def test_cadencia_counts_shots_and_bursts_together(tmp_path):
    """STORYTELLER §9: «Cadencia: el número máximo de balas o ráfagas cortas que un arma
    puede disparar en un turno»; «a Ráfaga de Tres Balas … counts **1** against Cadencia»:
    2 shots + 1 burst + 1 shot = 4 > 3."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    assert refusal(path, "declara victor disparo:12 rafaga-de-tres-balas:12 disparo:12 disparo:12") == (
        "Cadencia 3: Víctor no puede disparar 4 veces este turno")


def test_shots_and_a_burst_spend_their_rounds(tmp_path):
    """STORYTELLER §9: «A shot −1; a Ráfaga de Tres Balas −3 and counts 1 against
    Cadencia»: 43 − 1 − 3 − 1 = 38, 3 shots this turn."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor disparo rafaga-de-tres-balas disparo",
                 "declara maton otra:3", "declara kara otra:3", "kara fin", "maton fin",
                 "victor actua a cadaver exitos=0", "victor actua a cadaver exitos=0", "victor actua a cadaver exitos=0")
    w = weapon(path, "Víctor")
    assert (w["ammo"], w["shots"]) == (38, 3)


def test_a_burst_does_the_damage_of_one_bullet(tmp_path):
    """STORYTELLER §8.3 Ráfaga de Tres Balas: «damage as one bullet»; §7.2: 7 + (2 − 1)."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor rafaga-de-tres-balas",
                 "declara maton otra:3", "declara kara otra:3", "kara fin", "maton fin")
    log = new_log(path, "victor actua a cadaver exitos=2")
    assert attack(path)["damage"] == 7
    assert any("7 + (2 − 1) = 8 dados" in line for line in log), log


@pytest.mark.parametrize(("preset", "maneuver", "half", "magazine"), [
    ("ametralladora-ligera", "fuego-automatico", 15, 30), ("ametralladora-pesada", "fuego-automatico", 16, 32),
    ("rifle-de-asalto", "dispersion", 21, 42)])
def test_half_the_magazine_without_the_plus_1(tmp_path, preset, maneuver, half, magazine):
    """STORYTELLER §9: «"Half the magazine" for Fuego automático = ⌈capacity / 2⌉ of the
    magazine without the +1»; §8.3 Dispersión «needs at least half a magazine, like Fuego
    automático»; SYSTEMS §3.3 “Fuego automático necesita al menos la mitad del cargador (21
    de 42; quedan 10)”."""
    cast = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", f"arma Víctor {preset}",
            "arma Matón pistola-ligera")
    path = fight(tmp_path, f"municion Víctor {preset} {half - 1}", "siguiente", "declara cadaver golpe", cast=cast)
    name = {"fuego-automatico": "Fuego automático", "dispersion": "Dispersión"}[maneuver]
    assert refusal(path, f"declara victor {maneuver}") == (
        f"{name} necesita al menos la mitad del cargador ({half} de {magazine}; quedan {half - 1})")
    ok(path, "deshacer", "deshacer", "deshacer", f"municion Víctor {preset} {half}", "siguiente",
       "declara cadaver golpe", f"declara victor {maneuver}")


def test_automatic_fire_needs_a_weapon_marked_star(tmp_path):
    """STORYTELLER §9: «*» «Indica que el arma es capaz de realizar fuego automático,
    dispersión y ráfagas cortas»: not the Glock 17."""
    path = fight(tmp_path, *UP_TO_MATON)
    assert "Fuego automático" in refusal(path, "declara maton fuego-automatico")


def test_a_typed_auto_weapon(tmp_path):
    """SYSTEMS §3.5: «typed weapons take `auto` for the table's «*»; `cargador=N+1` means N
    in the magazine and one in the chamber (`"magazine": N, "chamber": true`)»; half the
    magazine ⌈25 / 2⌉ = 13."""
    cast = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", "arma Matón pistola-ligera",
            "arma Víctor subfusil dano=4 alcance=25 cad=3 cargador=25+1 auto")
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", cast=cast)
    w = weapon(path, "Víctor")
    assert (w["name"], w["ammo"], w["magazine"], w["chamber"], w["rate"]) == ("subfusil", 26, 25, True, 3)
    ok(path, "declara victor rafaga-de-tres-balas")
    ok(path, "deshacer", "municion Víctor subfusil 12")
    assert refusal(path, "declara victor fuego-automatico") == (
        "Fuego automático necesita al menos la mitad del cargador (13 de 25; quedan 12)")


def test_a_typed_weapon_without_auto_cannot_burst(tmp_path):
    """SYSTEMS §3.5 `auto` marks the «*»; STORYTELLER §8.3 Ráfaga: «only weapons marked
    «*»»."""
    cast = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", "arma Matón pistola-ligera",
            "arma Víctor pistolon dano=5 alcance=30 cad=3 cargador=7+1")
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", cast=cast)
    assert refusal(path, "declara victor rafaga-de-tres-balas").startswith("Ráfaga de tres balas")


def test_recarga_with_one_round_left_keeps_it_chambered(tmp_path):
    """STORYTELLER §9: «a reload with 1+ rounds left → capacity + 1»: the Glock, 1 → 18."""
    path = fight(tmp_path, "municion Matón pistola-ligera 1", *UP_TO_MATON, "declara maton recarga",
                 "declara kara otra:3", "kara fin", "maton actua")
    assert weapon(path, "Matón")["ammo"] == 18


def test_a_revolver_emptied_mid_turn_must_reload(tmp_path):
    """SYSTEMS §3.3 “El rifle está vacío: recarga”; §3.5 «Cadencia is checked at the
    declaration … and again at each shot»: the second shot of a revolver with 1 round."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara disparo disparo", "kara actua a maton exitos=0",
                before=("municion Kara revolver-ligero 1",))
    assert refusal(path, "kara actua a maton exitos=0") == "El revólver está vacío: recarga"


RELOAD = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3", "declara kara recarga",
          "kara actua", "maton fin", "turno")
OTHER = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3", "declara kara otra:3",
         "kara actua", "maton fin", "turno")




# ------------------------------------------------------------------ aiming (§6.7)


def test_aiming_without_percepcion_gains_nothing(tmp_path):
    """STORYTELLER §6.7: «Como máximo, pueden ganarse tantos dados de esta manera como la
    Percepción del personaje»; SYSTEMS §3.3 “Kara ya suma el máximo de Apuntar (Percepción
    3)”: with no Percepción typed, 0."""
    cast = ("alta Kara bando=pj des=3 ast=3 fv=5 rasgos=armas-de-fuego:3", MATON, "arma Kara revolver-ligero")
    path = fight(tmp_path, *DUEL_INI, "declara maton otra:3", cast=cast, inits=())
    assert refusal(path, "declara kara apuntar") == "Kara ya suma el máximo de Apuntar (Percepción 0)"


def test_declaring_total_defense_loses_the_aim(tmp_path):
    """STORYTELLER §6.7: «Cualquier acción realizada mientras se apunta, incluso una acción
    defensiva, cancela los beneficios obtenidos»; «the tracker warns first»."""
    path = duel(tmp_path, "declara maton otra:3", "declara kara apuntar", "kara actua", "maton fin", "turno",
                *DUEL_INI, "declara maton otra:3")
    assert who(path, "Kara")["aim"] == 1
    result = ok(path, "declara kara defensa-total esquiva")
    assert result.stderr.strip()
    assert who(path, "Kara")["aim"] == 0


# ------------------------------------------------------------------ declarations and refusal words (SYSTEMS §3.3)




def test_a_repeated_action_with_a_count(tmp_path):
    """SYSTEMS §3.2 `declara maton disparos-multiples:5 2` (a count after the action);
    STORYTELLER §6.2 N = 3: −3, −4, −5."""
    path = duel(tmp_path, "declara maton golpe:6 3")
    assert [(d["action"], d["pool"], d["penalty"], d["dice"]) for d in who(path, "Matón")["declared"]] == [
        ("golpe", 6, -3, 3), ("golpe", 6, -4, 2), ("golpe", 6, -5, 1)]


def test_json_status_during_the_declaration(tmp_path):
    """SYSTEMS §3.4: «`status` ∈ `to_declare`, `declared`, …»; the declarer is the lowest
    initiative first."""
    path = duel(tmp_path)
    assert [who(path, n)["status"] for n in ("Kara", "Matón")] == ["to_declare", "to_declare"]
    assert state(path)["declarer"] == "Matón"
    ok(path, "declara maton golpe")
    assert [who(path, n)["status"] for n in ("Kara", "Matón")] == ["to_declare", "declared"]
    assert (state(path)["phase"], state(path)["declarer"], state(path)["actor"]) == ("declare", "Kara", None)


def test_a_delayer_acts_with_the_full_pool_of_one_action(tmp_path):
    """STORYTELLER §6.9: a delayer «declaring its action(s) when it acts»; §6.2 «With N = 1,
    no penalty»: Matón's Golpe, Des 3 + Pelea 3 = 6 dice."""
    path = duel(tmp_path, "declara kara disparo", "declara maton retrasa",
                inits=("iniciativa Kara 10", "iniciativa Matón 12", "siguiente"))
    assert rolled(new_log(path, "maton actua golpe a kara exitos=1"), "Matón") == [(6, 6)]


def test_delaying_at_its_place_then_acting_before_the_next(tmp_path):
    """SYSTEMS §3.2: `NAME retrasa` / `NAME delay`, then `NAME actua …` («delay, act
    later»); STORYTELLER §6.9 «it may then act at any later point of the action phase
    (between two others' actions), declaring its action(s) when it acts»."""
    path = fight(tmp_path, *UP_TO_MATON, "declara maton otra:3", "declara kara disparo esquiva", "kara delay")
    assert (who(path, "Kara")["status"], state(path)["actor"]) == ("delaying", "Matón")
    ok(path, "maton fin")
    assert state(path)["actor"] == "Víctor"
    log = new_log(path, "kara actua disparo a cadaver exitos=0")
    assert rolled(log, "Kara") == [(6, 6)]
    assert who(path, "Kara")["status"] == "acted"
    assert weapon(path, "Kara")["ammo"] == 5


def test_retrasar_is_the_only_declaration(tmp_path):
    """STORYTELLER §4: «Each declares **one of**: one action; a multiple action …; *defensa
    total* (§7.6); *retrasar* (§6.9)»; §6.9 «instead of an action … declaring its action(s)
    when it acts»."""
    path = fight(tmp_path, *UP_TO_MATON)
    refusal(path, "declara maton retrasa disparo")


@pytest.mark.parametrize(("line", "action"), [
    ("declara victor ráfaga-de-tres-balas", "rafaga-de-tres-balas"), ("declara victor fuego-automático",
                                                                      "fuego-automatico"),
    ("declara victor dispersión", "dispersion"), ("declara victor disparos-múltiples 2", "disparos-multiples")])
def test_accents_are_optional_in_maneuver_ids(tmp_path, line, action):
    """COMMANDS.md: «A maneuver's id is its book name in lower case, accents and ñ folded
    …; accents are optional when typing»; SYSTEMS §3 intro: «maneuver ids folded»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", line)
    assert {d["action"] for d in who(path, "Víctor")["declared"]} == {action}




def test_parrying_with_a_club_gives_no_counter_damage(tmp_path):
    """STORYTELLER §7.2 Parada's counter-damage «if the parrying weapon is lethal («Cuando
    tu personaje utiliza un arma que causa daño letal para realizar una parada»)»: a Porra
    (contundente) parries without it."""
    path = duel(tmp_path, "declara maton golpe", "declara kara otra:3 parada", "kara actua",
                "maton actua a kara exitos=1", arms=("arma Kara porra",))
    log = new_log(path, "kara defiende parada exitos=3")
    assert not any("daño contra" in line for line in log), log
    assert state(path)["attack"] is None
