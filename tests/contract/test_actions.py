"""Every action, on the demo's state: dialog, defaults, command, decide, apply, log, save."""

from __future__ import annotations

from rules.errors import Rejected
from rules.system import RuleSystem

from .support import actor, check_action, selections, values_of


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


def test_the_gms_choices_make_commands_only_the_gm_may_give(
    system: RuleSystem, history, action: str
):
    """The two halves of the GM's approvals agree: a choice a player's dialog does not offer
    (``gm_choice``) makes a command ``gm_approvals`` names, so the permission hook refuses
    it to a player; the dialog's defaults, picking none, make a command it does not name."""
    state = history.state
    try:
        fields = system.action_form(state, action, actor(state))
        defaults = values_of(fields)
        plain = system.action_command(state, action, defaults)
    except Rejected:
        return  # the action does not apply here
    if not any(system.gm_choice(key, value) for key, value in defaults.items()):
        assert system.gm_approvals(plain) == ()
    for field in fields:
        for value, _ in field.choices:
            if not system.gm_choice(field.key, value):
                continue
            try:
                command = system.action_command(state, action, defaults | {field.key: value})
            except Rejected:
                continue  # not for this actor (Grim Advantage without Grimness)
            assert system.gm_approvals(command), f"{action}: {field.key}={value}"
