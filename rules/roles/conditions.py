"""The conditions part of the contract: the conditions the rules know, and the ways one
may end beyond the core's durations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.encounter import AnyEncounter
from rules.forms import Field
from rules.spelling import slip_for

NOTE_SHOWN = 40  # characters of a typed condition name repeated in a note


class Conditions:
    """Conditions' names and endings; every hook has a default."""

    title: ClassVar[str]  # the system's (``RuleSystem``), which the defaults name

    def condition_names(self) -> tuple[str, ...]:
        """The conditions the rules know by name, each spelling they read ("prone"): a name
        typed close to one but none of them is a slip, asked "did you mean" on the `:` line
        (a name far from all is a label of the table's own). None by default."""
        return ()

    def condition_note(self, name: str) -> str:
        """One line on a condition just added whose name the rules do not know, where they
        know some (``condition_names``): a label of the table's own, with no rules effect,
        and the name it is a slip for, if any ("" for a name the rules know). A system that
        reads names its own way (a spelling read as another) says so here."""
        known = self.condition_names()
        shown = " ".join(name.split())[:NOTE_SHOWN]
        if not known or not shown or shown.casefold() in {k.casefold() for k in known}:
            return ""
        meant = slip_for(shown, known)
        guess = f" (did you mean {meant}?)" if meant else ""
        label = "a label with no rules effect"
        return f"{shown} is no condition {self.title}'s rules know: {label}{guess}"

    def condition_endings(
        self, state: AnyEncounter
    ) -> tuple[tuple[tuple[str, str], ...], list[Field]]:
        """Ways a condition laid with ``c`` may end beyond the core's durations, as (value,
        label) pairs for its "Lasts" choice, and the fields they need; none by default."""
        return (), []

    def condition_command(
        self, state: AnyEncounter, combatant_id: str, name: str, values: Mapping[str, str]
    ) -> Any | None:
        """The command laying condition ``name`` on ``combatant_id`` that ends as
        ``values["duration"]`` says, one of ``condition_endings``' values, with their fields'
        values (None: a duration of the core's)."""
        return None

    def condition_line(
        self, state: AnyEncounter, combatant_id: str, name: str, words: Sequence[str]
    ) -> Any | None:
        """The command ``:cond NAME CONDITION WORDS...`` gives when ``words`` name one of
        ``condition_endings`` (None: the core reads them as a duration)."""
        return None

    def condition_line_endings(self) -> tuple[str, ...]:
        """How ``condition_line`` reads the words after a condition, each as its usage shows
        it ("save ABILITY DC"): what the ``:cond`` hint lists after the core's durations, its
        first word what completion offers. None by default."""
        return ()
