"""The sheet form: an untouched form gives back the very sheet it was built from."""

from __future__ import annotations

from rules.system import RuleSystem

from .support import check_sheet_round_trip, sheets_to_check


def test_an_untouched_sheet_form_gives_back_the_same_sheet(system: RuleSystem, history):
    for sheet in sheets_to_check(system, history):
        check_sheet_round_trip(system, sheet)
