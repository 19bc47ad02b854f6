"""LiveHack solo play: how the tracker plays a combatant of a side it runs (``rules.solo``).

A solo combatant's turn, one command at a time: its dying or transformation save, a pass
when it cannot act, a -5 check (Int, Wis, Dex) before acting, then the attack (Reflex), the
damage roll (Fortitude, with the rolled-over bonus) or holding/cancelling a position, the
damage table (``d``) and the end of its turn. Where the turn stands is read from what it
has rolled this round (``LiveHackState.turn_marks``), so every choice is a pure function of
the state. As a defender (in the user's roll dialog) it chooses take zero or roll and effort.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from msgspec import structs

from rules.commands import NextTurn
from rules.errors import Rejected
from rules.roles.solo import Solo
from rules.system import Move, Policy, policy_among

from . import forms
from .decide import hit_waiting
from .events import (
    LiveHackApplyConsequence,
    LiveHackCancel,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackSave,
    LiveHackState,
    Take,
    cannot_act,
    condition_for,
    is_dying,
    out_of_fight,
)
from .parts import (
    check_effort,
    defender_parts,
    defending_parts,
    defense_name,
    roll_parts,
    written_for,
)
from .sheet import TRAITS, LiveHackSheet, offset_effects

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter


POLICIES = (
    Policy("roll", "Always roll", "rolls every roll, attacks its usual foe, pushes no effort"),
    Policy("take-zero", "Take zero", "never rolls: its modifiers alone stand (the GM's shortcut)"),
    Policy(
        "aggressive",
        "Aggressive",
        "goes for the most hurt or dazed foe, pushes +2 effort into damage, never holds back",
    ),
    Policy(
        "cautious",
        "Cautious",
        "takes zero when ahead, pushes effort to resist damage, holds a margin bonus to cash in",
    ),
)
ACTING_CHECKS = ("int", "wis", "dex")  # the -5 checks asked for before any (physical) task
SOLO_POSITION = "pressing its advantage"  # how a tracker-played holder describes its position
PUSH = 2  # the effort an aggressive attacker or a cautious defender puts into a damage roll


def is_out(combatant: LiveHackCombatant) -> bool:
    """Out of the fight: not worth attacking, and the end of a side when all are."""
    return bool(out_of_fight(combatant))


def foes(state: LiveHackEncounter, actor: LiveHackCombatant) -> list[LiveHackCombatant]:
    return [c for c in state.combatants if c.side != actor.side and not is_out(c)]


def marks(state: LiveHackEncounter, cid: str) -> list[str]:
    """What the combatant has rolled this round: "reflex", "fortitude", "dying:holds on"..."""
    system = state.system_state
    found = system.turn_marks if isinstance(system, LiveHackState) else ()
    prefix = f"{state.round}:{cid}:"
    return [m[len(prefix) :] for m in found if m.startswith(prefix)]


def _done(done: list[str], what: str) -> str | None:
    """The outcome of a save or check rolled this round ("" when none is recorded)."""
    return next((m.partition(":")[2] for m in done if m.partition(":")[0] == what), None)


# --- the choices every roll asks for ---------------------------------------------------------


def take_for(policy: str, own: int, other: int, *, defending: bool) -> tuple[Take, str]:
    """Roll or take zero, with why. A defender is ahead only above the attacker (ties lose)."""
    ahead = own > other if defending else own >= other
    match policy:
        case "take-zero":
            return "zero", f"takes zero: {own:+d} stands without dice"
        case "cautious" if ahead:
            verb = "beats" if own > other else "meets"
            return "zero", f"takes zero: {own:+d} already {verb} {other:+d}, no dice to go wrong"
        case "cautious":
            return "roll", f"rolls: {own:+d} against {other:+d} needs the dice"
        case "aggressive":
            return "roll", "rolls, swinging for a big margin"
    return "roll", "rolls"


def effort_left(combatant: LiveHackCombatant, wanted: int) -> int:
    """The most effort up to ``wanted`` the rules allow now (none at Con -5: it needs a check)."""
    sheet: LiveHackSheet = combatant.sheet
    if any(e.attribute == "con" for e in offset_effects(sheet)):
        return 0
    for effort in range(wanted, 0, -1):
        try:
            check_effort(combatant, effort)
        except Rejected:
            continue
        return effort
    return 0


Defended = TypeVar("Defended", LiveHackRoll, LiveHackJointRoll)


def own_ratings(defender: LiveHackCombatant, cmd: Defended) -> tuple[Defended, str]:
    """*Roll Components* for a defender the tracker fills in (F4-04): where the roll leaves
    them blank, the best specialty and every item its sheet writes for its defense
    ("Reflex/dodging", "Reflex/shield"), and how it says so ("" for none)."""
    sheet: LiveHackSheet = defender.sheet
    named = defense_name(cmd)
    changes: dict[str, str] = {}
    if not cmd.defender_specialty.strip():
        specialties = written_for(sheet.specialties, named)
        if specialties:
            changes["defender_specialty"] = max(specialties, key=lambda r: r.value).name
    if not cmd.defender_items.strip():
        items = written_for(sheet.items, named)
        if items:
            changes["defender_items"] = ", ".join(r.name for r in items)
    if not changes:
        return cmd, ""
    return structs.replace(cmd, **changes), "with " + " and ".join(changes.values())


def defence(state: LiveHackEncounter, cmd: LiveHackRoll) -> tuple[LiveHackRoll, Move | None]:
    """A solo defender's take, effort and own ratings for a roll against it, and the Move
    saying why."""
    defender = state.find(cmd.defender_id)
    attacker = state.find(cmd.attacker_id)
    if defender is None or attacker is None or not state.is_solo(defender):
        return cmd, None
    cmd, using = own_ratings(defender, cmd)
    policy = policy_among(POLICIES, defender)
    attack = sum(p.value for p in roll_parts(state, attacker, defender, cmd))
    # Its whole side as given, specialty, bond and items too (F4-04), before its own effort.
    unpushed = _replace(cmd, defender_effort=0)
    defend = sum(p.value for p in defending_parts(state, defender, unpushed))
    take, why = take_for(policy, defend, attack, defending=True)
    effort = 0
    if policy == "cautious" and cmd.defense == "fortitude":
        effort = effort_left(defender, PUSH)
        if effort:
            why += f"; pushes +{effort} effort to shrug off the blow"
    filled = _replace(cmd, defender_take=take, defender_effort=effort)
    against = cmd.defense.capitalize() if cmd.defense != "skill" else "its skill"
    if using:
        against += f", {using}"
    return filled, Move(defender.id, None, f"defends ({against}): {why}")


def _replace(cmd: LiveHackRoll, **changes: object) -> LiveHackRoll:
    return structs.replace(cmd, **changes)


# --- the turn --------------------------------------------------------------------------------


def next_move(state: LiveHackEncounter) -> Move | None:
    dying = _round_end_save(state)
    if dying is not None:
        return dying
    actor = state.current
    if actor is None or not state.is_solo(actor):
        return None
    policy = policy_among(POLICIES, actor)
    done = marks(state, actor.id)
    if actor.condition("Dead"):
        return _pass(actor, "is dead: passes the turn")
    save = _transform_save(state, actor, policy, done)
    if save is not None:
        return save
    why = cannot_act(actor) or out_of_fight(actor)
    if why:
        return _pass(actor, f"cannot act ({why}): passes the turn")
    check = _acting_check(actor, policy, done)
    if check is not None:
        return check
    if "fortitude" in done:
        return _after_damage(state, actor)
    if "reflex" in done:
        return _after_hit(state, actor, policy)
    if waiting_hit(state):
        return None  # another's hit waits to be applied: its attack would leave it behind
    return _attack(state, actor, policy)


def waiting_hit(state: LiveHackEncounter) -> str:
    """What the last roll leaves for ``d`` ("" when nothing): a hit's damage roll, or a damage
    roll's table row, in a few words."""
    hit = hit_waiting(state)
    if hit is not None:
        over = state.system_state.rollover
        bonus = f", +{over.bonus} rolled over" if over is not None and over.bonus else ""
        who, whom = (
            state.name_of(hit.attacker.combatant_id),
            state.name_of(hit.defender.combatant_id),
        )
        return f"{who}'s damage roll on {whom} (Fortitude{bonus})"
    roll = state.last_roll
    if not isinstance(roll, LiveHackRolled) or state.last_roll_applied or not roll.answers_table:
        return ""
    row = roll.row
    target = state.find(roll.defender.combatant_id)
    if row is None or target is None:
        return ""
    effect = f"{target.name} takes {row.levels} {dict(TRAITS)[roll.trait]}"
    condition = condition_for(row, roll.defense)
    return f"{effect}, {condition}" if condition else effect


def _pass(actor: LiveHackCombatant, reason: str) -> Move:
    return Move(actor.id, NextTurn(), reason)


def _round_end_save(state: LiveHackEncounter) -> Move | None:
    """*Dying*: "at the end of each round they are dying, they must roll a fort save": a
    dying combatant the tracker plays saves when a round ends (as the new one begins), before
    anyone acts, whoever's turn it is; one that fell dying this round saves at its end (its
    fall is marked, ``FELL_DYING``), and none saves twice in a round (R3-09)."""
    saved: set[str] | None = None
    for person in state.combatants:
        if not person.conditions:  # nearly everyone, asked at every move of a fight of 40
            continue
        if not state.is_solo(person) or not is_dying(person) or person.condition("Dead"):
            continue
        saved = _saved_this_round(state) if saved is None else saved
        if person.id in saved:
            continue
        if ":" in person.id and _done(marks(state, person.id), "dying") is not None:
            continue
        sheet: LiveHackSheet = person.sheet
        mod = sheet.defense("fortitude") + sheet.attribute("con")
        policy = policy_among(POLICIES, person)
        take, why = take_for(policy, mod, sheet.wounds, defending=False)
        cmd = LiveHackSave(kind="dying", combatant_id=person.id, take=take)
        return Move(person.id, cmd, f"dying save, Fortitude vs Wounds {sheet.wounds}: {why}")
    return None


def _saved_this_round(state: LiveHackEncounter) -> set[str]:
    """Who made its dying save this round, read off the marks once (``_done(marks(...),
    "dying")`` for each: an id with a colon in it is asked so)."""
    system = state.system_state
    found = system.turn_marks if isinstance(system, LiveHackState) else ()
    prefix = f"{state.round}:"
    cut = len(prefix)
    this_round = (m[cut:] for m in found if "dying" in m and m.startswith(prefix))
    return {
        cid
        for cid, _, what in (rest.partition(":") for rest in this_round)
        if what.partition(":")[0] == "dying"
    }


def _transform_save(
    state: LiveHackEncounter, actor: LiveHackCombatant, policy: str, done: list[str]
) -> Move | None:
    """*Transforming*: "make an appropriate save each turn"."""
    sheet: LiveHackSheet = actor.sheet
    if actor.condition("Transforming") and _done(done, "transforming") is None:
        grimlock = actor.id in state.system_state.grimlocks
        dr = sheet.grimness if grimlock else sheet.wounds
        mod = sheet.defense("fortitude") + sheet.attribute("con")
        take, why = take_for(policy, mod, dr, defending=False)
        cmd = LiveHackSave(kind="transforming", combatant_id=actor.id, take=take)
        return Move(actor.id, cmd, f"transformation save vs DR {dr}: {why}")
    return None


def _acting_check(actor: LiveHackCombatant, policy: str, done: list[str]) -> Move | None:
    """*Cumulative Offset Penalties*: at -5 Int, Wis or Dex it rolls vs DR 0 before acting;
    a failed check costs it the turn."""
    sheet: LiveHackSheet = actor.sheet
    for effect in offset_effects(sheet):
        if effect.level != -5 or effect.attribute not in ACTING_CHECKS:
            continue
        outcome = _done(done, f"check {effect.check}")
        if outcome is None:
            take, why = take_for(policy, sheet.attribute(effect.attribute), 0, defending=False)
            cmd = LiveHackSave(
                kind="check", combatant_id=actor.id, take=take, attribute=effect.attribute
            )
            return Move(actor.id, cmd, f"{effect.check} -5, a check vs DR 0 before acting: {why}")
        if outcome == "fails":
            return _pass(actor, f"failed its {effect.check} check: does nothing this turn")
    return None


def target_for(
    state: LiveHackEncounter, actor: LiveHackCombatant, policy: str
) -> tuple[LiveHackCombatant, str] | None:
    """The foe it attacks, and why; None when no foe is left standing."""
    standing = foes(state, actor)
    if not standing:
        return None
    if policy == "aggressive":

        def weakness(c: LiveHackCombatant) -> tuple[int, int, int]:
            dazed = 0 if c.condition("Discombobulated") else 1
            reflex = sum(p.value for p in defender_parts(c, "reflex", 0))
            return (dazed, -c.sheet.wounds, reflex)

        chosen = min(standing, key=weakness)
        if chosen.condition("Discombobulated"):
            return chosen, f"goes for {chosen.name}: dazed, Dex -10"
        if chosen.sheet.wounds:
            return chosen, f"goes for {chosen.name}: the most hurt (Wounds {chosen.sheet.wounds})"
        return (
            chosen,
            f"goes for {chosen.name}: the easiest to hit (Reflex {weakness(chosen)[2]:+d})",
        )
    if policy == "cautious":
        chosen = max(standing, key=lambda c: c.sheet.attack)
        return chosen, f"faces {chosen.name}: the biggest threat (attack {chosen.sheet.attack:+d})"
    usual = forms.default_target(state, actor)
    chosen = usual if usual in standing else standing[0]
    return chosen, f"attacks {chosen.name}"


def _attack(state: LiveHackEncounter, actor: LiveHackCombatant, policy: str) -> Move:
    found = target_for(state, actor, policy)
    if found is None:
        return _pass(actor, "no foe is left standing: ends its turn")
    target, why = found
    held = actor.sheet.held_over(target.id)
    cmd = LiveHackRoll(attacker_id=actor.id, defender_id=target.id)
    if held:
        why += f", with its +{held} position"
    return _roll(state, actor, cmd, policy, why)


def _roll(
    state: LiveHackEncounter, actor: LiveHackCombatant, cmd: LiveHackRoll, policy: str, why: str
) -> Move:
    target = state.combatant(cmd.defender_id)
    # Whoever plays the target, its sheet's ratings for this defense count (F4-04).
    cmd, _ = own_ratings(target, cmd)
    attack = sum(p.value for p in roll_parts(state, actor, target, cmd))
    defend = sum(p.value for p in defending_parts(state, target, cmd))
    take, how = take_for(policy, attack, defend, defending=False)
    cmd = _replace(cmd, attacker_take=take)
    cmd, _ = defence(state, cmd)  # a target on a solo side defends by its own policy
    return Move(actor.id, cmd, f"{why}; {how}")


def _after_hit(state: LiveHackEncounter, actor: LiveHackCombatant, policy: str) -> Move:
    last = state.last_roll
    if (
        not isinstance(last, LiveHackRolled)
        or last.attacker.combatant_id != actor.id
        or last.defense != "reflex"
        or state.last_roll_applied
    ):
        return _pass(actor, "ends its turn")
    target = state.find(last.defender.combatant_id)
    if not last.success or target is None:
        return _pass(actor, f"missed by {-last.margin}: ends its turn")
    over = state.system_state.rollover
    theirs = target.sheet.held_over(actor.id)
    if over is not None and theirs and policy == "cautious":
        reason = f"spends its +{over.bonus} margin bonus to cancel {target.name}'s +{theirs}"
        return Move(actor.id, LiveHackCancel(), reason)
    if over is not None and policy == "cautious" and not actor.sheet.held_over(target.id):
        reason = f"holds +{over.bonus} over {target.name} instead of a damage roll, to cash in"
        return Move(actor.id, LiveHackHold(description=SOLO_POSITION), reason)
    cmd = LiveHackRoll(attacker_id=actor.id, defender_id=target.id, defense="fortitude")
    why = f"hit {target.name} by {last.margin}: rolls damage vs Fortitude"
    if policy == "aggressive":
        effort = effort_left(actor, PUSH)
        if effort:
            cmd = _replace(cmd, effort=effort)
            why += f", pushing +{effort} effort"
    return _roll(state, actor, cmd, policy, why)


def _after_damage(state: LiveHackEncounter, actor: LiveHackCombatant) -> Move:
    last = state.last_roll
    if (
        not isinstance(last, LiveHackRolled)
        or last.attacker.combatant_id != actor.id
        or last.defense != "fortitude"
        or state.last_roll_applied
    ):
        return _pass(actor, "ends its turn")
    row = last.row
    if row is None:
        return _pass(actor, f"the blow is shrugged off (short by {-last.margin}): ends its turn")
    target = state.name_of(last.defender.combatant_id)
    condition = condition_for(row, last.defense)
    effect = f"{row.levels} Wounds" + (f", {condition}" if condition else "")
    return Move(actor.id, LiveHackApplyConsequence(), f"the blow lands on {target}: {effect}")


# --- the user's dialogs ------------------------------------------------------------------------


def fill(
    state: LiveHackEncounter, action: str, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """The fields of a user's dialog that a solo combatant chooses: a defender's dice and
    effort; the roller's dice in an aid, a grim test, a save or a check."""
    try:
        if action == "roll":
            return _fill_roll(state, values)
        if action == "joint":
            return _fill_joint(state, values)
        if action in ("aid", "grim", "dying", "transforming", "check"):
            return _fill_take(state, action, values)
    except (Rejected, KeyError, ValueError):
        pass  # a half-filled dialog: its own check explains what is wrong
    return values, []


def _fill_roll(
    state: LiveHackEncounter, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    cmd = forms.roll_command(state, values)
    filled, move = defence(state, cmd)
    if move is None:
        return values, []
    out = {
        **values,
        "defender_take": filled.defender_take,
        "defender_effort": str(filled.defender_effort),
        "defender_specialty": filled.defender_specialty,
        "defender_items": filled.defender_items,
    }
    return out, [move]


def _fill_joint(
    state: LiveHackEncounter, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """Against a joint action a solo defender weighs the best participant's attack bonus."""
    cmd = forms.joint_command(state, values, None)
    defender = state.combatant(cmd.defender_id)
    if not state.is_solo(defender) or not cmd.participant_ids:
        return values, []
    best = max(state.combatant(cid).sheet.attack for cid in cmd.participant_ids)
    cmd, using = own_ratings(defender, cmd)
    # Its side as the dialog gives it, with its own ratings (F4-04), before its own effort
    # (F4-08), which it pushes as against a single attacker: cautious, against damage only.
    unpushed = structs.replace(cmd, defender_effort=0)
    defend = sum(p.value for p in defending_parts(state, defender, unpushed))
    policy = policy_among(POLICIES, defender)
    take, why = take_for(policy, defend, best, defending=True)
    pushes = policy == "cautious" and cmd.defense == "fortitude"
    effort = effort_left(defender, PUSH) if pushes else 0
    if effort:
        why += f"; pushes +{effort} effort to shrug off the blow"
    filled = {**values, "defender_take": take, "defender_effort": str(effort)}
    filled |= {"defender_specialty": cmd.defender_specialty, "defender_items": cmd.defender_items}
    said = f"defends, {using}: {why}" if using else f"defends: {why}"
    return filled, [Move(defender.id, None, said)]


ROLLER = {"aid": "helper"}


def _fill_take(
    state: LiveHackEncounter, action: str, values: Mapping[str, str]
) -> tuple[dict[str, str], list[Move]]:
    who = state.find(values.get(ROLLER.get(action, "who")))
    if who is None or not state.is_solo(who):
        return dict(values), []
    take, why = take_for(policy_among(POLICIES, who), 0, 0, defending=False)
    if policy_among(POLICIES, who) == "cautious":
        take, why = "roll", "rolls: a save is no place to guess"
    return {**values, "take": take}, [Move(who.id, None, why)]


class LiveHackSolo(Solo):
    """LiveHack's solo play (``rules.roles.solo``)."""

    solo_policies = POLICIES
    solo_move = staticmethod(next_move)
    solo_fill = staticmethod(fill)
