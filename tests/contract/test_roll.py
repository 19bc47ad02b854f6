"""The roll: its events, the last roll, the consequence (the d key) and the exact odds."""

from __future__ import annotations

from rules.system import RuleSystem

from .support import Rolled, check_consequence, check_roll, check_roll_odds


def test_the_roll_dialog_rolls_and_the_roll_lands_in_a_tier(system: RuleSystem, rolled: Rolled):
    check_roll(system, rolled)


def test_the_consequence_of_the_roll_is_decided_or_clearly_refused(
    system: RuleSystem, rolled: Rolled
):
    check_consequence(system, rolled)


def test_odds_are_exact_for_every_tier_or_declared_absent(system: RuleSystem, rolled: Rolled):
    """With ``has_odds``: Fractions summing to exactly 1, one per tier the Consequences pane
    shows for that roll, the same before the roll (the dialog) and after it (the pane).
    Without: None from both hooks."""
    check_roll_odds(system, rolled)
