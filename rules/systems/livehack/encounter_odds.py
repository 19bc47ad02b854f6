"""LiveHack's odds in an encounter: the roll a dialog describes and the last roll, built by
the same decisions as the real ones and named for the Consequences pane (the arithmetic is
``odds``, free of msgspec)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from msgspec import structs

from rules.dice import ANY_FACE
from rules.errors import Rejected
from rules.odds import Odds, percent, whose_chances
from rules.roles.rolls import Rolls

from . import decide, forms, log, odds, saves
from .apply import livehack_state
from .events import (
    LiveHackGrimTest,
    LiveHackJointRoll,
    LiveHackJointRolled,
    LiveHackRoll,
    LiveHackRolled,
)
from .parts import needs_effort_check

if TYPE_CHECKING:
    from .events import LiveHackEncounter


def dialog_odds(state: LiveHackEncounter, action: str, values: Mapping[str, str]) -> Odds | None:
    """The odds of the roll the dialog describes: an opposed roll, a grim test or a joint
    action, built by the same decision as the real roll (its dice are not used). None if it
    would not go."""
    if action not in ("roll", "grim", "joint"):
        return None
    try:
        if action == "roll":
            return _roll_odds(state, forms.roll_command(state, values))
        if action == "grim":
            return _grim_odds(state, forms.command_for(state, "grim", values, None))
        return _joint_odds(state, forms.command_for(state, "joint", values, None))
    except (Rejected, KeyError, ValueError):
        return None


C = TypeVar("C", LiveHackRoll, LiveHackGrimTest, LiveHackJointRoll)
# Who pushes, how hard, and the command with that effort left out (its Con roll failed).
Push = tuple[str, int, Callable[[C], C]]


def _roll_odds(state: LiveHackEncounter, cmd: LiveHackRoll) -> Odds:
    decide.roll(state, cmd, ANY_FACE)  # refused as the real roll would be
    pushes: list[Push[LiveHackRoll]] = [
        (cmd.attacker_id, cmd.effort, lambda c: structs.replace(c, effort=0)),
        (cmd.defender_id, cmd.defender_effort, lambda c: structs.replace(c, defender_effort=0)),
    ]
    return _weighed(
        state, cmd, pushes, lambda c: rolled_odds(decide.opposed(state, c, ANY_FACE), state)
    )


def _grim_odds(state: LiveHackEncounter, cmd: LiveHackGrimTest) -> Odds:
    saves.grim_test(state, cmd, ANY_FACE)  # refused as the real test would be
    pushes: list[Push[LiveHackGrimTest]] = [
        (cmd.combatant_id, cmd.effort, lambda c: structs.replace(c, effort=0))
    ]
    return _weighed(
        state, cmd, pushes, lambda c: rolled_odds(saves.grim_roll(state, c, ANY_FACE), state)
    )


def _joint_odds(state: LiveHackEncounter, cmd: LiveHackJointRoll) -> Odds:
    decide.joint(state, cmd, ANY_FACE)  # refused as the real action would be
    ids = decide.participants(state, cmd)
    efforts = decide.joint_efforts(cmd.efforts, len(ids))
    declared = structs.replace(cmd, efforts=efforts)

    def without(i: int) -> Callable[[LiveHackJointRoll], LiveHackJointRoll]:
        return lambda c: structs.replace(c, efforts=(*c.efforts[:i], 0, *c.efforts[i + 1 :]))

    pushes: list[Push[LiveHackJointRoll]] = [
        (cid, effort, without(i)) for i, (cid, effort) in enumerate(zip(ids, efforts, strict=True))
    ]
    # The defender pushes too (F4-08), its Con roll at Con -5 weighed the same way.
    pushes.append(
        (cmd.defender_id, cmd.defender_effort, lambda c: structs.replace(c, defender_effort=0))
    )
    return _weighed(
        state, declared, pushes, lambda c: joint_odds(decide.joint_roll(state, c, ANY_FACE), state)
    )


def _weighed(
    state: LiveHackEncounter, cmd: C, pushes: list[Push[C]], odds_of: Callable[[C], Odds]
) -> Odds:
    """A roll's odds; with effort at Con -5, those of the roll with and without each such
    effort, weighed by the exact chance of the Con roll that decides it."""
    variants: list[tuple[Fraction, C]] = [(Fraction(1), cmd)]
    notes = []
    for who, effort, unpush in pushes:
        person = state.combatant(who)
        if not effort or not needs_effort_check(person):
            continue
        p = odds.dice_at_least(-person.sheet.attribute("con"))
        notes.append(f"{person.name}'s Con roll for +{effort} effort: {percent(float(p))}")
        variants = [(w * p, c) for w, c in variants] + [
            (w * (1 - p), unpush(c)) for w, c in variants
        ]
    found = [(w, odds_of(c)) for w, c in variants]
    first = found[0][1]
    if len(found) == 1:
        return first
    tiers = tuple(
        tier._replace(p=sum((w * o.tiers[i].p for w, o in found), Fraction(0)))
        for i, tier in enumerate(first.tiers)
    )
    note = "; ".join(notes) + " (the chances count both ways)"
    return first._replace(tiers=tiers, extra={**first.extra, "note": note})


def last_odds(state: LiveHackEncounter) -> Odds | None:
    """The odds the last roll had; after a joint action, those of the whole action (the
    best, or for Chaos the lowest, of every participant's margin)."""
    roll = state.last_roll
    if not isinstance(roll, LiveHackRolled):
        return None
    joint = livehack_state(state).joint
    if joint is not None and joint.rolls[joint.chosen] == roll:
        return joint_odds(joint, state)
    return rolled_odds(roll, state)


def rolled_odds(roll: LiveHackRolled, state: LiveHackEncounter) -> Odds:
    """The odds an opposed roll had before its dice: its sides' modifiers and takes."""
    a, d = roll.attacker, roll.defender
    defender = log.side_name(state, d, "the defender")
    if roll.kind == "grim":  # the experience "attacks": its margin is the Grimness gained
        found = odds.grim_odds(a.modifier, d.modifier, a.take, d.take)
        return found._replace(whose=f"the grim test's chances vs {defender}")
    found = odds.opposed_odds(a.modifier, d.modifier, a.take, d.take)
    return found._replace(whose=whose_chances(log.side_name(state, a, "the attacker"), defender))


def joint_odds(event: LiveHackJointRolled, state: LiveHackEncounter) -> Odds:
    """The odds of a joint action: every participant's modifier against the one defender."""
    defender = event.rolls[0].defender
    mods = tuple(roll.attacker.modifier for roll in event.rolls)
    takes = tuple(roll.attacker.take for roll in event.rolls)
    found = odds.joint_odds(event.kind, mods, defender.modifier, defender.take, takes)
    names = [log.side_name(state, roll.attacker, "a helper") for roll in event.rolls]
    together = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    against = log.side_name(state, defender, "the defender")
    return found._replace(whose=f"{together}'s {event.kind} vs {against}")


class LiveHackOdds(Rolls):
    """LiveHack's exact odds (``rules.roles.rolls``)."""

    has_odds = True
    odds = staticmethod(dialog_odds)
    last_odds = staticmethod(last_odds)
