"""The bundled demo encounters: each system's ``demo`` part, found through the registry.

A system's ``rules/systems/<name>/demo.py`` has ``build() -> History`` (played from commands
with seeded dice, so it is the same every time) and ``STEM``, the name of its file in
``saves/``. ``make demo`` (``python -m tracker.demos saves``) rewrites those files, which are
committed (``tests/cli/test_user_folders.py`` checks they are what ``build`` makes); ``make
run`` writes one that is missing (a new system's) first.
"""

import hashlib
from collections.abc import Callable
from pathlib import Path

from rules import snapshot
from rules.history import History
from rules.registry import part
from tracker.store import storage
from tracker.store.defaults import systems


def _demos() -> dict[str, Callable[[], History]]:
    found = {}
    for name in systems():
        demo = part(name, "demo")
        if demo is not None:
            found[demo.STEM] = demo.build
    return found


DEMOS: dict[str, Callable[[], History]] = _demos()  # by file stem, the first system's first


def write_demos(folder: Path, *, keep: bool = False) -> list[Path]:
    """Write every demo into ``folder``; ``keep`` leaves one already there as it is."""
    written = []
    for stem, build in DEMOS.items():
        path = folder / f"{stem}{storage.SUFFIX}"
        if not (keep and path.exists()):
            # An id from its name: the committed file is the same every time it is rewritten.
            save_id = hashlib.sha256(stem.encode()).digest()[: snapshot.ID_BYTES]
            storage.write(path, build(), save_id)
            written.append(path)
    return written
