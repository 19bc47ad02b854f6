"""LiveHack's dialogs: the fields of each action, and the command a filled form gives."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, overload

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.forms import YES_NO, Field, choice_value, int_value, is_yes

from .decide import check_take_ten, damage_roll, hit_waiting
from .defender_fields import defender_effort, defender_extra, defender_ratings, defender_values
from .events import (
    GRIM_EXPERIENCES,
    Defense,
    JointKind,
    LiveHackAid,
    LiveHackCancel,
    LiveHackDrop,
    LiveHackGrimTest,
    LiveHackHeal,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackSave,
    SaveDefense,
    SaveKind,
    Take,
    cannot_act,
    is_dying,
    out_of_fight,
)
from .fields import choice, number, people, text
from .parts import (
    RELATED,
    check_effort,
    defending_parts,
    needs_effort_check,
    paired_skill,
    roll_parts,
)
from .sheet import ATTRIBUTES, EFFORT_PER_ROLL, TRAIT_CHOICES

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter

TAKES: tuple[tuple[Take, str], ...] = (("roll", "Roll"), ("zero", "Take Zero"), ("ten", "Take Ten"))
# *Taking Ten* needs "plenty of time", which the GM alone judges (rulings.md, F4-05): every
# dice field offers the GM's leave; a plain Take Ten (a player's ask) is refused, saying so.
TakeChoice = Literal["roll", "zero", "ten", "ten-gm"]
TAKES_GM: tuple[tuple[TakeChoice, str], ...] = (*TAKES, ("ten-gm", "Take Ten (GM allows)"))
TAKE_OF: dict[TakeChoice, tuple[Take, bool]] = {
    "roll": ("roll", False),
    "zero": ("zero", False),
    "ten": ("ten", False),
    "ten-gm": ("ten", True),
}
DEFENSES: tuple[tuple[Defense, str], ...] = (
    ("reflex", "Reflex"),
    ("fortitude", "Fortitude (damage)"),
    ("will", "Will"),
    ("skill", "A skill (Spot vs Hide...)"),
)
SAVE_DEFENSES: tuple[tuple[SaveDefense, str], ...] = (("fortitude", "Fortitude"), ("will", "Will"))
NO_ATTRIBUTE: tuple[tuple[str, str], ...] = (("", "None"), *ATTRIBUTES)
# A defending skill's attribute (F4-03): by default the one related to the skill.
SKILL_ATTRIBUTE: tuple[tuple[str, str], ...] = ((RELATED, "The skill's own"), *NO_ATTRIBUTE)
JOINT_KINDS: tuple[tuple[JointKind, str], ...] = (
    ("cooperation", "Cooperation (best margin)"),
    ("chaos", "Chaos (lowest margin)"),
)
NOBODY = ("", "—")
# *Grim Advantage*: only for a grim goal (one of the grim experiences), with the GM's approval.
GRIM_GOAL = "grim-"  # a goal's value: "grim-helpless" (a word the : line fills it with)
GRIM_GOALS: tuple[tuple[str, str], ...] = (
    ("no", "No"),
    *((f"{GRIM_GOAL}{e.key}", f"approved: {e.label.lower()}") for e in GRIM_EXPERIENCES),
)
HELPERS = 4
ACTS_ANYWAY = "gm_override"  # F4-13: the field of the GM's override


def _fields(form: list[Field]) -> dict[str, Field]:
    return {f.key: f for f in form}


def _grim_goal(values: Mapping[str, str], field: Field) -> str:
    goal = choice_value(values, field)
    return "" if goal == "no" else goal.removeprefix(GRIM_GOAL)


def take_value(values: Mapping[str, str], field: Field) -> tuple[Take, bool]:
    """A take and whether the GM allowed Take Ten where it is not the roller's by default."""
    return TAKE_OF[choice_value(values, field, TAKES_GM)]


def _effort(values: Mapping[str, str]) -> int:
    # Effort's own bound (*Effort*: "up to +5"), before a huge number meets the general one.
    return int_value(values, "effort", "Effort", low=0, limit=EFFORT_PER_ROLL)


def _need_two(state: LiveHackEncounter) -> None:
    if len(state.combatants) < 2:
        raise Rejected("A LiveHack roll needs two combatants: add them first")


def default_target(state: LiveHackEncounter, attacker: LiveHackCombatant) -> LiveHackCombatant:
    last = state.last_roll
    if isinstance(last, LiveHackRolled) and last.attacker.combatant_id == attacker.id:
        target = state.find(last.defender.combatant_id)
        if target is not None and not out_of_fight(target):
            return target
    others = [c for c in state.combatants if c.id != attacker.id]
    foes = [c for c in others if c.side != attacker.side]
    return next((c for c in foes if not out_of_fight(c)), foes[0] if foes else others[0])


def _actor(state: LiveHackEncounter, selected: str | None) -> LiveHackCombatant:
    return state.current or state.find(selected) or state.combatants[0]


# --- the opposed roll ------------------------------------------------------------------------


def roll_form(state: LiveHackEncounter) -> list[Field]:
    _need_two(state)
    attacker = state.current or state.combatants[0]
    defender = default_target(state, attacker)
    defense, trait = "reflex", "wounds"
    carried = LiveHackRoll(attacker_id=attacker.id, defender_id=defender.id)
    hit = hit_waiting(state)
    if hit is not None:  # the damage roll comes next: the hitter against the one it hit
        carried = damage_roll(hit)  # with the ratings the hit was made with
        attacker = state.combatant(carried.attacker_id)
        defender = state.combatant(carried.defender_id)
        defense, trait = "fortitude", hit.trait
    return [
        choice("attacker", "Attacker", people(state), attacker.id),
        choice("defender", "Defender", people(state), defender.id),
        choice("defense", "Against", DEFENSES, defense),
        number("attacker_extra", "Attacker extra modifier"),
        choice("attacker_take", "Attacker dice", TAKES_GM, "roll"),
        number("effort", "Effort (+1 Fatigue each)"),
        text("skill", "Skill", carried.skill, help="blank: attack bonus"),
        choice("attribute", "Attribute", NO_ATTRIBUTE, carried.attribute),
        text("specialty", "Specialty", carried.specialty, help="one, as on the sheet"),
        text("bond", "Bond", carried.bond, help="one companion"),
        text("items", "Items", carried.items, help="names, comma separated"),
        choice("grim_goal", "Grim Advantage (GM)", GRIM_GOALS, "no"),
        number("defender_extra", "Defender extra modifier"),
        choice("defender_take", "Defender dice", TAKES_GM, "roll"),
        number("defender_effort", "Defender effort (+1 Fatigue)"),
        *defender_ratings(defender),
        text("defender_skill", "Defending skill", help="for 'a skill'"),
        choice("defender_attribute", "Defending attribute", SKILL_ATTRIBUTE, RELATED),
        choice("trait", "Negative trait", TRAIT_CHOICES, trait),
        *acts_anyway(state),
    ]


def acts_anyway(state: LiveHackEncounter) -> list[Field]:
    """F4-13: the GM's override for one who cannot act (Dying, Incapacitated ...), offered
    while anyone cannot."""
    if not any(cannot_act(c) for c in state.combatants):
        return []
    return [choice(ACTS_ANYWAY, "Acts anyway (GM)", YES_NO, "no")]


def _overrides(values: Mapping[str, str], f: Mapping[str, Field]) -> bool:
    return ACTS_ANYWAY in f and is_yes(values, f[ACTS_ANYWAY])


def roll_command(state: LiveHackEncounter, values: Mapping[str, str]) -> LiveHackRoll:
    f = _fields(roll_form(state))
    defender_take, gm_allows_ten = take_value(values, f["defender_take"])
    attacker_take, attacker_gm_allows_ten = take_value(values, f["attacker_take"])
    return LiveHackRoll(
        attacker_id=choice_value(values, f["attacker"]),
        defender_id=choice_value(values, f["defender"]),
        defense=choice_value(values, f["defense"], DEFENSES),
        attacker_extra=int_value(
            values, "attacker_extra", "Attacker extra modifier", limit=MODIFIER
        ),
        defender_extra=defender_extra(values),
        attacker_take=attacker_take,
        defender_take=defender_take,
        gm_allows_ten=gm_allows_ten,
        attacker_gm_allows_ten=attacker_gm_allows_ten,
        trait=choice_value(values, f["trait"], TRAIT_CHOICES),
        skill=values.get("skill", "").strip(),
        attribute=choice_value(values, f["attribute"]),
        specialty=values.get("specialty", "").strip(),
        bond=values.get("bond", "").strip(),
        items=values.get("items", "").strip(),
        effort=_effort(values),
        defender_effort=defender_effort(values),
        grim_goal=_grim_goal(values, f["grim_goal"]),
        defender_skill=values.get("defender_skill", "").strip(),
        defender_attribute=choice_value(values, f["defender_attribute"]),
        **defender_values(values),
        gm_overrides=_overrides(values, f),
    )


# --- joint actions ---------------------------------------------------------------------------


def joint_form(state: LiveHackEncounter, selected: str | None) -> list[Field]:
    if len(state.combatants) < 3:
        raise Rejected("A joint action needs two participants and a defender")
    first = _actor(state, selected)
    defender = default_target(state, first)
    mates = [c for c in state.combatants if c.side == first.side and c.id != first.id]
    slots = [choice("kind", "Joint action", JOINT_KINDS, "cooperation")]
    for slot in range(HELPERS):
        default = first.id if slot == 0 else (mates[slot - 1].id if slot <= len(mates) else "")
        slots.append(
            choice(f"who{slot}", f"Participant {slot + 1}", (NOBODY, *people(state)), default)
        )
    return [
        *slots,
        text("skill", "Skill (everyone's)", help="blank: attack bonus"),
        choice("attribute", "Attribute", NO_ATTRIBUTE, ""),
        choice("take", "Participants' dice", TAKES_GM, "roll"),
        number("effort", "Participants' effort (each)"),
        choice("defender", "Against", people(state), defender.id),
        choice("defense", "Defense", DEFENSES[:3], "reflex"),
        choice("defender_take", "Defender dice", TAKES_GM, "roll"),
        # R3-04: effort on "every roll a character makes", the defender's here too (F4-08).
        number("defender_effort", "Defender effort (+1 Fatigue)"),
        number("defender_extra", "Defender extra modifier"),
        *defender_ratings(defender),
        choice("trait", "Negative trait", TRAIT_CHOICES, "wounds"),
        *acts_anyway(state),
    ]


def joint_command(
    state: LiveHackEncounter, values: Mapping[str, str], selected: str | None
) -> LiveHackJointRoll:
    f = _fields(joint_form(state, selected))
    ids = tuple(cid for cid in (choice_value(values, f[f"who{i}"]) for i in range(HELPERS)) if cid)
    defender_take, gm_allows_ten = take_value(values, f["defender_take"])
    take, participants_gm_allow_ten = take_value(values, f["take"])
    return LiveHackJointRoll(
        kind=choice_value(values, f["kind"], JOINT_KINDS),
        participant_ids=ids,
        defender_id=choice_value(values, f["defender"]),
        defense=choice_value(values, f["defense"], DEFENSES),
        defender_take=defender_take,
        gm_allows_ten=gm_allows_ten,
        trait=choice_value(values, f["trait"], TRAIT_CHOICES),
        skill=values.get("skill", "").strip(),
        attribute=choice_value(values, f["attribute"]),
        takes=(take,),
        participants_gm_allow_ten=participants_gm_allow_ten,
        efforts=(_effort(values),),
        defender_extra=defender_extra(values),
        defender_effort=defender_effort(values),
        **defender_values(values),
        gm_overrides=_overrides(values, f),
    )


def aid_form(state: LiveHackEncounter, selected: str | None) -> list[Field]:
    _need_two(state)
    aided = _actor(state, selected)
    helper = next((c for c in state.combatants if c.side == aided.side and c.id != aided.id), None)
    helper = helper or next(c for c in state.combatants if c.id != aided.id)
    return [
        choice("helper", "Helper", people(state), helper.id),
        choice("aided", "Aids", people(state), aided.id),
        text("skill", "Helper's skill", help="blank: attack bonus"),
        choice("attribute", "Helper's attribute", NO_ATTRIBUTE, ""),
        number("dr", "Helper's DR"),
        choice("take", "Helper dice", TAKES_GM, "roll"),
        number("effort", "Helper effort (+1 Fatigue each)"),
        number("extra", "Helper extra modifier"),
        *acts_anyway(state),
    ]


def aid_command(
    state: LiveHackEncounter, values: Mapping[str, str], selected: str | None
) -> LiveHackAid:
    f = _fields(aid_form(state, selected))
    take, gm_allows_ten = take_value(values, f["take"])
    return LiveHackAid(
        helper_id=choice_value(values, f["helper"]),
        aided_id=choice_value(values, f["aided"]),
        dr=int_value(values, "dr", "Helper's DR"),
        take=take,
        gm_allows_ten=gm_allows_ten,
        gm_overrides=_overrides(values, f),
        extra=int_value(values, "extra", "Helper extra modifier", limit=MODIFIER),
        skill=values.get("skill", "").strip(),
        attribute=choice_value(values, f["attribute"]),
        effort=_effort(values),
    )


# --- grim tests, saves and checks ------------------------------------------------------------


EXPERIENCES = tuple(
    (e.key, f"{e.label} (DR {e.dr:+d}{', +bond' if e.bond else ''})") for e in GRIM_EXPERIENCES
)


def grim_due(state: LiveHackEncounter) -> LiveHackRolled | None:
    """The last roll when it succeeded at a grim goal with Grim Advantage: its grim test is
    due (*Grim Advantage*: "will definitely result in a Grim check")."""
    roll = state.last_roll
    if isinstance(roll, LiveHackRolled) and roll.grim_goal and roll.success:
        return roll
    return None


def grim_form(state: LiveHackEncounter, selected: str | None) -> list[Field]:
    if not state.combatants:
        raise Rejected("Add a combatant first")
    person = state.find(selected) or _actor(state, selected)
    experience = "helpless"
    due = grim_due(state)
    found = state.find(due.attacker.combatant_id) if due is not None else None
    if due is not None and found is not None:  # the grim check a Grim Advantage called for
        person, experience = found, due.grim_goal
    return [
        choice("who", "Who", people(state), person.id),
        choice("experience", "Experience", EXPERIENCES, experience),
        choice("watching", "Only watching (DR -5)", YES_NO, "no"),
        text("companion", "Companion (starred rows)", help="a bond's name"),
        choice("take", "Dice", TAKES_GM, "roll"),
        number("effort", "Effort (+1 Fatigue each)"),
    ]


def grim_command(
    state: LiveHackEncounter, values: Mapping[str, str], selected: str | None
) -> LiveHackGrimTest:
    f = _fields(grim_form(state, selected))
    take, gm_allows_ten = take_value(values, f["take"])
    return LiveHackGrimTest(
        combatant_id=choice_value(values, f["who"]),
        experience=choice_value(values, f["experience"]),
        watching=is_yes(values, f["watching"]),
        companion=values.get("companion", "").strip(),
        take=take,
        gm_allows_ten=gm_allows_ten,
        effort=_effort(values),
    )


SAVE_CONDITIONS = {"dying": ("Dying", "Comatose"), "transforming": ("Transforming",)}


def save_form(state: LiveHackEncounter, kind: SaveKind, selected: str | None) -> list[Field]:
    if kind == "check":
        who = tuple(people(state))
        if not who:
            raise Rejected("Add a combatant first")
        person = state.find(selected)
        default = person.id if person else who[0][0]
    else:
        names = SAVE_CONDITIONS[kind]
        found = [c for c in state.combatants if any(c.condition(n) for n in names)]
        if not found:
            raise Rejected(f"Nobody is {' or in a '.join(names).lower()}")
        who = tuple((c.id, c.name) for c in found)
        default = next((c.id for c in found if c.id == selected), who[0][0])
    fields = [choice("who", "Who", who, default)]
    if kind == "check":
        fields += [choice("attribute", "Attribute", ATTRIBUTES, "dex"), number("dr", "DR")]
    if kind == "transforming":
        fields += [
            choice("defense", "Save", SAVE_DEFENSES, "fortitude"),
            text("dr", "DR", help="blank: Wounds (Grimness for a Grimlock)"),
        ]
    return [
        *fields,
        choice("take", "Dice", TAKES_GM, "roll"),
        number("effort", "Effort (+1 Fatigue each)"),
        number("extra", "Extra modifier"),
    ]


def save_command(
    state: LiveHackEncounter, kind: SaveKind, values: Mapping[str, str], selected: str | None
) -> LiveHackSave:
    f = _fields(save_form(state, kind, selected))
    dr: int | None = None
    if values.get("dr", "").strip():
        dr = int_value(values, "dr", "DR")
    take, gm_allows_ten = take_value(values, f["take"])
    return LiveHackSave(
        kind=kind,
        combatant_id=choice_value(values, f["who"]),
        take=take,
        gm_allows_ten=gm_allows_ten,
        extra=int_value(values, "extra", "Extra modifier", limit=MODIFIER),
        effort=_effort(values),
        dr=dr if kind != "check" or dr is not None else 0,
        attribute=choice_value(values, f["attribute"]) if "attribute" in f else "dex",
        defense=choice_value(values, f["defense"], SAVE_DEFENSES)
        if "defense" in f
        else "fortitude",
    )


# --- positions and healing -------------------------------------------------------------------


def hold_form(state: LiveHackEncounter) -> list[Field]:
    """*Cancelling Opponent Positioning*: "Such positional conditions must be described"
    (what is held already over that target is offered, to keep or change)."""
    over = state.system_state.rollover
    holder = state.find(over.holder_id) if over is not None else None
    known = holder.sheet.position_over(over.target_id) if holder and over else ""
    return [text("description", "Position", known, help="what it is: 'on the high ground'")]


def hold_command(values: Mapping[str, str]) -> LiveHackHold:
    return LiveHackHold(description=values.get("description", ""))


def drop_form(state: LiveHackEncounter) -> list[Field]:
    held = tuple(
        (f"{c.id}>{h.target_id}", f"{c.name} over {state.name_of(h.target_id)} {h.shown}")
        for c in state.combatants
        for h in c.sheet.held
    )
    if not held:
        raise Rejected("Nobody holds a positional bonus")
    return [choice("held", "Position", held, held[0][0])]


def drop_command(state: LiveHackEncounter, values: Mapping[str, str]) -> LiveHackDrop:
    holder, target = choice_value(values, drop_form(state)[0]).split(">")
    return LiveHackDrop(holder_id=holder, target_id=target)


def heal_form(state: LiveHackEncounter, selected: str | None) -> list[Field]:
    if not state.combatants:
        raise Rejected("Add a combatant first")
    dying = next((c for c in state.combatants if is_dying(c)), None)
    person = state.find(selected) or dying or state.combatants[0]
    return [choice("who", "Who", people(state), person.id), number("levels", "Wounds healed", 1)]


def heal_command(
    state: LiveHackEncounter, values: Mapping[str, str], selected: str | None
) -> LiveHackHeal:
    f = _fields(heal_form(state, selected))
    return LiveHackHeal(
        combatant_id=choice_value(values, f["who"]),
        levels=int_value(values, "levels", "Wounds healed", 1),
    )


LiveHackCommand = (
    LiveHackRoll
    | LiveHackJointRoll
    | LiveHackAid
    | LiveHackGrimTest
    | LiveHackSave
    | LiveHackHold
    | LiveHackCancel
    | LiveHackDrop
    | LiveHackHeal
)


@overload
def command_for(
    state: LiveHackEncounter,
    action: Literal["grim"],
    values: Mapping[str, str],
    selected: str | None,
) -> LiveHackGrimTest: ...


@overload
def command_for(
    state: LiveHackEncounter,
    action: Literal["joint"],
    values: Mapping[str, str],
    selected: str | None,
) -> LiveHackJointRoll: ...


@overload
def command_for(
    state: LiveHackEncounter, action: str, values: Mapping[str, str], selected: str | None
) -> LiveHackCommand: ...


def command_for(
    state: LiveHackEncounter, action: str, values: Mapping[str, str], selected: str | None
) -> LiveHackCommand:
    match action:
        case "roll":
            return roll_command(state, values)
        case "joint":
            return joint_command(state, values, selected)
        case "aid":
            return aid_command(state, values, selected)
        case "grim":
            return grim_command(state, values, selected)
        case "dying" | "transforming" | "check":
            return save_command(state, action, values, selected)
        case "hold":
            return hold_command(values)
        case "cancel":
            return LiveHackCancel()
        case "drop":
            return drop_command(state, values)
        case "heal":
            return heal_command(state, values, selected)
    raise Rejected(f"LiveHack has no action {action!r}")


def form_for(state: LiveHackEncounter, action: str, selected: str | None) -> list[Field]:
    match action:
        case "roll":
            return roll_form(state)
        case "joint":
            return joint_form(state, selected)
        case "aid":
            return aid_form(state, selected)
        case "grim":
            return grim_form(state, selected)
        case "dying" | "transforming" | "check":
            return save_form(state, action, selected)
        case "hold":
            return hold_form(state)
        case "cancel":
            return []
        case "drop":
            return drop_form(state)
        case "heal":
            return heal_form(state, selected)
    raise Rejected(f"LiveHack has no action {action!r}")


# --- previews: the line under the dialog -------------------------------------------------------


def preview(state: LiveHackEncounter, action: str, values: Mapping[str, str]) -> str:
    try:
        return _preview(state, action, values)
    except Rejected as exc:
        return exc.message


def _preview(state: LiveHackEncounter, action: str, values: Mapping[str, str]) -> str:
    match action:
        case "roll":
            return _roll_preview(state, roll_command(state, values))
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


def _roll_preview(state: LiveHackEncounter, cmd: LiveHackRoll) -> str:
    attacker = state.combatant(cmd.attacker_id)
    defender = state.combatant(cmd.defender_id)
    check_effort(attacker, cmd.effort)
    check_take_ten(defender, cmd.defender_take, cmd.gm_allows_ten)
    attack = sum(p.value for p in roll_parts(state, attacker, defender, cmd))
    defend = sum(p.value for p in defending_parts(state, defender, cmd))
    against = paired_skill(cmd) if cmd.defense == "skill" else cmd.defense.capitalize()
    line = f"{attacker.name} {attack:+d} vs {defender.name} {against} {defend:+d}, before the dice"
    for person, effort in ((attacker, cmd.effort), (defender, cmd.defender_effort)):
        if effort and needs_effort_check(person):
            line += f"; Con -5: {person.name} rolls Con vs DR 0 first, or the effort is not spent"
    return line
