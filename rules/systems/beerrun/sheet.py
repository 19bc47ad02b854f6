"""Beer Run's sheet: ability dice in categories, Intensity, temporary and outcome dice, the
goal; their text forms and the sheet's dialog.

Source: ``shared/rules-texts/002`` (Beer Run).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

from msgspec import Struct, structs

from rules.errors import Rejected
from rules.forms import Field, int_value
from rules.roles.sheets import Sheets

from .dice import parse_die

GoalKind = Literal["conflict", "helping", "situational"]
OutcomeKind = Literal["gained", "inflicted"]

HEALTH = "health"
MAX_USES = 99
MAX_INTENSITY = 1000
# Where abilities typed with no category go in an encounter that has no category yet.
DEFAULT_CATEGORY = "General"


# --- the sheet -------------------------------------------------------------------------------


class Ability(Struct, frozen=True, kw_only=True):
    """An ability die; ``full`` is its undamaged size (0: never damaged)."""

    name: str
    category: str
    size: int
    full: int = 0

    @property
    def rating(self) -> int:
        return max(self.full, self.size)

    def text(self) -> str:
        damaged = f"/{self.rating}" if self.size < self.rating else ""
        return f"{self.name} d{self.size}{damaged}"


class TempDie(Struct, frozen=True):
    """A situation or penalty die, with the rolls it has left."""

    size: int
    uses: int


class OutcomeDie(Struct, frozen=True):
    """A permanent die a contest gave: gained (also an ability) or inflicted (rolled against)."""

    name: str
    size: int
    kind: OutcomeKind


class Goal(Struct, frozen=True, kw_only=True):
    kind: GoalKind = "conflict"
    text: str = ""
    ally_id: str | None = None  # helping: who gets the die
    die: int = 0  # helping and situational: the target die
    gained: bool = False


class BeerRunSheet(Struct, frozen=True, kw_only=True, tag="beerrun.sheet"):
    abilities: tuple[Ability, ...] = ()
    intensity: int = 0
    situation: tuple[TempDie, ...] = ()
    penalty: tuple[TempDie, ...] = ()
    outcomes: tuple[OutcomeDie, ...] = ()
    goal: Goal | None = None

    def ability(self, name: str) -> Ability | None:
        wanted = name.strip().casefold()
        return next((a for a in self.abilities if a.name.casefold() == wanted), None)

    def live_abilities(self) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.size > 0)

    @property
    def burdens(self) -> tuple[OutcomeDie, ...]:
        return tuple(o for o in self.outcomes if o.kind == "inflicted")


def rested(sheet: BeerRunSheet) -> BeerRunSheet:
    """The sheet as a new fight begins: abilities back to their rating, situation and penalty
    dice and the goal gone; outcome dice (permanent) and Intensity (no maximum) stay."""
    abilities = tuple(structs.replace(a, size=a.rating, full=0) for a in sheet.abilities)
    return structs.replace(sheet, abilities=abilities, situation=(), penalty=(), goal=None)


def damaged(sheet: BeerRunSheet, name: str, pips: int) -> BeerRunSheet:
    """The sheet with an ability ``pips`` smaller, never below zero."""
    abilities = tuple(
        structs.replace(a, size=max(0, a.size - pips), full=a.rating)
        if a.name.casefold() == name.casefold()
        else a
        for a in sheet.abilities
    )
    return structs.replace(sheet, abilities=abilities)


def spend_one(dice: tuple[TempDie, ...], size: int) -> tuple[TempDie, ...]:
    """Use one roll of the first die of that size; a die with no uses left is gone."""
    out: list[TempDie] = []
    spent = False
    for die in dice:
        if not spent and die.size == size:
            spent = True
            if die.uses > 1:
                out.append(TempDie(die.size, die.uses - 1))
            continue
        out.append(die)
    return tuple(out)


# --- sheet text -------------------------------------------------------------------------------

ABILITY = re.compile(r"(.+?)\s+[dD]([0-9]+)(?:\s*/\s*[dD]?([0-9]+))?")  # "Health d5/6": damaged
TEMP = re.compile(r"[dD]([0-9]+)\s*(?:[xX*]\s*([0-9]+))?")
OUTCOME = re.compile(r"([+-])\s*(.+?)\s+[dD]([0-9]+)")


def parse_abilities(text: str, known: tuple[Ability, ...] = ()) -> tuple[Ability, ...]:
    """``"Body: Fencing d8, Health d6; Mind: Wits d6"`` -> abilities in categories.

    The table's own text reads too: ``"Fencing d8, Health d5/6"`` (a damaged die as now/full).
    An ability written without a category keeps the one it has in ``known`` (the sheet being
    edited), else has none ("") until the system files it (``BeerRun.fit_sheet``).
    """
    out: list[Ability] = []
    for group in filter(str.strip, text.split(";")):
        head, colon, names = group.partition(":")
        category = " ".join(head.split()) if colon else ""
        if colon and not category:
            raise Rejected(
                "Put abilities under a category, like Body: Fencing d8, Health d6 "
                f"({group.strip()!r})"
            )
        for part in filter(str.strip, (names if colon else head).split(",")):
            out.append(_ability(part, category, known))
            if [a.name.casefold() for a in out].count(out[-1].name.casefold()) > 1:
                raise Rejected(f"The ability {out[-1].name} is listed twice")
    return tuple(out)


def _ability(part: str, category: str, known: tuple[Ability, ...]) -> Ability:
    match = ABILITY.fullmatch(part.strip())
    if match is None:
        raise Rejected(f"An ability is a name and a die, like Fencing d8, not {part.strip()!r}")
    name = " ".join(match.group(1).split())
    full = parse_die(f"d{match.group(3)}", name) if match.group(3) else 0
    # A die worn down to zero is shown as d0/6, and stays so when edited.
    size = 0 if full and int(match.group(2)) == 0 else parse_die(f"d{match.group(2)}", name)
    if full and full < size:
        raise Rejected(f"{name} d{size}/{full}: a damaged die is written now/full, like d5/6")
    if not category:
        before = next((a for a in known if a.name.casefold() == name.casefold()), None)
        category = before.category if before is not None else ""
    return Ability(name=name, category=category, size=size, full=full if full > size else 0)


def abilities_text(abilities: tuple[Ability, ...]) -> str:
    groups: dict[str, list[str]] = {}
    for a in abilities:
        groups.setdefault(a.category, []).append(a.text())
    return "; ".join(
        f"{cat}: {', '.join(names)}" if cat else ", ".join(names) for cat, names in groups.items()
    )


def parse_temp_dice(text: str, what: str) -> tuple[TempDie, ...]:
    """``"d8x2, d6"`` -> a d8 for 2 rolls and a d6 for 1."""
    out: list[TempDie] = []
    for part in filter(str.strip, text.split(",")):
        match = TEMP.fullmatch(part.strip())
        if match is None:
            raise Rejected(f"{what} are dice with their rolls left, like d8x2, not {part!r}")
        uses = int(match.group(2) or 1)
        if not 1 <= uses <= MAX_USES:
            raise Rejected(f"{what}: a die is kept for 1 to {MAX_USES} rolls, not {uses}")
        out.append(TempDie(parse_die(f"d{match.group(1)}", what), uses))
    return tuple(out)


def temp_text(dice: tuple[TempDie, ...]) -> str:
    return ", ".join(f"d{d.size}x{d.uses}" for d in dice)


def parse_outcomes(text: str) -> tuple[OutcomeDie, ...]:
    """``"+Sword d6, -Limp d4"``: + gained, - inflicted."""
    out: list[OutcomeDie] = []
    for part in filter(str.strip, text.split(",")):
        match = OUTCOME.fullmatch(part.strip())
        if match is None:
            raise Rejected(
                f"Outcome dice are +Name dN (gained) or -Name dN (inflicted), not {part!r}"
            )
        kind: OutcomeKind = "gained" if match.group(1) == "+" else "inflicted"
        size = parse_die(f"d{match.group(3)}", "An outcome die")
        out.append(OutcomeDie(" ".join(match.group(2).split()), size, kind))
    return tuple(out)


def outcomes_text(outcomes: tuple[OutcomeDie, ...]) -> str:
    return ", ".join(f"{'+' if o.kind == 'gained' else '-'}{o.name} d{o.size}" for o in outcomes)


# --- the sheet's dialog ------------------------------------------------------------------------


def sheet_fields(sheet: BeerRunSheet) -> list[Field]:
    return [
        Field(
            key="abilities",
            label="Abilities",
            kind="text",
            default=abilities_text(sheet.abilities),
            help="Body: Fencing d8, Health d6; Mind: Wits d6",
        ),
        Field(key="intensity", label="Intensity", default=str(sheet.intensity)),
        Field(
            key="situation",
            label="Situation dice",
            kind="text",
            default=temp_text(sheet.situation),
            help="d8x2 = a d8 for 2 rolls",
        ),
        Field(
            key="penalty",
            label="Penalty dice",
            kind="text",
            default=temp_text(sheet.penalty),
            help="d6x1",
        ),
        Field(
            key="outcomes",
            label="Outcome dice",
            kind="text",
            default=outcomes_text(sheet.outcomes),
            help="+Sword d6 (gained), -Limp d4 (inflicted)",
        ),
    ]


def sheet_values(values: Mapping[str, str], sheet: BeerRunSheet) -> BeerRunSheet:
    intensity = int_value(values, "intensity", "Intensity", sheet.intensity)
    if not 0 <= intensity <= MAX_INTENSITY:
        raise Rejected(f"Intensity must be between 0 and {MAX_INTENSITY}")
    return structs.replace(
        sheet,
        abilities=_kept_damage(
            sheet, parse_abilities(values.get("abilities", ""), sheet.abilities)
        ),
        intensity=intensity,
        situation=parse_temp_dice(values.get("situation", ""), "Situation dice"),
        penalty=parse_temp_dice(values.get("penalty", ""), "Penalty dice"),
        outcomes=parse_outcomes(values.get("outcomes", "")),
    )


def _kept_damage(sheet: BeerRunSheet, typed: tuple[Ability, ...]) -> tuple[Ability, ...]:
    """An edit that leaves a damaged die as it was keeps its undamaged size."""
    out = []
    for ability in typed:
        before = sheet.ability(ability.name)
        if before is not None and before.size == ability.size:
            ability = structs.replace(ability, full=before.full)
        out.append(ability)
    return tuple(out)


class BeerRunSheets(Sheets):
    """Beer Run's sheets part (``rules.roles.sheets``)."""

    new_sheet = staticmethod(BeerRunSheet)
    sheet_form = staticmethod(sheet_fields)
    sheet_from_form = staticmethod(sheet_values)
    fresh_sheet = staticmethod(rested)
