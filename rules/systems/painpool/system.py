"""Pain Pool: Power/Precision/Possibility pools against the Pain Pool, boon damage,
dominance, Despair and Hope.

Source: ``shared/rules-texts/004`` (Resolution). Heroes and challenges are different sheet
types; the hero is the default for ``a`` and "Add challenge" adds a challenge. The sheets
live in ``sheets``, the roll in ``roll``, commands and events in
``events``; forms and the log in ``view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.dice import ANY_FACE, DiceSource
from rules.errors import Rejected
from rules.forms import Field
from rules.logline import LogEntry
from rules.odds import mid_percentile, whose_chances
from rules.system import LAST_ROLL, Action, Damage, Landing, Luck, RuleSystem, Tier, Track

from . import forecast, solo, view
from .events import (
    ApplyOutcome,
    BonusGranted,
    BonusPassed,
    BoonHit,
    BoonsDamaged,
    DespairSpent,
    EndScene,
    HopeSpent,
    PainPoolRoll,
    PainPoolState,
    PassBonus,
    PoolReroll,
    SceneEnded,
    SpendDespair,
    SpendHope,
    TakeDamage,
    TokensLost,
    cascade_hits,
    challenge,
    changed_roll,
    damage_targets,
    end_scene,
    hero,
    hit_boons,
    open_roll,
    spend_held,
    tokens,
    with_sheet,
)
from .odds import despair_odds, hope_odds, painpool_odds
from .roll import (
    PainPoolRolled,
    PainRoll,
    PoolRoll,
    damage_parts,
    pain_count,
    pain_parts,
    roll_dice,
)
from .sheets import (
    PAIN_DIE,
    POOL_TITLES,
    POOLS,
    Boon,
    ChallengeSheet,
    HeldBonus,
    HeroSheet,
    challenge_form,
    challenge_from_form,
    challenge_stats,
    hero_form,
    hero_from_form,
    hero_stats,
    out_of_fight,
    rested,
)

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter
    from rules.odds import Odds
    from rules.system import Move


# --- the system -----------------------------------------------------------------------------


class PainPool(RuleSystem):
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
    has_odds = True
    damage_unit = "points"
    gm_commands = (SpendDespair, EndScene)  # Despair is the GM's token; the GM ends scenes
    gm_actions = frozenset({"challenge", "despair", "scene"})

    def new_state(self) -> PainPoolState:
        return PainPoolState()

    # the end of the fight

    def out_of_fight(self, state: Encounter, combatant: Combatant) -> str:
        return out_of_fight(combatant.sheet)

    def damage(self, state: Encounter, event: object) -> tuple[Damage, ...]:
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

    def roll_sides(self, state: Encounter, event: object) -> tuple[str | None, str | None]:
        """The tiers go success, tie, failure: a higher one favours the challenge."""
        if not isinstance(event, PainPoolRolled):
            return None, None
        return event.challenge_id, event.hero_id

    def roll_luck(self, state: Encounter, event: object) -> tuple[Luck, ...]:
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

    def new_sheet(self) -> HeroSheet:
        return HeroSheet()

    def sheet_form(self, sheet: HeroSheet | ChallengeSheet) -> list[Field]:
        if isinstance(sheet, ChallengeSheet):
            return challenge_form(sheet)
        return hero_form(sheet)

    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any:
        if isinstance(sheet, ChallengeSheet):
            return challenge_from_form(values, sheet)
        return hero_from_form(values, sheet)

    def sheet_kinds(self) -> tuple[tuple[str, HeroSheet | ChallengeSheet], ...]:
        return (("hero", HeroSheet()), ("challenge", ChallengeSheet()))

    def fresh_sheet(self, sheet: HeroSheet | ChallengeSheet) -> HeroSheet | ChallengeSheet:
        return rested(sheet)

    track_words = ("lose", "heal")  # "the pain pool looses health tokens"

    def main_track(self, combatant: Combatant[Any]) -> Track | None:
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

    def actions(self, state: Encounter) -> list[Action]:
        return view.ACTIONS

    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        fields = view.action_form(state, action, selected)
        if action == "damage":
            fields = self._suggested_damage(state, fields)
        return fields

    @staticmethod
    def _suggested_damage(state: Encounter, fields: list[Field]) -> list[Field]:
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

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> object:
        return view.action_command(state, action, values)

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        try:
            text = view.preview(state, action, values)
        except Rejected as exc:
            return exc.message
        if action == "damage":
            text += " (filled in first on the boons this roll did not use; change any)"
        return text

    def consequence_command(self, state: Encounter) -> ApplyOutcome:
        return ApplyOutcome()

    def pending(self, state: Encounter) -> str:
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

    def pending_action(self, state: Encounter) -> str:
        """A hero's damage is placed in the Take damage dialog (the player picks the boons)."""
        roll = state.last_roll
        if not isinstance(roll, PainPoolRolled) or roll.tokens_lost or roll.outcome == "success":
            return ""
        return "damage" if self.pending(state) else ""

    # solo play (rules/solo.py)

    solo_policies = solo.POLICIES

    def solo_move(self, state: Encounter) -> Move | None:
        return solo.next_move(state)

    def forecast_move(self, state: Encounter, acted: frozenset[str]) -> Move | None:
        return forecast.forecast_move(state, acted)

    def solo_fill(
        self, state: Encounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[Move]]:
        return solo.fill(state, action, values)

    # decide

    def decide(self, state: Encounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case PainPoolRoll():
                return [self._roll(state, command, dice)]
            case SpendDespair():
                return [self._despair(state, dice)]
            case SpendHope():
                return [self._hope(state, command, dice)]
            case ApplyOutcome():
                return [self._outcome(state)]
            case TakeDamage():
                return [self._damage(state, command)]
            case EndScene():
                return [SceneEnded(heal=command.heal, bonus_ends=command.bonus_ends)]
            case PassBonus():
                return [self._pass_bonus(state, command)]
        raise Rejected(f"Pain Pool does not know the command {type(command).__name__}")

    def _roll(self, state: Encounter, cmd: PainPoolRoll, dice: DiceSource) -> PainPoolRolled:
        who = hero(state, cmd.hero_id)
        foe = challenge(state, cmd.challenge_id)
        sheet: HeroSheet = who.sheet
        foe_sheet: ChallengeSheet = foe.sheet
        if foe_sheet.passed:
            raise Rejected(f"{foe.name} is already passed: its Pain Pool has no health left")
        if cmd.kind == "maneuver" and cmd.initiator != "hero":
            raise Rejected("A maneuver is a hero's action: the hero initiates it")
        beneficiary = cmd.beneficiary_id or who.id
        if cmd.kind == "maneuver":
            hero(state, beneficiary)
        chosen = self._chosen_boons(sheet, cmd)
        spent, favor = self._chosen_bonus(who, cmd)
        pools = []
        for pool in POOLS:
            size = sheet.die(pool)
            boon = chosen.get(pool)
            bonus = [i for i, p in cmd.bonus if p == pool]
            pools.append(
                PoolRoll(
                    pool=pool,
                    size=size,
                    attribute=dice.roll(size),
                    boon=boon.name if boon else "",
                    boon_dice=roll_dice(dice, boon.usable if boon else 0, size),
                    bonus=tuple(sheet.held[i].name for i in bonus),
                    bonus_dice=roll_dice(dice, len(bonus), size),
                )
            )
        parts = pain_parts(foe_sheet, cmd.initiator, cmd.pain_extra)
        pain = PainRoll(parts=parts, dice=roll_dice(dice, pain_count(parts), PAIN_DIE))
        rolled = PainPoolRolled(
            hero_id=who.id,
            challenge_id=foe.id,
            intent=cmd.intent.strip(),
            best=cmd.best.strip(),
            good=cmd.good.strip(),
            worst=cmd.worst.strip(),
            kind=cmd.kind,
            initiator=cmd.initiator,
            harm=cmd.harm,
            pools=tuple(pools),
            pain=pain,
            damage_parts=damage_parts(foe_sheet, cmd.initiator),
            beneficiary_id=beneficiary if cmd.kind == "maneuver" else "",
            sticky=cmd.sticky,
            spent=spent,
            favor_spent=favor,
        )
        return structs.replace(rolled, despair_given=rolled.dominant == "pain")

    def _chosen_boons(self, sheet: HeroSheet, cmd: PainPoolRoll) -> dict[str, Boon]:
        chosen: dict[str, Boon] = {}
        for pool, name in cmd.boons:
            if not name:
                continue
            boon = sheet.boon(name)
            if boon is None:
                raise Rejected(f"The hero has no boon {name!r}")
            if pool in chosen:
                raise Rejected(f"{POOL_TITLES[pool]} can take only one boon per roll")
            if pool not in boon.pools:
                raise Rejected(f"{boon.name} does not feed {POOL_TITLES[pool]}")
            if not boon.usable:
                raise Rejected(f"{boon.name} is crossed off until it recovers")
            if any(b.name == boon.name for b in chosen.values()):
                raise Rejected(f"{boon.name} can feed only one pool per roll")
            chosen[pool] = boon
        return chosen

    def _chosen_bonus(self, who: Combatant, cmd: PainPoolRoll) -> tuple[tuple[int, ...], int]:
        sheet: HeroSheet = who.sheet
        indices = tuple(i for i, _ in cmd.bonus)
        if len(set(indices)) != len(indices):
            raise Rejected("Each bonus die can be spent once per roll")
        if any(not 0 <= i < len(sheet.held) for i in indices):
            raise Rejected(f"{who.name} does not hold that bonus die")
        favor = sum(sheet.held[i].favor_cost for i in indices)
        if favor > sheet.favor:
            raise Rejected(
                f"Using sticky maneuvers again costs {favor} favor; {who.name} has {sheet.favor}"
            )
        return indices, favor

    def _pass_bonus(self, state: Encounter, cmd: PassBonus) -> BonusPassed:
        holder = hero(state, cmd.hero_id)
        if not 0 <= cmd.index < len(holder.sheet.held):
            raise Rejected(f"{holder.name} does not hold that bonus die")
        if cmd.to_id:
            to = hero(state, cmd.to_id)
            if to.id == holder.id:
                raise Rejected(f"{holder.name} already holds it: give it to another hero")
        return BonusPassed(hero_id=holder.id, index=cmd.index, to_id=cmd.to_id)

    def _despair(self, state: Encounter, dice: DiceSource) -> DespairSpent:
        roll = open_roll(state)
        if tokens(state).despair < 1:
            raise Rejected("The GM has no Despair token to spend")
        count = pain_count(roll.pain.parts)
        return DespairSpent(dice=roll_dice(dice, count, PAIN_DIE))

    def _hope(self, state: Encounter, cmd: SpendHope, dice: DiceSource) -> HopeSpent:
        roll = open_roll(state)
        if tokens(state).hope < 1:
            raise Rejected("The players' pot has no Hope token")
        who = hero(state, roll.hero_id)
        if cmd.mode == "raise":
            if cmd.raise_by < 1:
                raise Rejected("Raise the roll by at least 1")
            if cmd.raise_by > who.sheet.favor:
                raise Rejected(
                    f"Raising by {cmd.raise_by} costs {cmd.raise_by} favor; "
                    f"{who.name} has {who.sheet.favor}"
                )
            return HopeSpent(hero_id=who.id, raised=cmd.raise_by)
        if not cmd.pools:
            raise Rejected("Choose at least one pool to re-roll")
        rerolls = tuple(
            PoolReroll(p.pool, roll_dice(dice, p.count, p.size))
            for p in roll.pools
            if p.pool in cmd.pools
        )
        return HopeSpent(hero_id=who.id, rerolls=rerolls)

    def _outcome(self, state: Encounter) -> TokensLost | BonusGranted:
        roll = open_roll(state)
        who = state.name_of(roll.hero_id)
        if roll.outcome == "tie":
            raise Rejected("A tie (Good outcome): partial success, and no damage either way")
        if roll.kind == "maneuver" and roll.outcome == "success":
            hero(state, roll.beneficiary_id)
            return BonusGranted(
                hero_id=roll.beneficiary_id, name=roll.intent or "maneuver", sticky=roll.sticky
            )
        if roll.outcome == "failure":
            if not roll.hero_damage:
                raise Rejected(f"{who} lost, but the damage comes to 0: nothing to apply")
            kind = "damage" if roll.harm_taken == "damage" else "failure levels"
            raise Rejected(
                f"{who} takes {roll.hero_damage} {kind}: choose the boons with s → Take damage"
            )
        foe = challenge(state, roll.challenge_id)
        return TokensLost(challenge_id=foe.id, tokens=min(roll.tokens_lost, foe.sheet.remaining))

    def _damage(self, state: Encounter, cmd: TakeDamage) -> BoonsDamaged:
        roll = open_roll(state)
        who = hero(state, roll.hero_id)
        sheet: HeroSheet = who.sheet
        if not roll.hero_damage:
            raise Rejected(f"{who.name} has no damage to take from the last roll")
        room = dict(damage_targets(sheet))
        due = min(roll.hero_damage, sum(room.values()))
        targets = [target for target, _ in cmd.hits]
        if len(set(targets)) != len(targets):
            raise Rejected("Name each boon or cascade once")
        hits: list[BoonHit] = []
        for target, points in cmd.hits:
            if points < 0:
                raise Rejected("Damage points cannot be negative")
            if target not in room:
                raise Rejected(f"{who.name} has no boon or cascade {target!r} with levels left")
            if points > room[target]:
                raise Rejected(f"{target} can take at most {room[target]} more")
            if target in {b.cascade for b in sheet.boons if b.cascade}:
                hits += cascade_hits(sheet, target, points)
            elif points:
                hits.append(BoonHit(target, points))
        assigned = sum(h.levels for h in hits)
        if assigned != due:
            raise Rejected(f"Assign exactly {due} point{'s' * (due != 1)} (now {assigned})")
        # "the next Boon he assigns damage to becomes Impacted": damage only (failure levels
        # all return at the end of the scene), the first hit boon in the sheet's order.
        order = [boon.name for boon in sheet.boons]
        hit = sorted((h.boon for h in hits if h.levels), key=order.index)
        impacted = hit[0] if hit and not sheet.impacted and roll.harm_taken == "damage" else ""
        return BoonsDamaged(
            hero_id=who.id, harm=roll.harm_taken, hits=tuple(hits), impacted=impacted
        )

    # apply

    def apply(self, state: Encounter, event: object) -> Encounter:
        match event:
            case PainPoolRolled():
                return self._apply_roll(state, event)
            case DespairSpent():
                pot = tokens(state)
                spent = PainPoolState(despair=pot.despair - 1, hope=pot.hope + 1)
                changed = changed_roll(open_roll(state), event)
                return self._reroll(state.update(system_state=spent), changed)
            case HopeSpent():
                changed = changed_roll(open_roll(state), event)
                who = state.combatant(event.hero_id)
                pot = tokens(state)
                paid = structs.replace(who.sheet, favor=who.sheet.favor - event.raised)
                state = with_sheet(state, who, paid)
                state = state.update(system_state=structs.replace(pot, hope=pot.hope - 1))
                return self._reroll(state, changed)
            case TokensLost():
                foe = state.combatant(event.challenge_id)
                lost = structs.replace(foe.sheet, lost=foe.sheet.lost + event.tokens)
                return with_sheet(state, foe, lost).update(last_roll_applied=True)
            case BonusGranted():
                who = state.combatant(event.hero_id)
                held = (*who.sheet.held, HeldBonus(name=event.name, sticky=event.sticky))
                state = with_sheet(state, who, structs.replace(who.sheet, held=held))
                return state.update(last_roll_applied=True)
            case BoonsDamaged():
                who = state.combatant(event.hero_id)
                sheet = structs.replace(
                    who.sheet,
                    boons=hit_boons(who.sheet, event.hits, event.harm),
                    impacted=event.impacted or who.sheet.impacted,
                )
                return with_sheet(state, who, sheet).update(last_roll_applied=True)
            case SceneEnded():
                for who in state.combatants:
                    if isinstance(who.sheet, HeroSheet):
                        ended = end_scene(who.sheet, event.heal, event.bonus_ends)
                        state = with_sheet(state, who, ended)
                return state
            case BonusPassed():
                holder = state.combatant(event.hero_id)
                die = holder.sheet.held[event.index]
                rest = holder.sheet.held[: event.index] + holder.sheet.held[event.index + 1 :]
                state = with_sheet(state, holder, structs.replace(holder.sheet, held=rest))
                if event.to_id:
                    to = state.combatant(event.to_id)
                    held = (*to.sheet.held, die)
                    state = with_sheet(state, to, structs.replace(to.sheet, held=held))
                return state
        raise TypeError(f"not a Pain Pool event: {event!r}")

    def _apply_roll(self, state: Encounter, roll: PainPoolRolled) -> Encounter:
        who = state.combatant(roll.hero_id)
        state = with_sheet(state, who, spend_held(who.sheet, roll.spent, roll.favor_spent))
        if roll.despair_given:
            pot = tokens(state)
            state = state.update(system_state=structs.replace(pot, despair=pot.despair + 1))
        return state.update(last_roll=roll, last_roll_applied=False)

    def _reroll(self, state: Encounter, roll: PainPoolRolled) -> Encounter:
        """A changed roll: the first time Pain dominates it, the GM gains a Despair token."""
        if roll.dominant == "pain" and not roll.despair_given:
            roll = structs.replace(roll, despair_given=True)
            pot = tokens(state)
            state = state.update(system_state=structs.replace(pot, despair=pot.despair + 1))
        return state.update(last_roll=roll)

    # what the app shows

    def tiers(self, state: Encounter) -> list[Tier]:
        return view.tiers(state)

    def landing(self, state: Encounter) -> Landing | None:
        return view.landing(state)

    def describe(self, state: Encounter, event: object) -> LogEntry:
        return view.describe(state, event)

    def conceal(self, state: Encounter, event: object, hidden: frozenset[str]) -> object | None:
        """What a hidden challenge's roll leaves on a hero players see: the boons it crosses
        off, a bonus die it gives; its dice and re-rolls stay hidden."""
        if isinstance(event, BoonsDamaged | BonusGranted) and event.hero_id not in hidden:
            return event
        return None

    def alerts(self, state: Encounter, event: object) -> list[str]:
        return view.alerts(state, event)

    # odds

    def odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The exact odds of the roll the dialog describes (None when it would be refused); for
        Despair and Hope, the odds of the rolled roll after them, given the dice already down."""
        if action in ("despair", "hope"):
            return self._reroll_odds(state, action, values)
        if action != "roll":
            return None
        try:
            cmd = view.roll_command(state, values)
            sheet: HeroSheet = hero(state, cmd.hero_id).sheet
            foe: ChallengeSheet = challenge(state, cmd.challenge_id).sheet
            self._chosen_boons(sheet, cmd)
        except Rejected:
            return None
        pain = pain_count(pain_parts(foe, cmd.initiator, cmd.pain_extra))
        bonus = sum(part.value for part in damage_parts(foe, cmd.initiator))
        pools = tuple(view.pool_dice(sheet, cmd))
        found = painpool_odds(pools, pain, bonus)
        return _named(state, cmd.hero_id, cmd.challenge_id, found)

    def _reroll_odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The odds of the open roll after the Despair or Hope the dialog describes, refused
        (None) exactly when the spend would be."""
        try:
            roll = open_roll(state)
            if action == "despair":
                self._despair(state, ANY_FACE)
                spent = None
            else:
                command = view.action_command(state, "hope", values)
                assert isinstance(command, SpendHope)
                spent = self._hope(state, command, ANY_FACE)
        except Rejected:
            return None
        pools = tuple((p.pool, p.count, p.size, p.kept) for p in roll.pools)
        bonus = sum(part.value for part in roll.damage_parts)
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

    def last_odds(self, state: Encounter) -> Odds | None:
        """The odds the last roll had when it was made (before any Despair or Hope)."""
        roll = state.last_roll
        if not isinstance(roll, PainPoolRolled):
            return None
        pools = tuple((p.pool, p.count, p.size) for p in roll.pools)
        bonus = sum(part.value for part in roll.damage_parts)
        found = painpool_odds(pools, len(roll.pain.dice), bonus)
        return _named(state, roll.hero_id, roll.challenge_id, found)

    def status(self, state: Encounter) -> str:
        pot = tokens(state)
        return f"Despair {pot.despair} · Hope {pot.hope}"


def _named(state: Encounter, hero_id: str, challenge_id: str, found: Odds) -> Odds:
    """The odds of a hero's roll: Best, Good and Worst are the hero's outcomes."""
    hero_name = state.name_of(hero_id, "the hero")
    foe = state.name_of(challenge_id, "the challenge")
    return found._replace(whose=whose_chances(hero_name, foe))


SYSTEM = PainPool()
