"""What the spec audits through the CLI share (test_rules_spec_audit.py, the black-box
files of each ruleset): a fresh save played with `cdbtui do` and read back through
`cdbtui show --json`, COMMANDS.md's contract, so that a test checks what a user sees."""

from __future__ import annotations

import json
from pathlib import Path

from shell import cdbtui


def new(tmp_path: Path, *lines: str, rules: str = "cdb", seed: int = 3) -> Path:
    """A new save `f.toml` in `tmp_path` (its RNG seeded), `lines` played on it."""
    path = tmp_path / "f.toml"
    made = cdbtui("new", str(path), "--rules", rules, "--seed", str(seed))
    assert made.returncode == 0, made.stderr
    if lines:
        ok(path, *lines)
    return path


def ok(path: Path, *lines: str):
    result = cdbtui("do", str(path), *lines)
    assert result.returncode == 0, result.stderr
    return result


def refused(path: Path, line: str, *says: str, fold: bool = False) -> str:
    """`line` is refused with exit 1, one line on stderr (saying each of `says`; in
    any case with `fold`), and the save is unchanged byte for byte."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), line)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr
    for text in says:
        if fold:
            assert text.lower() in result.stderr.lower(), result.stderr
        else:
            assert text in result.stderr, result.stderr
    assert path.read_bytes() == before
    return result.stderr


def state(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def who(path: Path, name: str) -> dict:
    return next(c for c in state(path)["combatants"] if c["name"] == name)


def mark(path: Path, name: str) -> tuple[int, int]:
    """(marker, AC left) of `name`."""
    c = who(path, name)
    return c["marker"], c["ac"]


def log(path: Path) -> list[str]:
    return state(path)["log"]


def logged(path: Path, text: str) -> bool:
    return any(text in line for line in log(path))
