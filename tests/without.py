"""``make without``: each rule system deleted in turn from a temporary copy of the checkout (its
folder ``rules/systems/<name>/`` and its demo in ``saves/``), then the suite collected there
with no error and a part of it run (``tests/contract tests/rules tests/cli tests/storage`` with
``-n 3``). ``make without ARGS="NAME ..."`` deletes only the systems named;
``ARGS="NAME -- tests"`` runs the pytest options after ``--`` instead (here the whole
suite). The checkout is left as it is; exit status 1 on a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rules.registry import names
from tests.example import BIN, ROOT, clone
from tracker.demos import DEMOS

SUMMARY = ("FAILED", "ERROR ")
PART = ["tests/contract", "tests/rules", "tests/cli", "tests/storage"]


def delete(root: Path, name: str) -> None:
    """The system's folder and its demos in ``saves/``, as a maintainer would delete them."""
    shutil.rmtree(root / "rules" / "systems" / name)
    for stem, build in DEMOS.items():
        if build().state.system == name:
            (root / "saves" / f"{stem}.fight").unlink(missing_ok=True)


def without(name: str, pytest_options: list[str]) -> bool:
    with tempfile.TemporaryDirectory(prefix=f"tracker-without-{name}-") as temporary:
        root = Path(temporary)
        clone(root)
        (root / ".venv").symlink_to(ROOT / ".venv")
        delete(root, name)
        print(f"# without {name}", flush=True)
        env = {**os.environ, "PYTHONPATH": str(root)}
        pytest = [str(BIN / "python"), "-m", "pytest", "-p", "no:cacheprovider", "-rfE"]
        for step in ([*pytest, "-n", "0", "-q", "--collect-only"], [*pytest, *pytest_options]):
            shown = subprocess.run(step, cwd=root, env=env, capture_output=True, text=True)
            if shown.returncode != 0:
                # What failed, one line each (``-rfE``), rather than every traceback.
                summary = [line for line in shown.stdout.splitlines() if line[:6] in SUMMARY]
                print(*(summary or [shown.stdout[-6000:]]), shown.stderr[-2000:], sep="\n")
                print(f"without {name}: `{' '.join(step[2:])}` failed", flush=True)
                return False
            print(shown.stdout.strip().splitlines()[-1], flush=True)
    return True


def main(args: list[str]) -> int:
    chosen, options = (
        (args[: args.index("--")], args[args.index("--") + 1 :]) if "--" in args else (args, [])
    )
    unknown = set(chosen) - set(names())
    if unknown:
        print(f"unknown rule system(s): {', '.join(sorted(unknown))} (known: {', '.join(names())})")
        return 2
    options = options or ["-n", "3", "-q", *PART]
    failed = [name for name in chosen or names() if not without(name, options)]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
