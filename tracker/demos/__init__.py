"""The bundled demo encounters: each system's ``demo`` part, found through the registry.

A system's ``rules/systems/<name>/demo.py`` has ``build() -> History`` (played from commands
with seeded dice, so it is the same every time) and ``STEM``, the name of its file in
``saves/``. ``make demo`` (``python -m tracker.demos saves``) rewrites those files, which are
committed.
"""

from collections.abc import Callable

from rules.history import History
from rules.registry import part
from tracker.defaults import systems


def _demos() -> dict[str, Callable[[], History]]:
    found = {}
    for name in systems():
        demo = part(name, "demo")
        if demo is not None:
            found[demo.STEM] = demo.build
    return found


DEMOS: dict[str, Callable[[], History]] = _demos()  # by file stem, the first system's first
