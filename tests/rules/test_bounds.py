"""A roll dialog refuses a modifier the rules cannot produce, naming the field, as the CLI
does (``rules.bounds``): huge ones used to cost seconds of exact odds per keystroke."""

from __future__ import annotations

import pytest

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.systems.fatigue.forms import check_command, check_form
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


@pytest.mark.parametrize("key", ["nature_total", "fumble"])
def test_fatigue_check_dialog_bounds_its_totals(key: str) -> None:
    state = demo("fatigue").state
    values = values_of(check_form(state))
    with pytest.raises(Rejected, match=f"must be between {-MODIFIER} and {MODIFIER}"):
        check_command(state, values | {key: str(-MODIFIER - 1)})
