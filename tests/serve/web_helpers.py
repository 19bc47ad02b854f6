"""Browser seats for the serve tests: a served table with ``--web`` on loopback, and a
WebSocket client that speaks as textual.js does, its terminal a VT emulator."""

from __future__ import annotations

import asyncio
import codecs
import json
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from tests.serve.serve_helpers import Served, serve, until
from tests.serve.terminal import Terminal
from tracker.serve.links import Link
from tracker.serve.seats import Seat
from tracker.serve.web import BrowserSeat, WebServer


@dataclass
class WebServed:
    served: Served
    web: WebServer
    http: aiohttp.ClientSession

    def link(self, role: str = "player", name: str = "Alice") -> Link:
        return self.served.table.links.make(role, name)  # type: ignore[arg-type]

    def url(self, link: Link) -> str:
        return self.served.table.links.url(link)

    async def close(self) -> None:
        await self.http.close()
        self.served.server.close()
        await self.web.close()
        await self.served.server.wait_closed()


async def serve_web(tmp_path: Path, **config: object) -> WebServed:
    served = await serve(tmp_path, **config)
    web = WebServer(served.server, "127.0.0.1", 0)
    await web.start()
    return WebServed(served, web, aiohttp.ClientSession())


class Browser:
    """What textual.js does with a join link's socket: JSON packets out, frames in."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, size: tuple[int, int]) -> None:
        self.ws = ws
        self.texts: list[object] = []  # the JSON packets the server sent (pongs)
        self.terminal = Terminal(size)
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def join(
        cls, web: WebServed, link: Link, size: tuple[int, int] = (100, 30), wait: bool = True
    ) -> Browser:
        socket = web.url(link).replace("/join/", "/ws/")
        ws = await web.http.ws_connect(f"{socket}?width={size[0]}&height={size[1]}")
        browser = cls(ws, size)
        if wait:
            await until(lambda: "Roll log" in browser.text() and "palette" in browser.text())
        return browser

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.terminal.receive(self._decoder.decode(message.data))
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(json.loads(message.data))

    @property
    def closed(self) -> bool:
        return self._reader.done()

    @property
    def output(self) -> str:
        """Every character the server sent."""
        return self.terminal.output

    def text(self) -> str:
        return self.terminal.text()

    async def send(self, *packet: object) -> None:
        await self.ws.send_str(json.dumps(list(packet)))

    async def type(self, keys: str) -> None:
        await self.send("stdin", keys)

    async def resize(self, width: int, height: int) -> None:
        self.terminal.resize(width, height)
        await self.send("resize", {"width": width, "height": height})

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


def seat_of(web: WebServed, name: str) -> Seat | None:
    return web.served.table.named(name)


def channel_of(web: WebServed, name: str) -> BrowserSeat:
    seat = seat_of(web, name)
    found = [c for c in web.served.server.web_seats if c.seat is seat and seat is not None]
    assert found, f"no browser seat for {name}"
    channel = found[0]
    assert isinstance(channel, BrowserSeat)
    return channel


__all__ = ["Browser", "WebServed", "channel_of", "seat_of", "serve_web", "until"]
