"""``tracker serve``: the encounter served over SSH (and in browsers, with ``--web``)."""

from __future__ import annotations

import argparse

from tracker.cli.parsing import Building
from tracker.cli.with_saves import with_saves

HELP = "serve the encounter over SSH"
FOLDERS = True


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    from tracker.serve import add_arguments as serve_arguments  # light: no asyncssh, no Textual

    serve_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return with_saves(args, serve)


def serve(args: argparse.Namespace) -> int:
    from tracker.serve.command import run_serve

    return run_serve(args)
