"""What the TUI's side panel, header and help show: pure data the widgets paint."""

from __future__ import annotations

from enum import StrEnum

from attrs import field, frozen

from ..engine.catalog import RULES_ES
from ..engine.model import (
    FATIGUE_CATEGORIES,
    STATUS_ES,
    WOUND_CATEGORIES,
    Combatant,
    Fight,
    Status,
)
from ..printable import literal
from .board import window_moment
from .sheet import conditions_text, countdown_parts, note_text, signed, track_text

#: The binding rule decisions of RULES.md, shown in the help screen (GMs will ask).
DECISIONS = (
    ("Empates", "si Agilidad, Atención y Habilidad empatan, manda el orden de la lista; "
                "el DJ puede intercambiarlos con «cambiar A B». El registro dice qué decidió cada empate."),
    ("Maniobra pendiente", "si el coste supera las AC que quedan, se invierte todo y el resto "
                           "se completa el turno siguiente al llegar a su momento inicial."),
    ("Perder la pendiente", "gastar AC en otra cosa (esquivar, p. ej.) antes de completarla "
                            "la abandona y se pierden las AC invertidas."),
    ("Reacciones", "Esquivar, Ponerse a Cubierto, Parada, Bloqueo… se declaran en cualquier "
                   "momento si quedan AC: marcador = mín(marcador, momento) − coste (el momento de "
                   "la ventana de reacción, si está abierta)."),
    ("Avanzar", "quien está en el momento y no actuó cuando el DJ avanza la cuenta pasa a retrasar."),
    ("Fin de turno", "cerrar el turno hace declinar a quien retrasa o espera."),
    ("Disparar Arcos", "cuenta como ataque aunque el libro no la liste entre las de ataque."),
    ("Agarrado / Inmovilizado", "AC ×½ / ×¼ redondeando hacia arriba, como la sorpresa; "
                                "se aplica ya a las AC que quedan."),
    ("Iniciativa", "se tira una vez por combate (1d6 + INI); el DJ puede escribir el total."),
    ("Walküre", "las AC no se calculan: siempre se escriben."),
    ("La cuenta avanza sola", "cuando no queda nadie en la cola del momento, salta al marcador más "
                              "alto de quien aún puede actuar (quien retrasa lo sigue; quien espera "
                              "paga 1 AC por momento). Con solo retrasos y esperas, «siguiente» baja de uno en uno."),
    ("Orden de la cola", "se muestra y se registra, no se impone: cualquiera de la cola del momento "
                         "puede actuar (los jugadores no siempre hablan en orden)."),
    ("Pendiente y ataques", "la maniobra pendiente se completa sola al encabezar la cola en su "
                            "momento inicial; un ataque cuenta (y gasta el Apuntar) al completarse."),
    ("Apuntar", "+1 por turno sucesivo apuntando, hasta +3; un turno sin apuntar vuelve a +1. "
                "Mover tras apuntar en el mismo turno se rechaza, como apuntar tras mover (salvo Puntería Zen)."),
    ("Esperar y reaccionar", "reaccionar mientras se espera termina la espera; declinar abandona la pendiente."),
    ("Llegar tarde", "quien se une con su momento inicial ya pasado actúa en el momento actual."),
    ("Iniciativa Rápida", "«rapida si» (antes de empezar o con el turno terminado): sin momentos, cada uno "
                          "actúa una vez por orden de iniciativa y gasta las AC que quiera; «siguiente» "
                          "termina su actuación y guarda el resto para reaccionar. No se retrasa ni se espera."),
    ("Heridas", "casillas por categoría 3, 3, 2, 2, 1 si no se indican (vida=…); la tabla de Vigor no está en el libro base."),
    ("Blancos", "«NOMBRE MANIOBRA a BLANCO»: cada blanco distinto del turno tras el primero da −1 a todo; "
                "«blancos N» cuenta los mismos blancos (manda el mayor, no se suman). El blanco de una reacción no cuenta."),
    ("Bloqueo", "«NOMBRE bloqueo a ATACANTE» es un bloqueo logrado: −2 al próximo ataque del atacante, "
                "aunque sea otro turno. Sin blanco, el bloqueo falló."),
    ("Liderazgo", "«NOMBRE liderazgo gde=N» da 1+N bonos de +1 que se reparten con «bono LÍDER a COMPAÑERO», "
                  "uno por tirada y solo a su bando; los no repartidos se pierden al acabar el turno."),
    ("Duelo", "«duelo A B [A+N]»: sin tirada de iniciativa, cada duelista actúa en su INI (+N con Duelista). "
              "Dejar el duelo cuesta 3 AC (abandonar-duelo) y lo termina para los dos."),
    ("Montura", "«monta JINETE MONTURA»: la montura actúa en el momento de su jinete, no tiene momento propio "
                "ni detiene la cuenta; disparar montado anota −2 en el registro."),
    ("A cubierto", "es una nota: el registro recuerda la regla de la cobertura al ponerla y al recibir daño."),
    ("Curar y descansar", "entre turnos y al acabar, «curar NOMBRE N» quita las N peores casillas "
                          "(tratamiento con tiempo); «descanso», fuera de un turno, borra los rasguños de todos."),
    ("Primeros Auxilios", "con un turno en curso, «curar NOMBRE N» solo cura Rasguños y Heridas (las peores "
                          "de esas primero; Gravemente Herido y peores siguen marcadas), una vez por paciente "
                          "y combate; a un Moribundo solo lo estabiliza (estado estabilizado, sigue fuera). "
                          "El daño nuevo marca primero las casillas que quedaron vacías."),
    ("Ventana de reacción", "una reacción responde a la acción que la provoca: tras una acción en su momento, "
                            "una reacción o la interrupción de quien espera se aplican en el momento de esa "
                            "acción aunque la cuenta ya haya avanzado sola (la cabecera dice «reacciones a M7»). "
                            "Sigue abierta con más reacciones, daño, curas, estados, notas y revelar; la cierra "
                            "cualquier otra orden. «NOMBRE interrumpe MANIOBRA ahora»: en el momento actual, y cierra la "
                            "ventana."),
    ("Solo estados conocidos", "«estado» acepta los estados de las reglas (agarrado, inmovilizado, sorprendido, "
                               "a-cubierto, en-duelo, montado, estabilizado…); otra palabra se rechaza "
                               "proponiendo las parecidas. «+en-duelo» y «+montado» solos marcan un duelo o "
                               "una montura que no están en la plantilla («duelo A B» y «monta A B» los ponen "
                               "con el rival o la montura). Un comentario libre es una nota: «nota NOMBRE TEXTO», "
                               "«nota NOMBRE -» las borra; sin efecto de reglas, ocultas a los jugadores si el "
                               "combatiente es oculto o privado."),
    ("Duraciones", "«turnos=N» en un estado o una nota lo acaba solo al final del N-ésimo turno contando el "
                   "actual (turnos=1: al final de este), con una línea en el registro; el panel dice lo que "
                   "queda («aturdido · 2 turnos»)."),
    ("Revelar y ocultar", "«revelar NOMBRE» lo muestra a los jugadores desde esa orden; «ocultar NOMBRE» lo "
                          "oculta desde entonces. Lo que pasó mientras estaba oculto sigue oculto; lo que ya "
                          "vieron, visto. En la plantilla del DJ, ◌ ante el nombre marca a quien está oculto."),
    ("Fatiga cuerpo a cuerpo", "al final de cada turno, quien hizo al menos un ataque cuerpo a cuerpo recibe "
                               "1 punto de fatiga («fatiga-cc no» lo desactiva para este combate)."),
    ("Una vez por turno", "Esquivar Disparos (Gun Kata) solo una vez por turno."),
    ("Sin pendiente", "Escapar no se deja pendiente para el turno siguiente: sin AC suficientes, se rechaza."),
    ("Presa", "agarrado solo puede reaccionar, gastar, Escapar, Patada y Puñetazo (este, con aviso: solo si "
              "le agarran por las piernas); inmovilizado, solo Escapar (ni reacciones ni gastos)."),
    ("Sentidos de combate", "(Maestro de Esgrima, Gun Kata) es un Reconocimiento: vale para el sorprendido."),
    ("Un nombre, dos talentos", "Bloqueo, Golpe en el Aire, Sentidos de combate… son la versión del talento "
                                "que se tiene; con los dos se rechaza y se dan los dos ids. El Bloqueo del "
                                "Maestro de Esgrima es una reacción, como una Parada con armas."),
    ("Apuntar y reacciones", "el bono de Apuntar (y el de Liderazgo) se gasta en el próximo ataque que no sea "
                             "una reacción: un Bloqueo o Usar la Fuerza del Otro como reacción lo conservan."),
    ("Ids del libro", "retrasar-la-accion y quedarse-a-la-espera valen como retrasa y espera; Walküre tiene "
                      "abandonar-duelo (3 AC) y carga-con-montura como CdB."),
    ("Nombres", "un prefijo de cualquier palabra del nombre lo encuentra («viuda»: La Viuda Negra) y un "
                "nombre de varias palabras sin comillas vale si es el único; si no, se listan los candidatos."),
    ("Hordas", "«alta … miembros=M aguante=N»: cada N de daño total deja fuera a un miembro "
               "(«balas=B» lo limita); sin miembros, la horda está fuera."),
)


class RowRole(StrEnum):
    """What a line of the side panel says about its value; the widget colours by it."""

    NORMAL = "normal"
    #: The AC left (the number that matters most).
    AC = "ac"
    #: The combatant is done or out this turn.
    DIM = "dim"
    #: Something against it: a penalty, a wound, a condition, a duel, a wait.
    WARNING = "warning"
    #: Something for it: aim, a bonus, Liderazgo.
    GOOD = "good"
    #: A maneuver carried over from last turn.
    CARRIED = "carried"


@frozen
class PanelRow:
    """One line of the side panel: a label, a value and a role for its colour."""

    label: str
    value: str = field(converter=literal)
    role: RowRole = RowRole.NORMAL


def panel_rows(c: Combatant, fight: Fight) -> tuple[PanelRow, ...]:
    """What the side panel says about `c` (SHEET.md): AC, marker, status, attacks…"""
    budget = c.budget(max(fight.turn, 1))
    ac_text = f"{c.ac} / {budget}" if fight.started else f"{c.ac_per_turn} por turno"
    penalty = c.attack_penalty
    rows = [
        PanelRow("AC", ac_text, RowRole.AC),
        PanelRow("Marcador", "—" if c.marker is None else str(c.marker)),
        PanelRow("Inicio", "—" if c.start is None else str(c.start)),
        PanelRow("Estado", STATUS_ES[c.status] if fight.started else "preparación",
                 RowRole.DIM if c.status in (Status.DONE, Status.OUT) else RowRole.NORMAL),
        PanelRow("Ataques", str(c.attacks)),
        PanelRow("Siguiente", "sin penalizar" if penalty == 0 else f"{signed(penalty)} al ataque",
                 RowRole.WARNING if penalty < 0 else RowRole.NORMAL),
        PanelRow("Apuntar", f"+{c.aim}" if c.aim else "—",
                 RowRole.GOOD if c.aim else RowRole.NORMAL),
        PanelRow("Modif.", signed(c.modifier),
                 RowRole.WARNING if c.modifier < 0
                 else (RowRole.GOOD if c.modifier > 0 else RowRole.NORMAL)),
        PanelRow("Estados", conditions_text(c, fight) or "—",
                 RowRole.WARNING if c.conditions else RowRole.NORMAL),
        *(PanelRow("Notas" if index == 0 else "", note_text(note, fight))
          for index, note in enumerate(c.notes)),
        PanelRow("Heridas", track_text(c.wounds, WOUND_CATEGORIES),
                 RowRole.WARNING if c.wounds.count else RowRole.NORMAL),
        PanelRow("Fatiga", track_text(c.fatigue, FATIGUE_CATEGORIES),
                 RowRole.WARNING if c.fatigue.count else RowRole.NORMAL),
        PanelRow("Pendiente", "—" if c.carried is None
                 else f"{c.carried.label} (faltan {c.carried.remaining})",
                 RowRole.CARRIED if c.carried else RowRole.NORMAL),
    ]
    if c.is_group:
        rows.insert(1, PanelRow("Miembros", f"{c.members} (aguante {c.toughness})",
                                RowRole.WARNING if c.members == 0 else RowRole.NORMAL))
    extras = [
        ("Duelo", f"contra {c.duel}" if c.duel else "", RowRole.WARNING),
        ("Montura", c.mount or "", RowRole.NORMAL),
        ("Liderazgo", f"{c.leadership} bono(s) de +1 por repartir" if c.leadership else "",
         RowRole.GOOD),
        ("Bono", f"+{c.lead_bonus} de su líder" if c.lead_bonus else "", RowRole.GOOD),
        ("Bloqueado", f"{signed(c.block_penalty)} a su próximo ataque" if c.block_penalty else "",
         RowRole.WARNING),
        ("Blancos", ", ".join(c.targets) if c.targets else "", RowRole.NORMAL),
    ]
    rows += [PanelRow(label, text, style) for label, text, style in extras if text]
    if c.trigger:
        rows.append(PanelRow("Espera", c.trigger, RowRole.WARNING))
    rows.append(PanelRow("Este turno", ", ".join(c.maneuvers) or "—"))
    return tuple(rows)


def panel_title(c: Combatant) -> str:
    """The panel's title: "Sven · PJ", "Sombra · PNJ · oculto" (hidden from players)."""
    side = c.side.upper() if c.side in ("pj", "pnj") else c.side
    return literal(" · ".join([c.name, side, *(["oculto"] if c.hidden else [])]))


def window_part(fight: Fight) -> str | None:
    """"reacciones a M7" while the reaction window (RULES.md §3) is open: a reaction
    or interrupt typed now lands there (RULES.md: the header shows it while it is
    open, also when the countdown is still at that moment).  None when it is closed
    or the turn is over (nobody is left to react)."""
    moment = window_moment(fight)
    if moment is None or fight.turn_over:
        return None
    return f"reacciones a M{moment}"


def status_line(fight: Fight) -> str:
    """The TUI's header: the countdown first (it must survive 80 columns), then where
    a reaction lands if not at the current moment, then the name.

    "Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1 · reacciones a M7 ·
    Emboscada en el puerto (CdB)".  The DJ's only: the player view has no window
    (a hidden PNJ's action may open one at a moment the players never saw).
    """
    name = f"{literal(fight.name)} ({RULES_ES.get(fight.rules, fight.rules)})"
    if not fight.started:
        return f"Preparación: «i» momentos iniciales, «a» añadir · {name}"
    parts = countdown_parts(fight, over="turno terminado: «t» turno nuevo")
    window = window_part(fight)
    return " · ".join([*parts, *([window] if window else []), name])
