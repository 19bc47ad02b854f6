"""The library part of the contract: a stat block as ``tracker library`` lists it and the
``a`` dialog previews it, and stat blocks made from another tool's data."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar, Protocol

from rules.conversion import Conversion
from rules.encounter import AnyCombatant


class _Columns(Protocol):  # what the defaults read of the sheets part
    stat_columns: ClassVar[tuple[str, ...]]

    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...

    def library_columns(self, sheet: Any) -> tuple[tuple[str, str], ...]: ...


class Library:
    """A stat block's figures, its challenge and its preview; every hook has a default."""

    def library_columns(self: _Columns, sheet: Any) -> tuple[tuple[str, str], ...]:
        """A stat block's figures as ``tracker library list`` shows them, (header, value)
        each, the same headers for every sheet of the system. By default the combatants
        pane's columns."""
        return tuple(zip(self.stat_columns, self.sheet_stats(sheet), strict=False))

    def challenge_rating(self, sheet: Any) -> Fraction | None:
        """How dangerous a stat block is as one number (a d20 challenge rating), for the
        library's ``--cr`` filter; None: the system rates none, or this sheet has none."""
        return None

    def preview_lines(self: _Columns, sheet: Any, target: AnyCombatant | None) -> tuple[str, ...]:
        """What the library dialog shows of a stat block before it joins: its figures, its
        actions with their odds against ``target`` (the selected combatant; None: none), a
        line each. By default its figures on one line."""
        columns = self.library_columns(sheet)
        return ("  ".join(f"{header} {value}" for header, value in columns if value.strip()),)

    def convert_stat_blocks(self, data: object) -> Conversion | None:
        """Stat blocks made from another tool's data (parsed JSON, bounded by the reader):
        None when the system reads no data of that shape (the default: none), ``Rejected``
        in one line when it is of its shape but cannot be read whole. ``tracker library
        import`` keeps them in the user's library; a maintainer's ``make srd`` bundles a
        set in the system's folder."""
        return None
