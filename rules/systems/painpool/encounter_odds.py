"""Pain Pool's odds in an encounter: the roll a dialog describes, the open roll after Despair or
Hope, and the last roll, named for the Consequences pane (the arithmetic is ``odds``, free of
msgspec)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.dice import ANY_FACE
from rules.errors import Rejected
from rules.odds import whose_chances
from rules.roles.rolls import Rolls

from . import decide, forms
from .events import (
    SpendHope,
    challenge,
    hero,
    open_roll,
)
from .odds import despair_odds, hope_odds, painpool_odds
from .roll import (
    PainPoolRolled,
    damage_parts,
    pain_count,
    pain_parts,
)
from .sheet import (
    ChallengeSheet,
    HeroSheet,
)

if TYPE_CHECKING:
    from rules.odds import Odds

    from .events import PainPoolEncounter


def dialog_odds(state: PainPoolEncounter, action: str, values: Mapping[str, str]) -> Odds | None:
    """The exact odds of the roll the dialog describes (None when it would be refused); for
    Despair and Hope, the odds of the rolled roll after them, given the dice already down."""
    if action in ("despair", "hope"):
        return _reroll_odds(state, action, values)
    if action != "roll":
        return None
    try:
        cmd = forms.roll_command(state, values)
        sheet: HeroSheet = hero(state, cmd.hero_id).sheet
        foe: ChallengeSheet = challenge(state, cmd.challenge_id).sheet
        decide.chosen_boons(sheet, cmd)
    except Rejected:
        return None
    pain = pain_count(pain_parts(foe, cmd.initiator, cmd.pain_extra))
    # A maneuver risks failure levels only: no template changes them (issue 30, R3-20).
    parts = damage_parts(foe, cmd.initiator) if cmd.kind != "maneuver" else ()
    bonus = sum(part.value for part in parts)
    pools = tuple(forms.pool_dice(sheet, cmd))
    found = painpool_odds(pools, pain, bonus)
    return _named(state, cmd.hero_id, cmd.challenge_id, found)


def _reroll_odds(state: PainPoolEncounter, action: str, values: Mapping[str, str]) -> Odds | None:
    """The odds of the open roll after the Despair or Hope the dialog describes, refused
    (None) exactly when the spend would be."""
    try:
        roll = open_roll(state)
        if action == "despair":
            decide.despair(state, ANY_FACE)
            spent = None
        else:
            command = forms.action_command(state, "hope", values)
            assert isinstance(command, SpendHope)
            spent = decide.hope(state, command, ANY_FACE)
    except Rejected:
        return None
    pools = tuple((p.pool, p.count, p.size, p.kept) for p in roll.pools)
    bonus = template_bonus(roll)
    harms = True  # an attack deals damage, a maneuver costs failure levels
    pain = roll.pain
    if spent is None:
        count = pain_count(pain.parts)
        found = despair_odds(pools, count, pain.total, pain.top, roll.raised, bonus, harms)
    else:
        rerolled = tuple(reroll.pool for reroll in spent.rerolls)
        raised = roll.raised + spent.raised
        found = hope_odds(pools, rerolled, pain.total, pain.top, raised, bonus, harms)
    return _named(state, roll.hero_id, roll.challenge_id, found)


def last_odds(state: PainPoolEncounter) -> Odds | None:
    """The odds the last roll had when it was made (before any Despair or Hope)."""
    roll = state.last_roll
    if not isinstance(roll, PainPoolRolled):
        return None
    pools = tuple((p.pool, p.count, p.size) for p in roll.pools)
    bonus = template_bonus(roll)
    found = painpool_odds(pools, len(roll.pain.dice), bonus)
    return _named(state, roll.hero_id, roll.challenge_id, found)


def template_bonus(roll: PainPoolRolled) -> int:
    """The templates' change to what the hero's loss costs: none for a maneuver."""
    return 0 if roll.kind == "maneuver" else sum(part.value for part in roll.damage_parts)


def _named(state: PainPoolEncounter, hero_id: str, challenge_id: str, found: Odds) -> Odds:
    """The odds of a hero's roll: Best, Good and Worst are the hero's outcomes."""
    hero_name = state.name_of(hero_id, "the hero")
    foe = state.name_of(challenge_id, "the challenge")
    return found._replace(whose=whose_chances(hero_name, foe))


class PainPoolOdds(Rolls):
    """Pain Pool's exact odds (``rules.roles.rolls``)."""

    has_odds = True
    odds = staticmethod(dialog_odds)
    last_odds = staticmethod(last_odds)
