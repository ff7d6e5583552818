"""`cdbtui ARGS` for the shell tests, in this process or in a real one.

`cdbtui(...)` calls `cdbtui.cli.main(argv)` here, with stdout and stderr captured,
stdin given as bytes (what `-` reads from `sys.stdin.buffer`), and the working
folder and environment changed only for the call: the same `CompletedProcess`
fields a subprocess gives (`returncode`, `stdout`, `stderr`), without starting a
Python per call.  An exception escaping `main` (what a traceback would be in a real
process) fails the test.

`process(...)` runs `python -m cdbtui` for real: kept for what only a process
shows (exit codes through `sys.exit`, no traceback on stderr, signals, a pipe,
`-` on a real stdin).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from cdbtui.cli import main


class _Stdin:
    """Stands in for `sys.stdin`: `main` reads `-` from `sys.stdin.buffer`."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)

    def read(self, *args) -> str:
        return self.buffer.read(*args).decode("utf-8")


def cdbtui(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None,
           env: Mapping[str, str] | None = None,
           unset: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """`cdbtui ARGS` through `main(argv)` in this process.

    `env` replaces the environment for the call (as `subprocess.run(env=...)`);
    `unset` drops variables from it.
    """
    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", _Stdin(data))
        if cwd is not None:
            patch.chdir(cwd)
        if env is not None:
            for name in set(os.environ) - set(env):
                patch.delenv(name)
            for name, value in env.items():
                patch.setenv(name, value)
        for name in unset:
            patch.delenv(name, raising=False)
        with redirect_stdout(out), redirect_stderr(err):
            status = main(list(args))
    return subprocess.CompletedProcess(["cdbtui", *args], status, out.getvalue(), err.getvalue())


def process(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None,
            env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python -m cdbtui ARGS` in a real process (text in and out unless `stdin` is bytes)."""
    return subprocess.run(
        [sys.executable, "-m", "cdbtui", *args],
        input=stdin, capture_output=True, text=not isinstance(stdin, bytes), cwd=cwd,
        env=None if env is None else dict(env), timeout=60,
    )
