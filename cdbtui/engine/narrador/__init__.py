"""The storyteller system (STORYTELLER.md, SYSTEMS.md §3): the third ruleset, behind
the same funnel.

- `model.py`: the sheet each combatant holds (`NarrSheet`), declared actions,
  weapons, conditions, and the fight's part (`NarrPart`: phase, order, the attack
  being resolved).
- `tables.py`: maneuvers and weapons, read from `rules/narrador.toml`.
- `rules.py`: `apply`: the three phases of a turn, declarations and multiple
  actions, attacks, defenses, Abandono de Acciones, damage and health.
- `parser.py`, `commands.py`: the command language of SYSTEMS.md §3.2.
"""
