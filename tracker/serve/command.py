"""``tracker serve``: the GM's terminal plays the encounter while SSH seats join it."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import signal
import sys
from pathlib import Path

from tracker import launch, storage
from tracker.headless.seeds import dice_for
from tracker.serve import PASSWORD_ENV
from tracker.serve import players as players_file
from tracker.serve.seats import Table
from tracker.serve.server import Config, TableServer, default_host_key
from tracker.session import EncounterSession


def parse_listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise storage.SaveError(Path(text), "is not HOST:PORT for --listen")
    return host.strip("[]"), int(port)


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
    if not players and password is None:
        raise storage.SaveError(
            Path("--players"), "nobody could join: give a players file, or --password"
        )
    return Config(
        host=host,
        port=port,
        players=players,
        password=password,
        host_key=args.host_key or default_host_key(),
        max_seats=args.max_seats,
        idle_timeout=args.idle_timeout,
        saves=args.saves,
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
    if args.file is not None:
        args.command = "open"
    opened, skipped = launch.choose_encounter(args)
    _, dice = dice_for(args.seed)
    session, error = EncounterSession.resume(opened, dice)
    if error:
        print(f"tracker: {error}", file=sys.stderr)
        return 2
    table = Table(session)
    try:
        server = TableServer(table, config)
    except storage.SaveError:
        session.close()
        raise
    notes = [*skipped, opened.note]
    if server.key_note:
        print(f"tracker: {server.key_note}", file=sys.stderr)
        notes.append(server.key_note)
    try:
        return asyncio.run(_serve(table, server, args.headless, notes))
    finally:
        error = session.close()
        if error:
            print(f"tracker: {error}", file=sys.stderr)


async def _serve(table: Table, server: TableServer, headless: bool, notes: list[str]) -> int:
    try:
        await server.start()
    except OSError as exc:
        print(
            f"tracker: cannot listen on {server.config.host}:{server.config.port}: {exc}",
            file=sys.stderr,
        )
        return 2
    where = f"Serving on {server.config.host}:{server.port} · host key {server.fingerprint}"
    try:
        if headless:
            print(where, file=sys.stderr, flush=True)
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
        from tracker.serve.app import TableApp

        seat = table.join("gm", "GM")
        app = TableApp(table, seat, saves=server.config.saves, notes=[where, *notes])
        await app.run_async()
        return 0
    finally:
        server.close()
        await server.wait_closed()
