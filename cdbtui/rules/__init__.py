"""The rulebooks as data: one TOML maneuver catalog per ruleset.

`cdb.toml` (CdB Engine, ch. 9) and `walkure.toml` (Walküre) list every maneuver of the
book's combat chapter with its cost, kind and talents; `cdbtui.engine.catalog` reads
them (and merges a DJ's house rules into them).  The format is documented at the top
of `cdb.toml`.  This package holds no code.
"""
