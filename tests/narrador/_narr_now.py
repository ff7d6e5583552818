"""A storyteller sheet as it stands in the fight's turn (`engine.turnstamp`): a sheet
keeps its turn fields with the turn they belong to, so the tests read it so."""

from __future__ import annotations

from cdbtui.engine.narrador.now import current


def current_sheet(fight, name: str):
    c = fight.find(name)
    assert c is not None, name
    return current(c, fight.turn).sheet
