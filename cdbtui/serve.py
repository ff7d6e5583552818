"""`cdbtui serve PATH`: the players' view in a web browser, with textual-serve.

textual-serve starts one process of a command per browser tab and streams its
screen over a websocket; the command here is the players' view itself,
`<this python> -m cdbtui view <absolute path> [--grande]`, so a TV or the players'
phones on the same network follow the DJ's save like `cdbtui view` does, read-only.
The page accepts textual-serve's `?fontsize=N` (e.g. `?fontsize=24` on a TV).

What this module adds to textual-serve, so that a served save cannot be abused or
leave processes behind:

* **Origins.**  A websocket whose `Origin` is not this server (the address it is
  served on, `localhost` when that is loopback, this machine's LAN address and name
  when it is served on every interface, a numeric address the request itself came
  by) nor one the DJ allowed with `--origin` is refused with 403 before any process
  starts, and the DJ is told on stderr: a page elsewhere cannot open a view.  A
  client that sends no `Origin` at all is not a web page and is let in.
* **A cap.**  At most `--max N` visits at once (default 8); one more gets its
  websocket closed at once with code 1013 and a Spanish reason, which the page
  (textual-serve's, in Spanish, `localize_page`) shows.
* **Sizes.**  The screen a visitor asks for (`?width=…&height=…`, resize messages)
  is clamped to `MAX_WIDTH`×`MAX_HEIGHT`.
* **Process lifetime.**  Each visitor's view runs without a shell, in its own
  process group, and on Linux with `PR_SET_PDEATHSIG` so the kernel SIGKILLs it if
  `serve` dies, even by SIGKILL.  When its socket closes, the view is asked to quit
  and its group is SIGKILLed after `QUIT_GRACE` seconds; on SIGINT/SIGTERM every
  visit is closed the same way (with a shorter grace), within about a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import shlex
import signal
import socket
import sys
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: Hosts that mean "every interface": the URL printed then uses this machine's address.
WILDCARD_HOSTS = {"", "0.0.0.0", "::"}
#: Visits served at once unless `--max` says otherwise.
DEFAULT_MAX_VISITS = 8
#: The largest screen a visitor may ask for, in cells (a 4K TV at a small font fits).
MAX_WIDTH, MAX_HEIGHT = 500, 200
#: The smallest one (a degenerate size would only make the view paint nonsense).
MIN_WIDTH, MIN_HEIGHT = 10, 3
#: Seconds a visitor's view has to quit when its socket closes before it is SIGKILLed.
QUIT_GRACE = 1.0
#: The same when the whole server stops: `serve` must be gone within 2 s of SIGTERM.
SHUTDOWN_GRACE = 0.3
#: Seconds to wait for a browser to answer a websocket close.
CLOSE_TIMEOUT = 1.0
#: Seconds aiohttp waits for the request handlers once the visits are closed.
SHUTDOWN_TIMEOUT = 1.0
#: Distinct refused origins reported on stderr (a flood is reported once, not forever).
REPORTED_ORIGINS = 20

#: Close codes (RFC 6455) and the Spanish reasons the page shows.
GOING_AWAY, TRY_AGAIN_LATER = 1001, 1013
REASON_STOPPED = "El DJ ha cerrado la vista de jugadores."
REASON_FULL = "Ya hay {max} visitas abiertas: cierra otra pestaña y recarga."


# --- addresses and origins ---------------------------------------------------------

def canonical_host(host: str) -> str:
    """`host` as an address when it is a numeric one in any spelling (`127.1`,
    `0x7f.1`, `::0001`), else lowercased without a trailing dot.  Never resolves a
    name: `AI_NUMERICHOST` makes the system parse numbers only."""
    try:
        infos = socket.getaddrinfo(host, None, flags=socket.AI_NUMERICHOST)
    except (OSError, UnicodeError, ValueError):
        return host.lower().rstrip(".")
    return str(infos[0][4][0]).split("%", 1)[0]


def is_loopback(host: str) -> bool:
    """Whether serving on `host` reaches this machine only: `localhost`, any spelling
    of 127.x.y.z (`127.1` too), `::1`, `::ffff:127.x.y.z`.  A name is not resolved."""
    shown = canonical_host(host)
    if shown == "localhost" or shown.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(shown)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def origin_key(text: str) -> str | None:
    """`scheme://host:port` of an origin (or a URL), normalised for comparison: the
    scheme and host lowercased, a numeric host canonical, the port explicit.  None
    when it is not an http(s) origin (`null`, `file://…`, nonsense)."""
    try:
        parts = urllib.parse.urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    port = port or (443 if scheme == "https" else 80)
    return f"{scheme}://{_bracketed(canonical_host(parts.hostname))}:{port}"


def parse_origins(values: Iterable[str]) -> tuple[str, ...]:
    """The `--origin` values (each one or several separated by commas) as origin
    keys; ValueError with a Spanish message for one that is not `http(s)://host[:port]`."""
    found: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            key = origin_key(item)
            rest = urllib.parse.urlsplit(item) if key else None
            if key is None or rest is None or rest.path not in ("", "/") or rest.query \
                    or rest.fragment or rest.username or rest.password:
                raise ValueError(f"--origin necesita un origen como http://mesa.local:8000,"
                                 f" no «{item}»")
            found.append(key)
    return tuple(found)


def take_origins(args: list[str]) -> tuple[list[str], list[str]]:
    """(`--origin` values, the other arguments): the option may be repeated, as
    `--origin URL` or `--origin=URL`.  ValueError (Spanish) for one without a value."""
    values: list[str] = []
    rest: list[str] = []
    items = iter(args)
    for arg in items:
        if arg == "--origin":
            value = next(items, None)
            if value is None:
                raise ValueError("--origin necesita un valor")
            values.append(value)
        elif arg.startswith("--origin="):
            values.append(arg.partition("=")[2])
        else:
            rest.append(arg)
    return values, rest


def served_origins(host: str, port: int) -> set[str]:
    """The origins of pages this server itself serves, bound to `host`:`port`."""
    shown = canonical_host(host)
    names = {shown}
    if shown in WILDCARD_HOSTS:
        names = {"127.0.0.1", "::1", _lan_address(), socket.gethostname().lower()}
        names.add(f"{socket.gethostname().lower()}.local")
    if is_loopback(host) or shown in WILDCARD_HOSTS:
        names.add("localhost")
    keys = (origin_key(f"http://{_bracketed(name)}:{port}") for name in names if name)
    return {key for key in keys if key}


def origin_allowed(origin: str | None, host_header: str, allowed: set[str]) -> bool:
    """Whether a websocket with this `Origin` header may start a view.

    No header: not a browser page, let in.  An allowed origin: yes.  Otherwise only an
    origin that is a numeric address equal to the `Host` the request came by: the page
    was then loaded from this very listener (DNS rebinding needs a name, so a name is
    never trusted this way).
    """
    if origin is None:
        return True
    key = origin_key(origin)
    if key is None:
        return False
    if key in allowed:
        return True
    hostname = urllib.parse.urlsplit(key).hostname or ""
    try:
        ipaddress.ip_address(hostname)
    except ValueError:
        return False
    return key == origin_key(f"http://{host_header}")  # this server speaks plain http


def clamp_size(width: Any, height: Any) -> tuple[int, int]:
    """A visitor's requested screen size as whole cells within the allowed range
    (anything that is not a number becomes 80×24)."""
    def number(value: Any, default: int) -> int:
        try:
            return int(value)
        except (TypeError, ValueError, OverflowError):
            return default

    return (min(max(number(width, 80), MIN_WIDTH), MAX_WIDTH),
            min(max(number(height, 24), MIN_HEIGHT), MAX_HEIGHT))


# --- the command and the URL -------------------------------------------------------

def player_command(path: Path, *, large: bool = False) -> str:
    """The command textual-serve runs for each visitor (quoted for a shell; it is
    split back with `shlex` and run without one)."""
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
    shown = canonical_host(host)
    shown = _lan_address() if shown in WILDCARD_HOSTS else shown
    return f"http://{_bracketed(shown)}:{port}"


# --- visitors' processes -----------------------------------------------------------

def _parent_death_signal() -> Any:
    """A `preexec_fn` that has the kernel SIGKILL the child when `serve` dies
    (Linux `prctl(PR_SET_PDEATHSIG)`); None where that does not exist.

    The child checks its parent afterwards: if `serve` died between the fork and the
    `prctl`, no signal would ever come, so it exits at once.  The signal follows the
    thread that forked, here the event loop's (the main thread, alive as long as
    `serve`); the function only makes a system call, fine between fork and exec even
    with asyncio's child-watcher threads around.
    """
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()
    pr_set_pdeathsig = 1

    def tie_to_parent() -> None:
        prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return tie_to_parent


def _say(message: str) -> None:
    """One Spanish line for the DJ on stderr."""
    print(f"cdbtui: {message}", file=sys.stderr, flush=True)


PAGE_SCRIPT = """<script>
      // cdbtui: show why the websocket closed (full server, DJ stopped) in the dialog.
      (function () {
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) {
            super(...args);
            this.addEventListener("close", (event) => {
              const box = document.querySelector(".closed-dialog .message");
              if (box && event.reason) box.textContent = event.reason;
            });
          }
        };
      })();
    </script>
    """


def localize_page(html: str) -> str:
    """textual-serve's page in Spanish, showing the close reason (unchanged parts of
    the template are left as they are if a new textual-serve changes them)."""
    html = html.replace("<html>", '<html lang="es">', 1)
    html = html.replace(">Session ended.<", ">Sesión terminada.<")
    html = html.replace(">Restart<", ">Volver a entrar<")
    html = html.replace(">Start<", ">Entrar<")
    marker = '<script src="'
    if "js/textual.js" in html and marker in html:
        html = html.replace(marker, PAGE_SCRIPT + marker, 1)
    return html


def _server_class() -> type:
    """textual-serve's `Server`, adapted (imported late: only `serve` needs aiohttp)."""
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    class VisitorProcess(AppService):
        """One visitor's players' view: a process of its own that ends with its socket."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._ending: asyncio.Future[None] | None = None

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            """The view without a shell (its pid is the view's), in its own session and
            process group, SIGKILLed by the kernel if `serve` dies."""
            self._process = process = await asyncio.create_subprocess_exec(
                *shlex.split(self.command),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self._build_environment(width=width, height=height),
                start_new_session=True,
                preexec_fn=_parent_death_signal(),
            )
            assert process.stdin is not None
            self._stdin = process.stdin
            return process

        async def start(self, width: int, height: int) -> None:
            await super().start(*clamp_size(width, height))
            if self._ending is not None:  # the visit ended while the view was starting
                await self._end(SHUTDOWN_GRACE)

        async def set_terminal_size(self, width: int, height: int) -> None:
            await super().set_terminal_size(*clamp_size(width, height))

        async def on_data(self, payload: bytes) -> None:
            # Once the socket is gone the screen is dropped, but stdout keeps being
            # read: a view blocked writing to a full pipe would never see "quit".
            with contextlib.suppress(ConnectionError, RuntimeError):
                await super().on_data(payload)

        async def on_meta(self, data: bytes) -> None:
            with contextlib.suppress(ConnectionError, RuntimeError, ValueError, KeyError):
                await super().on_meta(data)

        async def run(self) -> None:
            """Relay the view's output; if the view ends by itself (`q`, a crash),
            close the socket so that the visit ends too, and say so if it failed."""
            await super().run()
            if self._ending is not None:
                return
            process = self._process
            with contextlib.suppress(Exception):
                assert process is not None
                status = await asyncio.wait_for(process.wait(), QUIT_GRACE)
                if status:
                    _say(f"la vista de un visitante terminó con error (código {status})")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.remote_close(), CLOSE_TIMEOUT)

        async def stop(self) -> None:
            await self.end()

        def kill(self) -> None:
            """SIGKILL the view's process group, if the view has not been reaped yet
            (until then its pid cannot have been reused)."""
            process = self._process
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)

        async def end(self, grace: float = QUIT_GRACE) -> None:
            """Ask the view to quit, SIGKILL its process group after `grace` seconds,
            reap it.  Safe to call more than once and from several tasks."""
            if self._ending is None:
                self._ending = asyncio.ensure_future(self._end(grace))
            await asyncio.shield(self._ending)

        async def _end(self, grace: float) -> None:
            process = self._process
            if process is None:
                return
            with contextlib.suppress(Exception):
                await self._download_manager.cancel_app_downloads(
                    app_service_id=self.app_service_id)
            if process.returncode is None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.send_meta({"type": "quit"}), grace)
                try:
                    await asyncio.wait_for(process.wait(), grace)
                except TimeoutError:
                    pass
            if process.returncode is None:
                self.kill()
                await process.wait()
            if self._task is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(self._task, grace + CLOSE_TIMEOUT)
                self._task = None

    class PlayerServer(Server):
        """textual-serve's server: quiet, Spanish, and hardened as the module says."""

        announce: str = ""

        def __init__(self, command: str, *, host: str, port: int, title: str,
                     origins: Iterable[str] = (), max_visits: int = DEFAULT_MAX_VISITS) -> None:
            super().__init__(command, host=host, port=port, title=title)
            self.allowed_origins = served_origins(host, port) | set(origins)
            self.max_visits = max_visits
            #: The visits in progress: their process and their socket.
            self.visits: dict[VisitorProcess, web.WebSocketResponse] = {}
            self.stopping = False
            self._reported: set[str] = set()

        def initialize_logging(self) -> None:
            logging.basicConfig(level=logging.WARNING, format="%(message)s")
            # Its English lines ("Application failed to start" when a view is ended
            # while starting) say nothing to a DJ; a view's own errors still show.
            logging.getLogger("textual-serve").setLevel(logging.CRITICAL)

        async def on_startup(self, app: web.Application) -> None:
            """No logo: the one line is printed once the port is really listening."""

        async def handle_index(self, request: web.Request) -> Any:
            # The page tells the browser where the websocket is: use the address the
            # browser came by (LAN IP, host name, localhost…), not the bind address.
            self.public_url = f"{request.scheme}://{request.host}"
            response = await super().handle_index(request)
            if isinstance(response, web.Response) and response.text is not None:
                response.text = localize_page(response.text)
            return response

        def _report_origin(self, origin: str) -> None:
            if origin in self._reported or len(self._reported) >= REPORTED_ORIGINS:
                return
            self._reported.add(origin)
            shown = origin_key(origin) or origin[:80]
            _say(f"visita rechazada desde {shown}: no es este servidor"
                 f" (si es tuyo: --origin {shown})")

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
            """One visit: check the origin and the cap, run a view, end it with the socket."""
            origin = request.headers.get("Origin")
            # The Host header itself: `request.host` would look up this machine's name without one.
            if not origin_allowed(origin, request.headers.get("Host", ""), self.allowed_origins):
                self._report_origin(origin or "")
                raise web.HTTPForbidden(text="cdbtui: origen no permitido\n")
            websocket = web.WebSocketResponse(heartbeat=15, timeout=CLOSE_TIMEOUT)
            if self.stopping or len(self.visits) >= self.max_visits:
                await websocket.prepare(request)
                reason = REASON_STOPPED if self.stopping else REASON_FULL.format(max=self.max_visits)
                if not self.stopping:
                    _say(f"visita rechazada: ya hay {self.max_visits} abiertas (--max)")
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(
                        code=GOING_AWAY if self.stopping else TRY_AGAIN_LATER,
                        message=reason.encode()), CLOSE_TIMEOUT)
                return websocket
            visitor = VisitorProcess(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.visits[visitor] = websocket  # counted before the first await
            try:
                await websocket.prepare(request)
                await visitor.start(request.query.get("width", 80), request.query.get("height", 24))
                await self._process_messages(websocket, visitor)
            except (asyncio.CancelledError, ConnectionError):
                pass
            except Exception as error:  # noqa: BLE001 - one line, never a traceback
                _say(f"error en una visita ({type(error).__name__}: {error})")
            finally:
                await visitor.end()
                self.visits.pop(visitor, None)
                if websocket.prepared and not websocket.closed:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(websocket.close(), CLOSE_TIMEOUT)
            return websocket

        async def _process_messages(self, websocket: web.WebSocketResponse,
                                    app_service: Any) -> None:
            """The browser's messages to the view; a malformed one is ignored."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope:
                    continue
                kind, data = envelope[0], (envelope[1] if len(envelope) > 1 else None)
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8"))
                elif kind == "resize" and isinstance(data, dict):
                    await app_service.set_terminal_size(data.get("width"), data.get("height"))
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

        async def on_shutdown(self, app: web.Application) -> None:
            """Close every visit at once, socket and process, in about a second: each
            view is asked to quit, and whatever still runs after twice `SHUTDOWN_GRACE`
            (a view already ending with the longer `QUIT_GRACE` too) is SIGKILLed."""
            self.stopping = True
            visits = list(self.visits.items())

            async def close(visitor: VisitorProcess, websocket: web.WebSocketResponse) -> None:
                async def say_goodbye() -> None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(websocket.close(
                            code=GOING_AWAY, message=REASON_STOPPED.encode()), CLOSE_TIMEOUT)

                await asyncio.gather(visitor.end(SHUTDOWN_GRACE), say_goodbye())

            closing = [asyncio.ensure_future(close(v, ws)) for v, ws in visits]
            if not closing:
                return
            _, pending = await asyncio.wait(closing, timeout=2 * SHUTDOWN_GRACE)
            for visitor, _ in visits:
                visitor.kill()
            if pending:
                await asyncio.wait(pending, timeout=CLOSE_TIMEOUT)

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
                shutdown_timeout=SHUTDOWN_TIMEOUT,
                print=lambda *_: print(self.announce, flush=True),
            )

    return PlayerServer


def serve(path: Path, host: str = "127.0.0.1", port: int = 8000, large: bool = False,
          origins: Iterable[str] = (), max_visits: int = DEFAULT_MAX_VISITS) -> int:
    """Serve the players' view of the save at `path` on http://host:port until Ctrl+C.

    `origins` are more origin keys (`parse_origins`) whose pages may open a view;
    `max_visits` caps the visits at once.  Prints one Spanish line with the URL once
    listening; returns the exit code (0 after Ctrl+C or SIGTERM, 2 when the port
    cannot be opened).
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
        origins=origins,
        max_visits=max_visits,
    )
    url = public_url(host, port)
    missing = "" if path.exists() else f" (aún no existe {path.name}: la vista la esperará)"
    server.announce = f"Vista de jugadores de {path.name}{missing} en {url} · Ctrl+C para terminar"
    try:
        server.run()
    except OSError as error:
        from .files import reason

        print(f"No se puede abrir {host}:{port}: {reason(error)}", file=sys.stderr)
        return 2
    return 0
