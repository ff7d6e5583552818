"""C-System (CSYSTEM.md, SYSTEMS.md §2): the second ruleset, behind the same funnel.

Where each rule lives (lower modules first):

- `model.py`: the sheet each combatant holds (`CsSheet`), weapons, conditions with
  values, prompts, and the fight's part (`CsPart`: the order).
- `tables.py`: the data: the budget by level (§4.2), the conditions and their
  effects (§8), the maneuvers and generic actions (§5), loaded from `rules/csystem.toml`.
- `defense.py`: effective DES and Defensa with its breakdown (§6.2).
- `budget.py`: legal combinations, what is left, the overrides (§4.2–4.5).
- `order.py`: initiative, ties, lowering one's place, re-placing (§3).
- `health.py`: damage, Herido/Malherido, pain rolls, criticals, agonía, Aplomo,
  Energía, healing (§9).
- `turns.py`: the walk through the order: goes, their start (§10), the turn's end.
- `actions.py`: maneuvers, generic actions, attacks, fire and ammunition (§5–§7).
- `rules.py`: `apply`, the handlers table.
- `parser.py`, `commands.py`: the command language of SYSTEMS.md §2.2.
"""
