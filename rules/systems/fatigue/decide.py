"""Fatigue & Thresholds' decisions after a check: paying its consequence, suckage points, an
effort called off, and aid (the check itself is built in ``check``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.conditions import Condition, Duration
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.events import ConditionAdded

from .arithmetic import (
    Cost,
    aid_bonus,
    aid_target,
    roll_stress,
)
from .check import (
    consequence_of,
    make_side,
    next_comparison,
    resolve_skills,
    tradable_wind,
)
from .events import (
    RUINED,
    RUINOUS,
    TRADES,
    Aid,
    FatigueAid,
    FatigueAided,
    FatigueCalledOff,
    FatigueCallOff,
    FatiguePoolsSpent,
    FatigueSuckageTaken,
    FatigueTakeSuckage,
    FatigueTrade,
    FatigueTraded,
    Suckage,
    call_off_refusal,
    level_name,
    pending,
    suckage_refusal,
)
from .forms import (
    MAX_COST_TEXT,
)

if TYPE_CHECKING:
    from .events import FatigueEncounter


def pay(state: FatigueEncounter) -> list[object]:
    """The open consequence paid; from the second penalty on, the payer's equipment is
    marked ruined (issue 39, F4-09)."""
    spent = payment(state)
    payer = state.find(spent.combatant_id)
    if not spent.ruined or payer is None or payer.condition(RUINED) is not None:
        return [spent]
    duration = Duration("until-removed")
    condition = Condition(RUINED, duration, state.expiry_for(payer.id, duration))
    return [spent, ConditionAdded(payer.id, condition)]


def payment(state: FatigueEncounter) -> FatiguePoolsSpent:
    roll = pending(state)
    found = consequence_of(roll)
    if found is None:
        if roll.called_off and roll.sufferer is not None:
            return FatiguePoolsSpent(
                combatant_id=roll.sufferer.combatant_id,
                costs=(),
                what="an effort called off",
                reckoning="called off: no consequence",
            )
        if next_comparison(roll) is not None:  # lifted to a win: on to the next defender
            return FatiguePoolsSpent(
                combatant_id=roll.defender.combatant_id,
                costs=(),
                what="Successful defense",
                reckoning="defends: nothing beyond N",
            )
        raise Rejected(
            f"{state.name_of(roll.defender.combatant_id)} defended: "
            "nothing to pay beyond N, paid at the check"
        )
    target, consequence = found
    if state.find(target) is None:
        raise Rejected("The one who pays is no longer in the encounter")
    return FatiguePoolsSpent(
        combatant_id=target,
        costs=traded_costs(consequence.costs, roll.traded),
        what=level_name(roll, roll.level),
        reckoning=consequence.reckoning,
        narrate=consequence.narrate,
        # *Consequences for Defenders*: the second to fourth penalties "are very, very bad. If
        # they involve equipment, you should not count on being able to use that equipment
        # ever again": the tracker cannot know what was used, so it marks the payer and the
        # GM removes the mark when nothing was (a dodge) or the thing survived.
        ruined=(roll.level or 0) >= RUINOUS,
    )


def suckage(state: FatigueEncounter, cmd: FatigueTakeSuckage) -> FatigueSuckageTaken:
    refusal = suckage_refusal(pending(state), cmd.points)
    if refusal:
        raise Rejected(refusal)
    if not cmd.cost:
        raise Rejected("Say what the suckage costs (e.g. falls to one knee)")
    if len(cmd.cost) > MAX_COST_TEXT:
        raise Rejected(f"Keep the cost under {MAX_COST_TEXT} characters")
    return FatigueSuckageTaken(Suckage(cmd.points, cmd.cost))


def traded_costs(costs: tuple[Cost, ...], wind: int) -> tuple[Cost, ...]:
    """A consequence's costs less the Wind the GM traded for a condition."""
    return tuple(Cost(c.pool, max(0, c.amount - wind)) if c.pool == "wind" else c for c in costs)


def trade(state: FatigueEncounter, cmd: FatigueTrade) -> list[object]:
    """*Melee*: the GM substitutes a condition for some of the first consequence's fatigue."""
    roll = pending(state)
    most = tradable_wind(roll)
    if not most:
        raise Rejected("Only a melee consequence's Wind may be traded, once, for a condition")
    if cmd.instead not in dict(TRADES):
        raise Rejected(f"Trade Wind for one of: {', '.join(dict(TRADES))}")
    if not 1 <= cmd.wind <= most:
        raise Rejected(f"Trade 1 to {most} Wind")
    payer = roll.sufferer
    assert payer is not None  # a consequence has one who pays it
    duration = Duration("until-removed")
    condition = Condition(cmd.instead, duration, state.expiry_for(payer.combatant_id, duration))
    traded = FatigueTraded(combatant_id=payer.combatant_id, instead=cmd.instead, wind=cmd.wind)
    return [traded, ConditionAdded(payer.combatant_id, condition)]


def call_off(state: FatigueEncounter, cmd: FatigueCallOff) -> FatigueCalledOff:
    roll = pending(state)
    refusal = call_off_refusal(state, roll, cmd.gm_allows, cmd.levels)
    if refusal:
        raise Rejected(refusal)
    return FatigueCalledOff(cmd.levels)


def aid(state: FatigueEncounter, cmd: FatigueAid, dice: DiceSource) -> FatigueAided:
    roll = pending(state)
    if cmd.side == "attacker" and roll.attacker is None:
        raise Rejected("Nature needs no aid: aid the defender")
    if roll.suckage or roll.called_off:
        # The order of play: the dice, then aid (its target is the check's result), then the
        # loser's suckage or calling off, each chosen knowing the totals (issue 30, R3-15).
        done = "suckage was taken" if roll.suckage else "the effort was called off"
        raise Rejected(f"Aid comes before suckage and calling off: {done} on this check")
    helper = state.combatant(cmd.helper_id)
    resolve_skills(helper, cmd.skills)
    faces = roll_stress(dice, cmd.dice)
    side = make_side(helper, cmd.dice, faces, cmd.skills, "ordinary", cmd.effort)
    aided = roll.attacker if cmd.side == "attacker" else roll.defender
    main = aided.total if aided is not None else 0
    return FatigueAided(
        Aid(
            helper=side,
            side=cmd.side,
            main=main,
            target=aid_target(main),
            bonus=aid_bonus(side.total, main),
        )
    )
