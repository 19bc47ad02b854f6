"""Which parts make up each side of a LiveHack roll (*Roll Components*, *Defenses*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import Rejected

from .events import (
    GRIM_EXPERIENCES,
    SKILL_PAIRS,
    Defense,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackState,
    Part,
    Rollover,
    is_dazed,
)
from .sheet import (
    ATTRIBUTES,
    EFFORT_PER_COMBAT,
    EFFORT_PER_ROLL,
    LiveHackSheet,
    Rating,
    bond_with,
    find_rating,
    offset_effects,
)

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter

DEFENSE_ATTRIBUTE = {"reflex": "dex", "fortitude": "con", "will": "wis"}
# *Roll Components*: "the attribute related to the skill", for a skill that defends (Spot vs
# Hide): the text names no skill list of its own, so the d20 skills' key abilities it comes
# from (a skill not listed: the GM picks the attribute in the dialog).
RELATED = "related"  # the dialog's default: the attribute related to the defending skill
SKILL_ATTRIBUTES: dict[str, str] = {
    **dict.fromkeys(("spot", "listen", "sense motive", "heal", "survival"), "wis"),
    **dict.fromkeys(
        ("hide", "move silently", "balance", "escape artist", "tumble", "sleight of hand"), "dex"
    ),
    **dict.fromkeys(("search", "appraise", "spellcraft", "disable device"), "int"),
    **dict.fromkeys(("bluff", "diplomacy", "intimidate", "disguise", "perform"), "cha"),
    **dict.fromkeys(("climb", "jump", "swim"), "str"),
    "concentration": "con",
}

POSITIONAL = "positional"  # the part a held position adds to an attack
DAZED_DEX = -10  # "Consider these saves as 0, and Dex to be -10 for purposes of being hit"


ATTRIBUTE_LABELS: dict[str, str] = dict(ATTRIBUTES)


def attribute_label(key: str) -> str:
    return ATTRIBUTE_LABELS[key]


def attacker_parts(combatant: LiveHackCombatant, extra: int) -> tuple[Part, ...]:
    """The plain attack: the sheet's attack bonus and an extra modifier."""
    sheet: LiveHackSheet = combatant.sheet
    parts = [Part("attack", sheet.attack)]
    if extra:
        parts.append(Part("extra", extra))
    return tuple(parts)


def check_effort(combatant: LiveHackCombatant, effort: int) -> None:
    """*Effort*: up to +5 a roll and +5 in all per combat; Con at -10 expends no Fatigue."""
    sheet: LiveHackSheet = combatant.sheet
    if effort < 0:
        raise Rejected("Effort cannot be negative")
    if effort > EFFORT_PER_ROLL:
        raise Rejected(f"Effort is at most +{EFFORT_PER_ROLL} on one roll, not +{effort}")
    left = EFFORT_PER_COMBAT - sheet.effort_spent
    if effort > left:
        raise Rejected(
            f"{combatant.name} has pushed +{sheet.effort_spent} this combat: "
            f"at most +{max(left, 0)} more (+{EFFORT_PER_COMBAT} per combat)"
        )
    if effort and any(e.attribute == "con" and e.level == -10 for e in offset_effects(sheet)):
        raise Rejected(f"{combatant.name}'s Con is at -10: no actions that expend Fatigue")


def skill_and_attribute(sheet: LiveHackSheet, skill: str, attribute: str) -> list[Part]:
    """The skill (blank: the attack bonus) and the attribute chosen ("": none)."""
    parts = []
    if skill.strip():
        found = find_rating(sheet.skills, skill, "skill")
        parts.append(Part(found.name, found.value))
    else:
        parts.append(Part("attack", sheet.attack))
    if attribute:
        parts.append(Part(attribute_label(attribute), sheet.attribute(attribute)))
    return parts


def skill_parts(sheet: LiveHackSheet, cmd: LiveHackRoll) -> list[Part]:
    """Skill (or the attack bonus), attribute, one specialty, one bond, the items named."""
    parts = skill_and_attribute(sheet, cmd.skill, cmd.attribute)
    parts += rating_parts(sheet, cmd.skill, cmd.specialty, cmd.bond)
    return parts + item_parts(sheet, cmd.items)


def rating_parts(sheet: LiveHackSheet, skill: str, specialty: str, bond: str) -> list[Part]:
    """One specialty of the skill rolled (for a defender, of its defense) and one bond."""
    parts = []
    if specialty.strip():
        special = find_rating(sheet.specialties, specialty, "specialty")
        check_specialty(special.name, skill)
        parts.append(Part(f"specialty {special.name}", special.value))
    if bond.strip():
        found = find_rating(sheet.bonds, bond, "bond")
        parts.append(Part(f"bond {found.name}", found.value))
    return parts


def item_parts(sheet: LiveHackSheet, items: str) -> list[Part]:
    """*Roll Components*: "all item ratings that pertain": the items named, comma separated."""
    return [
        Part(item.name, item.value)
        for item in (find_rating(sheet.items, n, "item") for n in items.split(",") if n.strip())
    ]


def written_for(ratings: tuple[Rating, ...], skill: str) -> tuple[Rating, ...]:
    """The ratings written "Skill/name" for this skill or defense ("Reflex/shield" for a
    Reflex roll), as R3-07 writes a specialty of its skill."""
    wanted = " ".join(skill.split()).casefold()
    return tuple(
        r
        for r in ratings
        if "/" in r.name and " ".join(r.name.partition("/")[0].split()).casefold() == wanted
    )


def check_specialty(specialty: str, skill: str) -> None:
    """*Roll Components*: "one applicable specialty of the skill": a specialty written
    "Skill/specialty" goes only with its own skill (one written without a skill, with any)."""
    owner, slash, _ = specialty.partition("/")
    if not slash:
        return
    wanted = " ".join(skill.split()).casefold()
    if " ".join(owner.split()).casefold() != wanted:
        rolled = f"the {skill.strip()} skill" if wanted else "the attack bonus"
        raise Rejected(
            f"{specialty} is a specialty of {owner.strip()}, not of {rolled}: "
            f"roll {owner.strip()} to use it"
        )


def roll_parts(
    state: LiveHackEncounter,
    attacker: LiveHackCombatant,
    defender: LiveHackCombatant,
    cmd: LiveHackRoll,
) -> tuple[Part, ...]:
    """Every part of the acting side, in the order of *Roll Components*, then the bonuses
    carried over from earlier rolls (rolled over, positional, aid)."""
    sheet: LiveHackSheet = attacker.sheet
    parts = skill_parts(sheet, cmd)
    check_effort(attacker, cmd.effort)
    if cmd.effort:
        parts.append(Part("effort", cmd.effort))
    if cmd.grim_goal:
        parts.append(grim_advantage(attacker.name, sheet, cmd.grim_goal))
    system: LiveHackState = state.system_state
    for over in (system.rollover, system.kept):
        if over is not None and over.holder_id == attacker.id and over.target_id == defender.id:
            parts.append(Part("rolled over", over.bonus))
            break
    held = positional(state, attacker, defender, cmd)
    if held:
        parts.append(Part(POSITIONAL, held))
    parts += aid_parts(state, attacker.id)
    if cmd.attacker_extra:
        parts.append(Part("extra", cmd.attacker_extra))
    return tuple(parts)


def positional(
    state: LiveHackEncounter,
    attacker: LiveHackCombatant,
    defender: LiveHackCombatant,
    cmd: LiveHackRoll,
) -> int:
    """*Rolling over Success Margins*: "the attacker gets this bonus on their next attack
    roll": what the attacker holds over the defender, added by itself to an attack (a roll
    against Reflex, Fortitude or Will; a skill contest is no attack). Not to the damage roll
    of a hit it went into: that roll cashes the position in (``cashes_in``), and the hit's
    margin bonus, which the position helped win, is what rolls over into it."""
    if cmd.defense == "skill" or damage_roll_of_hit(state, cmd):
        return 0
    sheet: LiveHackSheet = attacker.sheet
    return sheet.held_over(defender.id)


def damage_roll_of_hit(state: LiveHackEncounter, cmd: LiveHackRoll) -> bool:
    """Whether ``cmd`` is the damage roll of the hit waiting, one its attacker's position went
    into: the hitter against the one it hit, against Fortitude, before the hit is used
    otherwise."""
    roll = state.last_roll
    return (
        isinstance(roll, LiveHackRolled)
        and roll.hit
        and not state.last_roll_applied
        and any(p.label == POSITIONAL for p in roll.attacker.parts)
        and cmd.defense == "fortitude"
        and roll.attacker.combatant_id == cmd.attacker_id
        and roll.defender.combatant_id == cmd.defender_id
    )


def cashes_in(state: LiveHackEncounter, cmd: LiveHackRoll, rolled: LiveHackRolled) -> bool:
    """F4-01: whether this roll spends the position its attacker holds over its defender.
    The damage roll of a hit cashes it in, whatever it rolls (the holder chose damage over
    holding on); an attack the damage table answers by itself (magic against Will) does when
    it succeeds. A hit keeps it, for the hold that adds its margin bonus or the damage roll
    that cashes it in; a miss keeps it too: the text loses a position only to an opponent's
    cancel or a change of circumstances (rulings.md, F4-01)."""
    if cmd.defense == "skill":
        return False
    attacker = state.combatant(cmd.attacker_id)
    if not attacker.sheet.held_over(cmd.defender_id):
        return False
    return damage_roll_of_hit(state, cmd) or (rolled.answers_table and rolled.success)


def skill_bonus(state: LiveHackEncounter) -> Rollover | None:
    """A skill success's margin bonus still waiting for its roller's next roll: the last
    roll's, or one kept while others rolled (R3-05)."""
    system: LiveHackState = state.system_state
    roll = state.last_roll
    if system.rollover is not None and isinstance(roll, LiveHackRolled) and roll.defense == "skill":
        return system.rollover
    return system.kept


def keeps_skill_bonus(state: LiveHackEncounter, *rollers: str | None) -> bool:
    """Whether a roll by ``rollers`` leaves a skill success's bonus waiting: it is someone
    else's (only its own roller's next roll uses it or loses it)."""
    waiting = skill_bonus(state)
    return waiting is not None and waiting.holder_id not in rollers


def aid_parts(state: LiveHackEncounter, cid: str) -> list[Part]:
    """*Aiding*: the bonuses (or penalties) waiting for this one's next roll of its own: an
    action (an attack, a skill, a joint action, a check or save, a grim test), never a
    defense against another's roll (docs/rulings.md, "Aid goes to the aided one's action")."""
    system: LiveHackState = state.system_state
    return [
        Part(f"aid from {state.name_of(aid.helper_id)}", aid.bonus)
        for aid in system.aids
        if aid.aided_id == cid
    ]


def defense_part(sheet: LiveHackSheet, name: str, label: str) -> Part:
    if sheet.stat_block:
        printed = getattr(sheet, name)
        return Part(f"{label} (printed {printed} - 10)", sheet.defense(name))
    return Part(label, sheet.defense(name))


def grim_advantage(name: str, sheet: LiveHackSheet, goal: str) -> Part:
    """*Grim Advantage*: Grimness as a bonus, only "to any attempt to accomplish something
    grim related to the list above" (a grim experience), which the GM has approved."""
    experience = next((e for e in GRIM_EXPERIENCES if e.key == goal), None)
    if experience is None:
        raise Rejected("Grim Advantage is only for a grim goal: pick one of the grim experiences")
    if not sheet.grimness:
        raise Rejected(f"{name} has no Grimness to use as Grim Advantage")
    return Part(f"Grim Advantage ({experience.label.lower()})", sheet.grimness)


def defender_parts(
    combatant: LiveHackCombatant,
    defense: Defense,
    extra: int,
    skill: str = "",
    *,
    grim: bool = False,
    attribute: str = RELATED,
) -> tuple[Part, ...]:
    """The defending side's parts; ``grim`` for a grim test, the one Will roll that adds
    Grimness (*Grimness*: "roll their will plus any current grimness"); ``attribute`` the
    one a defending skill adds (``RELATED``: the skill's own, F4-03; "": none)."""
    sheet: LiveHackSheet = combatant.sheet
    dazed = is_dazed(combatant)
    match defense:
        case "reflex":
            if dazed:
                # Discombobulation: "Consider these saves as 0, and Dex to be -10".
                parts = [Part("Reflex 0 (dazed)", 0), Part("Dex (dazed)", DAZED_DEX)]
            else:
                parts = [defense_part(sheet, "reflex", "Reflex")]
                if sheet.attribute("dex"):
                    parts.append(Part("Dex", sheet.attribute("dex")))
        case "fortitude":
            # Damage is rolled "vs the opponent's fort save, the associated Con bonus, and
            # any Fort bonus from armor".
            parts = [
                defense_part(sheet, "fortitude", "Fortitude"),
                Part("Con", sheet.attribute("con")),
            ]
            if sheet.armour:
                parts.append(Part("armour", sheet.armour))
        case "will":
            parts = [Part("Will 0 (dazed)", 0) if dazed else defense_part(sheet, "will", "Will")]
            if sheet.attribute("wis") and not dazed:
                parts.append(Part("Wis", sheet.attribute("wis")))
            if grim and sheet.grimness:
                parts.append(Part("Grimness", sheet.grimness))
        case "skill":
            parts = _skill_defense(sheet, skill, attribute)
    if extra:
        parts.append(Part("extra", extra))
    return tuple(parts)


def _skill_defense(sheet: LiveHackSheet, skill: str, attribute: str) -> list[Part]:
    """A defending skill and, as for any roll (*Roll Components*), "the attribute related to
    the skill" (F4-03: Spot adds Wis as Hide adds Dex); an attribute at 0 is left out."""
    if not skill.strip():
        raise Rejected("Name the defending skill (e.g. Spot against Hide)")
    wanted = " ".join(skill.split()).casefold()
    found = next((s for s in sheet.skills if s.name.casefold() == wanted), None)
    parts = [Part(found.name, found.value) if found else Part(f"{skill.strip()} (untrained)", 0)]
    key = related_attribute(skill) if attribute == RELATED else attribute
    if key and sheet.attribute(key):
        parts.append(Part(attribute_label(key), sheet.attribute(key)))
    return parts


def related_attribute(skill: str) -> str:
    """The attribute related to a defending skill; a skill the tracker does not know is
    refused, naming the field that settles it."""
    wanted = " ".join(skill.split()).casefold()
    if wanted not in SKILL_ATTRIBUTES:
        raise Rejected(
            f"Which attribute goes with {skill.strip()}? Pick it as the Defending attribute"
        )
    return SKILL_ATTRIBUTES[wanted]


def paired_skill(cmd: LiveHackRoll) -> str:
    """The defending skill: as typed, or the pair of the attacker's (Hide → Spot)."""
    if cmd.defender_skill.strip():
        return cmd.defender_skill
    return SKILL_PAIRS.get(" ".join(cmd.skill.split()).casefold(), "")


def needs_effort_check(person: LiveHackCombatant) -> bool:
    """*Cumulative Offset Penalties*, Con -5: "must make a Con roll vs DR 0 to expend
    Fatigue"."""
    return any(e.attribute == "con" and e.level == -5 for e in offset_effects(person.sheet))


def defending_parts(
    state: LiveHackEncounter, defender: LiveHackCombatant, cmd: LiveHackRoll | LiveHackJointRoll
) -> tuple[Part, ...]:
    """Every part of the defending side, an opposed roll's or a joint action's: its defense
    (and its attribute), its specialty, bond and items (*Defenses*: the defense takes the
    place of the "appropriate skill" in *Roll Components*, the rest of the list stands;
    F4-04), the extra, its effort (F4-08). An aid waits for the defender's own action: a
    defense is not the roll it aided (issue 30, R3-03)."""
    skill, attribute = "", RELATED
    if isinstance(cmd, LiveHackRoll):
        skill, attribute = paired_skill(cmd), cmd.defender_attribute
    parts = defender_parts(defender, cmd.defense, 0, skill, attribute=attribute)
    sheet: LiveHackSheet = defender.sheet
    named = defense_name(cmd)
    ratings = rating_parts(sheet, named, cmd.defender_specialty, cmd.defender_bond)
    ratings += item_parts(sheet, cmd.defender_items)
    if cmd.defender_extra:
        ratings.append(Part("extra", cmd.defender_extra))
    check_effort(defender, cmd.defender_effort)
    if cmd.defender_effort:
        ratings.append(Part("effort", cmd.defender_effort))
    return (*parts, *ratings)


def defense_name(cmd: LiveHackRoll | LiveHackJointRoll) -> str:
    """The defender's "appropriate skill": Reflex, Fortitude, Will or the defending skill."""
    if isinstance(cmd, LiveHackRoll) and cmd.defense == "skill":
        return paired_skill(cmd)
    return cmd.defense.capitalize()


def helper_bond(
    state: LiveHackEncounter, helper: LiveHackCombatant, others: tuple[str, ...]
) -> Part | None:
    """*Joint Actions*: "Bonds between characters assisting others are always added" (one
    bond a roll: the best toward the others)."""
    sheet: LiveHackSheet = helper.sheet
    best: tuple[int, str] | None = None
    for other_id in others:
        if other_id == helper.id:
            continue
        name = state.name_of(other_id)
        value = bond_with(sheet, name)
        if value and (best is None or value > best[0]):
            best = (value, name)
    return Part(f"bond {best[1]}", best[0]) if best else None
