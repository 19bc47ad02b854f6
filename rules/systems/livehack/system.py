"""LiveHack: open-ended Boon/Bane d12s, opposed rolls, and the margin-of-success damage table.

Source: ``shared/rules-texts/001`` (LiveHack resolution). The values live in ``events`` and
``sheet``, the parts of a roll in ``parts``, the decisions in ``decide``, the fold in ``apply``,
the dialogs in ``forms``, the log in ``log`` and the odds in ``encounter_odds``; this module ties
them into the ``RuleSystem``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.bounds import LIMIT
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.mentions import mentioned
from rules.remembered import EachOf
from rules.system import LAST_ROLL, LAST_ROLLER, Action, Damage, Landing, RuleSystem, Tier, Track

from . import apply, decide, forms, odds, saves, solo
from .apply import livehack_state, marked_id
from .encounter_odds import LiveHackOdds
from .events import (
    CONDITION_DURATIONS,
    DAMAGE_TABLE,
    DIE,
    KNOWN_CONDITIONS,
    TAKE_TEN,
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
from .forms import DEFENSES, TAKES
from .log import LiveHackLog
from .parts import (
    attacker_parts,
    defender_parts,
)
from .sheet import (
    TRAITS,
    LiveHackSheet,
    LiveHackSheets,
    Rating,
    Trait,
    offset_effects,
)
from .solo import LiveHackSolo
from .table import row_label

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter

# The combatants players see are the same tuple from state to state until one changes: each
# is cleared of holds on hidden combatants once (``conceal_state``).
_UNHELD: EachOf[LiveHackCombatant] = EachOf()


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

# The Boon/Bane roll in dice notation: a d12 that explodes on 12, less another
# (docs/reference/dice.md: an exploding die rolls at most 10 more times, a chain of eleven 12s: once
# in 12^11).
BOON_BANE = "1d12!-1d12!"

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


class LiveHack(LiveHackSheets, LiveHackLog, LiveHackOdds, LiveHackSolo, RuleSystem):
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
    command_actors = {  # whom each acts for; the rest are the GM's
        LiveHackRoll: "attacker_id",
        LiveHackApplyConsequence: LAST_ROLL,
        LiveHackJointRoll: "participant_ids",
        LiveHackAid: "helper_id",
        LiveHackGrimTest: "combatant_id",
        LiveHackSave: "combatant_id",
        LiveHackHold: LAST_ROLLER,  # the attacker's choice on its hit, not the defender's
        LiveHackCancel: LAST_ROLLER,
        LiveHackDrop: "holder_id",
        LiveHackHeal: "combatant_id",
    }
    roll_event_types = (LiveHackRolled,)
    state_type = LiveHackState
    stat_columns = ("Atk", "R/F/W", "Wnd", "Fat", "Grm", "Pos")
    uses_turn_order = True
    roll_actions = ("roll", "joint", "grim")  # each makes a LiveHackRolled, the new last roll
    damage_unit = "levels"
    out_of_fight_reads_state = False  # out_of_fight reads the combatant alone

    # sheets

    def main_track(self, combatant: LiveHackCombatant) -> Track | None:
        sheet: LiveHackSheet = combatant.sheet
        return Track("Wounds", sheet.wounds, 0, LIMIT, rising=True)

    def with_track(self, sheet: LiveHackSheet, value: int) -> LiveHackSheet:
        return structs.replace(sheet, wounds=value)

    def track_command(
        self, state: LiveHackEncounter, combatant: LiveHackCombatant, steps: int
    ) -> Any:
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

    # initiative (rules.initiative): the opening's "instead of a d20 roll the Boon/Bane roll is
    # substituted", so a d20 system's d20 + Dex becomes Boon/Bane + Dex (rulings.md, F4-07)

    def initiative_dice(self, state: LiveHackEncounter, combatant: LiveHackCombatant) -> str:
        dex = combatant.sheet.attribute("dex")
        return f"{BOON_BANE}{dex:+d}" if dex else BOON_BANE

    def initiative_tiebreak(self, combatant: LiveHackCombatant) -> tuple[int, ...]:
        dex: int = combatant.sheet.attribute("dex")
        return (dex,)

    def cannot_act(self, state: LiveHackEncounter, combatant: LiveHackCombatant) -> str:
        return cannot_act(combatant)

    def out_of_fight(self, state: LiveHackEncounter, combatant: LiveHackCombatant) -> str:
        return out_of_fight(combatant)

    def damage(self, state: LiveHackEncounter, event: object) -> tuple[Damage, ...]:
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

    def roll_sides(self, state: LiveHackEncounter, event: object) -> tuple[str | None, str | None]:
        """The margin is the attacker's total less the defender's: higher favours the
        attacker (a grim experience is no combatant)."""
        if not isinstance(event, LiveHackRolled):
            return None, None
        return event.attacker.combatant_id, event.defender.combatant_id

    def surprise(
        self, state: LiveHackEncounter, side: str, way: str, dice: DiceSource
    ) -> tuple[str, list[Any]]:
        # The text names surprise once, as a cause of Chaos (rulings.md, "Surprise is a cause
        # of Chaos"): it changes no turn, and the GM picks Chaos for a joint action.
        return "no effect on turns; acting together, it rolls as Chaos (the lowest roll)", []

    def condition_names(self) -> tuple[str, ...]:
        return KNOWN_CONDITIONS

    def badges(self, state: LiveHackEncounter, combatant: LiveHackCombatant) -> tuple[str, ...]:
        """The -5 and -10 offset effects in force, for the combatants pane."""
        sheet: LiveHackSheet = combatant.sheet
        return tuple(
            f"{effect.attribute.capitalize()} {effect.level}"
            + (" roll DR 0" if effect.check else "")
            for effect in offset_effects(sheet)
        )

    # actions

    def actions(self, state: LiveHackEncounter) -> list[Action]:
        return list(ACTIONS)

    def action_command(
        self, state: LiveHackEncounter, action: str, values: Mapping[str, str]
    ) -> object:
        return forms.command_for(state, action, values, None)

    # forms.py is near its 600 lines: its hooks are bound here.
    action_form = staticmethod(forms.form_for)
    preview = staticmethod(forms.preview)
    # The opposed roll's own form and command, which the tests ask of the system.
    roll_form = staticmethod(forms.roll_form)
    roll_command = staticmethod(forms.roll_command)

    # The GM's approvals: Grim Advantage ("which the GM has approved"), Take Ten (plenty of
    # time is the GM's to judge: F4-05) and acting though unable (F4-13). A served table
    # refuses them to players.

    def roll_makers(self, state: LiveHackEncounter) -> frozenset[str]:
        """The attacker of the last roll (its defender's player does not hold its margin)."""
        roll = state.last_roll
        who = roll.attacker.combatant_id if isinstance(roll, LiveHackRolled) else None
        return frozenset({who}) if who else frozenset()

    def gm_choice(self, key: str, value: str) -> bool:
        approved_ten = {choice for choice, (_, gm) in forms.TAKE_OF.items() if gm}
        overrides = key == forms.ACTS_ANYWAY and value == "yes"
        return (key == "grim_goal" and value != "no") or value in approved_ten or overrides

    def gm_approvals(self, command: Any) -> tuple[str, ...]:
        approvals = []
        if isinstance(command, LiveHackRoll) and command.grim_goal:
            approvals.append("Grim Advantage")
        tens = ("gm_allows_ten", "attacker_gm_allows_ten", "participants_gm_allow_ten")
        if any(getattr(command, name, False) for name in tens):
            approvals.append("Take Ten (GM allows)")
        if getattr(command, "gm_overrides", False):
            approvals.append("Acts anyway (GM)")
        return tuple(approvals)

    # what the last roll leaves to apply

    def consequence_command(
        self, state: LiveHackEncounter
    ) -> LiveHackApplyConsequence | LiveHackRoll:
        """After a hit, its damage roll (a tracker-played defender chooses its dice); after a
        damage roll, applying the damage table."""
        hit = decide.hit_waiting(state)
        if hit is None:
            return LiveHackApplyConsequence()
        return solo.defence(state, decide.damage_roll(hit))[0]

    # A hit whose damage roll is not rolled yet ("Orla's damage roll on Goblin"), or a damage
    # roll whose table row is not applied yet ("Goblin takes 2 Wounds, Dazed").
    pending = staticmethod(solo.waiting_hit)

    def discard(self, state: LiveHackEncounter) -> LiveHackEncounter:
        """A discarded hit takes its margin bonus with it: no damage roll will use it."""
        state = state.update(last_roll_applied=True)
        return state.update(system_state=structs.replace(livehack_state(state), rollover=None))

    def follow_up(self, state: LiveHackEncounter, action: str, command: object = None) -> bool:
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

    # decide and apply

    apply = staticmethod(apply.apply)

    def decide(self, state: LiveHackEncounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case LiveHackRoll():
                return decide.roll(state, command, dice)
            case LiveHackApplyConsequence():
                return decide.consequence(state)
            case LiveHackJointRoll():
                return decide.joint(state, command, dice)
            case LiveHackAid():
                return saves.aid(state, command, dice)
            case LiveHackGrimTest():
                return saves.grim_test(state, command, dice)
            case LiveHackSave():
                return saves.save(state, command, dice)
            case LiveHackHold():
                return [decide.hold(state, command)]
            case LiveHackCancel():
                return [decide.cancel(state, command)]
            case LiveHackDrop():
                return [decide.drop(state, command)]
            case LiveHackHeal():
                return decide.heal(state, command)
        raise Rejected(f"LiveHack does not know the command {type(command).__name__}")

    # what a player may see

    def conceal(
        self, state: LiveHackEncounter, event: object, hidden: frozenset[str]
    ) -> object | None:
        """A hidden attacker's wounds on a combatant players see: the levels, not the margin."""
        if isinstance(event, LiveHackTraitInflicted) and event.combatant_id not in hidden:
            return structs.replace(event, margin=None)
        return None

    def conceal_state(self, state: LiveHackEncounter, hidden: frozenset[str]) -> LiveHackEncounter:
        own = livehack_state(state)
        rollover = own.rollover
        if rollover is not None and {rollover.holder_id, rollover.target_id} & hidden:
            rollover = None
        kept = own.kept
        if kept is not None and {kept.holder_id, kept.target_id} & hidden:
            kept = None
        joint = own.joint if own.joint is None or not mentioned(own.joint, hidden) else None
        own = structs.replace(
            own,
            rollover=rollover,
            kept=kept,
            aids=tuple(a for a in own.aids if not {a.aided_id, a.helper_id} & hidden),
            grimlocks=tuple(g for g in own.grimlocks if g not in hidden),
            turn_marks=tuple(m for m in own.turn_marks if marked_id(m) not in hidden),
            joint=joint,
        )

        def unheld(c: LiveHackCombatant) -> LiveHackCombatant:
            if not any(h.target_id in hidden for h in c.sheet.held):
                return c
            held = tuple(h for h in c.sheet.held if h.target_id not in hidden)
            return structs.replace(c, sheet=structs.replace(c.sheet, held=held))

        combatants = _UNHELD.map(state.combatants, hidden, unheld)
        return state.update(system_state=own, combatants=combatants)

    def status(self, state: LiveHackEncounter) -> str:
        own = livehack_state(state)
        # After a hit the waiting damage roll already names its bonus; a holder missing from
        # the state is one this viewer may not see (GM-only).
        last = None if decide.hit_waiting(state) else own.rollover
        return "; ".join(
            f"{state.name_of(over.holder_id)}: margin bonus +{over.bonus}"
            for over in (last, own.kept)
            if over is not None and state.find(over.holder_id) is not None
        )

    def tiers(self, state: LiveHackEncounter) -> list[Tier]:
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
            label = row_label(row)
            effect = f"{row.levels} {trait_name}"
            condition = condition_for(row, defense)
            if condition:
                effect += f", {condition}"
            tiers.append(Tier(label, row.low, row.high, effect))
        if isinstance(roll, LiveHackRolled) and roll.kind == "grim":
            bands = odds.grim_tiers(tuple((t.label, t.low, t.high) for t in tiers))
            effects = ["resisted: no Grimness", *(t.effect for t in tiers[1:])]
            return [Tier(*band, effect) for band, effect in zip(bands, effects, strict=True)]
        return tiers

    def landing(self, state: LiveHackEncounter) -> Landing | None:
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


def _leading_tiers(to_hit: bool) -> list[Tier]:
    """The bands of a roll the table does not answer: a hit's bonus for its damage roll (or
    to hold), a skill success's for the next related roll."""
    tiers = [Tier("miss", None, -1, "no damage roll" if to_hit else "fails")]
    for row in DAMAGE_TABLE:
        label = row_label(row)
        bonus = f"+{margin_bonus(row.low)}{'' if row.high is not None else '+'}"
        what = "hit, damage" if to_hit else "succeeds,"
        effect = f"{what} {bonus}" if row.low else what.rstrip(",")
        tiers.append(Tier(label, row.low, row.high, effect))
    return tiers


SYSTEM = LiveHack()
