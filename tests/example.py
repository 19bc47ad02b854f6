"""``make example``: docs/contributing/adding-a-system.md's worked example (Coin Flip) written into
``rules/systems/coinflip/`` of a temporary copy of the checkout, and every check run there as
``make test`` runs it: ruff, mypy, import-linter, then the suite (``-n 3``; pass other pytest
options after ``--``, e.g. ``make example ARGS="-k coin"``). The checkout is left as it is;
exit status 1 on a failure.

The copy is the files git tracks (as a fresh clone has them) and this checkout's ``.venv``;
``PYTHONPATH`` points every tool at the copy.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path, PurePosixPath

from tests.contract.test_fifth_system import TOY, files_in_the_doc

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def clone(to: Path) -> None:
    """The files git tracks, as they are on disk, copied into ``to``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source, target = ROOT / name, to / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())


def write_the_example(root: Path) -> Path:
    folder = root / "rules" / "systems" / TOY
    for path, code in files_in_the_doc().items():
        target = root / PurePosixPath(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    (folder / "__init__.py").touch()
    return folder


def main(pytest_options: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="tracker-example-") as temporary:
        root = Path(temporary)
        clone(root)
        (root / ".venv").symlink_to(ROOT / ".venv")
        print(f"Coin Flip written into {write_the_example(root)}", flush=True)
        env = {**os.environ, "PYTHONPATH": str(root)}
        steps = [
            [str(BIN / "ruff"), "check", "."],
            [str(BIN / "ruff"), "format", "--check", "."],
            [str(BIN / "mypy")],
            [str(BIN / "lint-imports")],
            [str(BIN / "python"), "-m", "pytest", "-n", "3", *pytest_options],
        ]
        for step in steps:
            print("$", " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step)))
            if subprocess.run(step, cwd=root, env=env).returncode != 0:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
