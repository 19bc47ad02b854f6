"""LiveHack's odds in an encounter: the roll a dialog describes and the last roll, built by
the same decisions as the real ones and named for the Consequences pane (the arithmetic is
``odds``, free of msgspec)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from msgspec import structs

from rules.dice import ANY_FACE
from rules.errors import Rejected
from rules.odds import Odds, percent, whose_chances

from . import decide, forms, log, odds
from .apply import livehack_state
from .events import LiveHackJointRolled, LiveHackRoll, LiveHackRolled
from .parts import needs_effort_check

if TYPE_CHECKING:
    from rules.encounter import Encounter


def dialog_odds(state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
    """The odds of the roll the dialog describes: an opposed roll or a grim test, built by
    the same decision as the real roll (its dice are not used). None if it would not go."""
    if action not in ("roll", "grim", "joint"):
        return None
    try:
        if action == "roll":
            return _roll_odds(state, forms.roll_command(state, values))
        if action == "grim":
            command = forms.command_for(state, "grim", values, None)
            event = decide.grim_test(state, command, ANY_FACE)
        else:
            joint = forms.command_for(state, "joint", values, None)
            return joint_odds(decide.joint(state, joint, ANY_FACE), state)
    except (Rejected, KeyError, ValueError):
        return None
    return rolled_odds(event, state)


def _roll_odds(state: Encounter, cmd: LiveHackRoll) -> Odds:
    """An opposed roll's odds; with effort at Con -5, those of the roll with and without
    the effort, weighed by the chance of the Con check that decides it."""
    decide.roll(state, cmd, ANY_FACE)  # refused as the real roll would be
    variants: list[tuple[Fraction, LiveHackRoll]] = [(Fraction(1), cmd)]
    notes = []
    for field, who in (("effort", cmd.attacker_id), ("defender_effort", cmd.defender_id)):
        person, effort = state.combatant(who), getattr(cmd, field)
        if not effort or not needs_effort_check(person):
            continue
        p = odds.dice_at_least(-person.sheet.attribute("con"))
        notes.append(f"{person.name}'s Con roll for +{effort} effort: {percent(float(p))}")
        variants = [(w * p, c) for w, c in variants] + [
            (w * (1 - p), structs.replace(c, **{field: 0})) for w, c in variants
        ]
    found = [(w, rolled_odds(decide.opposed(state, c, ANY_FACE), state)) for w, c in variants]
    first = found[0][1]
    if len(found) == 1:
        return first
    tiers = tuple(
        tier._replace(p=sum((w * o.tiers[i].p for w, o in found), Fraction(0)))
        for i, tier in enumerate(first.tiers)
    )
    note = "; ".join(notes) + " (the chances count both ways)"
    return first._replace(tiers=tiers, extra={**first.extra, "note": note})


def last_odds(state: Encounter) -> Odds | None:
    """The odds the last roll had; after a joint action, those of the whole action (the
    best, or for Chaos the lowest, of every participant's margin)."""
    roll = state.last_roll
    if not isinstance(roll, LiveHackRolled):
        return None
    joint = livehack_state(state).joint
    if joint is not None and joint.rolls[joint.chosen] == roll:
        return joint_odds(joint, state)
    return rolled_odds(roll, state)


def rolled_odds(roll: LiveHackRolled, state: Encounter) -> Odds:
    """The odds an opposed roll had before its dice: its sides' modifiers and takes."""
    a, d = roll.attacker, roll.defender
    defender = log.side_name(state, d, "the defender")
    if roll.kind == "grim":  # the experience "attacks": its margin is the Grimness gained
        found = odds.grim_odds(a.modifier, d.modifier, a.take, d.take)
        return found._replace(whose=f"the grim test's chances vs {defender}")
    found = odds.opposed_odds(a.modifier, d.modifier, a.take, d.take)
    return found._replace(whose=whose_chances(log.side_name(state, a, "the attacker"), defender))


def joint_odds(event: LiveHackJointRolled, state: Encounter) -> Odds:
    """The odds of a joint action: every participant's modifier against the one defender."""
    defender = event.rolls[0].defender
    mods = tuple(roll.attacker.modifier for roll in event.rolls)
    takes = tuple(roll.attacker.take for roll in event.rolls)
    found = odds.joint_odds(event.kind, mods, defender.modifier, defender.take, takes)
    names = [log.side_name(state, roll.attacker, "a helper") for roll in event.rolls]
    together = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    against = log.side_name(state, defender, "the defender")
    return found._replace(whose=f"{together}'s {event.kind} vs {against}")
