"""A Generic d20 sheet after a damage event, as the fold deals it (and as the log and the
rules read it before it is folded): the hit points taken (a drain lowers the maximum too),
then what stands the creature up at 1 hit point: Undead Fortitude's save made
(``fortitude.py``), or Relentless spent (``relentless.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from .drain import drained
from .relentless import USE
from .sheet import D20Sheet
from .wounds import take_damage

if TYPE_CHECKING:
    from .events import D20Damaged


def dealt(sheet: D20Sheet, event: D20Damaged) -> D20Sheet:
    if event.drain:
        after = drained(sheet, event.amount, event.critical)
    else:
        after = take_damage(sheet, event.amount, event.critical)
    held = event.fortitude is not None and event.fortitude.success
    if (held or event.relentless) and after.hp_max > 0:
        after = structs.replace(
            after, hp=1, dead=False, death_successes=0, death_failures=0, stable=False
        )
    if event.relentless:
        after = structs.replace(after, used_today=(*after.used_today, (USE, 1)))
    return after
