"""`cdbtui.serve`: the players' view served to a browser with textual-serve.

The server runs in a subprocess on a free port of 127.0.0.1 (loopback only), is
polled until it answers, and is stopped with SIGTERM.
"""

from __future__ import annotations

import asyncio
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cdbtui.engine.session import Session
from cdbtui.serve import player_command, public_url
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


def start_server(path: Path, port: int, *, large: bool = False) -> subprocess.Popen:
    """`cdbtui serve PATH --port N` as a DJ types it (the host defaults to 127.0.0.1)."""
    command = [sys.executable, "-m", "cdbtui", "serve", str(path), "--port", str(port)]
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
