"""Every action, on the demo's state: dialog, defaults, command, decide, apply, log, save."""

from __future__ import annotations

from rules.system import RuleSystem

from .support import actor, check_action, selections


def test_the_dialog_with_its_defaults_gives_events_or_a_clear_refusal(
    system: RuleSystem, history, action: str
):
    """For the actor selected (the roll must give a command there), then for everyone else
    selected and for nobody: never anything but events or a one-line Rejected."""
    state = history.state
    for selected in selections(state):
        must_roll = action == "roll" and selected == actor(state)
        check_action(system, history, action, selected, must_roll)
        assert history.state == state
