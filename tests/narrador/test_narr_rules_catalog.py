"""STORYTELLER.md §7.7 (`sorpresa`), §8.2 (Apuntar a una localización), §8.3 (Dos
Armas, Dispersión), §9 (the weapons table's names) and SYSTEMS.md §3.2–§3.3 (the
`tras-absorcion` word, warnings), through `Session.new("T", "narrador")` and `execute`."""

from __future__ import annotations

import pytest

from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session

from _narr_now import current_sheet

KARA = "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4"
VICTOR = "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2"
MATON = "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3"
CADAVER = "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2"
CAST = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", "arma Víctor rifle-de-asalto",
        "arma Matón pistola-ligera")
T1 = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8")
DECL1 = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo disparo",
         "declara kara disparo esquiva")


def session(*lines: str) -> Session:
    s = Session.new("T", "narrador")
    for line in lines:
        s.execute(line)
    return s


def sh(s: Session, name: str):
    return current_sheet(s.fight, name)  # as it stands in this turn


def refused(s: Session, line: str) -> str:
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute(line)
    assert s.fight is before
    return str(caught.value)


def said(s: Session, line: str) -> list:
    since = len(s.fight.log)
    s.execute(line)
    return list(s.fight.log[since:])


# ------------------------------------------------------------------ §8.2 Apuntar a una localización


@pytest.mark.parametrize(("word", "difficulty", "damage"), [
    ("localizacion-medio", 7, 4), ("localizacion-pequeno", 8, 5), ("localizacion-diminuto", 9, 6)])
def test_apuntar_a_una_localizacion_difficulty_and_damage(word, difficulty, damage):
    """§8.2: Medio +1 dif., daño 0; Pequeño +2, +1; Diminuto +3, +2 (revolver: 4 dice)."""
    s = session(*CAST, *T1, *DECL1)
    text = " ".join(e.text for e in said(s, f"kara actua a maton {word} exitos=2"))
    assert f"dificultad {difficulty}" in text
    assert s.fight.narr.attack.damage == damage


def test_apuntar_localizacion_is_a_declared_shot_at_a_location():
    """§8.2 `apuntar-localizacion`: declared like a shot; the size is a word at the act
    (Decision: none named is a medium location, +1 dif.)."""
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara maton disparo", "declara kara apuntar-localizacion")
    text = " ".join(e.text for e in said(s, "kara actua a maton localizacion-diminuto exitos=2"))
    assert "dificultad 9" in text and s.fight.narr.attack.damage == 6
    assert sh(s, "Kara").weapons[0].ammo == 5


def test_no_called_shot_cuando_utiliza_fuego_automatico():
    """§8.2: «no puede apuntar a partes especificas del cuerpo cuando utiliza fuego automático»."""
    s = session(*CAST, *T1, *DECL1, "kara fin", "maton fin")
    assert refused(s, "victor actua a cadaver localizacion-medio exitos=3").startswith(
        "Con fuego automático no se puede apuntar a una localización")


# ------------------------------------------------------------------ §8.3 Dispersión, Dos Armas


def test_dispersion_one_person_alone_solo_la_mitad_de_los_exitos():
    """§8.3: «sólo la mitad de los éxitos», rounded down (Decision): 5 → 2."""
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor dispersion",
                "declara maton disparo", "declara kara disparo", "kara fin", "maton fin")
    s.execute("victor actua a cadaver exitos=5")
    assert s.fight.narr.attack.successes == 2


def test_dispersion_one_success_at_one_person_is_a_miss():
    """§8.3: half of 1, rounded down, is 0: no hit."""
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor dispersion",
                "declara maton disparo", "declara kara disparo", "kara fin", "maton fin")
    s.execute("victor actua a cadaver exitos=1")
    assert s.fight.narr.attack is None


def test_dos_armas_a_multiple_action_off_hand_plus_1_unless_ambidextrous():
    """§8.3 Dos Armas: a multiple action (−2, −3); «+1 with the off hand unless
    ambidextrous»; ammo per weapon (Decision: the shots alternate, main hand first)."""
    s = session(*CAST, "arma Kara pistola-ligera", *T1, "siguiente", "declara cadaver golpe",
                "declara victor fuego-automatico", "declara maton disparo", "declara kara dos-armas 2")
    assert [(d.action, d.penalty) for d in sh(s, "Kara").declared] == [("dos-armas", -2), ("dos-armas", -3)]
    first = " ".join(e.text for e in said(s, "kara actua a maton exitos=0"))
    assert "dificultad 6" in first and "mano mala" not in first
    second = " ".join(e.text for e in said(s, "kara actua a maton exitos=0"))
    assert "dificultad 7" in second and "+1 dif. mano mala" in second
    assert [w.ammo for w in sh(s, "Kara").weapons] == [5, 17]


def test_dos_armas_ambidextrous_no_off_hand_penalty():
    s = session(KARA.replace("alta Kara", "alta Kara ambidiestro"), MATON, "arma Kara revolver-ligero",
                "arma Kara pistola-ligera", "arma Matón pistola-ligera", "iniciativa Kara 10",
                "iniciativa Matón 5", "siguiente", "declara maton disparo", "declara kara dos-armas 2",
                "kara actua a maton exitos=0")
    assert "dificultad 6" in " ".join(e.text for e in said(s, "kara actua a maton exitos=0"))


def test_dos_armas_the_off_hand_shot_needs_a_second_weapon():
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara maton disparo", "declara kara dos-armas 2", "kara actua a maton exitos=0")
    assert "segunda arma" in refused(s, "kara actua a maton exitos=0")


# ------------------------------------------------------------------ §9 the table's names


def test_the_tables_ametrallador_ligera_folded_is_a_preset():
    """§9 «Ametrallador Ligera* Ingram Mac-10 (sic)»; SYSTEMS §3.5 presets are the table's
    names folded: 4 dice, 25 m, cadencia 3, 30+1, automatic."""
    s = session(MATON, "arma Matón ametrallador-ligera")
    w = sh(s, "Matón").weapons[0]
    assert (w.damage, w.range, w.rate, w.magazine, w.chamber, w.auto, w.ammo) == (4, 25, 3, 30, True, True, 31)


# ------------------------------------------------------------------ §7.7 sorpresa


def test_sorpresa_forbids_bloqueo_and_parada_in_turn_1_esquiva_still_allowed():
    """§7.7 Decision: `sorpresa NAME` «forbids Bloqueo and Parada for that combatant in
    turn 1»; Esquiva is still allowed; COMMANDS.md `sorpresa NAME …` / `surprise …`."""
    s = session(*CAST, "arma Kara cuchillo", "sorpresa Kara", "surprise Víctor")
    assert sh(s, "Kara").has("sorprendido") and sh(s, "Víctor").has("sorprendido")
    for line in (*T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton golpe", "declara kara defensa-total esquiva", "maton actua a kara exitos=1"):
        s.execute(line)
    assert refused(s, "kara defiende parada exitos=2").endswith(": no puede bloquear ni parar")
    s.execute("kara defiende esquiva exitos=2")
    s.execute("turno")
    assert not sh(s, "Kara").has("sorprendido")


def test_sorpresa_only_in_turn_1():
    s = session(*CAST, *T1, "siguiente", "turno")
    assert refused(s, "sorpresa Kara").startswith("La sorpresa vale para el turno 1")


# ------------------------------------------------------------------ SYSTEMS §3.2, §3.3


def test_dano_tras_absorcion_is_the_same_damage():
    """SYSTEMS §3.2 `dano NAME N letal|contundente [tras-absorcion]`; §3.5: the levels are
    always after soak, so the word changes nothing."""
    s = session(*CAST, "dano kara 2 letal tras-absorcion", "damage matón 1 bashing tras-absorción")
    assert (sh(s, "Kara").lethal, sh(s, "Matón").bashing) == (2, 1)


def test_warning_a_ranged_attack_while_cegado():
    """SYSTEMS §3.3 Warnings: «a ranged attack while cegado» (applied, with the warning)."""
    s = session(*CAST, *T1, "estado kara +cegado", *DECL1)
    entries = said(s, "kara actua a maton exitos=1")
    assert any(e.warning and "cegad" in e.text for e in entries)
    assert s.fight.narr.attack is not None


def test_warning_a_difficulty_above_10():
    """SYSTEMS §3.3 Warnings: «a difficulty above 10»; §3 “dificultad 10 (+1): el
    Narrador decide”: cover 3 + oponentes 5 (+4) = 13."""
    s = session(*CAST, *T1, "cobertura maton 3", "oponentes kara 5", *DECL1)
    entries = said(s, "kara actua a maton exitos=1")
    assert any(e.warning and "dificultad 10 (+3): el Narrador decide" in e.text for e in entries)
    s = session(*CAST, *T1, *DECL1)
    assert not any(e.warning for e in said(s, "kara actua a maton exitos=1"))


def test_refusals_agree_with_the_name_as_systems_writes_them():
    """SYSTEMS §3.3: “Kara está apresada…”, “Kara está sorprendida…”; **Decision:** a
    name whose last word ends in «a» reads as feminine, any other as masculine."""
    from cdbtui.engine.narrador.rules import agreed

    assert agreed("Kara", "apresado") == "apresada"
    assert agreed("La Viuda Negra", "sorprendido") == "sorprendida"
    assert agreed("Matón", "apresado") == "apresado"
    assert agreed("Soldado 1", "sorprendido") == "sorprendido"
