"""Serving one live encounter over SSH: each seat gets its own view of the same session.

This module only declares the ``serve`` arguments, so the CLI can list them without
loading asyncssh or Textual; ``tracker.serve.command`` runs it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

PASSWORD_ENV = "TRACKER_TABLE_PASSWORD"


def add_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("file", type=Path, nargs="?", help="the encounter (default: the newest)")
    serve.add_argument(
        "--listen",
        default="127.0.0.1:2222",
        metavar="HOST:PORT",
        help="where to listen (default: 127.0.0.1:2222, this machine only)",
    )
    serve.add_argument(
        "--players",
        type=Path,
        metavar="FILE",
        help="the players file: 'ROLE[:NAME] KEYTYPE KEY' or 'ROLE[:NAME] link' a line",
    )
    serve.add_argument(
        "--web",
        metavar="HOST:PORT",
        help="also seat players in a browser, from join links (e.g. 127.0.0.1:8080)",
    )
    serve.add_argument(
        "--web-url",
        metavar="URL",
        help="the address players' browsers reach --web at, for the links (a proxy's)",
    )
    serve.add_argument(
        "--password",
        action="store_true",
        help=f"also let players in with a table password (asked, or ${PASSWORD_ENV})",
    )
    serve.add_argument("--host-key", type=Path, metavar="PATH", help="the server's key file")
    serve.add_argument("--max-seats", type=int, default=64, metavar="N")
    serve.add_argument(
        "--link-seats",
        type=int,
        default=8,
        metavar="N",
        help="browsers one spectator link may seat at once (default 8)",
    )
    serve.add_argument("--idle-timeout", type=float, default=1800, metavar="SECONDS")
    serve.add_argument(
        "--headless", action="store_true", help="no local GM screen: serve until interrupted"
    )
