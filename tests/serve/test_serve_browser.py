"""A real browser at the table: headless Chromium from the system's packages opens a join
link, shows the encounter, takes keys, and sees the GM's roll arrive.

Chromium is driven over its DevTools protocol (a WebSocket, with aiohttp's client): no
Selenium, nothing that downloads a browser. Skipped, with the reason, where there is no
``/usr/bin/chromium`` (``make browser``, or ``apt-get install chromium``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from rules.commands import NextTurn
from tests.serve.serve_helpers import LIMIT, SECRET, roll, roll_logged, roll_title, until
from tests.serve.terminal import Terminal
from tests.serve.web_helpers import WebServed, seat_of, serve_web
from tracker.serve.seats import Seat

CHROMIUM = os.environ.get("TRACKER_CHROMIUM", "/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None,
    reason=f"no {CHROMIUM} for the real-browser test: `make browser` (as root) or "
    "`sudo apt-get install chromium`",
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-port=0",
    "--window-size=1000,700",
)

# Before the page's scripts: keep what arrives on the table's socket, as text, to read
# the screen back (xterm.js draws on a canvas, which holds no text to read).
RECORD = """
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  window.__received = "";
  window.WebSocket = function (url, protocols) {
    const socket = new Native(url, protocols);
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        window.__received += decoder.decode(new Uint8Array(event.data), { stream: true });
      }
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""


class DevTools:
    """One page of a Chromium, over the DevTools protocol."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.errors: list[str] = []  # exceptions thrown in the page, console errors
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data and data["id"] in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)
            elif data.get("method") == "Runtime.exceptionThrown":
                self.errors.append(json.dumps(data["params"]["exceptionDetails"])[:500])
            elif data.get("method") == "Log.entryAdded":
                entry = data["params"]["entry"]
                if entry.get("level") == "error":
                    self.errors.append(f"{entry.get('text', '')[:500]} {entry.get('url', '')}")

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        answer = self._waiting[number] = asyncio.get_running_loop().create_future()
        await self.ws.send_str(json.dumps({"id": number, "method": method, "params": params}))
        data = await asyncio.wait_for(answer, LIMIT)
        assert "error" not in data, data
        return data.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def key(self, key: str, text: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                text=text if kind == "keyDown" else "",
                windowsVirtualKeyCode=code,
            )


@contextlib.asynccontextmanager
async def chromium(profile: Path) -> AsyncIterator[DevTools]:
    # Chromium leaves an org.chromium.* folder in TMPDIR when it is killed, so it gets one of
    # its own, removed after. In /tmp, not the test's folder: there, a path 40 characters
    # longer, Chromium never came up (its sockets' paths have a short limit).
    scratch = tempfile.TemporaryDirectory(prefix="chromium-")
    process = await asyncio.create_subprocess_exec(
        CHROMIUM,
        *FLAGS,
        f"--user-data-dir={profile}",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": scratch.name},
    )
    try:
        active = profile / "DevToolsActivePort"
        await until(lambda: active.exists() and len(active.read_text().splitlines()) >= 2)
        port = int(active.read_text().splitlines()[0])
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/json/list") as response:
                targets = await response.json()
            page = next(t for t in targets if t["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.call("Runtime.enable")
                await tools.call("Log.enable")
                await tools.call("Page.enable")
                await tools.call("Page.addScriptToEvaluateOnNewDocument", source=RECORD)
                yield tools
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        scratch.cleanup()


async def screen(tools: DevTools, size: tuple[int, int]) -> str:
    """What the page's terminal shows: what it was sent, through a VT emulator."""
    terminal = Terminal(size)
    terminal.receive(await tools.evaluate("window.__received || ''"))
    return terminal.text()


async def sit_down(web: WebServed, tools: DevTools, url: str) -> Seat:
    """Alice's seat, once the page at her link has sat down and its app runs."""
    await tools.call("Page.navigate", url=url)
    await until(lambda: seat_of(web, "Alice") is not None)
    seat = seat_of(web, "Alice")
    assert seat is not None
    await until(lambda: seat.app is not None and seat.app.is_running)
    return seat


async def test_a_player_joins_from_a_link_in_chromium(tmp_path: Path) -> None:
    web: WebServed = await serve_web(tmp_path)
    served = web.served
    try:
        url = web.url(web.link())
        async with chromium(tmp_path / "profile") as tools:
            seat = await sit_down(web, tools, url)
            size = tuple(seat.app.size)  # type: ignore[union-attr]  # what the page's terminal fits
            assert size[0] > 40 and size[1] > 10

            async def shows(text: str) -> bool:
                return text in await screen(tools, size)  # type: ignore[arg-type]

            async def until_shown(text: str) -> None:
                try:
                    await until(lambda: shows(text))
                except AssertionError:
                    shown = await screen(tools, size)  # type: ignore[arg-type]
                    raise AssertionError(f"{text!r} never shown:\n{shown}") from None

            await until_shown("Roll log")
            assert await shows("Orla") and not await shows(SECRET)
            # textual.js wrote the frames into its terminal, on the page's font.
            assert await tools.evaluate("document.body.classList.contains('-first-byte')")
            assert await tools.evaluate("document.fonts.check(\"16px 'Roboto Mono'\")")
            # The GM rolls: it arrives.
            ids = served.ids
            served.session.execute(roll(served.session.state, ids["Goblin"], ids["Brak"]))
            await until_shown(roll_logged(served.session))
            # She plays her combatant with the keyboard, into xterm.js.
            await tools.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
            await tools.key("r", "r", 82)
            title = roll_title(served.session.state)
            await until_shown(title)
            await tools.key("Enter", "\r", 13)
            await until(lambda: served.session.history.records[-1].label == title)
            await until_shown(roll_logged(served.session))
            assert roll_logged(served.session).startswith("Orla")
            assert tools.errors == []
            # The tab closes: the seat is free.
            await tools.call("Page.navigate", url="about:blank")
            await until(lambda: not served.table.seats)
    finally:
        await web.close()


# Before the page's scripts: a Notification the player has allowed, that keeps what it shows.
NOTIFICATIONS = """
window.__shown = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(words) { window.__shown.push(words); }
};
"""


async def test_a_browser_seat_flashes_its_title_and_notifies_its_turn(tmp_path: Path) -> None:
    web: WebServed = await serve_web(tmp_path)
    served = web.served
    try:
        url = web.url(web.link())
        async with chromium(tmp_path / "profile") as tools:
            await tools.call("Page.addScriptToEvaluateOnNewDocument", source=NOTIFICATIONS)
            await sit_down(web, tools, url)
            plain = await tools.evaluate("document.title")
            assert plain == "Alice at the table"
            for _ in range(4):  # round to Orla, Alice's, again
                served.session.execute(NextTurn())

            async def flashed() -> bool:
                return await tools.evaluate("document.title") == "Your turn: Orla"

            await until(flashed)
            if not await tools.evaluate("document.hasFocus()"):
                shown = await tools.evaluate("window.__shown")
                assert shown == ["Up next: Orla", "Your turn: Orla"]  # each once
            assert tools.errors == []
    finally:
        await web.close()
