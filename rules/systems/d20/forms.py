"""Generic d20's dialogs as data: an attack, a saving throw effect (several targets, one
damage roll), healing, a death save, a reaction, ending concentration; and their preview."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value, is_yes, yes_no_field
from rules.odds import percent

from . import hit_saves
from .action_dialogs import (
    default_target,
    legendary_form,
    legendary_ready,
    people,
    reaction_form,
    target_field,
)
from .action_forms import (
    action_choices,
    anyone_acts_by_name,
    followed,
    legendary_command,
    lists_of,
    magic_note,
    part_note,
    played_preview,
    reaction_command,
    roll_command,
    side_choices,
    unavailable_note,
    use_choices,
    use_command,
)
from .condition_names import condition_note
from .cover import BONUS as COVER_BONUS
from .cover import COVERS, WORD, cover_bonus
from .economy import ANOTHER, default_usage, note
from .encounter_odds import drop_this_round
from .events import (
    ACTION,
    BONUS,
    EXTRA,
    FREE,
    LEGENDARY,
    REACTION,
    D20Attack,
    D20DeathSave,
    D20EndConcentration,
    D20Heal,
    D20LegendaryAction,
    D20Reaction,
    D20Rest,
    D20SaveEffect,
    D20SetExhaustion,
    D20Stabilise,
    sheet_of,
)
from .exhaustion import LEVELS, MOST
from .sheet import life_word
from .standing import attack_mode, attacks_left, out_word
from .stat_actions import attack_profile
from .table import MODE_OF, MODE_WORD, MODES
from .turn_edge_forms import EDGE_ACTIONS, edge_command, edge_form, save_fields

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

USAGES = (
    (ACTION, "Action"),
    (LEGENDARY, "Legendary action"),
    (REACTION, "Reaction (opportunity attack)"),
    (BONUS, "Bonus action (an off-hand attack)"),
    (EXTRA, "Extra action (Action Surge, haste)"),
)
# A spell or a feature other than an attack (economy.py): what of the turn it spends.
USES = (
    (ACTION, "Action"),
    (BONUS, "Bonus action"),
    (REACTION, "Reaction"),
    (EXTRA, "Extra action (Action Surge, haste)"),
    (FREE, "No action (a trap, an aura, by hand)"),
)
MODE_CHOICES = tuple((m, m.capitalize()) for m in MODES)
ON_SAVE = (("half", "Half damage"), ("none", "No damage"))
HEALING = (("heal", "Hit points"), ("temp", "Temporary hit points"))
SIDE = "side:"
EVERYONE = "everyone"
TENDING = (
    ("medicine", "Wisdom (Medicine) check, DC 10"),
    ("spare", "Spare the dying (no roll)"),
)


def action_form(
    state: D20Encounter, action: str, selected: str | None, actor: D20Combatant | None
) -> list[Field]:
    """The dialog of ``action``; ``actor`` is whom it proposes (the system's default)."""
    if actor is None or (len(state.combatants) < 2 and action in ("roll", "save")):
        raise Rejected("An attack or an effect needs two combatants")
    everyone = people(state)
    match action:
        case "roll":
            target = default_target(state, actor)
            assert target is not None
            usage = LEGENDARY if legendary_ready(state, actor) else attack_usage(state, actor)
            named = anyone_acts_by_name(state)  # a stat block's actions: which one it plays
            offered = action_choices(state, actor) if named else ()
            picked = [
                Field(
                    key="action",
                    label="Action",
                    kind="choice",
                    default=offered[0][0],
                    choices=offered,
                    help="a save effect falls on the target, or on a whole side",
                )
                for _ in offered[:1]
            ]
            return [
                *picked,
                Field(
                    key="attacker",
                    label="Attacker",
                    kind="choice",
                    default=actor.id,
                    choices=everyone,
                ),
                Field(
                    key="target",
                    label="Target",
                    kind="choice",
                    default=target.id,
                    choices=(*everyone, *(side_choices(state) if named else ())),
                ),
                Field(
                    key="mode",
                    label="Roll",
                    kind="choice",
                    default="normal",
                    choices=MODE_CHOICES,
                    help="the conditions add theirs; both cancel",
                ),
                Field(key="usage", label="As", kind="choice", default=usage, choices=USAGES),
                _cover_field("the target's: adds to its AC"),
                _drain_field(),
                Field(
                    key="damage",
                    label="Damage",
                    kind="text",
                    default="",
                    help="empty: the attacker's; or 1d8+3 slashing + 2d6 fire",
                    focus_first=False,
                ),
            ]
        case "save":
            target = default_target(state, actor)
            assert target is not None
            sides = sorted({c.side for c in state.combatants})
            choices = (*everyone, *((SIDE + s, f"Everyone of {s}") for s in sides))
            return [
                Field(
                    key="source", label="Source", kind="choice", default=actor.id, choices=everyone
                ),
                Field(
                    key="targets",
                    label="Targets",
                    kind="choice",
                    default=SIDE + target.side,
                    choices=choices,
                    help="one, or a whole side (an area)",
                ),
                Field(key="effect", label="Effect", kind="text", default="Effect"),
                *save_fields("dex"),
                Field(
                    key="damage",
                    label="Damage",
                    kind="text",
                    default="",
                    help="none; or one roll for every target, like 8d6 fire",
                ),
                Field(
                    key="on_save", label="On a save", kind="choice", default="half", choices=ON_SAVE
                ),
                Field(
                    key="condition",
                    label="Condition on a failure",
                    kind="text",
                    default="",
                    help="an SRD condition: prone, restrained, frightened...",
                ),
                Field(key="rounds", label="For rounds", default="0", help="0: until removed"),
                yes_no_field("concentration", "Concentration", False),
                _cover_field("the targets': adds to a Dexterity save"),
                _drain_field(),
                yes_no_field(
                    "repeat",
                    "Save ends",
                    False,
                    "the condition: saved against again at the end of each of its turns",
                ),
                yes_no_field(
                    "magical",
                    "Magical",
                    sheet_of(actor).hero,
                    "a spell or other magical effect: Magic Resistance saves with advantage",
                ),
                _uses_field(state, actor),
            ]
        case "heal":
            return [
                Field(
                    key="healer", label="Healer", kind="choice", default=actor.id, choices=everyone
                ),
                Field(
                    key="target",
                    label="Target",
                    kind="choice",
                    default=_wounded(state, actor).id,
                    choices=everyone,
                ),
                Field(
                    key="amount",
                    label="Amount",
                    kind="text",
                    default="1d8+3",
                    help="a number or dice",
                ),
                Field(key="kind", label="As", kind="choice", default="heal", choices=HEALING),
                _uses_field(state, actor),
            ]
        case "death":
            dying = [c for c in state.combatants if life_word(sheet_of(c)) == "dying"]
            if not dying:
                raise Rejected("Nobody is dying")
            first = state.current if state.current in dying else dying[0]
            assert first is not None
            return [
                Field(
                    key="hero",
                    label="Hero",
                    kind="choice",
                    default=first.id,
                    choices=tuple((c.id, c.name) for c in dying),
                )
            ]
        case "stabilise":
            dying = [c for c in state.combatants if life_word(sheet_of(c)) == "dying"]
            if not dying:
                raise Rejected("Nobody is dying")
            awake = [c for c in state.combatants if c.side == actor.side and not out_word(c)]
            medic = actor if not out_word(actor) or not awake else awake[0]
            return [
                Field(key="medic", label="Who", kind="choice", default=medic.id, choices=everyone),
                Field(
                    key="target",
                    label="Dying",
                    kind="choice",
                    default=dying[0].id,
                    choices=tuple((c.id, c.name) for c in dying),
                ),
                Field(key="how", label="How", kind="choice", default="medicine", choices=TENDING),
                Field(
                    key="bonus",
                    label="Medicine bonus",
                    default="0",
                    help="the Wisdom (Medicine) check's modifier",
                ),
                _uses_field(state, medic, bonus_too=False),
            ]
        case "exhaustion":
            chosen = state.find(selected or "") or actor
            level = min(sheet_of(chosen).exhaustion + 1, MOST)
            return [
                Field(key="who", label="Who", kind="choice", default=chosen.id, choices=everyone),
                Field(
                    key="level",
                    label="Exhaustion",
                    kind="choice",
                    default=str(level),
                    choices=LEVELS,
                    help="each level does what those below it do",
                ),
            ]
        case "rest":
            return [
                Field(
                    key="who",
                    label="Who",
                    kind="choice",
                    default=EVERYONE,
                    choices=((EVERYONE, "Everyone"), *everyone),
                ),
                Field(
                    key="length",
                    label="Rest",
                    kind="choice",
                    default="long",
                    choices=(("long", "Long: hit points, exhaustion -1, a drained maximum"),),
                ),
            ]
        case "reaction":
            return reaction_form(state, actor)
        case "legendary":
            return legendary_form(state)
        case "use":
            return use_form(state, actor)
        case "unconcentrate":
            focused = [c for c in state.combatants if sheet_of(c).concentrating]
            if not focused:
                raise Rejected("Nobody is concentrating")
            return [
                Field(
                    key="who",
                    label="Who",
                    kind="choice",
                    default=focused[0].id,
                    choices=tuple((c.id, c.name) for c in focused),
                )
            ]
        case action if action in EDGE_ACTIONS:
            return edge_form(state, action, actor)
    raise Rejected(f"Generic d20 has no action {action!r}")


def use_form(state: D20Encounter, actor: D20Combatant) -> list[Field]:
    """The dialog (and the ``:use`` line) for any action of a stat block by name: who, which
    action, on whom, and as what (legendary off its turn when it has one left)."""
    acting = [c for c in state.combatants if any(lists_of(sheet_of(c)))]
    if not acting:
        raise Rejected("Nobody has a stat block's actions")
    who = actor if actor in acting else acting[0]
    usage = LEGENDARY if legendary_ready(state, who) else ACTION
    return [
        Field(
            key="who",
            label="Who",
            kind="choice",
            default=who.id,
            choices=tuple((c.id, c.name) for c in acting),
        ),
        Field(
            key="action",
            label="Action",
            kind="choice",
            default=use_choices(state, who)[0][0],
            choices=use_choices(state, who),
            help="As legendary: its legendary actions first; as a reaction, its reactions",
        ),
        target_field(state, who),
        Field(key="usage", label="As", kind="choice", default=usage, choices=USAGES),
    ]


def _cover_field(help_text: str) -> Field:
    return Field(
        key="cover", label="Cover", kind="choice", default="none", choices=COVERS, help=help_text
    )


def _uses_field(state: D20Encounter, actor: D20Combatant, bonus_too: bool = True) -> Field:
    return Field(
        key="usage",
        label="Uses",
        kind="choice",
        default=default_usage(state, actor, bonus_too),
        choices=USES,
        help="what of the turn it spends: a second action is refused",
    )


def attack_usage(state: D20Encounter, actor: D20Combatant) -> str:
    """The attack's use: the action, or the bonus action once the action is spent when the
    sheet has a bonus action attack."""
    return default_usage(state, actor, bonus_too=sheet_of(actor).bonus_attack)


def _drain_field() -> Field:
    return yes_no_field(
        "drain", "Lowers max HP", False, "by the damage taken, until a long rest (Life Drain)"
    )


def _wounded(state: D20Encounter, actor: D20Combatant) -> D20Combatant:
    """Whom healing proposes: the most hurt of the healer's side still alive."""
    allies = [c for c in state.combatants if c.side == actor.side and not sheet_of(c).dead]
    return min(allies or [actor], key=lambda c: sheet_of(c).hp - sheet_of(c).hp_max)


# The field naming who acts in each dialog whose other defaults are that one's.
ACTING = {"roll": "attacker", "save": "source", "heal": "healer", "stabilise": "medic"}


def refilled(
    state: D20Encounter, action: str, values: Mapping[str, str], changed: str
) -> list[Field] | None:
    """The dialog for the one now chosen to act (``Dialogs.refilled``): on Bram's turn, the
    Imp's attack was offered as Bram's bonus action with Bram's crossbow, at the Imp itself,
    and an effect of the Imp's was magical as a hero's is."""
    chosen = state.find(values.get(changed, "")) if ACTING.get(action) == changed else None
    return action_form(state, action, None, chosen) if chosen is not None else None


def action_command(state: D20Encounter, action: str, values: Mapping[str, str], actor: Any) -> Any:
    fields = {f.key: f for f in action_form(state, action, None, actor)}
    match action:
        case "roll":
            if "action" in fields:
                checked = {k: choice_value(values, f) for k, f in fields.items() if f.choices}
                checked["action"] = followed(state, checked, fields["action"].default)
                checked["damage"] = values.get("damage", "")
                return roll_command(state, checked, checked["attacker"])
            return D20Attack(
                choice_value(values, fields["attacker"]),
                choice_value(values, fields["target"]),
                MODE_OF[choice_value(values, fields["mode"])],
                choice_value(values, fields["usage"]),
                cover=COVER_BONUS[choice_value(values, fields["cover"])],
                drain=is_yes(values, fields["drain"]),
                damage=values.get("damage", ""),
            )
        case "save":
            source = choice_value(values, fields["source"])
            chosen = choice_value(values, fields["targets"])
            if chosen.startswith(SIDE):
                side = chosen[len(SIDE) :]
                ids = tuple(c.id for c in state.combatants if c.side == side and c.id != source)
            else:
                ids = (chosen,)
            return D20SaveEffect(
                source_id=source,
                target_ids=ids,
                effect=values.get("effect", "Effect"),
                ability=choice_value(values, fields["ability"]),
                dc=int_value(values, "dc", "DC", 13, 40, 1),
                damage=values.get("damage", ""),
                half=choice_value(values, fields["on_save"]) == "half",
                condition=values.get("condition", ""),
                rounds=int_value(values, "rounds", "For rounds", 0, 100, 0),
                concentration=is_yes(values, fields["concentration"]),
                cover=COVER_BONUS[choice_value(values, fields["cover"])],
                drain=is_yes(values, fields["drain"]),
                repeat=is_yes(values, fields["repeat"]),
                usage=choice_value(values, fields["usage"]),
                magical=is_yes(values, fields["magical"]),
            )
        case "heal":
            return D20Heal(
                choice_value(values, fields["healer"]),
                choice_value(values, fields["target"]),
                values.get("amount", ""),
                choice_value(values, fields["kind"]) == "temp",
                choice_value(values, fields["usage"]),
            )
        case "death":
            return D20DeathSave(choice_value(values, fields["hero"]))
        case "stabilise":
            return D20Stabilise(
                choice_value(values, fields["medic"]),
                choice_value(values, fields["target"]),
                int_value(values, "bonus", "Medicine bonus", 0, MODIFIER),
                choice_value(values, fields["how"]) == "spare",
                choice_value(values, fields["usage"]),
            )
        case "exhaustion":
            return D20SetExhaustion(
                choice_value(values, fields["who"]), int(choice_value(values, fields["level"]))
            )
        case "rest":
            who = choice_value(values, fields["who"])
            choice_value(values, fields["length"])  # checked: a long rest is the only one
            ids = tuple(c.id for c in state.combatants) if who == EVERYONE else (who,)
            return D20Rest(ids)
        case "reaction" if "target" in fields:
            checked = {k: choice_value(values, f) for k, f in fields.items() if f.choices}
            if not checked["what"]:
                return D20Reaction(checked["who"], values.get("typed", ""))
            return reaction_command(state, checked, checked["who"])
        case "reaction":
            return D20Reaction(choice_value(values, fields["who"]), values.get("what", ""))
        case "legendary" if "target" in fields:
            checked = {k: choice_value(values, f) for k, f in fields.items() if f.choices}
            if not checked["what"]:
                return D20LegendaryAction(
                    checked["who"], values.get("typed", ""), int(checked["cost"])
                )
            return legendary_command(state, checked, checked["who"])
        case "legendary":
            return D20LegendaryAction(
                choice_value(values, fields["who"]),
                values.get("what", ""),
                int(choice_value(values, fields["cost"])),
            )
        case "use":
            checked = {k: choice_value(values, f) for k, f in fields.items()}
            return use_command(state, checked)
        case "unconcentrate":
            return D20EndConcentration(choice_value(values, fields["who"]))
        case action if action in EDGE_ACTIONS:
            return edge_command(state, action, values, fields)
    raise Rejected(f"Generic d20 has no action {action!r}")


def attack_preview(state: D20Encounter, command: D20Attack) -> str:
    attacker, target = state.combatant(command.attacker_id), state.combatant(command.target_id)
    sheet = sheet_of(attacker)
    name, bonus, ranged, damage, kind, _ = attack_profile(
        sheet, command.action, command.usage, command.damage
    )
    mode, reasons, auto_crit = attack_mode(attacker, target, command.mode, ranged=ranged)
    line = (
        f"{attacker.name}'s {name}: {bonus:+d} vs AC {sheet_of(target).ac}, "
        f"{damage} {kind}".rstrip()
    ) + hit_saves.hit_note(state, attacker, target, name)
    if cover_bonus(command.cover):
        line = line.replace(
            f"AC {sheet_of(target).ac}",
            f"AC {sheet_of(target).ac + command.cover} ({WORD[command.cover]})",
            1,
        )
    if mode:
        why = ", ".join(r[1:] for r in reasons)
        line += f"; {MODE_WORD[mode]} ({why})"
    elif reasons:
        line += "; advantage and disadvantage cancel"
    if auto_crit:
        line += "; a hit is a critical"
    if command.of:
        line += f"; {part_note(state, command) or command.of}"
    elif command.action:
        line += note(state, attacker, command.usage)
    else:
        line += multiattack_note(state, command) or note(state, attacker, command.usage)
    found = drop_this_round(state, command)
    if found is not None:
        chance, swings = found
        every = "both" if swings == 2 else f"all {swings}"
        line += f"; drops {target.name} this round: {percent(chance)} if {every} attacks left "
        line += "aim at it"
    return line


def multiattack_note(state: D20Encounter, command: D20Attack) -> str:
    """Which of its action's attacks this is, for a Multiattack on its own turn."""
    attacker = state.combatant(command.attacker_id)
    most = sheet_of(attacker).multiattack
    if command.usage != ACTION or state.current_id != attacker.id or most < 2:
        return ""
    left = attacks_left(state, attacker)
    if not left:
        return f"; its Multiattack's {most} attacks are made: refused ({ANOTHER})"
    return f"; Multiattack: attack {most - left + 1} of {most}"


def preview(state: D20Encounter, action: str, command: Any) -> str:
    """A dialog's line for the command it would give: an attack's, a stat block action's
    (with a word when it cannot be used now), a save effect's condition read."""
    waits = unavailable_note(state, command)  # recharging, or no use left today
    if isinstance(command, D20Attack):
        return attack_preview(state, command) + waits
    magic = magic_note(state, command) if isinstance(command, D20SaveEffect) else ""
    if action in ("roll", "legendary", "reaction", "use"):  # a stat block action
        said = played_preview(state, command)
        if said:
            return "; ".join(w for w in (said, magic) if w) + waits
    if isinstance(command, D20SaveEffect) and command.condition.strip():
        magic = "; ".join(w for w in (condition_note(command.condition), magic) if w)
    return magic
