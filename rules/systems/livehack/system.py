"""LiveHack: open-ended Boon/Bane d12s, opposed rolls, and the margin-of-success damage table.

Source: ``shared/rules-texts/001`` (LiveHack resolution). The values live in ``model`` and
``sheet``, the parts of a roll in ``parts``, the decisions in ``decide``, the dialogs in
``forms`` and the log in ``log``; this module ties them into the ``RuleSystem``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.bounds import LIMIT
from rules.conditions import Condition
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.events import TurnAdvanced
from rules.forms import Field
from rules.logline import LogEntry
from rules.mentions import mentions
from rules.odds import Odds, percent, whose_chances
from rules.system import LAST_ROLL, Action, Damage, Landing, RuleSystem, Tier, Track

from . import decide, forms, log, odds, solo
from .forms import DEFENSES, TAKES, default_target
from .model import (
    CONDITION_DURATIONS,
    DAMAGE_TABLE,
    DIE,
    TAKE_TEN,
    Aid,
    BoonBane,
    Consequence,
    Defense,
    LiveHackAid,
    LiveHackAidRolled,
    LiveHackApplyConsequence,
    LiveHackBecameGrimlock,
    LiveHackCancel,
    LiveHackDrop,
    LiveHackGrimTest,
    LiveHackHeal,
    LiveHackHealed,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackJointRolled,
    LiveHackPositionHeld,
    LiveHackPositionLost,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackSave,
    LiveHackSaveRolled,
    LiveHackState,
    LiveHackTraitInflicted,
    Part,
    Rollover,
    SideRoll,
    Take,
    cannot_act,
    condition_for,
    consequence_for,
    margin_bonus,
    opposed_roll,
    out_of_fight,
    roll_boon_bane,
    roll_side,
)
from .parts import (
    attacker_parts,
    check_effort,
    defender_parts,
    defending_parts,
    needs_effort_check,
    paired_skill,
    roll_parts,
)
from .sheet import (
    TRAIT_FIELDS,
    TRAITS,
    Held,
    LiveHackSheet,
    Rating,
    Trait,
    offset_effects,
    rested,
)
from .sheet_form import sheet_fields, sheet_values

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

__all__ = [
    "CONDITION_DURATIONS",
    "DEFENSES",
    "DIE",
    "TAKES",
    "TAKE_TEN",
    "TRAITS",
    "BoonBane",
    "Consequence",
    "Defense",
    "LiveHackAid",
    "LiveHackApplyConsequence",
    "LiveHackCancel",
    "LiveHackDrop",
    "LiveHackGrimTest",
    "LiveHackHeal",
    "LiveHackHold",
    "LiveHackJointRoll",
    "LiveHackRoll",
    "LiveHackRolled",
    "LiveHackSave",
    "LiveHackSheet",
    "LiveHackState",
    "Part",
    "Rating",
    "SideRoll",
    "Take",
    "Trait",
    "attacker_parts",
    "condition_for",
    "consequence_for",
    "defender_parts",
    "opposed_roll",
    "roll_boon_bane",
    "roll_side",
]

ACTIONS = (
    Action("roll", "Opposed roll", "Boon/Bane: skill, attribute, specialty, bond, items, effort"),
    Action("joint", "Joint action", "Cooperation (best margin) or Chaos (lowest margin)"),
    Action("aid", "Aid", "A helper's roll: +1 per 5 MOS or part, -1 per full 5 short"),
    Action("hold", "Hold positional bonus", "Keep the last margin bonus instead of damage"),
    Action("cancel", "Cancel opponent's position", "Spend the last margin bonus on theirs"),
    Action("drop", "Drop positional bonus", "Circumstances changed: the position is lost"),
    Action("grim", "Grim test", "Will + Grimness against a grim experience"),
    Action("dying", "Dying save", "End of round: Fortitude + Con vs Wounds"),
    Action("transforming", "Transformation save", "Each turn: MOS 10 self-stabilizes"),
    Action("check", "Attribute check", "A -5 offset's roll vs DR 0"),
    Action("heal", "Heal wounds", "Healing below the -10 Con threshold stabilizes"),
)


class LiveHack(RuleSystem):
    name = "livehack"
    title = "LiveHack"
    sheet_types = (LiveHackSheet,)
    event_types = (
        LiveHackRolled,
        LiveHackTraitInflicted,
        LiveHackJointRolled,
        LiveHackAidRolled,
        LiveHackSaveRolled,
        LiveHackPositionHeld,
        LiveHackPositionLost,
        LiveHackHealed,
        LiveHackBecameGrimlock,
    )
    command_types = (
        LiveHackRoll,
        LiveHackApplyConsequence,
        LiveHackJointRoll,
        LiveHackAid,
        LiveHackGrimTest,
        LiveHackSave,
        LiveHackHold,
        LiveHackCancel,
        LiveHackDrop,
        LiveHackHeal,
    )
    log_styles = {  # a Noon, a Midnight and an Eclipse stand out in the log
        "noon": "bold $warning",
        "midnight": "bold $secondary",
        "eclipse": "bold reverse $warning",
    }
    command_actors = {  # whom each acts for; the rest are the GM's
        LiveHackRoll: "attacker_id",
        LiveHackApplyConsequence: LAST_ROLL,
        LiveHackJointRoll: "participant_ids",
        LiveHackAid: "helper_id",
        LiveHackGrimTest: "combatant_id",
        LiveHackSave: "combatant_id",
        LiveHackHold: LAST_ROLL,
        LiveHackCancel: LAST_ROLL,
        LiveHackDrop: "holder_id",
        LiveHackHeal: "combatant_id",
    }
    roll_event_types = (LiveHackRolled,)
    state_type = LiveHackState
    stat_columns = ("Atk", "R/F/W", "Wnd", "Fat", "Grm", "Pos")
    uses_turn_order = True
    has_odds = True
    solo_policies = solo.POLICIES
    roll_actions = ("roll", "joint", "grim")  # each makes a LiveHackRolled, the new last roll
    damage_unit = "levels"

    def new_state(self) -> LiveHackState:
        return LiveHackState()

    # sheets

    def new_sheet(self) -> LiveHackSheet:
        return LiveHackSheet()

    def sheet_form(self, sheet: LiveHackSheet) -> list[Field]:
        return sheet_fields(sheet)

    def sheet_from_form(self, values: Mapping[str, str], sheet: LiveHackSheet) -> LiveHackSheet:
        return sheet_values(values, sheet)

    def fresh_sheet(self, sheet: LiveHackSheet) -> LiveHackSheet:
        return rested(sheet)

    def main_track(self, combatant: Combatant[Any]) -> Track | None:
        sheet: LiveHackSheet = combatant.sheet
        return Track("Wounds", sheet.wounds, 0, LIMIT, rising=True)

    def with_track(self, sheet: LiveHackSheet, value: int) -> LiveHackSheet:
        return structs.replace(sheet, wounds=value)

    def track_command(self, state: Encounter, combatant: Combatant[Any], steps: int) -> Any:
        # Healing is the Heal wounds action's, which stabilizes the dying (*Healing*).
        if steps < 0 and combatant.sheet.wounds > 0:
            return LiveHackHeal(combatant_id=combatant.id, levels=min(-steps, LIMIT))
        return super().track_command(state, combatant, steps)

    def sheet_stats(self, sheet: LiveHackSheet) -> tuple[str, ...]:
        fort = sheet.defense("fortitude") + sheet.attribute("con") + sheet.armour
        defenses = f"{sheet.defense('reflex'):+d}/{fort:+d}/{sheet.defense('will'):+d}"
        return (
            f"{sheet.attack:+d}",
            defenses,
            str(sheet.wounds),
            str(sheet.fatigue),
            str(sheet.grimness),
            "; ".join(h.shown for h in sheet.held),
        )

    def cannot_act(self, state: Encounter, combatant: Combatant) -> str:
        return cannot_act(combatant)

    def out_of_fight(self, state: Encounter, combatant: Combatant) -> str:
        return out_of_fight(combatant)

    def damage(self, state: Encounter, event: object) -> tuple[Damage, ...]:
        """Negative trait levels from the damage table (or a grim test: nobody dealt those),
        dealt by the attacker of the roll they answer."""
        if not isinstance(event, LiveHackTraitInflicted) or not event.levels:
            return ()
        roll = state.last_roll
        dealer = None
        if (
            isinstance(roll, LiveHackRolled)
            and roll.kind == "roll"
            and roll.defender.combatant_id == event.combatant_id
        ):
            dealer = roll.attacker.combatant_id
        return (Damage(dealer, event.combatant_id, event.levels),)

    def roll_sides(self, state: Encounter, event: object) -> tuple[str | None, str | None]:
        """The margin is the attacker's total less the defender's: higher favours the
        attacker (a grim experience is no combatant)."""
        if not isinstance(event, LiveHackRolled):
            return None, None
        return event.attacker.combatant_id, event.defender.combatant_id

    def badges(self, state: Encounter, combatant: Combatant) -> tuple[str, ...]:
        """The -5 and -10 offset effects in force, for the combatants pane."""
        sheet: LiveHackSheet = combatant.sheet
        return tuple(
            f"{effect.attribute.capitalize()} {effect.level}"
            + (" roll DR 0" if effect.check else "")
            for effect in offset_effects(sheet)
        )

    # actions

    def actions(self, state: Encounter) -> list[Action]:
        return list(ACTIONS)

    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        return forms.form_for(state, action, selected)

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> object:
        return forms.command_for(state, action, values, None)

    def roll_form(self, state: Encounter) -> list[Field]:
        return forms.roll_form(state)

    def roll_command(self, state: Encounter, values: Mapping[str, str]) -> LiveHackRoll:
        return forms.roll_command(state, values)

    def _default_target(self, state: Encounter, attacker: Combatant) -> Combatant:
        return default_target(state, attacker)

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        try:
            return self._preview(state, action, values)
        except Rejected as exc:
            return exc.message

    def _preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        match action:
            case "roll":
                return self._roll_preview(state, forms.roll_command(state, values))
            case "hold" | "cancel":
                over = state.system_state.rollover
                if over is None:
                    return "No margin bonus to use: it takes a success by 5 or more"
                holder, target = state.name_of(over.holder_id), state.name_of(over.target_id)
                if action == "hold":
                    held = state.combatant(over.holder_id).sheet.held_over(over.target_id)
                    what = " ".join(values.get("description", "").split())
                    where = f" ({what})" if what else ": describe the position"
                    return f"{holder} holds +{held + over.bonus} over {target}{where}; no damage"
                return f"{holder} spends +{over.bonus} to cancel {target}'s position; no damage"
            case "aid":
                return "Aid: +1 per 5 MOS or part thereof; -1 per full 5 short; 0 to -4 nothing"
        return ""

    def _roll_preview(self, state: Encounter, cmd: LiveHackRoll) -> str:
        attacker = state.combatant(cmd.attacker_id)
        defender = state.combatant(cmd.defender_id)
        check_effort(attacker, cmd.effort)
        decide.check_take_ten(defender, cmd.defender_take, cmd.gm_allows_ten)
        attack = sum(p.value for p in roll_parts(state, attacker, defender, cmd))
        defend = sum(p.value for p in defending_parts(state, defender, cmd))
        against = paired_skill(cmd) if cmd.defense == "skill" else cmd.defense.capitalize()
        line = (
            f"{attacker.name} {attack:+d} vs {defender.name} {against} {defend:+d}, before the dice"
        )
        for person, effort in ((attacker, cmd.effort), (defender, cmd.defender_effort)):
            if effort and needs_effort_check(person):
                line += (
                    f"; Con -5: {person.name} rolls Con vs DR 0 first, or the effort is not spent"
                )
        return line

    # exact odds

    def odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The odds of the roll the dialog describes: an opposed roll or a grim test, built by
        the same decision as the real roll (its dice are not used). None if it would not go."""
        if action not in ("roll", "grim", "joint"):
            return None
        try:
            if action == "roll":
                return self._roll_odds(state, forms.roll_command(state, values))
            if action == "grim":
                command = forms.command_for(state, "grim", values, None)
                event = decide.grim_test(state, command, _NO_DICE)
            else:
                joint = forms.command_for(state, "joint", values, None)
                return joint_odds(decide.joint(state, joint, _NO_DICE), state)
        except (Rejected, KeyError, ValueError):
            return None
        return rolled_odds(event, state)

    def _roll_odds(self, state: Encounter, cmd: LiveHackRoll) -> Odds:
        """An opposed roll's odds; with effort at Con -5, those of the roll with and without
        the effort, weighed by the chance of the Con check that decides it."""
        decide.roll(state, cmd, _NO_DICE)  # refused as the real roll would be
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
        found = [(w, rolled_odds(decide.opposed(state, c, _NO_DICE), state)) for w, c in variants]
        first = found[0][1]
        if len(found) == 1:
            return first
        tiers = tuple(
            tier._replace(p=sum((w * o.tiers[i].p for w, o in found), Fraction(0)))
            for i, tier in enumerate(first.tiers)
        )
        note = "; ".join(notes) + " (the chances count both ways)"
        return first._replace(tiers=tiers, extra={**first.extra, "note": note})

    def last_odds(self, state: Encounter) -> Odds | None:
        """The odds the last roll had; after a joint action, those of the whole action (the
        best, or for Chaos the lowest, of every participant's margin)."""
        roll = state.last_roll
        if not isinstance(roll, LiveHackRolled):
            return None
        joint = _system(state).joint
        if joint is not None and joint.rolls[joint.chosen] == roll:
            return joint_odds(joint, state)
        return rolled_odds(roll, state)

    def consequence_command(self, state: Encounter) -> LiveHackApplyConsequence | LiveHackRoll:
        """After a hit, its damage roll (a tracker-played defender chooses its dice); after a
        damage roll, applying the damage table."""
        hit = decide.hit_waiting(state)
        if hit is None:
            return LiveHackApplyConsequence()
        return solo.defence(state, decide.damage_roll(hit))[0]

    def pending(self, state: Encounter) -> str:
        """A hit whose damage roll is not rolled yet ("Orla's damage roll on Goblin"), or a
        damage roll whose table row is not applied yet ("Goblin takes 2 Wounds, Dazed")."""
        return solo.waiting_hit(state)

    def discard(self, state: Encounter) -> Encounter:
        """A discarded hit takes its margin bonus with it: no damage roll will use it."""
        state = state.update(last_roll_applied=True)
        return state.update(system_state=structs.replace(_system(state), rollover=None))

    def follow_up(self, state: Encounter, action: str, command: object = None) -> bool:
        """A hit against Reflex is followed by its damage roll (*Damage*: "After a successful
        roll to hit, players make another roll ... vs the opponent's fort save"): by the
        hitter, against Fortitude, on the one it hit."""
        roll = decide.hit_waiting(state)
        if roll is None or action != "roll":
            return False
        if command is None:
            return True
        return (
            isinstance(command, LiveHackRoll)
            and command.defense == "fortitude"
            and command.attacker_id == roll.attacker.combatant_id
            and command.defender_id == roll.defender.combatant_id
        )

    # solo play (rules/solo.py)

    def solo_move(self, state: Encounter) -> solo.Move | None:
        return solo.next_move(state)

    def solo_fill(
        self, state: Encounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[solo.Move]]:
        return solo.fill(state, action, values)

    # decide and apply

    def decide(self, state: Encounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case LiveHackRoll():
                return decide.roll(state, command, dice)
            case LiveHackApplyConsequence():
                return decide.consequence(state)
            case LiveHackJointRoll():
                return [decide.joint(state, command, dice)]
            case LiveHackAid():
                return [decide.aid(state, command, dice)]
            case LiveHackGrimTest():
                return [decide.grim_test(state, command, dice)]
            case LiveHackSave():
                return decide.save(state, command, dice)
            case LiveHackHold():
                return [decide.hold(state, command)]
            case LiveHackCancel():
                return [decide.cancel(state, command)]
            case LiveHackDrop():
                return [decide.drop(state, command)]
            case LiveHackHeal():
                return decide.heal(state, command)
        raise Rejected(f"LiveHack does not know the command {type(command).__name__}")

    def apply(self, state: Encounter, event: object) -> Encounter:
        match event:
            case LiveHackRolled():
                return _rolled(state, event)
            case LiveHackJointRolled():
                state = _rolled(state, event.rolls[event.chosen])
                state = _aided(state, *(r.attacker.combatant_id for r in event.rolls))
                return state.update(system_state=structs.replace(_system(state), joint=event))
            case LiveHackAidRolled():
                state = _aided(state, event.helper.combatant_id)
                aid = decide_aid(event)
                system = _system(state)
                return state.update(system_state=structs.replace(system, aids=(*system.aids, aid)))
            case LiveHackSaveRolled():
                what: str = event.kind
                if event.kind == "check" and event.roller.parts:
                    what = f"check {event.roller.parts[0].label}"
                if not event.note:  # a check before a roll leaves the aid to that roll
                    state = _aided(state, event.roller.combatant_id)
                return _marked(state, event.roller.combatant_id, f"{what}:{event.outcome}")
            case LiveHackTraitInflicted():
                return _inflicted(state, event)
            case LiveHackPositionHeld():
                return _held(state, event)
            case LiveHackPositionLost():
                return _lost(state, event)
            case LiveHackHealed():
                return _sheet_change(
                    state, event.combatant_id, lambda s: {"wounds": max(s.wounds - event.levels, 0)}
                )
            case LiveHackBecameGrimlock():
                return _grimlock(state, event)
        raise TypeError(f"not a LiveHack event: {event!r}")

    # what the app shows

    def alerts(self, state: Encounter, event: object) -> list[str]:
        if isinstance(event, TurnAdvanced):
            return log.turn_alerts(state, event)
        return log.event_alerts(state, event)

    # what a player may see

    def conceal(self, state: Encounter, event: object, hidden: frozenset[str]) -> object | None:
        """A hidden attacker's wounds on a combatant players see: the levels, not the margin."""
        if isinstance(event, LiveHackTraitInflicted) and event.combatant_id not in hidden:
            return structs.replace(event, margin=None)
        return None

    def conceal_state(self, state: Encounter, hidden: frozenset[str]) -> Encounter:
        own = _system(state)
        rollover = own.rollover
        if rollover is not None and {rollover.holder_id, rollover.target_id} & hidden:
            rollover = None
        joint = own.joint if own.joint is None or not mentions(own.joint) & hidden else None
        own = structs.replace(
            own,
            rollover=rollover,
            aids=tuple(a for a in own.aids if not {a.aided_id, a.helper_id} & hidden),
            grimlocks=tuple(g for g in own.grimlocks if g not in hidden),
            turn_marks=tuple(m for m in own.turn_marks if _marked_id(m) not in hidden),
            joint=joint,
        )
        combatants = tuple(
            structs.replace(
                c,
                sheet=structs.replace(
                    c.sheet, held=tuple(h for h in c.sheet.held if h.target_id not in hidden)
                ),
            )
            if any(h.target_id in hidden for h in c.sheet.held)
            else c
            for c in state.combatants
        )
        return state.update(system_state=own, combatants=combatants)

    def status(self, state: Encounter) -> str:
        over = _system(state).rollover
        # A holder missing from the state is one this viewer may not see (GM-only); after a
        # hit the waiting damage roll already names the bonus.
        if over is None or state.find(over.holder_id) is None or decide.hit_waiting(state):
            return ""
        return f"{state.name_of(over.holder_id)}: margin bonus +{over.bonus}"

    def tiers(self, state: Encounter) -> list[Tier]:
        """The damage table, for a roll it answers; for a roll to hit (or a skill roll) the
        same bands of margin read as the bonus rolled over into the next roll."""
        roll = state.last_roll
        if isinstance(roll, LiveHackRolled) and not roll.answers_table:
            return _leading_tiers(roll.defense == "reflex")
        trait = roll.trait if isinstance(roll, LiveHackRolled) else "wounds"
        defense = roll.defense if isinstance(roll, LiveHackRolled) else "fortitude"
        trait_name = dict(TRAITS)[trait]
        tiers = [Tier("miss", None, -1, "saved: no effect")]
        for row in DAMAGE_TABLE:
            label = f"{row.low}-{row.high}" if row.high is not None else f"{row.low}+"
            effect = f"{row.levels} {trait_name}"
            condition = condition_for(row, defense)
            if condition:
                effect += f", {condition}"
            tiers.append(Tier(label, row.low, row.high, effect))
        return tiers

    def landing(self, state: Encounter) -> Landing | None:
        roll = state.last_roll
        if not isinstance(roll, LiveHackRolled):
            return None
        tiers = self.tiers(state)
        index = next(i for i, tier in enumerate(tiers) if tier.contains(roll.margin))
        verdict = "hit" if roll.success else "miss"
        summary = (
            f"{roll.attacker.total} vs {roll.defender.total}: {verdict}, margin {roll.margin:+d}"
        )
        return Landing(tier=index, value=roll.margin, summary=summary)

    def describe(self, state: Encounter, event: object) -> LogEntry:
        return log.describe(state, event)


def _leading_tiers(to_hit: bool) -> list[Tier]:
    """The bands of a roll the table does not answer: a hit's bonus for its damage roll (or
    to hold), a skill success's for the next related roll."""
    tiers = [Tier("miss", None, -1, "no damage roll" if to_hit else "fails")]
    for row in DAMAGE_TABLE:
        label = f"{row.low}-{row.high}" if row.high is not None else f"{row.low}+"
        bonus = f"+{margin_bonus(row.low)}{'' if row.high is not None else '+'}"
        what = "hit, damage" if to_hit else "succeeds,"
        effect = f"{what} {bonus}" if row.low else what.rstrip(",")
        tiers.append(Tier(label, row.low, row.high, effect))
    return tiers


class _FixedDice:
    """Dice for building a roll whose faces are never read (the odds need only its parts)."""

    def roll(self, sides: int) -> int:
        return 1


_NO_DICE = _FixedDice()


def rolled_odds(roll: LiveHackRolled, state: Encounter) -> Odds:
    """The odds an opposed roll had before its dice: its sides' modifiers and takes."""
    a, d = roll.attacker, roll.defender
    found = odds.opposed_odds(a.modifier, d.modifier, a.take, d.take)
    defender = log.side_name(state, d, "the defender")
    if roll.kind == "grim":  # the experience "attacks": its margin is the Grimness gained
        return found._replace(whose=f"the grim test's chances vs {defender}")
    return found._replace(whose=whose_chances(log.side_name(state, a, "the attacker"), defender))


def joint_odds(event: LiveHackJointRolled, state: Encounter) -> Odds:
    """The odds of a joint action: every participant's modifier against the one defender."""
    defender = event.rolls[0].defender
    mods = tuple(roll.attacker.modifier for roll in event.rolls)
    found = odds.joint_odds(event.kind, mods, defender.modifier, defender.take)
    names = [log.side_name(state, roll.attacker, "a helper") for roll in event.rolls]
    together = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    against = log.side_name(state, defender, "the defender")
    return found._replace(whose=f"{together}'s {event.kind} vs {against}")


# --- apply helpers ---------------------------------------------------------------------------


def _system(state: Encounter) -> LiveHackState:
    system = state.system_state
    assert isinstance(system, LiveHackState)
    return system


def _marked(state: Encounter, cid: str | None, what: str) -> Encounter:
    """Note what a combatant the tracker plays rolled this round (older notes are dropped)."""
    found = state.find(cid)
    if found is None or not state.is_solo(found):
        return state  # only solo play reads the notes: other fights keep none
    system = _system(state)
    prefix = f"{state.round}:"
    kept = tuple(m for m in system.turn_marks if m.startswith(prefix))
    marks = (*kept, f"{prefix}{cid}:{what}")
    return state.update(system_state=structs.replace(system, turn_marks=marks))


def _marked_id(mark: str) -> str:
    """Whose a turn mark is (``round:id:what``)."""
    return mark.partition(":")[2].partition(":")[0]


def _aided(state: Encounter, *rollers: str | None) -> Encounter:
    """*Aiding*: an aid is spent by the aided one's next roll, whatever it is."""
    system = _system(state)
    aids = tuple(a for a in system.aids if a.aided_id not in rollers)
    if aids == system.aids:
        return state
    return state.update(system_state=structs.replace(system, aids=aids))


def decide_aid(event: LiveHackAidRolled) -> Aid:
    return Aid(
        aided_id=event.aided_id, helper_id=event.helper.combatant_id or "", bonus=event.bonus
    )


def _sheet_change(
    state: Encounter, cid: str, change: Callable[[LiveHackSheet], dict[str, object]]
) -> Encounter:
    target = state.combatant(cid)
    sheet: LiveHackSheet = target.sheet
    return state.replace_combatant(
        structs.replace(target, sheet=structs.replace(sheet, **change(sheet)))
    )


def _rolled(state: Encounter, event: LiveHackRolled) -> Encounter:
    system = _system(state)
    attacker_id = event.attacker.combatant_id
    defender_id = event.defender.combatant_id
    rollover = None
    if (
        event.kind == "roll"
        and not event.answers_table
        and event.success
        and event.margin_bonus
        and attacker_id
        and defender_id
    ):
        # A damage roll's margin is read by the table: only a hit (or a skill's success)
        # rolls its bonus over.
        rollover = Rollover(attacker_id, defender_id, event.margin_bonus)
    state = state.update(
        last_roll=event,
        last_roll_applied=False,
        system_state=structs.replace(system, rollover=rollover, joint=None),
    )
    state = _aided(state, attacker_id, defender_id)
    if event.kind == "roll" and attacker_id is not None and attacker_id == state.current_id:
        state = _marked(state, attacker_id, event.defense)
    if defender_id is not None and event.defender_effort and state.find(defender_id):
        state = _sheet_change(
            state,
            defender_id,
            lambda s: {
                "fatigue": s.fatigue + event.defender_effort,
                "effort_spent": s.effort_spent + event.defender_effort,
            },
        )
    if attacker_id is None or state.find(attacker_id) is None:
        return state

    def spend(sheet: LiveHackSheet) -> dict[str, object]:
        changes: dict[str, object] = {
            "fatigue": sheet.fatigue + event.effort,
            "effort_spent": sheet.effort_spent + event.effort,
        }
        if event.cashed:
            changes["held"] = tuple(h for h in sheet.held if h.target_id != defender_id)
        return changes

    return _sheet_change(state, attacker_id, spend)


def _inflicted(state: Encounter, event: LiveHackTraitInflicted) -> Encounter:
    field = TRAIT_FIELDS[event.trait]
    state = _sheet_change(
        state, event.combatant_id, lambda s: {field: getattr(s, field) + event.levels}
    )
    system = _system(state)
    if event.grimlock and event.combatant_id not in system.grimlocks:
        system = structs.replace(system, grimlocks=(*system.grimlocks, event.combatant_id))
    return state.update(last_roll_applied=True, system_state=system)


def _held(state: Encounter, event: LiveHackPositionHeld) -> Encounter:
    def add(sheet: LiveHackSheet) -> dict[str, object]:
        total = sheet.held_over(event.target_id) + event.bonus
        # The position as it is now described (an older save's hold kept the one it had).
        described = event.description or sheet.position_over(event.target_id)
        others = tuple(h for h in sheet.held if h.target_id != event.target_id)
        return {"held": (*others, Held(event.target_id, total, described))}

    state = _sheet_change(state, event.holder_id, add)
    system = structs.replace(_system(state), rollover=None)
    return state.update(system_state=system, last_roll_applied=True)


def _lost(state: Encounter, event: LiveHackPositionLost) -> Encounter:
    state = _sheet_change(
        state,
        event.holder_id,
        lambda s: {"held": tuple(h for h in s.held if h.target_id != event.target_id)},
    )
    if event.by_id is None:
        return state
    # Cancelling spends the canceller's margin bonus, and "does not do damage".
    system = structs.replace(_system(state), rollover=None)
    return state.update(system_state=system, last_roll_applied=True)


def _grimlock(state: Encounter, event: LiveHackBecameGrimlock) -> Encounter:
    state = _sheet_change(
        state,
        event.combatant_id,
        lambda s: {"strength": s.strength + event.grim, "wisdom": s.wisdom - event.grim},
    )
    target = state.combatant(event.combatant_id)
    notes = (target.notes + "; " if target.notes else "") + "Grimlock: blind sight"
    changed = structs.replace(
        target,
        side="grimlocks",
        notes=notes,
        conditions=(*target.conditions, Condition("Grimlock")),
    )
    system = _system(state)
    grimlocks = tuple(g for g in system.grimlocks if g != event.combatant_id)
    return state.replace_combatant(changed).update(
        system_state=structs.replace(system, grimlocks=grimlocks)
    )


SYSTEM = LiveHack()
