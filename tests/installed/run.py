"""``make smoke``: the tracker's wheel built, installed in a fresh venv, and smoke-tested there.

1. The wheel is built as pip builds it for any install, from a copy of the checkout
   (tests/installed/wheel.py), so the checkout gets no ``build/`` or ``*.egg-info``.
2. Every dependency (and the build's setuptools) comes from ``.venv/wheelhouse``, downloaded
   once for each constraints.txt and set of dependencies (``pip download``): later runs need
   no network and no index.
3. A fresh venv (made without pip: the checkout's pip installs into it, ``pip --python``)
   gets the wheel, not editable, with ``-c constraints.txt``.
4. tests/installed/smoke.py runs with that venv's interpreter, from an empty folder outside
   the checkout, with fresh user folders and no ``PYTHONPATH`` or ``TRACKER_*`` settings.

All but the wheelhouse lives in a temporary folder, removed after. Run it with
``.venv/bin/python -m tests.installed.run`` (``make smoke``); exit status 1 on a failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from tests.installed.wheel import ROOT, build_wheel, copy_sources

WHEELHOUSE = ROOT / ".venv" / "wheelhouse"
CONSTRAINTS = ROOT / "constraints.txt"
SMOKE = Path(__file__).with_name("smoke.py")
PIP = (sys.executable, "-m", "pip")
LOCAL_ONLY = ("--no-index", "--find-links", str(WHEELHOUSE))
# What would make the installed tool another than the one built here, or leak the checkout.
UNSET = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONUSERBASE")


def wheelhouse(project: dict[str, object]) -> None:
    """Fill the wheelhouse when constraints.txt, the dependencies or Python have changed."""
    needed = [*project["build-system"]["requires"], *project["project"]["dependencies"]]  # type: ignore[index]
    key = hashlib.sha256(
        json.dumps([needed, CONSTRAINTS.read_text(), sys.version, sys.platform]).encode()
    ).hexdigest()
    stamp = WHEELHOUSE / ".key"
    if stamp.exists() and stamp.read_text() == key:
        return
    shutil.rmtree(WHEELHOUSE, ignore_errors=True)
    print(f"Downloading the dependencies' wheels into {WHEELHOUSE} (once)", flush=True)
    download = (*PIP, "download", "--quiet", "--dest", str(WHEELHOUSE), "-c", str(CONSTRAINTS))
    subprocess.run([*download, *needed], check=True)
    stamp.write_text(key)


def fresh_environment(folder: Path) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in UNSET and not name.startswith("TRACKER_")
    }
    for name, where in (
        ("HOME", "home"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        env[name] = str(folder / where)
    return env


def main() -> int:
    started = time.monotonic()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wheelhouse(project)
    with tempfile.TemporaryDirectory(prefix="tracker-smoke-") as name:
        tmp = Path(name)
        wheel = build_wheel(copy_sources(tmp / "source"), tmp / "dist", *LOCAL_ONLY)
        print(f"Built {wheel.name} in {time.monotonic() - started:.0f} s", flush=True)
        venv = tmp / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        python = venv / "bin" / "python"
        # No bytecode compiled ahead: the smoke test compiles what it imports, and no more.
        install = (*PIP, "--python", str(python), "install", "--quiet", "--no-compile")
        subprocess.run([*install, *LOCAL_ONLY, "-c", str(CONSTRAINTS), str(wheel)], check=True)
        print(f"Installed it in a fresh venv in {time.monotonic() - started:.0f} s", flush=True)
        elsewhere = tmp / "elsewhere"  # no checkout here to import by accident
        elsewhere.mkdir()
        version = str(project["project"]["version"])
        smoke = [str(python), str(SMOKE), version]
        done = subprocess.run(smoke, cwd=elsewhere, env=fresh_environment(tmp), check=False)
    took = f"{time.monotonic() - started:.0f} s"
    print(f"make smoke: {'passed' if done.returncode == 0 else 'FAILED'} in {took}")
    return 0 if done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
