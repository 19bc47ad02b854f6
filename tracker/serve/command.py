"""``tracker serve``: the GM's terminal plays the encounter while SSH seats join it."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import ipaddress
import logging
import os
import re
import signal
import sys
import urllib.parse
from pathlib import Path

from rules.text import inert
from tracker import launch
from tracker.headless.seeds import dice_for
from tracker.serve import PASSWORD_ENV
from tracker.serve import players as players_file
from tracker.serve.config import Config, default_host_key
from tracker.serve.seats import Table
from tracker.serve.server import TableServer
from tracker.session import EncounterSession
from tracker.store import storage

# A host name (letters, digits, dots, hyphens) or an IPv4 address; IPv6 goes in brackets.
_HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?")


def _host(text: str) -> str | None:
    """The host ``text`` names (a bracketed IPv6 address unbracketed); None if it names none."""
    if text.startswith("[") and text.endswith("]"):
        try:
            return str(ipaddress.IPv6Address(text[1:-1]))
        except ValueError:
            return None
    return text if _HOST_NAME.fullmatch(text) else None


def parse_listen(text: str, option: str = "--listen") -> tuple[str, int]:
    where, _, port = text.rpartition(":")
    host = _host(where)
    if host is None or not port.isdigit() or len(port) > 5 or not 0 <= int(port) < 65536:
        raise storage.SaveError(Path(inert(text)), f"is not HOST:PORT for {option}")
    return host, int(port)


def web_url(text: str | None) -> str:
    """``--web-url``: an http(s) address with a host and no query, for the join links."""
    if text is None:
        return ""
    refused = storage.SaveError(
        Path("--web-url"), f"{inert(text)!r} is not an http:// or https:// address with a host"
    )
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port  # a port past 65535 raises
    except ValueError:
        raise refused from None
    where = parts.netloc.rpartition("@")[2]
    host = where.rsplit(":", 1)[0] if port is not None or where.endswith(":") else where
    if (
        parts.scheme not in ("http", "https")
        or _host(host) is None
        or port == 0
        or "@" in parts.netloc
        or parts.query
        or parts.fragment
        or not text.isprintable()
        or " " in text
    ):
        raise refused
    return text.rstrip("/")


def config_from(args: argparse.Namespace) -> Config:
    host, port = parse_listen(args.listen)
    players: list[players_file.Player] = []
    if args.players is not None:
        try:
            players = players_file.load(args.players)
        except players_file.PlayersError as exc:
            problem = str(exc).removeprefix(f"{args.players}: ").removeprefix(f"{args.players}, ")
            raise storage.SaveError(args.players, problem) from None
    password = None
    if args.password:
        password = os.environ.get(PASSWORD_ENV) or ask_password()
        if not password:
            raise storage.SaveError(Path("--password"), "needs a password that is not empty")
    links = [p for p in players if p.link]
    if links and args.web is None:
        raise storage.SaveError(
            args.players, f"has join links ({links[0].name}) but no --web HOST:PORT serves them"
        )
    if not players and password is None and (args.web is None or args.headless):
        raise storage.SaveError(
            Path("--players"), "nobody could join: give a players file, --password or --web"
        )
    return Config(
        host=host,
        port=port,
        players=players,
        password=password,
        host_key=args.host_key or default_host_key(),
        max_seats=args.max_seats,
        link_seats=args.link_seats,
        idle_timeout=args.idle_timeout,
        saves=args.saves,
        library=launch.library_of(args),
    )


def ask_password() -> str:
    """The table password, typed at the terminal (there must be one to ask at)."""
    if not sys.stdin.isatty():
        raise storage.SaveError(
            Path("--password"), f"no terminal to ask for the password at: set ${PASSWORD_ENV}"
        )
    try:
        return getpass.getpass("Table password: ")
    except (EOFError, KeyboardInterrupt):
        raise storage.SaveError(Path("--password"), "no password was given") from None


def run_serve(args: argparse.Namespace) -> int:
    config = config_from(args)
    web = parse_listen(args.web, "--web") if args.web is not None else None
    url = web_url(args.web_url)
    if args.file is not None:
        args.command = "open"
    # Its whole log checked as it opens, not after a first frame as `tracker` checks a long
    # fight: a seat's view folds the log as it is drawn, and a crafted one ended the table
    # with a traceback. One refused is passed over (the newest) or said in a line.
    opened, skipped = launch.choose_encounter(args, check_later=False)
    _, dice = dice_for(args.seed)
    session, error = EncounterSession.resume(opened, dice)
    if error:
        print(inert(f"tracker: {error}"), file=sys.stderr)
        return 2
    table = Table(session)
    try:
        server = TableServer(table, config)
        for player in config.players:
            if player.link:
                try:
                    table.links.make(player.role, player.name)
                except ValueError as exc:
                    raise storage.SaveError(args.players, str(exc)) from None
    except storage.SaveError:
        session.close()
        raise
    notes = [*skipped, opened.note]
    if server.key_note:
        print(inert(f"tracker: {server.key_note}"), file=sys.stderr)
        notes.append(server.key_note)
    try:
        return asyncio.run(_serve(table, server, args.headless, notes, web, url))
    finally:
        error = session.close()
        if error:
            print(inert(f"tracker: {error}"), file=sys.stderr)


async def _serve(
    table: Table,
    server: TableServer,
    headless: bool,
    notes: list[str],
    web: tuple[str, int] | None = None,
    url: str = "",
) -> int:
    try:
        await server.start()
    except OSError as exc:
        print(
            inert(f"tracker: cannot listen on {server.config.host}:{server.config.port}: {exc}"),
            file=sys.stderr,
        )
        return 2
    where = f"Serving on {server.config.host}:{server.port} · host key {server.fingerprint}"
    browsers = None
    if web is not None:
        from tracker.serve.web import WebServer  # only --web loads aiohttp

        browsers = WebServer(server, *web, url=url)
        try:
            await browsers.start()
        except OSError as exc:
            print(
                inert(f"tracker: cannot listen on {web[0]}:{web[1]} (--web): {exc}"),
                file=sys.stderr,
            )
            server.close()
            await server.wait_closed()
            return 2
        where += f" · browsers at {browsers.url}"
        if len(table.links):
            where += " · join links: w"  # the lines printed below go when the app starts
        # The links, once, where the GM started the table (never in a log): the GM's
        # screen shows them again in the seats dialog (w).
        for link in table.links:
            print(inert(f"{link.role}:{link.name}  {table.links.url(link)}"), flush=True)
    table.door = where  # the seats dialog (w) says it again once the notice has gone
    try:
        if headless:
            print(inert(where), file=sys.stderr, flush=True)
            # What the GM would be shown as a notice (tracker.serve.server.LOG), on stderr.
            said = logging.StreamHandler(sys.stderr)
            said.setFormatter(logging.Formatter("tracker: %(message)s"))
            logging.getLogger("tracker.serve").addHandler(said)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            await stop.wait()
            return 0
        from tracker.serve.seat_app import TableApp

        seat = table.join("gm", "GM")
        app = TableApp(
            table,
            seat,
            saves=server.config.saves,
            notes=[where, *notes],
            library=server.config.library,
        )
        app.goes_first = server.fair
        # The GM's roll dialog built while the first frame is read, as a local tracker's
        # (its seats' are not: each would build one on this loop as it joins).
        from tracker.terminal import textual_internals

        app.builds_ahead = textual_internals.can_build_unseen()
        await app.run_async()
        return app.return_code or 0  # a crash of the app is not a clean exit
    finally:
        server.close()
        if browsers is not None:
            await browsers.close()
        await server.wait_closed()
