"""The quick flow's last target, read from Fatigue's demo log (moved from
tests/app/test_app_quick_flow.py)."""

from __future__ import annotations

from rules.registry import get_system
from rules.systems.fatigue import demo as fatigue
from tracker import quick_flow


def test_the_last_target_comes_from_the_log() -> None:
    history = fatigue.build()
    system = get_system("fatigue")
    state = history.state
    # The demo: the Brute (c3) attacked Mara (c1), then Mara attacked the Raider (c4).
    mara, brute = state.combatant("c1"), state.combatant("c3")
    assert quick_flow.last_target(history, system, mara, state).id == "c4"  # type: ignore[union-attr]
    assert quick_flow.last_target(history, system, brute, state).id == "c1"  # type: ignore[union-attr]
    kell = state.combatant("c2")  # never rolled: the first of another side
    assert quick_flow.last_target(history, system, kell, state).id == "c3"  # type: ignore[union-attr]
    assert quick_flow.roll_parties(state.last_roll) == ["c3", "c1"]  # attacker, defender
