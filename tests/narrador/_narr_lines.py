"""The worked example (STORYTELLER.md §15) as command lines, shared by the storyteller
TUI tests: the demo's set-up (`roster.NARR_DEMO_LINES`, through turn 1's initiatives
and into the declarations), then turn 1's declarations and actions."""

from __future__ import annotations

from cdbtui.engine.session import Session
from cdbtui.roster import NARR_DEMO_LINES

SEED = 1234
DECLARED = (
    "declara cadaver golpe",
    "declara victor fuego-automatico",
    "declara maton disparos-multiples 2",
    "declara kara disparo esquiva",
)
#: Turn 1 up to Matón's first shot waiting for Kara's defense (step 4).
STEP_4 = (
    *DECLARED,
    "kara actua a maton exitos=2",
    "maton aborta tira exitos=0 esquiva",
    "dano maton 3 letal",
    "maton actua a kara exitos=1",
)
#: The whole of turn 1.
TURN_1 = (
    *STEP_4,
    "kara defiende esquiva exitos=2",
    "maton actua a kara exitos=1",
    "kara defiende esquiva exitos=1",
    "victor actua a cadaver exitos=6",
    "dano cadaver 6 letal",
)


def narr_session(*lines: str) -> Session:
    session = Session.new("Depósito", "narrador", SEED)
    for line in (*NARR_DEMO_LINES, *lines):
        session.execute(line)
    return session
