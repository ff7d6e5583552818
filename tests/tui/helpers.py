"""Keyboard helpers shared by the Pilot tests."""

from __future__ import annotations

from textual.pilot import Pilot


async def keys(pilot: Pilot, *presses: str) -> None:
    """Press each key and let the app settle after each (modals open and close)."""
    for key in presses:
        await pilot.press(key)
        await pilot.pause()


async def pick(pilot: Pilot, filter_text: str, amount: int | None = None) -> None:
    """Enter on the selected combatant, filter the picker, choose the first match (an
    attack's target step answered with Esc: no target)."""
    await keys(pilot, "enter")
    await pilot.press(*filter_text)
    await pilot.pause()
    await keys(pilot, "enter")
    if getattr(pilot.app.screen, "targeting", None) is not None:
        await keys(pilot, "escape")  # an attack's target step: no target
    if amount is not None:
        await pilot.press(*str(amount))
        await keys(pilot, "enter")


def state(app, name: str) -> tuple[int, int]:
    """(marker, AC left) of a combatant in the app's current fight."""
    c = app.fight.find(name)
    return c.marker, c.ac
