"""`tracker serve --web`: the join links printed at start, and one line for what it cannot use."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.serve.serve_helpers import LIMIT
from tests.serve.test_serve_cli import one_line, serve, table  # noqa: F401  # a fixture


@pytest.fixture
def linked(table: tuple[Path, Path]) -> tuple[Path, Path]:  # noqa: F811  # the fixture above
    save, players = table
    players.write_text(players.read_text() + "\nplayer:Cara link\nspectator:Table link\n")
    return save, players


def test_links_need_web(
    tmp_path: Path,
    linked: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    save, players = linked
    assert serve(tmp_path, str(save), "--players", str(players)) == 2
    line = one_line(capsys)
    assert "join links (Cara)" in line and "--web" in line


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--web", "8080", "is not HOST:PORT for --web"),
        ("--web", "host:99999", "is not HOST:PORT for --web"),
        ("--web-url", "ftp://table", "--web-url"),
        ("--web-url", "http://table/?x=1", "--web-url"),
        ("--web-url", "http://[::1", "'http://[::1' is not an http"),
        ("--web-url", "http://[zz]", "'http://[zz]' is not an http"),
        ("--web-url", "http://a b", "'http://a b' is not an http"),
        ("--web-url", "http://h:99999", "'http://h:99999' is not an http"),
        ("--listen", "[zz]:2222", "is not HOST:PORT for --listen"),
        ("--listen", "a b:2222", "is not HOST:PORT for --listen"),
    ],
)
def test_bad_web_options_are_one_line(
    tmp_path: Path,
    linked: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    option: str,
    value: str,
    says: str,
) -> None:
    save, players = linked
    extra = ["--web", "127.0.0.1:0"] if option == "--web-url" else []
    code = serve(tmp_path, str(save), "--players", str(players), *extra, option, value)
    assert code == 2
    assert says in one_line(capsys)


def test_a_taken_web_port_is_one_line(
    tmp_path: Path,
    linked: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    save, players = linked
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["--players", str(players), "--listen", "127.0.0.1:0", "--headless"]
        code = serve(tmp_path, str(save), *args, "--web", f"127.0.0.1:{port}")
    assert code == 2
    assert "(--web)" in one_line(capsys)


async def test_the_links_are_printed_and_open_the_table(
    tmp_path: Path,
    linked: tuple[Path, Path],
) -> None:
    save, players = linked
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tracker",
        "serve",
        str(save),
        "--saves",
        str(tmp_path),
        "--players",
        str(players),
        "--host-key",
        str(tmp_path / "host_key"),
        "--listen",
        "127.0.0.1:0",
        "--web",
        "127.0.0.1:0",
        "--headless",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        lines = [
            (await asyncio.wait_for(process.stdout.readline(), LIMIT)).decode().split()
            for _ in range(2)
        ]
        assert [words[0] for words in lines] == ["player:Cara", "spectator:Table"]
        url = lines[0][1]
        assert url.startswith("http://127.0.0.1:") and "/join/" in url
        token = url.rsplit("/", 1)[1]
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as response:
                assert response.status == 200
            async with http.get(url[:-1]) as response:
                assert response.status == 403
    finally:
        process.send_signal(signal.SIGINT)
        code = await asyncio.wait_for(process.wait(), LIMIT)
    err = (await process.stderr.read()).decode()
    assert code == 0, err
    assert "browsers at http://127.0.0.1:" in err
    assert token not in err  # never in what is logged
