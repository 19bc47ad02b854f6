"""The bundled demo encounters, one module per system, each built by playing commands.

``make demo`` (``python -m tracker.demos saves``) rewrites the files in ``saves/``, which
are committed. To add a demo, write a module with ``build() -> History`` and list it here.
"""

from collections.abc import Callable

from rules.history import History
from rules.systems.beerrun import demo as beerrun
from rules.systems.fatigue import demo as fatigue
from rules.systems.livehack import demo as livehack
from rules.systems.painpool import demo as painpool

DEMOS: dict[str, Callable[[], History]] = {
    "demo-livehack": livehack.build,
    "demo-beer-run": beerrun.build,
    "demo-fatigue": fatigue.build,
    "demo-pain-pool": painpool.build,
}
