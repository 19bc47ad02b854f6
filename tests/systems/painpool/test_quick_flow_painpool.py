"""The quick flow's preset in Pain Pool's demo, a system without a turn order (moved from
tests/app/test_app_quick_flow.py)."""

from __future__ import annotations

from rules.registry import get_system
from rules.systems.painpool import demo as painpool
from tracker import quick_flow


def test_without_a_turn_order_the_selected_combatant_acts() -> None:
    history = painpool.build()
    system = get_system("painpool")
    assert quick_flow.roll_preset(history, system, "c1") == {"hero": "c1", "challenge": "c3"}
    # The Juggernaut selected: its field is set; its last foe, the Professor, has acted this
    # exchange (the dialog does not offer him as the hero), so the hero stays the default.
    assert quick_flow.roll_preset(history, system, "c3") == {"challenge": "c3"}
    assert quick_flow.roll_preset(history, system, None) == {}
