"""Solo play: the tracker plays a side by its policies, each move logged with its policy."""

from __future__ import annotations

from rules.system import RuleSystem

from .solo_checks import (
    check_solo_sides,
)
from .support import (
    Rolled,
)


def test_each_side_on_solo_moves_by_a_listed_policy_or_not_at_all(
    system: RuleSystem, rolled: Rolled
):
    """Every side on solo in turn, after the roll and before it; a system with policies must
    move somewhere in its demo (else this test would check nothing), one without never."""
    moved = [f"{side} after the roll" for side in check_solo_sides(system, rolled.history)]
    rolled.history.undo()
    assert rolled.history.state == rolled.before
    moved += [f"{side} before the roll" for side in check_solo_sides(system, rolled.history)]
    if system.solo_policies:
        assert moved, f"{system.name} lists solo policies but no side ever moves in its demo"
    else:
        assert not moved, f"{system.name} has no solo policies, yet {moved} moved"
