"""Browser seats: the table over HTTP and WebSocket, in the process that serves it over SSH.

A join link (tracker/serve/links.py) opens a page with the terminal that ships in the
``textual-serve`` package (its ``textual.js``, xterm.js inside, and fonts, served from the
installed package: nothing is fetched from elsewhere). The page's WebSocket is bridged to
a seat exactly like an SSH session's channel: a ``SeatChannel`` whose channel is the
socket. What the seat's app draws goes out as binary frames; the page sends JSON packets,
``["stdin", text]`` (keys, mouse, pastes: terminal input, as an SSH client types it),
``["resize", {"width": W, "height": H}]``, ``["ping", text]``, ``["focus"]``, ``["blur"]``.

The bounds are an SSH seat's (tracker/serve/limits.py): the size clamp, the input rate
(every packet counted as an event before it is read; a paste, one packet, cut to the
input's burst with a line, as an SSH seat's is; the typed text then through the seat's own
driver; the other packets' bytes counted), ``max_seats``, the idle timeout and the flood
cooldown. A browser that does not take its frames is closed before they pile up. Tokens
are in URLs only: the access log is off and aiohttp's own logs go nowhere.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import html
import ipaddress
import logging
import socket
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import textual_serve
from aiohttp import WSMsgType, web

from tracker.serve.channel import SeatChannel
from tracker.serve.limits import MAX_PASTE, InputLimit, clamp_size
from tracker.serve.links import Link
from tracker.serve.players import Player
from tracker.serve.server import TableServer

# aiohttp's logs name the requested paths, and a path holds a token: they go nowhere.
logging.getLogger("aiohttp").addHandler(logging.NullHandler())
logging.getLogger("aiohttp").propagate = False

STATIC = Path(textual_serve.__file__).parent / "static"
# Bytes in one WebSocket message beyond which aiohttp closes the socket (it reads a message
# whole, or not at all). A paste is one message: up to this size, as the page escapes it in
# JSON (a paste of plain text this long, a paste of control characters a sixth of it), it
# is read and cut to the input's burst, with a line; beyond, the socket closes.
MAX_PACKET = MAX_PASTE
BACKLOG = 4 * 1024 * 1024  # bytes of frames a browser has not taken before it is closed
SLOW = "Closed: this browser could not keep up with the table."
HEARTBEAT = 30.0  # seconds between pings: a phone gone to sleep frees its seat
CLOSE_TIMEOUT = 5.0  # seconds a browser has to answer the closing of its socket
MAX_PING = 64  # characters of a ping's text echoed back
FONT_SIZES = (6, 40)  # the page's ?fontsize= bounds
NO_SEAT = "No seat at this table for this link: ask the GM for a new one.\n"


class Stdin(msgspec.Struct, array_like=True, tag="stdin"):
    data: str


class Size(msgspec.Struct):
    width: int
    height: int


class Resize(msgspec.Struct, array_like=True, tag="resize"):
    size: Size


class Ping(msgspec.Struct, array_like=True, tag="ping"):
    data: str


class Focus(msgspec.Struct, array_like=True, tag="focus"):
    pass


class Blur(msgspec.Struct, array_like=True, tag="blur"):
    pass


Packet = Stdin | Resize | Ping | Focus | Blur
PACKETS = msgspec.json.Decoder(Packet)

# Sets the socket's address and the font size, then loads textual.js once the font is
# there (xterm measures its cells when it opens). No token in it: it reads the page's path.
BOOT = (
    """
const plainTitle = document.title;
let flashing = 0;
function stopFlashing() { clearInterval(flashing); document.title = plainTitle; }
function alerted(words) {
  stopFlashing();
  let shown = false, times = 0;
  flashing = setInterval(() => {
    shown = !shown;
    document.title = shown ? words : plainTitle;
    if (++times >= 20 && document.hasFocus()) stopFlashing();
  }, 700);
  if ("Notification" in window && Notification.permission === "granted" && !document.hasFocus()) {
    new Notification(words, { tag: "tracker-turn" });
  }
}
window.addEventListener("focus", stopFlashing);
/* Asked once, on the first key (a browser asks only on something the player did). */
document.addEventListener("keydown", () => {
  if ("Notification" in window && Notification.permission === "default") {
    Notification.requestPermission();
  }
}, { capture: true, once: true });
/* The turn alerts come as packets of their own on the terminal's socket. */
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(url, protocols) {
    super(url, protocols);
    this.addEventListener("message", (e) => {
      if (typeof e.data !== "string" || !e.data.startsWith('["alert"')) return;
      const packet = JSON.parse(e.data);
      if (typeof packet[1] === "string") alerted(packet[1]);
    });
  }
};
const terminal = document.getElementById("terminal");
const scheme = location.protocol === "https:" ? "wss:" : "ws:";
terminal.dataset.sessionWebsocketUrl =
  scheme + "//" + location.host + location.pathname.replace(/^\\/join\\//, "/ws/");
const asked = parseInt(new URLSearchParams(location.search).get("fontsize"), 10);
const fits = Math.floor(window.innerWidth / 48);  /* 80 columns, when the screen allows */
const size = asked >= %d && asked <= %d ? asked : Math.min(16, Math.max(9, fits));
terminal.dataset.fontSize = String(size);
document.fonts.load(size + "px 'Roboto Mono'").finally(() => {
  const script = document.createElement("script");
  script.src = "/static/js/textual.js";
  script.onload = () => {
    if (document.readyState === "complete" && window.onload) window.onload(new Event("load"));
  };
  document.head.appendChild(script);
});
""".strip()
    % FONT_SIZES
)

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title)s</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<style>
@font-face {
  font-family: "Roboto Mono";
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
  font-weight: 100 700;
}
@font-face {
  font-family: "Roboto Mono";
  src: url("/static/fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype");
  font-style: italic;
  font-weight: 100 700;
}
html, body { height: 100%%; margin: 0; overflow: hidden; background: #0c181f; }
#terminal { position: absolute; inset: 0; }
#closed {
  display: none; position: fixed; left: 0; right: 0; bottom: 0; z-index: 10;
  padding: 0.5em 1em; background: #5e0ba7; color: #fff; font: 16px sans-serif;
}
body.-closed #closed { display: block; }
</style>
</head>
<body>
<div id="terminal" class="textual-terminal"></div>
<div id="closed">Your seat has closed. Reload the page to sit down again.</div>
<script>%(boot)s</script>
</body>
</html>
"""

SCRIPT_HASH = base64.b64encode(hashlib.sha256(BOOT.encode()).digest()).decode()
HEADERS = {
    # The page runs its one script and the package's, talks only to this server, and may
    # not be framed by another site.
    "Content-Security-Policy": (
        f"default-src 'self'; script-src 'self' 'sha256-{SCRIPT_HASH}'; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
# Every response, whatever it is (a file, a refusal, the socket's upgrade): not to be framed.
NO_FRAMING = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": HEADERS["Referrer-Policy"],
    "X-Content-Type-Options": HEADERS["X-Content-Type-Options"],
}
DEFAULT_PORTS = {"http": 80, "https": 443}


def page(link: Link) -> str:
    title = html.escape(f"{link.name} at the table", quote=True)
    return PAGE % {"title": title, "boot": BOOT}


def public_host(host: str) -> str:
    """The host to put in a link: the listening one, or (listening on every address) this
    machine's address on its network, as other machines reach it."""
    try:
        unspecified = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host
    if not unspecified:
        return f"[{host}]" if ":" in host else host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: only a route is chosen
        return str(probe.getsockname()[0])
    return socket.gethostname()


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` as a browser sends it in ``Origin`` ('' if none)."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return ""
    if not parts.scheme or not parts.hostname:
        return ""
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown = f":{port}" if port is not None and port != DEFAULT_PORTS.get(parts.scheme) else ""
    return f"{parts.scheme.lower()}://{host.lower()}{shown}"


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def is_loopback(host: str) -> bool:
    """``host`` (a name, or an address, IPv6 with or without brackets) is this machine
    itself, reached without a network."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def with_aliases(origin: str) -> set[str]:
    """``origin`` and, when its host is the loopback, the same page under the loopback's
    other names: a browser on this machine may say any of them."""
    if not origin:
        return set()
    scheme, _, rest = origin.partition("://")
    host, port = rest, ""
    if not rest.endswith("]") and ":" in rest:
        host, _, port = rest.rpartition(":")
    if not is_loopback(host):
        return {origin}
    shown = f":{port}" if port else ""
    return {origin} | {f"{scheme}://{name}{shown}" for name in LOOPBACK_NAMES}


def to_int(text: str | None, default: int) -> int:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 6:
        return default
    return int(text)


class Socket:
    """A browser's WebSocket as a seat's channel: what the seat draws is queued and sent
    in order as binary frames, as fast as the browser takes them."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self._frames: list[bytes | str] = []
        self._queued = 0
        self._wake = asyncio.Event()
        self._closing = False
        self.overflowed = False
        # Called once when the browser falls too far behind.
        self.on_overflow: Callable[[], None] | None = None

    def write(self, data: str) -> None:
        if self.is_closing():
            return
        encoded = data.encode("utf-8", "replace")
        self._queued += len(encoded)
        if self._queued > BACKLOG:
            self._frames.clear()
            self._queued = 0
            if not self.overflowed:
                self.overflowed = True
                if self.on_overflow is not None:
                    self.on_overflow()
            return
        if self._frames and isinstance(self._frames[-1], bytes):
            self._frames[-1] += encoded  # one frame for all a moment's writes
        else:
            self._frames.append(encoded)
        self._wake.set()

    def write_stderr(self, data: str) -> None:
        self.write(data)

    def send_text(self, data: str) -> None:
        """A JSON packet for the page's script (a pong)."""
        if not self.is_closing():
            self._frames.append(data)
            self._wake.set()

    def is_closing(self) -> bool:
        return self._closing or self.ws.closed

    def get_environment(self) -> dict[str, str]:
        return {"COLORTERM": "truecolor"}  # xterm.js draws 24-bit colour

    def exit(self, status: int) -> None:
        """Send what is queued, then close."""
        self._closing = True
        self._wake.set()

    async def pump(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._frames:
                    frame = self._frames.pop(0)
                    if isinstance(frame, bytes):
                        self._queued -= len(frame)
                        await self.ws.send_bytes(frame)
                    else:
                        await self.ws.send_str(frame)
                if self._closing:
                    break
        except (ConnectionError, RuntimeError):
            pass  # the browser went away: the seat is ended by the socket's handler
        finally:
            self._closing = True
            with contextlib.suppress(Exception):
                await self.ws.close()


class BrowserSeat(SeatChannel):
    """A seat in a browser: an SSH seat's logic, on a WebSocket."""

    def __init__(
        self, server: TableServer, player: Player, peer: str, address: str, sock: Socket
    ) -> None:
        super().__init__(server, player, peer)
        self._address = address
        self.socket = sock
        self.limit = InputLimit()  # packets, before they are read
        self.term = "xterm-256color"
        self.connection_made(sock)  # type: ignore[arg-type]  # a Socket does what the seat asks of a channel
        sock.on_overflow = self._slow

    @property
    def address(self) -> str:
        return self._address

    def disconnect(self, why: str) -> None:
        self.socket.exit(0)  # what is queued (a farewell) is sent, then the socket closes

    def _slow(self) -> None:
        who = self.seat.name if self.seat is not None else self.player.name
        self.server.say(f"{who}'s browser seat ({self.peer}) was closed: it fell behind")
        self.close_with(SLOW)

    def packet(self, raw: str | bytes) -> None:
        """One message from the page."""
        limit = self.limit
        if limit.admit_event():
            try:
                packet: Packet | None = PACKETS.decode(raw)
            except (msgspec.DecodeError, RecursionError):
                packet = None  # not one of the page's packets: ignored, as a key nobody binds
            if isinstance(packet, Stdin):
                # A paste is one message: cut to the burst, as an SSH seat's input is, with
                # the same line (its text is then bounded again by the seat's driver).
                text, cut = limit.admit_paste(packet.data)
                if cut:
                    self.cut()
                if text:
                    self.data_received(text, None)
            elif limit.admit_bytes(len(raw)):
                self._read(packet)
        if limit.flooding:
            self._flooded()

    def alert(self, words: str) -> None:
        """A turn alert as a packet for the page (its script flashes the title and shows a
        browser notification where the player allowed them): xterm.js neither rings a bell
        nor shows OSC 9 or 777."""
        self.socket.send_text(msgspec.json.encode(["alert", words]).decode())

    def _read(self, packet: Packet | None) -> None:
        if isinstance(packet, Resize):
            self.terminal_size_changed(packet.size.width, packet.size.height, 0, 0)
        elif isinstance(packet, Ping):
            self.socket.send_text(msgspec.json.encode(["pong", packet.data[:MAX_PING]]).decode())


class WebServer:
    """Serves browser seats for ``server``'s table on ``host``:``port``."""

    def __init__(self, server: TableServer, host: str, port: int, url: str = "") -> None:
        self.server = server
        self.host = host
        self._port = port
        self._url = url.rstrip("/")
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._handlers: set[asyncio.Task[Any]] = set()

    @property
    def port(self) -> int:
        assert self._runner is not None
        address = self._runner.addresses[0]
        return int(address[1])

    @property
    def url(self) -> str:
        """Where players reach the table: ``--web-url``, else ``http://HOST:PORT``."""
        return self._url or f"http://{public_host(self.host)}:{self.port}"

    def app(self) -> web.Application:
        app = web.Application(client_max_size=1024)  # nothing is uploaded
        app.add_routes(
            [
                web.get("/join/{token}", self._join),
                web.get("/ws/{token}", self._socket),
                web.static("/static", STATIC, show_index=False, follow_symlinks=False),
                web.get("/favicon.ico", self._no_icon),
            ]
        )
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(
            self.app(), access_log=None, handle_signals=False, shutdown_timeout=CLOSE_TIMEOUT
        )
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, self._port)
        await self._site.start()
        self.server.table.links.base = self.url

    async def close(self) -> None:
        self.server.table.links.base = ""
        for seat in list(self.server.web_seats):
            seat.close_with("The table is closing.")
        if self._runner is not None:
            await self._runner.cleanup()

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        for name, value in NO_FRAMING.items():
            response.headers.setdefault(name, value)

    def origins(self) -> set[str]:
        """The pages that may open a seat's socket: served from the links' address
        (``--web-url``, or where the table listens), the loopback under any of its names."""
        hosts = {public_host(self.host)}
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(self.host).is_unspecified:  # every address: this one too
                hosts.add("localhost")
        listening = [origin_of(f"http://{host}:{self.port}") for host in hosts]
        return set().union(*(with_aliases(o) for o in [origin_of(self.url), *listening]))

    def _foreign(self, request: web.Request) -> bool:
        """The socket is asked for by a page from another site. (A browser always says
        where its page came from; a client that is no browser has no page to check.)"""
        origin = request.headers.get("Origin")
        return origin is not None and origin_of(origin) not in self.origins()

    def _link(self, request: web.Request) -> Link:
        link = self.server.table.links.find(request.match_info["token"])
        if link is None:
            raise web.HTTPForbidden(text=NO_SEAT)
        return link

    @staticmethod
    async def _no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)  # browsers ask; a 404 would be an error in their log

    async def _join(self, request: web.Request) -> web.Response:
        link = self._link(request)
        return web.Response(text=page(link), content_type="text/html", headers=HEADERS)

    def _refusal(self, player: Player, address: str, link: Link) -> str:
        server = self.server
        sitting = sum(1 for c in server.web_seats if c.seat is not None and c.seat.link is link)
        if link.role == "spectator" and sitting >= server.config.link_seats:
            return f"This link seats {server.config.link_seats} at most: ask the GM for another."
        return server.refusal(player, address)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        link = self._link(request)
        if self._foreign(request):
            peer = request.transport.get_extra_info("peername") if request.transport else None
            self.server.turn_away(str(peer[0]) if peer else "?", "a page from another site")
            raise web.HTTPForbidden(text="This table's seats open from its own pages only.\n")
        ws = web.WebSocketResponse(
            max_msg_size=MAX_PACKET, heartbeat=HEARTBEAT, timeout=CLOSE_TIMEOUT, compress=False
        )
        await ws.prepare(request)
        peer = request.transport.get_extra_info("peername") if request.transport else None
        address = str(peer[0]) if peer else "?"
        where = f"{peer[0]}:{peer[1]} (web)" if peer else "? (web)"
        server = self.server
        name = server.free_name(link.name) if link.role == "spectator" else link.name
        player = Player(link.role, name, None, link=True)
        refusal = self._refusal(player, address, link)
        if refusal:
            server.turn_away(address, refusal.rstrip("."))
            await ws.send_bytes(refusal.encode() + b"\r\n")
            await ws.close()
            return ws
        if link.role != "spectator":
            server.give_way(link.name)  # the same link (the same person) sat down again
        sock = Socket(ws)
        seat = BrowserSeat(server, player, where, address, sock)
        query = request.query
        seat.size = clamp_size(to_int(query.get("width"), 0), to_int(query.get("height"), 0))
        server.web_seats.add(seat)
        pump = asyncio.create_task(sock.pump())
        try:
            seat.session_started()
            if seat.seat is not None:
                seat.seat.link = link  # revoking the link closes the seat
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    seat.packet(message.data)
                if sock.is_closing():
                    break
        finally:
            server.web_seats.discard(seat)
            seat.connection_lost(None)  # a closed tab: the seat ends, the encounter stays
            sock.exit(0)
            await pump
        return ws
