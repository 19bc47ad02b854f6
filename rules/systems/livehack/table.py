"""LiveHack's dice and damage table, free of msgspec.

The system (``rules.systems.livehack.events``) and its exact odds (``rules.systems.livehack.odds``)
both read these, so ``tracker odds livehack`` starts without loading the system's Structs.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Take = Literal["roll", "zero", "ten"]

DIE = 12
TAKE_TEN = 10


class Consequence(NamedTuple):
    """A damage-table row: margins ``low`` to ``high`` (None: no upper end)."""

    low: int
    high: int | None
    levels: int
    condition: str | None


DAMAGE_TABLE: tuple[Consequence, ...] = (
    Consequence(0, 4, 1, None),
    Consequence(5, 9, 2, "Discombobulated"),
    Consequence(10, 14, 3, "Incapacitated"),
    Consequence(15, None, 4, "Dying"),
)


def row_label(row: Consequence, grim: bool = False) -> str:
    """A row's band of margin as every view writes it ("0-4", "15+"); a grim test's first band
    starts at 1, since a tie is resisted (rulings.md, R3-02 and F4-12)."""
    low = max(row.low, 1) if grim else row.low
    return f"{low}-{row.high}" if row.high is not None else f"{low}+"
