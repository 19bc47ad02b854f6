"""Pain Pool: Power/Precision/Possibility pools against the Pain Pool, boon damage,
dominance, Despair and Hope.

Source: ``shared/rules-texts/004`` (Resolution). Heroes and challenges are different sheet
types; the hero is the default for ``a`` and "Add challenge" adds a challenge. The sheets live
in ``sheet``, the roll in ``roll``, commands and events in ``events``, the decisions in
``decide``, the fold in ``apply``, the dialogs in ``forms``, the log in ``log`` and the odds in
``encounter_odds``; this module ties them into the ``RuleSystem``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from msgspec import structs

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.forms import Field
from rules.odds import mid_percentile
from rules.system import LAST_ROLL, Action, Damage, Landing, Luck, RuleSystem, Tier, Track

from . import apply, decide, forms, solo
from .encounter_odds import PainPoolOdds
from .events import (
    ApplyOutcome,
    BonusGranted,
    BonusPassed,
    BoonsDamaged,
    DespairSpent,
    EndScene,
    HopeSpent,
    PainPoolRoll,
    PainPoolState,
    PassBonus,
    SceneEnded,
    SpendDespair,
    SpendHope,
    TakeDamage,
    TokensLost,
    damage_targets,
    hero,
    open_roll,
    tokens,
)
from .forecast import PainPoolForecast
from .forms import PainPoolDialogs
from .log import PainPoolLog
from .roll import (
    PainPoolRolled,
)
from .sheet import (
    POOL_TITLES,
    ChallengeSheet,
    HeroSheet,
    PainPoolSheets,
    challenge_stats,
    hero_stats,
    out_of_fight,
)
from .solo import PainPoolSolo
from .table import TIER_BOUNDS, TIER_LABELS

if TYPE_CHECKING:
    from .events import PainPoolCombatant, PainPoolEncounter


# --- the system -----------------------------------------------------------------------------


class PainPool(
    PainPoolSheets,
    PainPoolDialogs,
    PainPoolLog,
    PainPoolOdds,
    PainPoolSolo,
    PainPoolForecast,
    RuleSystem,
):
    name = "painpool"
    title = "Pain Pool"
    sheet_types = (HeroSheet, ChallengeSheet)
    event_types = (
        PainPoolRolled,
        DespairSpent,
        HopeSpent,
        TokensLost,
        BonusGranted,
        BoonsDamaged,
        SceneEnded,
        BonusPassed,
    )
    command_types = (
        PainPoolRoll,
        SpendDespair,
        SpendHope,
        ApplyOutcome,
        TakeDamage,
        EndScene,
        PassBonus,
    )
    command_actors = {  # whom each acts for; the rest are the GM's
        PainPoolRoll: "hero_id",
        SpendHope: LAST_ROLL,
        ApplyOutcome: LAST_ROLL,
        TakeDamage: LAST_ROLL,
        PassBonus: "hero_id",
    }
    roll_event_types = (PainPoolRolled,)
    state_type = PainPoolState
    stat_columns = ("Dice", "Boons / Health", "Favor", "Held")
    # A conflict-resolution game: exchanges, not initiative (see rulings.md).
    uses_turn_order = False
    damage_unit = "points"
    out_of_fight_reads_state = False  # out_of_fight reads the combatant alone
    gm_commands = (SpendDespair, EndScene)  # Despair is the GM's token; the GM ends scenes
    gm_actions = frozenset({"challenge", "despair", "scene"})

    # the end of the fight

    def out_of_fight(self, state: PainPoolEncounter, combatant: PainPoolCombatant) -> str:
        return out_of_fight(combatant.sheet)

    def damage(self, state: PainPoolEncounter, event: object) -> tuple[Damage, ...]:
        """Tokens off a Pain Pool (dealt by the hero of the roll), boon levels crossed off a
        hero (damage or failure levels, dealt by the roll's challenge)."""
        roll = state.last_roll
        match event:
            case TokensLost(challenge_id=foe, tokens=lost) if lost:
                dealer = roll.hero_id if isinstance(roll, PainPoolRolled) else None
                return (Damage(dealer, foe, lost),)
            case BoonsDamaged(hero_id=hero, hits=hits) if sum(h.levels for h in hits):
                dealer = roll.challenge_id if isinstance(roll, PainPoolRolled) else None
                return (Damage(dealer, hero, sum(h.levels for h in hits)),)
        return ()

    def roll_sides(self, state: PainPoolEncounter, event: object) -> tuple[str | None, str | None]:
        """The tiers go success, tie, failure: a higher one favours the challenge."""
        if not isinstance(event, PainPoolRolled):
            return None, None
        return event.challenge_id, event.hero_id

    def roll_luck(self, state: PainPoolEncounter, event: object) -> tuple[Luck, ...]:
        """Where the roll's difference sits among every difference it could have had, from the
        hero's side (the challenge has one minus it): a win by 8 is luckier than a win by 1.
        The three tiers alone say too little: against even odds (d8, d6, d4 against 3d6) a
        success and a failure always averaged exactly 50% and a tie was 50% (rulings.md,
        "Luck against the odds, in the summary")."""
        if not isinstance(event, PainPoolRolled):
            return ()
        odds = self.last_odds(state)
        if odds is None:
            return ()
        chances = odds.extra.get("difference")
        if not isinstance(chances, dict) or event.difference not in chances:
            return ()
        differences = sorted(chances)
        hero = mid_percentile(
            [chances[d] for d in differences], differences.index(event.difference)
        )
        return (Luck(event.hero_id, hero), Luck(event.challenge_id, 1 - hero))

    # sheets

    track_words = ("lose", "heal")  # "the pain pool looses health tokens"

    def main_track(self, combatant: PainPoolCombatant) -> Track | None:
        # A challenge's health tokens (*Pain Pool*: it "looses health tokens"); a hero's
        # damage is crossed off boons, chosen in Take damage, so a hero has no such track.
        sheet = combatant.sheet
        if not isinstance(sheet, ChallengeSheet):
            return None
        return Track("Health tokens", sheet.remaining, 0, sheet.tokens)

    def with_track(self, sheet: ChallengeSheet, value: int) -> ChallengeSheet:
        return structs.replace(sheet, lost=sheet.tokens - value)

    def sheet_stats(self, sheet: HeroSheet | ChallengeSheet) -> tuple[str, ...]:
        if isinstance(sheet, ChallengeSheet):
            return challenge_stats(sheet)
        return hero_stats(sheet)

    # actions

    def actions(self, state: PainPoolEncounter) -> list[Action]:
        return forms.ACTIONS

    def action_form(
        self, state: PainPoolEncounter, action: str, selected: str | None
    ) -> list[Field]:
        fields = forms.action_form(state, action, selected)
        if action == "damage":
            fields = self._suggested_damage(state, fields)
        return fields

    @staticmethod
    def _suggested_damage(state: PainPoolEncounter, fields: list[Field]) -> list[Field]:
        """Take damage filled in as a steady hero would place it (the boons this roll did not
        use first, down the sheet), so Enter takes a fair choice; the player can change it."""
        roll = open_roll(state)
        sheet = hero(state, roll.hero_id).sheet
        plan = dict(solo.damage_plan(sheet, roll, solo.STEADY)[0])
        targets = [target for target, _ in damage_targets(sheet)]  # the fields hit0, hit1...
        return [
            structs.replace(field, default=str(plan.get(targets[int(field.key[3:])], 0)))
            for field in fields
        ]

    def preview(self, state: PainPoolEncounter, action: str, values: Mapping[str, str]) -> str:
        try:
            text = forms.preview(state, action, values)
        except Rejected as exc:
            return exc.message
        if action == "damage":
            text += " (filled in first on the boons this roll did not use; change any)"
        return text

    def consequence_command(self, state: PainPoolEncounter) -> ApplyOutcome:
        return ApplyOutcome()

    def pending(self, state: PainPoolEncounter) -> str:
        """The open roll's outcome while it waits: tokens off the challenge, a maneuver's
        bonus die, or the damage its hero has yet to place (Take damage)."""
        roll = state.last_roll
        if not isinstance(roll, PainPoolRolled) or state.last_roll_applied:
            return ""
        if solo.settled(state, roll):
            return ""
        if roll.kind == "maneuver" and roll.outcome == "success":
            to = state.find(roll.beneficiary_id)
            return f"a bonus die for {to.name}" if to is not None else ""
        if roll.tokens_lost:
            foe = state.find(roll.challenge_id)
            if foe is None:
                return ""
            plural = "s" * (roll.tokens_lost != 1)
            return f"{foe.name} loses {roll.tokens_lost} health token{plural}"
        kind = "damage" if roll.harm_taken == "damage" else "failure levels"
        return f"{state.name_of(roll.hero_id)} takes {roll.hero_damage} {kind}"

    def pending_action(self, state: PainPoolEncounter) -> str:
        """A hero's damage is placed in the Take damage dialog (the player picks the boons)."""
        roll = state.last_roll
        if not isinstance(roll, PainPoolRolled) or roll.tokens_lost or roll.outcome == "success":
            return ""
        return "damage" if self.pending(state) else ""

    # decide
    def decide(self, state: PainPoolEncounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case PainPoolRoll():
                return [decide.roll(state, command, dice)]
            case SpendDespair():
                return [decide.despair(state, dice)]
            case SpendHope():
                return [decide.hope(state, command, dice)]
            case ApplyOutcome():
                return [decide.outcome(state)]
            case TakeDamage():
                return [decide.damage(state, command)]
            case EndScene():
                return [SceneEnded(heal=command.heal, bonus_ends=command.bonus_ends)]
            case PassBonus():
                return [decide.pass_bonus(state, command)]
        raise Rejected(f"Pain Pool does not know the command {type(command).__name__}")

    # apply

    apply = staticmethod(apply.apply)

    # what the app shows
    def tiers(self, state: PainPoolEncounter) -> list[Tier]:
        roll = state.last_roll if isinstance(state.last_roll, PainPoolRolled) else None
        maneuver = roll is not None and roll.kind == "maneuver"
        hurt = "failure levels" if roll is not None and roll.harm_taken == "failure" else "damage"
        best = "success: a bonus die" if maneuver else "success: tokens off the Pain Pool"
        worst = f"failure: the hero takes {hurt}"
        texts = (roll.best, roll.good, roll.worst) if roll else ("", "", "")
        effects = (best, "tie: partial, no damage", worst)
        return [
            Tier(label, low, high, f"{effect}" + (f" — {text}" if text else ""))
            for label, (low, high), effect, text in zip(
                TIER_LABELS, TIER_BOUNDS, effects, texts, strict=True
            )
        ]

    def landing(self, state: PainPoolEncounter) -> Landing | None:
        roll = state.last_roll
        if not isinstance(roll, PainPoolRolled):
            return None
        index = {"success": 0, "tie": 1, "failure": 2}[roll.outcome]
        summary = (
            f"{roll.hero_total} vs {roll.pain.total}: {roll.outcome}, difference "
            f"{roll.difference:+d} · {POOL_TITLES[roll.dominant]} dominates"
        )
        return Landing(tier=index, value=roll.difference, summary=summary)

    def conceal(
        self, state: PainPoolEncounter, event: object, hidden: frozenset[str]
    ) -> object | None:
        """What a hidden challenge's roll leaves on a hero players see: the boons it crosses
        off, a bonus die it gives; its dice and re-rolls stay hidden."""
        if isinstance(event, BoonsDamaged | BonusGranted) and event.hero_id not in hidden:
            return event
        return None

    def status(self, state: PainPoolEncounter) -> str:
        pot = tokens(state)
        return f"Despair {pot.despair} · Hope {pot.hope}"


SYSTEM = PainPool()
