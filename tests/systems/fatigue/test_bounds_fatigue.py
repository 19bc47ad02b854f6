"""The roll dialog refuses a modifier the rules cannot produce (``rules.bounds``), in this
system's own form (moved from tests/rules/test_bounds.py)."""

from __future__ import annotations

import pytest

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.systems.fatigue.forms import check_command, check_form
from tests.contract.support import demo, values_of


@pytest.mark.parametrize("key", ["nature_total", "fumble"])
def test_fatigue_check_dialog_bounds_its_totals(key: str) -> None:
    state = demo("fatigue").state
    values = values_of(check_form(state))
    with pytest.raises(Rejected, match=f"must be between {-MODIFIER} and {MODIFIER}"):
        check_command(state, values | {key: str(-MODIFIER - 1)})
