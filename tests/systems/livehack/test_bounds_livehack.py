"""The roll dialog refuses a modifier the rules cannot produce (``rules.bounds``), in this
system's own form (moved from tests/rules/test_bounds.py)."""

from __future__ import annotations

import pytest

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.systems.livehack.forms import roll_command, roll_form
from tests.contract.support import demo, values_of


@pytest.mark.parametrize("key", ["attacker_extra", "defender_extra"])
def test_livehack_roll_dialog_bounds_its_extra_modifiers(key: str) -> None:
    state = demo("livehack").state
    values = values_of(roll_form(state))
    assert roll_command(state, values | {key: str(MODIFIER)})  # the edge is allowed
    with pytest.raises(Rejected, match=f"must be between {-MODIFIER} and {MODIFIER}"):
        roll_command(state, values | {key: str(MODIFIER + 1)})
    with pytest.raises(Rejected, match="must be between"):
        roll_command(state, values | {key: "9" * 5000})  # no int() of 5000 digits
