"""Stabilising a dying creature (SRD 5.1, *Stabilizing a Creature*): an action, a DC 10
Wisdom (Medicine) check, or *spare the dying*, which needs no roll. An ability check, so the
conditions (and exhaustion) that give disadvantage on ability checks give it here."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.odds import Odds, TierOdds

from .economy import check
from .events import D20Stabilise, D20Stabilised, sheet_of, stamp_of
from .odds import save_chance
from .sheet import life_word
from .standing import conditions_of, why_not

if TYPE_CHECKING:
    from rules.dice import DiceSource

    from .events import D20Combatant, D20Encounter

MEDICINE_DC = 10
CHECKS_AT_DISADVANTAGE = frozenset({"frightened", "poisoned"})


def check_mode(combatant: D20Combatant) -> tuple[int, tuple[str, ...]]:
    """An ability check's disadvantage (-1) or none, and why: poisoned, frightened (its
    source in sight: the GM's call, so it counts), a level of exhaustion."""
    mine = conditions_of(combatant) & CHECKS_AT_DISADVANTAGE
    why = [f"-{combatant.name} {c}" for c in sorted(mine)]
    if sheet_of(combatant).exhaustion >= 1:
        why.append(f"-{combatant.name} exhaustion {sheet_of(combatant).exhaustion}")
    return (-1 if why else 0), tuple(why)


def _checked(state: D20Encounter, cmd: D20Stabilise) -> tuple[D20Combatant, D20Combatant]:
    medic, target = state.combatant(cmd.medic_id), state.combatant(cmd.target_id)
    if life_word(sheet_of(target)) != "dying":
        raise Rejected(f"{target.name} is not dying")
    why = why_not(state, medic)
    if why:
        raise Rejected(f"{medic.name} cannot act: {why}")
    if abs(cmd.bonus) > MODIFIER:
        raise Rejected(f"Medicine bonus: between -{MODIFIER} and +{MODIFIER}")
    return medic, target


def stabilise(state: D20Encounter, cmd: D20Stabilise, dice: DiceSource) -> list[Any]:
    medic, target = _checked(state, cmd)
    check(state, medic, cmd.usage)  # an action (economy.py): not its odds, which stay shown
    if cmd.spell:
        return [
            D20Stabilised(medic.id, target.id, True, (), 0, 0, 0, True, stamp_of(state), cmd.usage)
        ]
    mode, _ = check_mode(medic)
    if mode == 0:
        faces: tuple[int, ...] = (dice.roll(20),)
        natural = faces[0]
    else:
        faces = (dice.roll(20), dice.roll(20))
        natural = min(faces)
    total = natural + cmd.bonus
    success = total >= MEDICINE_DC
    return [
        D20Stabilised(
            medic.id,
            target.id,
            False,
            faces,
            mode,
            cmd.bonus,
            total,
            success,
            stamp_of(state),
            cmd.usage,
        )
    ]


def stabilise_odds(state: D20Encounter, cmd: D20Stabilise) -> Odds:
    """The chance the check (or the spell, certain) makes the target stable."""
    medic, target = _checked(state, cmd)
    made = Fraction(1)  # the spell
    if not cmd.spell:
        made = save_chance(cmd.bonus, MEDICINE_DC, check_mode(medic)[0])
    tiers = (
        TierOdds("fails", None, -1, 1 - made),
        TierOdds("stable", 0, None, made),
    )
    how = "spare the dying" if cmd.spell else "Medicine check"
    return Odds("d20", tiers, whose=f"{medic.name}'s {how} on {target.name}")
