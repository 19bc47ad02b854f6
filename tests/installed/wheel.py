"""Building the tracker's wheel as pip does for ``make install`` or pipx, and reading it.

The wheel is built from a copy of the files packaging reads (``SOURCES``), never in the
checkout: setuptools writes ``build/`` and ``combat_tracker.egg-info/`` beside
``pyproject.toml``, and an egg-info in the checkout's root would be a second copy of the
project's metadata on the editable install's path.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "tracker", "rules")  # all the build reads
PACKAGES = ("tracker", "rules")
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc")


def copy_sources(to: Path, root: Path = ROOT) -> Path:
    """The checkout's packaging files, copied into ``to`` (made here), as they are on disk."""
    to.mkdir(parents=True)
    for name in SOURCES:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, to / name, ignore=LEFT_OUT)
        else:
            shutil.copy2(source, to / name)
    return to


def build_wheel(source: Path, out: Path, *pip_options: str) -> Path:
    """The wheel of the project in ``source``, built into ``out`` (with its dependencies left
    out) by pip in a build environment of its own, as any install builds it."""
    pip = (sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps")
    subprocess.run([*pip, "--wheel-dir", str(out), *pip_options, str(source)], check=True)
    (wheel,) = out.glob("*.whl")
    return wheel


def data_files(root: Path = ROOT) -> set[str]:
    """Every file of the packages that is not Python: what the tracker reads at run time
    (styles, stat blocks...), as paths relative to ``root``."""
    return {
        path.relative_to(root).as_posix()
        for package in PACKAGES
        for path in (root / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }


def missing_from(wheel: Path, root: Path = ROOT) -> list[str]:
    """The data files under ``root`` that ``wheel`` leaves out."""
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    return sorted(data_files(root) - held)
