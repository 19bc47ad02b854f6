"""LiveHack: open-ended Boon/Bane d12s, opposed rolls, and the margin-of-success damage table.

Source: ``shared/rules-texts/001`` (LiveHack resolution). Dice order in a roll: the
attacker's boon chain, the attacker's bane chain, then the defender's boon and bane.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from msgspec import Struct, structs

from rules.conditions import Condition, Duration
from rules.dice import DiceSource, roll_exploding
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.forms import Field, choice_value, int_value
from rules.logline import LogEntry, Span, spans
from rules.system import Action, Landing, NoState, Tier

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

Take = Literal["roll", "zero", "ten"]
Defense = Literal["reflex", "fortitude", "will"]
Trait = Literal["wounds", "fatigue", "grimness"]

DIE = 12
TAKE_TEN = 10

TAKES: tuple[tuple[str, str], ...] = (("roll", "Roll"), ("zero", "Take Zero"), ("ten", "Take Ten"))
DEFENSES: tuple[tuple[str, str], ...] = (
    ("reflex", "Reflex"),
    ("fortitude", "Fortitude (damage)"),
    ("will", "Will"),
)
TRAITS: tuple[tuple[str, str], ...] = (
    ("wounds", "Wounds"),
    ("fatigue", "Fatigue"),
    ("grimness", "Grimness"),
)


# --- sheet ---------------------------------------------------------------------------------


class LiveHackSheet(Struct, frozen=True, kw_only=True, tag="livehack.sheet"):
    """The numbers a LiveHack fight needs. Defenses are already offsets (10 taken off)."""

    attack: int = 0
    reflex: int = 0
    fortitude: int = 0
    will: int = 0
    con: int = 0
    armour: int = 0
    wounds: int = 0
    fatigue: int = 0
    grimness: int = 0


SHEET_LABELS: tuple[tuple[str, str], ...] = (
    ("attack", "Attack bonus"),
    ("reflex", "Reflex"),
    ("fortitude", "Fortitude"),
    ("will", "Will"),
    ("con", "Con"),
    ("armour", "Armour (Fort bonus)"),
    ("wounds", "Wounds"),
    ("fatigue", "Fatigue"),
    ("grimness", "Grimness"),
)


# --- rolls ---------------------------------------------------------------------------------


class BoonBane(Struct, frozen=True):
    """One Boon/Bane roll: each chain holds the first die and every exploded die after it."""

    boon: tuple[int, ...]
    bane: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.boon) - sum(self.bane)

    @property
    def noon(self) -> bool:
        return self.boon[0] == DIE

    @property
    def midnight(self) -> bool:
        return self.bane[0] == DIE

    @property
    def eclipse(self) -> bool:
        return self.noon and self.midnight


def roll_boon_bane(dice: DiceSource) -> BoonBane:
    return BoonBane(boon=roll_exploding(dice, DIE), bane=roll_exploding(dice, DIE))


class Part(Struct, frozen=True):
    """One named modifier of a roll (skill, defense, armour, extra...)."""

    label: str
    value: int


class SideRoll(Struct, frozen=True, kw_only=True):
    """One side of an opposed roll: its modifiers and how it rolled (or took zero or ten)."""

    combatant_id: str | None = None
    parts: tuple[Part, ...] = ()
    take: Take = "roll"
    dice: BoonBane | None = None

    @property
    def modifier(self) -> int:
        return sum(part.value for part in self.parts)

    @property
    def dice_total(self) -> int:
        if self.take == "ten":
            return TAKE_TEN
        return self.dice.total if self.dice is not None else 0

    @property
    def total(self) -> int:
        return self.modifier + self.dice_total


def roll_side(
    parts: tuple[Part, ...], take: Take, dice: DiceSource, combatant_id: str | None = None
) -> SideRoll:
    rolled = roll_boon_bane(dice) if take == "roll" else None
    return SideRoll(combatant_id=combatant_id, parts=parts, take=take, dice=rolled)


class LiveHackRolled(Struct, frozen=True, kw_only=True, tag="livehack.rolled"):
    """An opposed roll: the attacker succeeds when it meets or beats the defender's total."""

    attacker: SideRoll
    defender: SideRoll
    defense: Defense = "reflex"
    trait: Trait = "wounds"

    @property
    def margin(self) -> int:
        return self.attacker.total - self.defender.total

    @property
    def success(self) -> bool:
        return self.margin >= 0

    @property
    def margin_bonus(self) -> int:
        """+1 per full 5 over the target, carried to a related roll ("Rolling over")."""
        return self.margin // 5 if self.success else 0


def opposed_roll(
    attacker: SideRoll, defender: SideRoll, defense: Defense, trait: Trait
) -> LiveHackRolled:
    return LiveHackRolled(attacker=attacker, defender=defender, defense=defense, trait=trait)


# --- the damage table ------------------------------------------------------------------------


class Consequence(Struct, frozen=True):
    low: int
    high: int | None
    levels: int
    condition: str | None


DAMAGE_TABLE: tuple[Consequence, ...] = (
    Consequence(0, 4, 1, None),
    Consequence(5, 9, 2, "Discombobulated"),
    Consequence(10, 14, 3, "Incapacitated"),
    Consequence(15, None, 4, "Dying"),
)

CONDITION_DURATIONS: dict[str, Duration] = {
    # "lasts through the character's next action ... When that character's turn is over"
    "Discombobulated": Duration("end-of-next-turn"),
    "Incapacitated": Duration("until-removed"),
    "Dying": Duration("until-removed"),
    "Transforming": Duration("until-removed"),
}


def consequence_for(margin: int) -> Consequence | None:
    """The damage-table row for a margin of success; None for a miss (a save)."""
    for row in DAMAGE_TABLE:
        if margin >= row.low and (row.high is None or margin <= row.high):
            return row
    return None


def condition_for(row: Consequence, defense: Defense) -> str | None:
    # Ruling: a Will roll threatens the mind, not the life, so 15+ transforms instead of
    # killing ("Attacks that do not seem like they would threaten the life ... transform").
    if row.condition == "Dying" and defense == "will":
        return "Transforming"
    return row.condition


# --- commands and events ---------------------------------------------------------------------


class LiveHackRoll(Struct, frozen=True, kw_only=True):
    attacker_id: str
    defender_id: str
    defense: Defense = "reflex"
    attacker_extra: int = 0
    defender_extra: int = 0
    attacker_take: Take = "roll"
    defender_take: Take = "roll"
    trait: Trait = "wounds"


class LiveHackApplyConsequence(Struct, frozen=True):
    """Apply the damage-table row of the last roll to its defender."""


class LiveHackTraitInflicted(Struct, frozen=True, kw_only=True, tag="livehack.trait-inflicted"):
    combatant_id: str
    trait: Trait
    levels: int
    margin: int


def attacker_parts(combatant: Combatant, extra: int) -> tuple[Part, ...]:
    sheet: LiveHackSheet = combatant.sheet
    parts = [Part("attack", sheet.attack)]
    if extra:
        parts.append(Part("extra", extra))
    return tuple(parts)


def defender_parts(combatant: Combatant, defense: Defense, extra: int) -> tuple[Part, ...]:
    sheet: LiveHackSheet = combatant.sheet
    match defense:
        case "reflex":
            parts = [Part("Reflex", sheet.reflex)]
        case "fortitude":
            # Damage is rolled "vs the opponent's fort save, the associated Con bonus, and
            # any Fort bonus from armor".
            parts = [Part("Fortitude", sheet.fortitude), Part("Con", sheet.con)]
            if sheet.armour:
                parts.append(Part("armour", sheet.armour))
        case "will":
            # Grim tests are "will plus any current grimness".
            parts = [Part("Will", sheet.will)]
            if sheet.grimness:
                parts.append(Part("Grimness", sheet.grimness))
    if extra:
        parts.append(Part("extra", extra))
    return tuple(parts)


# --- the system --------------------------------------------------------------------------------


def _label(choices: tuple[tuple[str, str], ...], value: str) -> str:
    return dict(choices).get(value, value)


def _take_choice(key: str, label: str) -> Field:
    return Field(key=key, label=label, kind="choice", default="roll", choices=TAKES)


def _chain_spans(chain: tuple[int, ...], sign: str, style: str) -> list[Span]:
    out: list[Span] = []
    for index, face in enumerate(chain):
        if index:
            out.append(Span("→", "muted"))
        out.append(Span(str(face), style if face == DIE else "die"))
    return [Span(f"{sign}[", "muted"), *out, Span("]", "muted")]


def side_spans(name: str, side: SideRoll) -> list[Span]:
    out: list[Span] = [Span("  "), Span(name, "name"), Span(": ")]
    for part in side.parts:
        out.append(Span(f"{part.label} {part.value:+d} ", "muted"))
    if side.take == "zero":
        out.append(Span("take zero ", "muted"))
    elif side.take == "ten":
        out.append(Span("take ten +10 ", "muted"))
    elif side.dice is not None:
        out += _chain_spans(side.dice.boon, "boon ", "noon")
        out += _chain_spans(side.dice.bane, " - bane ", "midnight")
        out.append(Span(f" = {side.dice.total:+d} "))
        if side.dice.eclipse:
            out.append(Span(" ECLIPSE ", "eclipse"))
        elif side.dice.noon:
            out.append(Span(" NOON ", "noon"))
        elif side.dice.midnight:
            out.append(Span(" MIDNIGHT ", "midnight"))
    out.append(Span(f" total {side.total}", "total"))
    return out


class LiveHack:
    name = "livehack"
    title = "LiveHack"
    sheet_types = (LiveHackSheet,)
    event_types = (LiveHackRolled, LiveHackTraitInflicted)
    command_types = (LiveHackRoll, LiveHackApplyConsequence)
    roll_event_types = (LiveHackRolled,)
    state_type = NoState
    stat_columns = ("Atk", "Ref", "Fort", "Will", "Wnd")
    uses_turn_order = True

    def new_state(self) -> NoState:
        return NoState()

    # sheets

    def new_sheet(self) -> LiveHackSheet:
        return LiveHackSheet()

    def sheet_form(self, sheet: LiveHackSheet) -> list[Field]:
        return [
            Field(key=key, label=label, default=str(getattr(sheet, key)))
            for key, label in SHEET_LABELS
        ]

    def sheet_from_form(self, values: Mapping[str, str], sheet: LiveHackSheet) -> LiveHackSheet:
        changes = {
            key: int_value(values, key, label, getattr(sheet, key)) for key, label in SHEET_LABELS
        }
        return structs.replace(sheet, **changes)

    def sheet_stats(self, sheet: LiveHackSheet) -> tuple[str, ...]:
        fort = sheet.fortitude + sheet.con + sheet.armour
        return (
            f"{sheet.attack:+d}",
            f"{sheet.reflex:+d}",
            f"{fort:+d}",
            f"{sheet.will:+d}",
            str(sheet.wounds),
        )

    # actions

    def actions(self, state: Encounter) -> list[Action]:
        return [Action("roll", "Opposed roll", "Boon/Bane against a defense; the damage table")]

    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        if action == "roll":
            return self.roll_form(state)
        raise Rejected(f"LiveHack has no action {action!r}")

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> object:
        if action == "roll":
            return self.roll_command(state, values)
        raise Rejected(f"LiveHack has no action {action!r}")

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        if action != "roll":
            return ""
        try:
            cmd = self.roll_command(state, values)
            attacker = state.combatant(cmd.attacker_id)
            defender = state.combatant(cmd.defender_id)
        except Rejected as exc:
            return exc.message
        attack = sum(p.value for p in attacker_parts(attacker, cmd.attacker_extra))
        defend = sum(p.value for p in defender_parts(defender, cmd.defense, cmd.defender_extra))
        return (
            f"{attacker.name} {attack:+d} vs {defender.name} "
            f"{cmd.defense.capitalize()} {defend:+d}, before the dice"
        )

    def roll_form(self, state: Encounter) -> list[Field]:
        if len(state.combatants) < 2:
            raise Rejected("A LiveHack roll needs two combatants: add them first")
        people = tuple((c.id, c.name) for c in state.combatants)
        attacker = state.current or state.combatants[0]
        defender = self._default_target(state, attacker)
        return [
            Field(
                key="attacker", label="Attacker", kind="choice", default=attacker.id, choices=people
            ),
            Field(
                key="defender", label="Defender", kind="choice", default=defender.id, choices=people
            ),
            Field(
                key="defense", label="Against", kind="choice", default="reflex", choices=DEFENSES
            ),
            Field(key="attacker_extra", label="Attacker extra modifier", default="0"),
            _take_choice("attacker_take", "Attacker dice"),
            Field(key="defender_extra", label="Defender extra modifier", default="0"),
            _take_choice("defender_take", "Defender dice"),
            Field(
                key="trait",
                label="Negative trait",
                kind="choice",
                default="wounds",
                choices=TRAITS,
            ),
        ]

    def _default_target(self, state: Encounter, attacker: Combatant) -> Combatant:
        last = state.last_roll
        if isinstance(last, LiveHackRolled) and last.attacker.combatant_id == attacker.id:
            target = state.find(last.defender.combatant_id)
            if target is not None:
                return target
        others = [c for c in state.combatants if c.id != attacker.id]
        return next((c for c in others if c.side != attacker.side), others[0])

    def roll_command(self, state: Encounter, values: Mapping[str, str]) -> LiveHackRoll:
        fields = {f.key: f for f in self.roll_form(state)}
        return LiveHackRoll(
            attacker_id=choice_value(values, fields["attacker"]),
            defender_id=choice_value(values, fields["defender"]),
            defense=choice_value(values, fields["defense"]),  # type: ignore[arg-type]
            attacker_extra=int_value(values, "attacker_extra", "Attacker extra modifier"),
            defender_extra=int_value(values, "defender_extra", "Defender extra modifier"),
            attacker_take=choice_value(values, fields["attacker_take"]),  # type: ignore[arg-type]
            defender_take=choice_value(values, fields["defender_take"]),  # type: ignore[arg-type]
            trait=choice_value(values, fields["trait"]),  # type: ignore[arg-type]
        )

    def consequence_command(self, state: Encounter) -> LiveHackApplyConsequence:
        return LiveHackApplyConsequence()

    # decide and apply

    def decide(self, state: Encounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case LiveHackRoll():
                return [self._roll(state, command, dice)]
            case LiveHackApplyConsequence():
                return self._consequence(state)
        raise Rejected(f"LiveHack does not know the command {type(command).__name__}")

    def _roll(self, state: Encounter, cmd: LiveHackRoll, dice: DiceSource) -> LiveHackRolled:
        attacker = state.combatant(cmd.attacker_id)
        defender = state.combatant(cmd.defender_id)
        if attacker.id == defender.id:
            raise Rejected(f"{attacker.name} cannot roll against themselves")
        # The attacker's dice are rolled first, then the defender's, so a script reads in order.
        attack = roll_side(
            attacker_parts(attacker, cmd.attacker_extra), cmd.attacker_take, dice, attacker.id
        )
        defend = roll_side(
            defender_parts(defender, cmd.defense, cmd.defender_extra),
            cmd.defender_take,
            dice,
            defender.id,
        )
        return opposed_roll(attack, defend, cmd.defense, cmd.trait)

    def _consequence(self, state: Encounter) -> list[object]:
        roll = state.last_roll
        if not isinstance(roll, LiveHackRolled):
            raise Rejected("Nothing to apply: roll first")
        if state.last_roll_applied:
            raise Rejected("The last roll's consequence has already been applied")
        row = consequence_for(roll.margin)
        if row is None:
            raise Rejected(f"The roll missed by {-roll.margin}: no consequence to apply")
        target_id = roll.defender.combatant_id
        if target_id is None or state.find(target_id) is None:
            raise Rejected("The defender of the last roll is no longer in the encounter")
        events: list[object] = [
            LiveHackTraitInflicted(
                combatant_id=target_id, trait=roll.trait, levels=row.levels, margin=roll.margin
            )
        ]
        condition = condition_for(row, roll.defense)
        if condition is not None:
            duration = CONDITION_DURATIONS[condition]
            events.append(
                ConditionAdded(
                    combatant_id=target_id,
                    condition=Condition(condition, duration, state.expiry_for(target_id, duration)),
                )
            )
        return events

    def apply(self, state: Encounter, event: object) -> Encounter:
        match event:
            case LiveHackRolled():
                return state.update(last_roll=event, last_roll_applied=False)
            case LiveHackTraitInflicted():
                target = state.combatant(event.combatant_id)
                sheet: LiveHackSheet = target.sheet
                raised = getattr(sheet, event.trait) + event.levels
                updated = structs.replace(
                    target, sheet=structs.replace(sheet, **{event.trait: raised})
                )
                return state.replace_combatant(updated).update(last_roll_applied=True)
        raise TypeError(f"not a LiveHack event: {event!r}")

    # what the app shows

    def alerts(self, state: Encounter, event: object) -> list[str]:
        if not isinstance(event, LiveHackRolled):
            return []
        out = []
        for side in (event.attacker, event.defender):
            if side.dice is not None and side.dice.eclipse:
                name = state.name_of(side.combatant_id, "A roller")
                out.append(
                    f"Eclipse for {name}! Something completely bizarre happens, "
                    "tangential to the action (add a note with o)."
                )
        return out

    def status(self, state: Encounter) -> str:
        return ""

    def tiers(self, state: Encounter) -> list[Tier]:
        roll = state.last_roll
        trait = roll.trait if isinstance(roll, LiveHackRolled) else "wounds"
        defense = roll.defense if isinstance(roll, LiveHackRolled) else "reflex"
        trait_name = _label(TRAITS, trait)
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

    # the log

    def describe(self, state: Encounter, event: object) -> LogEntry:
        match event:
            case LiveHackRolled():
                return self._describe_roll(state, event)
            case LiveHackTraitInflicted():
                return LogEntry(
                    "consequence",
                    (
                        spans(
                            Span(state.name_of(event.combatant_id), "name"),
                            f" takes {event.levels} level{'s' if event.levels != 1 else ''} of ",
                            Span(_label(TRAITS, event.trait), "tier"),
                            f" (margin {event.margin:+d})",
                        ),
                    ),
                )
        raise TypeError(f"not a LiveHack event: {event!r}")

    def _describe_roll(self, state: Encounter, roll: LiveHackRolled) -> LogEntry:
        attacker = state.name_of(roll.attacker.combatant_id, "Attacker")
        defender = state.name_of(roll.defender.combatant_id, "Defender")
        row = consequence_for(roll.margin)
        if row is None:
            outcome = Span(f"MISS by {-roll.margin}", "failure")
            result = Span("  no effect", "muted")
        else:
            outcome = Span(f"HIT, margin {roll.margin:+d}", "success")
            condition = condition_for(row, roll.defense)
            text = f"  tier {row.low}{'-' + str(row.high) if row.high is not None else '+'}: "
            text += f"{row.levels} {_label(TRAITS, roll.trait)}"
            if condition:
                text += f" + {condition}"
            if roll.margin_bonus:
                text += f"; margin bonus +{roll.margin_bonus}"
            result = Span(text, "tier")
        head = spans(
            Span(attacker, "name"),
            " vs ",
            Span(defender, "name"),
            Span(f" (vs {roll.defense.capitalize()}) ", "muted"),
            Span(f"{roll.attacker.total} vs {roll.defender.total} ", "total"),
            outcome,
        )
        lines = [
            head,
            tuple(side_spans(attacker, roll.attacker)),
            tuple(side_spans(defender, roll.defender)),
            spans(result),
        ]
        return LogEntry("roll", tuple(lines))


SYSTEM = LiveHack()
