"""Which ruleset a fight plays, for the front ends that paint the other rulesets
their own way (C-System: `view.cslist`; the storyteller: `view.narrlist`).

Kept apart from those views so that asking costs no import of theirs: a CdB or
Walküre fight never loads them (start-up time, benchmarks/tui.py's first paint).
"""

from __future__ import annotations

from ..engine.model import Fight


def is_csystem(fight: Fight | None) -> bool:
    return fight is not None and fight.rules == "csystem"


def is_narrador(fight: Fight | None) -> bool:
    return fight is not None and fight.rules == "narrador"
