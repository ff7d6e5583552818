"""`cdbtui serve PATH`: the players' view in a web browser, with textual-serve.

textual-serve starts one process of a command per browser tab and streams its
screen over a websocket; the command here is the players' view itself,
`<this python> -m cdbtui view <absolute path> [--grande]`, so a TV or the players'
phones on the same network follow the DJ's save like `cdbtui view` does, read-only.
The page accepts textual-serve's `?fontsize=N` (e.g. `?fontsize=24` on a TV).
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import signal
import socket
import sys
from pathlib import Path
from typing import Any

#: Hosts that mean "every interface": the URL printed then uses this machine's address.
WILDCARD_HOSTS = {"", "0.0.0.0", "::"}


def player_command(path: Path, *, large: bool = False) -> str:
    """The shell command textual-serve runs for each visitor (quoted for a shell)."""
    parts = [sys.executable, "-m", "cdbtui", "view", str(Path(path).resolve())]
    if large:
        parts.append("--grande")
    return shlex.join(parts)


def _lan_address() -> str:
    """This machine's address on the local network, as other devices reach it.

    Connecting a UDP socket sends nothing; it only asks the system which local
    address would be used.  Falls back to the host name.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()


def public_url(host: str, port: int) -> str:
    """The URL to give the players for a server bound to `host`:`port`."""
    shown = _lan_address() if host in WILDCARD_HOSTS else host
    if ":" in shown:  # an IPv6 literal
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def _server_class() -> type:
    """textual-serve's `Server`, adapted (imported late: only `serve` needs aiohttp)."""
    from aiohttp import web
    from textual_serve.server import Server

    class PlayerServer(Server):
        """textual-serve's server, quieter and reachable by any address of this host."""

        announce: str = ""

        def initialize_logging(self) -> None:
            logging.basicConfig(level=logging.WARNING, format="%(message)s")

        async def on_startup(self, app: web.Application) -> None:
            """No logo: the one line is printed once the port is really listening."""

        async def handle_index(self, request: web.Request) -> Any:
            # The page tells the browser where the websocket is: use the address the
            # browser came by (LAN IP, host name, localhost…), not the bind address.
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        def run(self) -> None:
            """Serve until SIGINT/SIGTERM; print `announce` when listening."""
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.add_signal_handler(signal.SIGINT, self.request_exit)
                loop.add_signal_handler(signal.SIGTERM, self.request_exit)
            except NotImplementedError:  # pragma: no cover - Windows
                pass
            web.run_app(
                self._make_app(),
                host=self.host,
                port=self.port,
                handle_signals=False,
                loop=loop,
                print=lambda *_: print(self.announce, flush=True),
            )

    return PlayerServer


def serve(path: Path, host: str = "127.0.0.1", port: int = 8000, large: bool = False) -> int:
    """Serve the players' view of the save at `path` on http://host:port until Ctrl+C.

    Prints one Spanish line with the URL once listening; returns the exit code
    (0 after Ctrl+C or SIGTERM, 2 when the port cannot be opened).
    """
    path = Path(path).resolve()
    # The visitors' processes import cdbtui from the same place as this one.
    package_root = str(Path(__file__).resolve().parents[1])
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if package_root not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([package_root, *paths])
    server = _server_class()(
        player_command(path, large=large),
        host=host,
        port=port,
        title=f"cdbtui · jugadores · {path.stem}",
    )
    url = public_url(host, port)
    missing = "" if path.exists() else f" (aún no existe {path.name}: la vista la esperará)"
    server.announce = f"Vista de jugadores de {path.name}{missing} en {url} · Ctrl+C para terminar"
    try:
        server.run()
    except OSError as error:
        print(f"No se puede abrir {host}:{port}: {error.strerror or error}", file=sys.stderr)
        return 2
    return 0
