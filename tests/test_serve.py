"""`cdbtui.serve`: the players' view served to a browser with textual-serve.

The server runs in a subprocess on a free port of 127.0.0.1 (loopback only), is
polled until it answers, and is stopped with SIGTERM.  Visitors' processes are found
in /proc as the server's children running `cdbtui view` (Linux); the websocket tests
speak the handshake over a plain socket, so a visitor can also just drop.
"""

from __future__ import annotations

import asyncio
import base64
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cdbtui.engine.session import Session
from cdbtui import cli
from cdbtui.serve import (MAX_HEIGHT, MAX_WIDTH, clamp_size, origin_allowed, parse_origins,
                          player_command, public_url, served_origins, take_origins)
from cdbtui.store import save

HOST = "127.0.0.1"
DEMO = Path(__file__).parents[1] / "cdbtui" / "demo" / "puerto.txt"


def demo_lines() -> list[str]:
    """The bundled demo fight's command lines (not imported from `conftest`: two
    modules have that name in this suite)."""
    lines = (line.strip() for line in DEMO.read_text("utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def demo_save(path: Path) -> Path:
    session = Session.new("puerto", "cdb", 0)
    for line in demo_lines():
        session.execute(line)
    save(path, session)
    return path


def start_server(path: Path, port: int, *options: str, large: bool = False) -> subprocess.Popen:
    """`cdbtui serve PATH --port N [OPTIONS]` as a DJ types it (the host defaults to
    127.0.0.1)."""
    command = [sys.executable, "-m", "cdbtui", "serve", str(path), "--port", str(port), *options]
    return subprocess.Popen(
        command + (["--grande"] if large else []),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def get(url: str) -> tuple[int, str, str] | None:
    """(status, content type, body) of a GET, or None while nobody answers."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read().decode()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def wait_for_page(process: subprocess.Popen, url: str, rounds: int = 150):
    for _ in range(rounds):
        if process.poll() is not None:
            break
        answer = get(url)
        if answer is not None:
            return answer
        time.sleep(0.1)  # waiting for the server to come up, not measuring it
    return None


def stop(process: subprocess.Popen) -> tuple[str, str]:
    process.terminate()
    try:
        return process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise


@pytest.fixture
def served(tmp_path):
    """A server on the demo save: (process, base URL); stopped at the end if still up."""
    port = free_port()
    process = start_server(demo_save(tmp_path / "puerto.toml"), port)
    yield process, f"http://{HOST}:{port}"
    if process.poll() is None:
        process.kill()
        process.communicate()


def test_serve_answers_with_the_page_and_stops_on_sigterm(served):
    process, url = served
    answer = wait_for_page(process, url + "/")
    assert answer is not None, process.stderr.read() if process.poll() is not None else "no answer"
    status, content_type, body = answer
    assert status == 200 and content_type.startswith("text/html")
    assert "<html" in body.lower()
    assert f"ws://{HOST}:{url.rsplit(':', 1)[1]}/ws" in body  # the websocket of this address
    assert "Sesión terminada." in body and "event.reason" in body  # the close reason shows
    out, _ = stop(process)
    assert process.returncode == 0
    assert get(url + "/") is None
    (line,) = [line for line in out.splitlines() if line.strip()]
    assert line.startswith("Vista de jugadores de puerto.toml en ") and url in line


def test_a_browser_visit_runs_the_player_view(served):
    """The websocket starts the served command: the players' view of the save."""
    import aiohttp  # installed with textual-serve
    process, url = served
    assert wait_for_page(process, url + "/") is not None

    async def screen_bytes() -> bytes:
        data = b""
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(url + "/ws?width=120&height=36") as websocket:
                try:
                    async with asyncio.timeout(30):
                        async for message in websocket:
                            if message.type == aiohttp.WSMsgType.BINARY:
                                data += message.data
                            if "Actúa: Mike".encode() in data:
                                break
                except TimeoutError:
                    pass
        return data

    data = asyncio.run(screen_bytes())
    assert "Actúa: Mike".encode() in data and b"Emboscada en el puerto" in data
    stop(process)
    assert process.returncode == 0


def test_a_busy_port_is_one_spanish_line_and_status_2(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = start_server(demo_save(tmp_path / "puerto.toml"), port)
        try:
            _, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 2
    assert err.strip().splitlines()[-1].startswith(f"No se puede abrir {HOST}:{port}")


def test_the_served_command_is_this_python_viewing_the_absolute_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    odd = Path("con espacios y 'comillas'.toml")
    words = shlex.split(player_command(odd))
    assert words == [sys.executable, "-m", "cdbtui", "view", str(tmp_path / odd)]
    assert shlex.split(player_command(odd, large=True))[-1] == "--grande"


def test_public_url_keeps_a_named_host_and_brackets_ipv6():
    assert public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert public_url("::1", 8080) == "http://[::1]:8080"


# --- hardening: origins, the cap, sizes, process lifetime ------------------------------

def test_origins_are_normalised_and_only_this_server_or_added_ones_pass():
    assert parse_origins(["http://Mesa.Example:9000,https://tv.example/", "http://127.1"]) == (
        "http://mesa.example:9000", "https://tv.example:443", "http://127.0.0.1:80")
    for bad in ("mesa.example", "ftp://mesa.example", "http://mesa.example/ruta", "null", ""):
        with pytest.raises(ValueError, match="--origin necesita un origen"):
            parse_origins([bad])
    assert take_origins(["a.toml", "--origin", "http://x", "--origin=http://y", "--port", "1"]) == (
        ["http://x", "http://y"], ["a.toml", "--port", "1"])
    ours = served_origins("127.0.0.1", 8000)
    assert ours == {"http://127.0.0.1:8000", "http://localhost:8000"}
    assert origin_allowed("http://localhost:8000", "localhost:8000", ours)
    assert {"http://127.0.0.1:8000", "http://localhost:8000"} < served_origins("0.0.0.0", 8000)
    assert origin_allowed(None, "127.0.0.1:8000", ours)  # no Origin: not a web page
    for foreign in ("http://evil.example", "http://127.0.0.1:8001", "https://127.0.0.1:8000",
                    "null", "file://"):
        assert not origin_allowed(foreign, "127.0.0.1:8000", ours)
    # A numeric origin equal to the Host the request came by is this very listener
    # (on every interface, by the LAN address); a name never is (DNS rebinding).
    assert origin_allowed("http://192.168.1.5:8000", "192.168.1.5:8000", set())
    assert not origin_allowed("http://evil.example:8000", "evil.example:8000", set())


def test_sizes_are_clamped():
    assert clamp_size("3000", "3000") == (MAX_WIDTH, MAX_HEIGHT) == (500, 200)
    assert clamp_size(120, 36) == (120, 36)
    assert clamp_size(-5, "x")[0] >= 1 and clamp_size(None, None) == (80, 24)


def test_loopback_in_any_spelling_and_an_empty_host_is_a_usage_error(tmp_path, capsys):
    for host in ("127.1", "127.0.0.1", "0x7f.1", "::1", "::ffff:127.0.0.1", "localhost"):
        assert cli._is_loopback(host), host
    for host in ("0", "0.0.0.0", "::", "192.168.1.5", "example.com"):
        assert not cli._is_loopback(host), host
    path = demo_save(tmp_path / "puerto.toml")
    for args in (["--host", ""], ["--host="], ["--max", "0"], ["--origin", "mesa"], ["--origin"]):
        assert cli.main(["serve", str(path), *args]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith("cdbtui: ")
        assert "se sirve en ," not in err


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process from /proc, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rpartition(")")[2].split()[:2]
    return state, int(ppid)


def alive(pid: int) -> bool:
    """Whether `pid` still runs (a zombie has ended: only its exit status is left)."""
    stat = proc_stat(pid)
    return stat is not None and stat[0] != "Z"


def visitor_pids(server_pid: int) -> set[int]:
    """The live `cdbtui view` processes started by the server."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        stat = proc_stat(int(entry.name))
        if stat is None or stat[1] != server_pid or stat[0] == "Z":
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"cdbtui" in words and b"view" in words:
            found.add(int(entry.name))
    return found


def wait_until(condition, seconds: float = 30.0, step: float = 0.05):
    """Poll `condition()` until it is truthy (returned) or `seconds` pass (None)."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value or None
        time.sleep(step)


class Visit:
    """A websocket to the server over a plain socket: the handshake, frames read, and
    either a proper close or just dropping the connection."""

    def __init__(self, port: int, query: str = "", origin: str | None = None) -> None:
        self.socket = socket.create_connection((HOST, port), timeout=10)
        lines = [f"GET /ws{query} HTTP/1.1", f"Host: {HOST}:{port}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}",
                 "Sec-WebSocket-Version: 13"]
        if origin is not None:
            lines.append(f"Origin: {origin}")
        self.socket.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer and self._more():
            pass
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0

    def _more(self) -> bool:
        try:
            chunk = self.socket.recv(65536)
        except (TimeoutError, OSError):
            return False
        self.buffer += chunk
        return bool(chunk)

    def frame(self) -> tuple[int, bytes] | None:
        """The next (opcode, payload) from the server, None when the socket ends first."""
        while True:
            data = self.buffer
            if len(data) >= 2:
                size, start = data[1] & 0x7F, 2  # server frames are not masked
                if size >= 126:
                    start = 4 if size == 126 else 10
                    size = int.from_bytes(data[2:start], "big") if len(data) >= start else -1
                if size >= 0 and len(data) >= start + size:
                    self.buffer = data[start + size:]
                    return data[0] & 0x0F, data[start:start + size]
            if not self._more():
                return None

    def first_screen(self) -> bool:
        """Read until the view's first screen bytes arrive (bounded: 200 frames)."""
        for _ in range(200):
            frame = self.frame()
            if frame is None or frame[0] == 0x8:
                return False
            if frame[0] == 0x2 and len(frame[1]) > 200:  # a screen, not a mode switch
                return True
        return False

    def close_frame(self) -> tuple[int, str] | None:
        """The server's close (code, reason), skipping other frames (bounded)."""
        for _ in range(200):
            frame = self.frame()
            if frame is None:
                return None
            if frame[0] == 0x8:
                return int.from_bytes(frame[1][:2], "big"), frame[1][2:].decode()
        return None

    def close(self) -> None:
        """A browser closing the tab: a (masked) close frame, then the socket."""
        with_mask = bytes([0x88, 0x82]) + b"\0\0\0\0" + (1000).to_bytes(2, "big")
        try:
            self.socket.sendall(with_mask)
        except OSError:
            pass
        self.drop()

    def drop(self) -> None:
        """A phone leaving the network: the connection just ends, no close frame."""
        self.socket.close()


@pytest.fixture
def server_on(tmp_path):
    """Start `cdbtui serve` with options: `server_on(*options)` -> (process, port).
    Every server started is killed at the end if still up."""
    started: list[subprocess.Popen] = []

    def start(*options: str) -> tuple[subprocess.Popen, int]:
        port = free_port()
        process = start_server(demo_save(tmp_path / "puerto.toml"), port, *options)
        started.append(process)
        answer = wait_for_page(process, f"http://{HOST}:{port}/")
        assert answer is not None, process.communicate(timeout=15) if process.poll() is not None else "no answer"
        return process, port

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_127_1_is_served_without_a_warning(server_on):
    process, port = server_on("--host", "127.1")
    out, err = stop(process)
    assert process.returncode == 0 and "aviso" not in err
    assert f"http://127.0.0.1:{port}" in out


def test_a_foreign_origin_is_refused_and_ours_and_added_ones_are_served(server_on):
    process, port = server_on("--origin", "http://mesa.example:9000,http://tv.example",
                              "--origin=https://otra.example")
    refused = Visit(port, origin="http://evil.example")
    assert refused.status == 403
    refused.drop()
    assert visitor_pids(process.pid) == set()  # refused before any process started
    for origin in (f"http://{HOST}:{port}", f"http://localhost:{port}", "http://mesa.example:9000",
                   "http://tv.example", "https://otra.example", None):
        visit = Visit(port, origin=origin)
        assert visit.status == 101, origin
        visit.close()
    assert Visit(port, origin="http://tv.example:8080").status == 403  # another port, another origin
    out, err = stop(process)
    assert process.returncode == 0 and "Traceback" not in err
    assert "visita rechazada desde http://evil.example:80" in err and "--origin" in err


def test_one_visit_past_the_cap_is_refused_in_spanish_without_a_process(server_on):
    process, port = server_on("--max", "2")
    first, second = Visit(port), Visit(port)
    assert first.status == second.status == 101
    pids = wait_until(lambda: (found := visitor_pids(process.pid)) and len(found) == 2 and found)
    assert pids is not None and len(pids) == 2
    third = Visit(port)
    assert third.status == 101
    code, reason = third.close_frame()
    assert code == 1013 and reason.startswith("Ya hay 2 visitas abiertas")
    third.drop()
    assert visitor_pids(process.pid) == pids  # no process for the refused visit
    first.close()  # one leaves: a place frees up once its process is reaped

    def let_in() -> Visit | None:
        visit = Visit(port)
        if visit.status == 101 and visit.first_screen():
            return visit
        visit.drop()
        return None

    fourth = wait_until(let_in, 30, step=0.1)
    assert fourth is not None
    fourth.close()
    second.close()
    out, err = stop(process)
    assert process.returncode == 0 and "Traceback" not in err
    assert "visita rechazada: ya hay 2 abiertas" in err


def test_a_visitor_process_ends_when_its_socket_closes_or_drops(server_on):
    process, port = server_on()
    polite = Visit(port, "?width=120&height=36")
    assert polite.status == 101 and polite.first_screen()
    (pid,) = visitor_pids(process.pid)
    polite.close()
    assert wait_until(lambda: not alive(pid), 15) is not None

    greedy = Visit(port, "?width=3000&height=3000")  # asks for a huge screen, then drops
    assert greedy.status == 101 and greedy.first_screen()
    (pid,) = visitor_pids(process.pid)
    environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert b"COLUMNS=500" in environment and b"ROWS=200" in environment  # clamped
    greedy.drop()
    assert wait_until(lambda: not alive(pid), 15) is not None
    out, err = stop(process)
    assert process.returncode == 0 and "Traceback" not in err


def test_sigterm_with_a_visitor_takes_everything_down_within_two_seconds(server_on):
    process, port = server_on()
    visit = Visit(port)
    assert visit.status == 101 and visit.first_screen()
    (pid,) = visitor_pids(process.pid)
    started = time.monotonic()
    process.terminate()
    gone = wait_until(lambda: process.poll() is not None and not alive(pid), 10, step=0.02)
    elapsed = time.monotonic() - started
    assert gone is not None and elapsed < 2.0, f"{elapsed:.2f} s"
    _, err = process.communicate(timeout=15)
    assert process.returncode == 0 and "Traceback" not in err
    assert visit.close_frame() == (1001, "El DJ ha cerrado la vista de jugadores.")
    visit.drop()


def test_visitors_do_not_outlive_a_server_killed_with_sigkill(server_on):
    process, port = server_on()
    visit = Visit(port)
    assert visit.status == 101 and visit.first_screen()
    (pid,) = visitor_pids(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=15)
    assert wait_until(lambda: not alive(pid), 15) is not None
    visit.drop()
