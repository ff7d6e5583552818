"""What the C-System tests through the shell share: the cast of CSYSTEM.md §12 (with
«Ruina» for «Doctor Ruina»), its initiatives, and reading a save's JSON and its
refusals (`state`, `who`, `refuse`), and making a save of them (`new`, `build`)."""

from __future__ import annotations

import json
from pathlib import Path

from shell import cdbtui

CAST = (
    "alta Centella bando=pj nh=5 des=6 ale=4 per=8 con=5 rd=3",
    "arma Centella pistola modos=sa cargador=15 dano=2d6",
    "alta Titán bando=pj nh=1 des=3 ale=2 per=4 con=7 rd=2",
    "arma Titán puños dano=3d6",
    'alta "Sicario 1" nh=1 des=4 ale=3 per=4 con=4 rd=2',
    'arma "Sicario 1" subfusil modos=fa cargador=30 dano=2d6',
    "alta Ruina nh=9 des=5 ale=6 per=7 con=6 rd=3",
    "arma Ruina rayo distancia dano=3d6",
)
#: Order: Centella 22, Ruina 22 (DES 6 > 5), Sicario 1 18, Titán 14.
INITS = (
    "iniciativa Centella 22",
    "iniciativa Ruina 22",
    'iniciativa "Sicario 1" 18',
    "iniciativa Titán 14",
)


def new(tmp_path: Path, seed: int | None = None) -> Path:
    """A new C-System save `pelea.toml` in `tmp_path` (its dice seeded by `seed`)."""
    path = tmp_path / "pelea.toml"
    made = cdbtui("new", str(path), "--rules", "csystem", *(("--seed", str(seed)) if seed is not None else ()))
    assert made.returncode == 0, made.stderr
    return path


def build(tmp_path: Path, *lines: str, cast: tuple[str, ...] = (*CAST, *INITS), start: bool = True,
          seed: int | None = None) -> Path:
    """A save with `cast`, started (`empezar`) unless not `start`, then `lines` played."""
    path = new(tmp_path, seed)
    script = [*cast, *(("empezar",) if start else ()), *lines]
    if script:
        result = cdbtui("do", str(path), *script)
        assert result.returncode == 0, result.stderr
    return path


def state(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def who(path: Path, name: str) -> dict:
    return next(c for c in state(path)["combatants"] if c["name"] == name)


def refuse(path: Path, line: str) -> str:
    """`cdbtui do PATH LINE` must refuse: exit 1, one line, the save unchanged.  Returns
    the message (what follows `cdbtui: «LINE»: `)."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), line)
    assert result.returncode == 1, (line, result.returncode, result.stdout[-300:], result.stderr)
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    prefix = f"cdbtui: «{line}»: "
    assert result.stderr.startswith(prefix), result.stderr
    assert path.read_bytes() == before, f"«{line}» changed the save"
    return result.stderr[len(prefix):-1]
