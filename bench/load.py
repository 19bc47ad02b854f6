"""Keeps every core busy for a while, to show that the suite and the app cope with a slow machine.

Run: ``.venv/bin/python bench/load.py [--seconds N] [--workers N] [-- COMMAND...]``. It starts
one spinning process per core (``--workers``) and stops them after ``--seconds`` (600 by
default), or as soon as COMMAND ends when one is given: ``bench/load.py -- .venv/bin/pytest``
runs the suite with both cores busy and exits with the suite's status. Each spinner also
stops by itself at its deadline, or when this script is gone, so none is ever left behind.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time


def spin(deadline: float, parent: int) -> None:
    """Burn CPU until ``deadline`` (a ``time.monotonic``) or until ``parent`` is gone."""
    while time.monotonic() < deadline and os.getppid() == parent:
        for _ in range(200_000):  # about 10 ms of work between checks
            pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="stop after (600)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="spinners")
    parser.add_argument("command", nargs="*", help="run this under load, then stop")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 24 * 3600 or not 0 < args.workers <= 64:
        parser.error("--seconds is from 0 to a day, --workers from 1 to 64")
    deadline = time.monotonic() + args.seconds
    spinners = [
        multiprocessing.Process(target=spin, args=(deadline, os.getpid()), daemon=True)
        for _ in range(args.workers)
    ]
    for spinner in spinners:
        spinner.start()
    print(f"load: {args.workers} spinners for at most {args.seconds:g} s", file=sys.stderr)
    status = 0
    try:
        if args.command:
            status = subprocess.run(args.command, check=False).returncode
        else:
            for spinner in spinners:
                spinner.join()
    except KeyboardInterrupt:
        status = 130
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
    print("load: stopped", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
