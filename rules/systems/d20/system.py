"""Generic d20: the mechanics the d20 family shares, in the SRD 5.1's terms.

Attacks (d20 + bonus against Armour Class, advantage and disadvantage, critical hits),
hit points (fixed or rolled when added) with temporary ones, saving throws against a DC
with half damage, conditions, concentration, death saves, legendary actions and reactions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.conversion import Conversion
from rules.errors import Rejected
from rules.system import (
    LAST_ROLL,
    Action,
    Damage,
    Figure,
    Landing,
    Luck,
    RuleSystem,
    Tier,
    Track,
    luck_against,
)

from . import (
    apply,
    decide,
    economy,
    encounter_odds,
    forms,
    hit_saves,
    landing,
    log,
    regeneration,
    sight,
    turn_edge_log,
    turn_edges,
    uses,
)
from .action_list import ACTIONS
from .budget import budget_hook
from .condition_names import D20ConditionNames
from .damage_said import attack_taken, save_taken
from .events import (
    EXTRA,
    D20ActionUsed,
    D20Apply,
    D20Attack,
    D20Attacked,
    D20ConcentrationEnded,
    D20ConcentrationSave,
    D20ConcentrationSaved,
    D20ConcentrationStarted,
    D20Damaged,
    D20DeathSave,
    D20DeathSaved,
    D20EndConcentration,
    D20Exhausted,
    D20Heal,
    D20Healed,
    D20HitSave,
    D20Immune,
    D20LegendaryAction,
    D20LegendaryUsed,
    D20Reaction,
    D20ReactionUsed,
    D20Rest,
    D20Rested,
    D20Saved,
    D20SaveEffect,
    D20SetExhaustion,
    D20Settled,
    D20Stabilise,
    D20Stabilised,
    D20State,
    D20UseAction,
    sheet_of,
)
from .exhaustion import rest, set_exhaustion
from .finding import D20Library
from .landing import D20Landing
from .lapse import lapsed_after
from .log import D20Log
from .sheet import (
    HERO,
    LAIR,
    LAIR_INITIATIVE,
    MONSTER,
    D20Sheet,
    D20Sheets,
    checked,
    damage_dice,
    dies_at_zero,
    hp_column,
    hp_odds,
    life_word,
)
from .solo import D20Solo
from .stabilise import stabilise
from .standing import (
    concentration_waiting,
    conditions_of,
    death_save_waiting,
    in_turn,
    legendary_left,
    out_word,
    roll_waits,
    why_not,
)
from .surprise import WAYS as SURPRISE_WAYS
from .surprise import surprise as surprised_side
from .surprise import surprised
from .table import ATTACK_TIERS, DEATH_TIERS, SAVE_TIERS
from .turn_edge_events import (
    D20EndOfTurnSave,
    D20EndOfTurnSaved,
    D20StartOfTurn,
)
from .turn_edge_forms import D20Endings

if TYPE_CHECKING:
    from rules.dice import DiceSource
    from rules.forms import Field
    from rules.logline import LogEntry
    from rules.odds import Odds

    from .events import D20Combatant, D20Encounter


class GenericD20(
    D20Sheets,
    D20Library,
    D20Endings,
    D20ConditionNames,
    D20Landing,
    D20Log,
    D20Solo,
    RuleSystem,
):
    name = "d20"
    title = "Generic d20"
    sheet_types = (D20Sheet,)
    event_types = (
        D20Attacked,
        D20Saved,
        D20DeathSaved,
        D20ConcentrationSaved,
        D20Damaged,
        D20Settled,
        D20Immune,
        D20Healed,
        D20ReactionUsed,
        D20Stabilised,
        D20Exhausted,
        D20Rested,
        D20ConcentrationStarted,
        D20ConcentrationEnded,
        D20LegendaryUsed,
        D20ActionUsed,
        *turn_edges.EVENTS,
        *uses.EVENTS,
        *hit_saves.EVENTS,
    )
    command_types = (
        D20Attack,
        D20Apply,
        D20SaveEffect,
        D20DeathSave,
        D20ConcentrationSave,
        D20Heal,
        D20Reaction,
        D20EndConcentration,
        D20LegendaryAction,
        D20Stabilise,
        D20SetExhaustion,
        D20Rest,
        D20UseAction,
        *turn_edges.COMMANDS,
        *uses.COMMANDS,
        *hit_saves.COMMANDS,
    )
    roll_event_types = (
        D20Attacked,
        D20Saved,
        D20DeathSaved,
        D20ConcentrationSaved,
        D20EndOfTurnSaved,
    )
    command_actors = {
        D20Attack: "attacker_id",
        D20Apply: LAST_ROLL,
        D20DeathSave: "combatant_id",
        D20ConcentrationSave: "combatant_id",
        D20HitSave: "target_id",
        D20Heal: "healer_id",
        D20Reaction: "combatant_id",
        D20EndConcentration: "combatant_id",
        D20SaveEffect: "source_id",
        D20LegendaryAction: "combatant_id",
        D20UseAction: "combatant_id",
        D20Stabilise: "medic_id",
        D20EndOfTurnSave: "target_id",
        D20StartOfTurn: "combatant_id",
    }  # exhaustion, a rest and Legendary Resistance are the GM's
    gm_commands = uses.COMMANDS
    gm_actions = frozenset({uses.RESIST})
    overrule_action = uses.RESIST  # the L key
    state_type = D20State
    stat_columns = ("HP", "AC", "Attack", "State")
    uses_turn_order = True
    xp_budget = budget_hook  # the 2014 and 2024 XP tables beside the difficulty
    has_odds = True
    damage_unit = "hit points"
    out_of_fight_reads_state = False  # out_of_fight reads the combatant alone
    roll_actions = ("roll", "save", "death")

    # sheets

    def sheet_kinds(self) -> tuple[tuple[str, Any], ...]:
        return ((MONSTER, D20Sheet()), (HERO, D20Sheet(kind=HERO)), (LAIR, D20Sheet(kind=LAIR)))

    def convert_stat_blocks(self, data: object) -> Conversion | None:
        # The SRD's monsters as structured data (srd_convert.py): loaded when asked for.
        from .srd_convert import conversion

        return conversion(data)

    def scaled(self, sheet: D20Sheet, factor: float) -> D20Sheet:
        """Hit points, now and at most, ``factor`` times as many (at least 1); dice written
        for them are dropped, so a tuned foe joins with the number the tune forecast."""
        from .sheet import MAX_HP

        most = max(1, min(MAX_HP, round(sheet.hp_max * factor)))
        now = max(1, min(most, round(sheet.hp * factor))) if sheet.hp > 0 else sheet.hp
        return structs.replace(sheet, hp=now, hp_max=most, hp_dice="", hp_rolled=())

    def fit_sheet(self, state: D20Encounter, sheet: D20Sheet) -> D20Sheet:
        return checked(sheet)

    def rolled_on_add(self, state: D20Encounter, sheet: D20Sheet, dice: DiceSource) -> D20Sheet:
        """Hit points written as dice are rolled as the combatant joins, every die kept."""
        if not sheet.hp_dice or sheet.hp_rolled:
            return sheet
        from rules.notation.answer import roll_out

        found = roll_out(hp_odds(sheet.hp_dice), dice)  # worked out once for a whole group
        faces = tuple(face for group in found.dice for chain in group.rolls for face in chain)
        most = max(found.total, 1)
        return structs.replace(sheet, hp=most, hp_max=most, hp_rolled=faces or (0,))

    def sheet_stats(self, sheet: D20Sheet) -> tuple[str, ...]:
        attack = f"{sheet.attack_bonus:+d} {damage_dice(sheet)}"
        state = life_word(sheet)
        if state == "dead":
            state = ""  # the name's mark says it (``out_of_fight``)
        if state == "dying":
            state = f"dying {sheet.death_successes}✓{sheet.death_failures}✗"
        if sheet.concentrating and not state:
            state = f"conc. {sheet.concentrating}"
        return (hp_column(sheet), str(sheet.ac), attack, state)

    track_words = ("damage", "heal")

    def main_track(self, combatant: D20Combatant) -> Track | None:
        """Hit points, for a quick change; none for the dead (no healing brings them back)."""
        sheet = sheet_of(combatant)
        if life_word(sheet) == "dead":
            return None
        return Track("HP", sheet.hp, 0, sheet.hp_max)

    def with_track(self, sheet: D20Sheet, value: int) -> D20Sheet:
        if value > 0 and sheet.hp <= 0:  # healing by hand wakes a hero
            return structs.replace(
                sheet, hp=value, death_successes=0, death_failures=0, stable=False, dead=False
            )
        return structs.replace(sheet, hp=value, dead=value <= 0 and dies_at_zero(sheet))

    def exact_wins(self, state: D20Encounter, rounds: int) -> dict[str, float] | None:
        from .duel import exact_duel

        return exact_duel(state, rounds)

    def end_figures(self, state: D20Encounter, combatant: D20Combatant) -> tuple[Figure, ...]:
        return (Figure("HP", sheet_of(combatant).hp),)

    # initiative (rules.initiative): d20 + the sheet's bonus, rolled as a combatant joins (a
    # group added together shares one roll); ties go to the higher bonus; a lair acts at 20
    # and loses every tie

    def initiative_dice(self, state: D20Encounter, combatant: D20Combatant) -> str:
        sheet = sheet_of(combatant)
        if sheet.kind == LAIR:
            return str(LAIR_INITIATIVE)
        return f"1d20{sheet.initiative:+d}" if sheet.initiative else "1d20"

    def initiative_tiebreak(self, combatant: D20Combatant) -> tuple[int, ...]:
        sheet = sheet_of(combatant)
        return (0, 0) if sheet.kind == LAIR else (1, sheet.initiative)

    def initiative_on_add(self, state: D20Encounter, combatant: D20Combatant) -> bool:
        return True

    # the turn order and who can act

    def turn_order(self, state: D20Encounter) -> tuple[D20Combatant, ...]:
        order = in_turn(state)
        if state.round != 1:
            return order
        return tuple([c for c in order if not surprised(state, c)])

    surprise_ways = SURPRISE_WAYS
    cannot_act = staticmethod(why_not)
    turn_passing = staticmethod(turn_edges.passing)

    def surprise(
        self, state: D20Encounter, side: str, way: str, dice: DiceSource
    ) -> tuple[str, list[Any]]:
        return surprised_side(self, state, side, way, dice)

    def out_of_fight(self, state: D20Encounter, combatant: D20Combatant) -> str:
        return out_word(combatant)

    def badges(self, state: D20Encounter, combatant: D20Combatant) -> tuple[str, ...]:
        sheet = sheet_of(combatant)
        out = []
        if sheet.legendary:
            out.append(f"legendary {legendary_left(state, combatant)}/{sheet.legendary}")
        used = economy.badge(state, combatant)  # "spent A B R": its action, bonus, reaction
        if used:
            out.append(used)
        if sheet.concentrating:
            out.append(f"concentrating: {sheet.concentrating}")
        if sheet.exhaustion:
            out.append(f"exhaustion {sheet.exhaustion}")
        if "unconscious" in conditions_of(combatant) and not combatant.condition("unconscious"):
            out.append("unconscious")
        return (*out, *uses.badges(sheet), *turn_edges.badges(state, combatant))

    def status(self, state: D20Encounter) -> str:
        return ""

    # The GM's approval: an action past the turn's one (economy.py), chosen on purpose.

    def gm_choice(self, key: str, value: str) -> bool:
        return key == "usage" and value == EXTRA

    def gm_approvals(self, command: Any) -> tuple[str, ...]:
        if getattr(command, "usage", None) == EXTRA:  # an attack, a save effect, healing...
            return ("an extra action",)
        return ()

    # actions

    def actions(self, state: D20Encounter) -> list[Action]:
        return list(ACTIONS)

    def action_form(self, state: D20Encounter, action: str, selected: str | None) -> list[Field]:
        if action == uses.RESIST:
            return uses.resist_form(state, selected)
        return forms.action_form(state, action, selected, self.default_actor(state, selected))

    def refilled(
        self, state: D20Encounter, action: str, values: Mapping[str, str], changed: str
    ) -> list[Field] | None:
        return forms.refilled(state, action, values, changed)

    def action_command(self, state: D20Encounter, action: str, values: Mapping[str, str]) -> Any:
        if action == uses.RESIST:
            return uses.resist_command(state, values)
        actor = self.default_actor(state, None)
        return forms.action_command(state, action, values, actor)

    def preview(self, state: D20Encounter, action: str, values: Mapping[str, str]) -> str:
        try:
            return forms.preview(state, action, self.action_command(state, action, values))
        except Rejected as exc:
            return exc.message

    def consequence_command(self, state: D20Encounter) -> Any:
        if roll_waits(state):
            return D20Apply()
        hit = hit_saves.waiting(state)
        if hit is not None:
            return D20HitSave(hit.target_id)
        owed = concentration_waiting(state)
        if owed is not None:
            return D20ConcentrationSave(owed.combatant_id)
        edge = turn_edges.owed_command(state)
        if edge is not None:
            return edge
        dying = death_save_waiting(state)
        if dying is not None:
            return D20DeathSave(dying.id)
        return D20Apply()

    def pending(self, state: D20Encounter) -> str:
        roll = state.last_roll
        if isinstance(roll, D20Attacked) and roll_waits(state):
            then = hit_saves.then(state, roll, decide.hit_damage(state, roll))
            return attack_taken(state, roll) + then
        if isinstance(roll, D20Saved) and roll_waits(state):
            return save_taken(state, roll)
        hit = hit_saves.waiting(state)
        if hit is not None:
            return hit_saves.pending(state, hit)
        owed = concentration_waiting(state)
        if owed is not None:
            return f"{state.name_of(owed.combatant_id)}: Con save DC {owed.dc} for concentration"
        edge = turn_edges.pending(state)
        if edge:
            return edge
        dying = death_save_waiting(state)
        if dying is not None:
            return f"{dying.name} rolls a death save"
        return ""

    def discard(self, state: D20Encounter) -> D20Encounter:
        if roll_waits(state):
            return state.update(last_roll_applied=True)
        hit = hit_saves.waiting(state)
        if hit is not None:
            return apply.hit_save_skipped(state, hit)
        owed = concentration_waiting(state)
        if owed is not None:
            return apply.skipped(state, owed.combatant_id, "concentration save")
        edge = turn_edges.discard(state)
        if edge is not None:
            return edge
        dying = death_save_waiting(state)
        if dying is not None:
            return apply.skipped(state, dying.id, "death save")
        return state.update(last_roll_applied=True)

    # rules

    def follows(self, state: D20Encounter, events: list[Any]) -> list[Any]:
        # A caster stunned or dropped by hand; a troll joining regenerates.
        return [*lapsed_after(state, events), *regeneration.joined(state, events)]

    def decide(self, state: D20Encounter, command: Any, dice: DiceSource) -> list[Any]:
        events = self._decide(state, command, dice)
        return [*events, *lapsed_after(state, events)]  # concentration that cannot go on

    def _decide(self, state: D20Encounter, command: Any, dice: DiceSource) -> list[Any]:
        match command:
            case D20Attack():
                return decide.attack(state, command, dice)
            case D20Apply():
                return decide.consequence(state, dice)
            case D20SaveEffect():
                return decide.save_effect(state, command, dice)
            case D20DeathSave():
                return decide.death_save(state, command, dice)
            case D20ConcentrationSave():
                return decide.concentration_save(state, command, dice)
            case D20HitSave():
                return decide.hit_save(state, command, dice)
            case D20Heal():
                return decide.heal(state, command, dice)
            case D20Reaction():
                return decide.reaction(state, command)
            case D20EndConcentration():
                return decide.stop_concentrating(state, command.combatant_id)
            case D20LegendaryAction():
                return decide.legendary_action(state, command)
            case D20UseAction():
                return decide.use_action(state, command)
            case D20Stabilise():
                return stabilise(state, command, dice)
            case D20SetExhaustion():
                return set_exhaustion(state, command)
            case D20Rest():
                return rest(state, command)
            case _ if isinstance(command, turn_edges.COMMANDS):
                return turn_edges.decide(state, command, dice)
            case uses.D20Resist():
                return uses.resist(state, command)
        raise Rejected(f"Generic d20 does not know the command {type(command).__name__}")

    def apply(self, state: D20Encounter, event: Any) -> D20Encounter:
        if isinstance(event, turn_edges.EVENTS):
            return turn_edges.apply(state, event)
        if isinstance(event, uses.EVENTS):
            return uses.apply(state, event)
        return apply.apply(state, event)

    def reaction_spent(self, state: D20Encounter, combatant: D20Combatant) -> list[Any]:
        # A readied action is taken with the reaction (its action economy counts it).
        return decide.reaction(state, D20Reaction(combatant.id, f"readied: {combatant.ready}"))

    # what a player may see

    conceal = staticmethod(sight.conceal)  # a hidden creature's damage, without it
    conceal_state = staticmethod(sight.conceal_state)  # what names one left out, no more

    # what the app shows

    def tiers(self, state: D20Encounter) -> list[Tier]:
        table = ATTACK_TIERS
        match state.last_roll:
            case D20Saved() | D20ConcentrationSaved():
                table = SAVE_TIERS
            case D20EndOfTurnSaved():
                table = turn_edges.END_SAVE_TIERS
            case D20DeathSaved():
                table = DEATH_TIERS
        return [Tier(label, low, high, effect) for label, low, high, effect in table]

    def lands_in(self, state: D20Encounter, landing: Landing) -> bool:
        """A natural 20 hits and a natural 1 misses whatever the total; a critical is a
        natural roll, not a band of totals; a save made outright fails (paralyzed...)."""
        roll = state.last_roll
        if isinstance(roll, D20Attacked | D20Saved | D20EndOfTurnSaved):
            return 0 <= landing.tier < len(self.tiers(state))
        return super().lands_in(state, landing)

    def describe(self, state: D20Encounter, event: Any) -> LogEntry:
        if isinstance(event, turn_edges.EVENTS):
            return turn_edge_log.describe(state, event)
        if isinstance(event, uses.EVENTS):
            return uses.describe(state, event)
        if isinstance(event, hit_saves.EVENTS):
            return hit_saves.describe(state, event)
        return log.describe(state, event)

    # the end of the fight

    def damage(self, state: D20Encounter, event: Any) -> tuple[Damage, ...]:
        if not isinstance(event, D20Damaged) or state.find(event.target_id) is None:
            return ()
        dealer = event.dealer_id if state.find(event.dealer_id) is not None else None
        return (Damage(dealer, event.target_id, event.amount),)

    def roll_sides(self, state: D20Encounter, event: Any) -> tuple[str | None, str | None]:
        return landing.roll_sides(event)

    # exact odds

    def odds(self, state: D20Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        try:
            command = self.action_command(state, action, values)
        except Rejected:
            return None
        return encounter_odds.dialog_odds(state, command)

    def last_odds(self, state: D20Encounter) -> Odds | None:
        if isinstance(state.last_roll, D20EndOfTurnSaved):
            return turn_edges.last_odds(state, state.last_roll)
        return encounter_odds.last_odds(state)

    def roll_luck(self, state: D20Encounter, event: Any) -> tuple[Luck, ...]:
        """The tiers' chances alone: a fight's summary reads every roll of it, and never
        needs a damage worked out (nor fails where one cannot be: a sheet from before)."""
        odds = encounter_odds.last_odds(state, damage=False)
        if isinstance(state.last_roll, D20EndOfTurnSaved):
            odds = turn_edges.last_odds(state, state.last_roll)
        return luck_against(odds, self.landing(state), self.roll_sides(state, event))


SYSTEM = GenericD20()
