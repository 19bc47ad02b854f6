"""Pain Pool sheets: heroes (three attribute dice, boons, favor, held bonus dice) and
challenges (a Pain Pool with health tokens, a death spiral and enemy templates).

Pure helpers for ``rules.systems.painpool.system``. Source: ``shared/rules-texts/004``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from msgspec import Struct, structs

from rules.errors import Rejected
from rules.forms import YES_NO, Field, choice_value, int_value
from rules.notation import field as dice_field
from rules.roles.sheets import Sheets

from .table import BUILD_SIZES as BUILD_SIZES
from .table import MIN_PAIN_DICE as MIN_PAIN_DICE
from .table import PAIN_DIE as PAIN_DIE
from .table import POOLS as POOLS
from .table import PoolName as PoolName

POOL_TITLES: dict[str, str] = {
    "power": "Power",
    "precision": "Precision",
    "possibility": "Possibility",
    "pain": "Pain",
}
POOL_SHORT: dict[str, PoolName] = {"pow": "power", "pre": "precision", "pos": "possibility"}
SHORT_OF: dict[str, str] = {pool: short for short, pool in POOL_SHORT.items()}
DIE_CHOICES: tuple[tuple[str, str], ...] = (("8", "d8"), ("6", "d6"), ("4", "d4"))
MAX_BOON_LEVEL = 3

Template = Literal["glass-cannon", "fast-but-weak", "slow-but-strong", "tank"]
TEMPLATES: tuple[tuple[Template, str], ...] = (
    ("glass-cannon", "Glass Cannon"),
    ("fast-but-weak", "Fast but Weak"),
    ("slow-but-strong", "Slow but Strong"),
    ("tank", "Tank"),
)


# --- heroes --------------------------------------------------------------------------------


class Boon(Struct, frozen=True, kw_only=True):
    """A boon of +1d to +3d, tied to the pools it can feed.

    ``damage`` levels linger; ``failure`` levels return at the end of the scene. Boons that
    share a ``cascade`` name form a cascade: each member takes one point, highest first.
    """

    name: str
    level: int
    pools: tuple[PoolName, ...]
    cascade: str = ""
    damage: int = 0
    failure: int = 0

    @property
    def crossed(self) -> int:
        return self.damage + self.failure

    @property
    def usable(self) -> int:
        """Dice it adds now: a crossed-off cascade boon adds none."""
        if self.cascade:
            return 0 if self.crossed else self.level
        return max(0, self.level - self.crossed)

    @property
    def capacity(self) -> int:
        """Damage points it can still absorb."""
        crossed = self.damage + self.failure  # not ``crossed``: asked of every boon each move
        if self.cascade:
            return 0 if crossed else 1
        return max(0, self.level - crossed)


class HeldBonus(Struct, frozen=True, kw_only=True):
    """A bonus die from a maneuver: free once; a sticky one costs a favor per later use."""

    name: str
    sticky: bool = False
    used: bool = False

    @property
    def favor_cost(self) -> int:
        return 1 if self.used else 0


class HeroSheet(Struct, frozen=True, kw_only=True, tag="painpool.hero"):
    power: int = 8
    precision: int = 6
    possibility: int = 4
    boons: tuple[Boon, ...] = ()
    impacted: str = ""
    favor: int = 0
    held: tuple[HeldBonus, ...] = ()

    def die(self, pool: PoolName) -> int:
        return int(getattr(self, pool))

    def boon(self, name: str) -> Boon | None:
        wanted = name.casefold()
        return next((b for b in self.boons if b.name.casefold() == wanted), None)


class ChallengeSheet(Struct, frozen=True, kw_only=True, tag="painpool.challenge"):
    """A Pain Pool: ``pool`` d6 before the death spiral, ``tokens`` health in all."""

    pool: int = 3
    tokens: int = 1
    lost: int = 0
    spiral: int = 0  # the pool shrinks by one die per ``spiral`` tokens lost; 0: no spiral
    templates: tuple[Template, ...] = ()

    @property
    def remaining(self) -> int:
        return max(0, self.tokens - self.lost)

    @property
    def passed(self) -> bool:
        return self.remaining == 0

    @property
    def spiral_loss(self) -> int:
        return self.lost // self.spiral if self.spiral else 0


def rested(sheet: HeroSheet | ChallengeSheet) -> HeroSheet | ChallengeSheet:
    """The sheet as a new fight begins: a hero's crossed-off levels back and no held dice
    (favor, earned, stays); a challenge's health tokens all back."""
    if isinstance(sheet, ChallengeSheet):
        return structs.replace(sheet, lost=0)
    boons = tuple(structs.replace(b, damage=0, failure=0) for b in sheet.boons)
    return structs.replace(sheet, boons=boons, held=())


def out_of_fight(sheet: HeroSheet | ChallengeSheet) -> str:
    """Why a combatant is out of the fight ("" while in it): a challenge with no health
    tokens left is "passed"; a hero with boons, every one crossed off, is "spent" (nothing
    left to absorb damage with)."""
    if isinstance(sheet, ChallengeSheet):
        return "passed" if sheet.passed else ""
    if sheet.boons and not any(boon.capacity for boon in sheet.boons):
        return "spent"
    return ""


# --- the boon list as text ------------------------------------------------------------------

BOON_SYNTAX = "Name +2d pow/pre @Cascade (damage 1, failure 1); ..."
BOON_PATTERN = re.compile(
    r"(?P<name>[^@+()]+?)\s*\+\s*(?P<level>\d+)\s*d\s+(?P<pools>[A-Za-z/, ]+?)"
    r"(?:\s*@\s*(?P<cascade>[^@()]+?))?(?:\s*\((?P<marks>[^()]*)\))?\s*"
)
MARK_PATTERN = re.compile(r"(damage|failure)\s+(\d+)")


def boon_text(boon: Boon) -> str:
    """A boon as typed in the sheet: crossed-off levels in brackets, so editing keeps them."""
    pools = "/".join(SHORT_OF[p] for p in boon.pools)
    text = f"{boon.name} +{boon.level}d {pools}"
    if boon.cascade:
        text += f" @{boon.cascade}"
    marks = [f"{kind} {n}" for kind, n in (("damage", boon.damage), ("failure", boon.failure)) if n]
    return text + (f" ({', '.join(marks)})" if marks else "")


def boons_text(boons: tuple[Boon, ...]) -> str:
    return "; ".join(boon_text(b) for b in boons)


def parse_marks(name: str, text: str) -> dict[str, int]:
    marks = {"damage": 0, "failure": 0}
    for part in text.split(","):
        if not part.strip():
            continue
        match = MARK_PATTERN.fullmatch(part.strip().lower())
        if match is None:
            raise Rejected(f"Boon {name!r}: write crossed-off levels as (damage 1, failure 2)")
        marks[match[1]] = int(match[2])
    return marks


def parse_boon(text: str) -> Boon:
    match = BOON_PATTERN.fullmatch(text.strip())
    if match is None:
        raise Rejected(f"Boon {text.strip()!r} should look like 'Fighting +2d pre' ({BOON_SYNTAX})")
    name = " ".join(match["name"].split())
    level = int(match["level"])
    if not 1 <= level <= MAX_BOON_LEVEL:
        raise Rejected(f"Boon {name!r} must be +1d, +2d or +3d")
    pools: list[PoolName] = []
    for short in re.split(r"[/, ]+", match["pools"].strip().lower()):
        if short not in POOL_SHORT:
            raise Rejected(f"Boon {name!r}: pools are pow, pre and pos, not {short!r}")
        if POOL_SHORT[short] not in pools:
            pools.append(POOL_SHORT[short])
    cascade = " ".join((match["cascade"] or "").split())
    marks = parse_marks(name, match["marks"] or "")
    # A cascade boon takes one point in all; any other boon, one per level.
    most = 1 if cascade else level
    if marks["damage"] + marks["failure"] > most:
        raise Rejected(f"Boon {name!r} can have at most {most} level(s) crossed off")
    return Boon(name=name, level=level, pools=tuple(pools), cascade=cascade, **marks)


def parse_boons(text: str) -> tuple[Boon, ...]:
    boons = tuple(parse_boon(part) for part in text.split(";") if part.strip())
    names = [b.name.casefold() for b in boons]
    if len(set(names)) != len(names):
        raise Rejected("Each boon needs its own name")
    return boons


# --- forms ----------------------------------------------------------------------------------


def hero_form(sheet: HeroSheet) -> list[Field]:
    dice = [
        Field(
            key=pool,
            label=f"{POOL_TITLES[pool]} die",
            kind="choice",
            default=str(sheet.die(pool)),
            choices=DIE_CHOICES,
        )
        for pool in POOLS
    ]
    return [
        *dice,
        Field(
            key="boons",
            label="Boons",
            kind="text",
            default=boons_text(sheet.boons),
            help=BOON_SYNTAX,
        ),
        Field(key="impacted", label="Impacted boon", kind="text", default=sheet.impacted),
        Field(key="favor", label="Favor", default=str(sheet.favor)),
    ]


def hero_from_form(values: Mapping[str, str], sheet: HeroSheet) -> HeroSheet:
    sizes = {}
    for field in hero_form(sheet)[:3]:
        sizes[field.key] = int(choice_value(values, field))
    if sorted(sizes.values(), reverse=True) != list(BUILD_SIZES):
        raise Rejected("Power, Precision and Possibility take one each of d8, d6 and d4")
    boons = parse_boons(values.get("boons", boons_text(sheet.boons)))
    impacted = " ".join(values.get("impacted", sheet.impacted).split())
    if impacted:
        found = next((b for b in boons if b.name.casefold() == impacted.casefold()), None)
        if found is None:
            raise Rejected(f"The Impacted boon {impacted!r} is not one of the hero's boons")
        impacted = found.name
    favor = int_value(values, "favor", "Favor", sheet.favor)
    if favor < 0:
        raise Rejected("Favor cannot be negative")
    return structs.replace(sheet, boons=boons, impacted=impacted, favor=favor, **sizes)


def challenge_form(sheet: ChallengeSheet) -> list[Field]:
    templates = [
        Field(
            key=key,
            label=label,
            kind="choice",
            default="yes" if key in sheet.templates else "no",
            choices=YES_NO,
        )
        for key, label in TEMPLATES
    ]
    return [
        Field(
            key="pool",
            label="Pain Pool dice (d6)",
            default=str(sheet.pool),
            help="3 or 3d6",
            kind="text",
        ),
        Field(key="tokens", label="Health tokens", default=str(sheet.tokens)),
        Field(key="lost", label="Tokens lost", default=str(sheet.lost)),
        Field(
            key="spiral",
            label="Death spiral: -1d per tokens lost (0: none)",
            default=str(sheet.spiral),
        ),
        *templates,
    ]


def challenge_from_form(values: Mapping[str, str], sheet: ChallengeSheet) -> ChallengeSheet:
    pool = dice_field.count(values.get("pool", ""), "Pain Pool dice", PAIN_DIE, default=sheet.pool)
    tokens = int_value(values, "tokens", "Health tokens", sheet.tokens)
    lost = int_value(values, "lost", "Tokens lost", sheet.lost)
    spiral = int_value(values, "spiral", "Death spiral", sheet.spiral)
    if pool < MIN_PAIN_DICE:
        raise Rejected(f"A Pain Pool has at least {MIN_PAIN_DICE}d6")
    if tokens < 1:
        raise Rejected("A challenge has at least one health token")
    if not 0 <= lost <= tokens:
        raise Rejected(f"Tokens lost must be between 0 and {tokens}")
    if spiral < 0:
        raise Rejected("The death spiral cannot be negative (0 for none)")
    fields = {f.key: f for f in challenge_form(sheet)}
    chosen = tuple(key for key, _ in TEMPLATES if choice_value(values, fields[key]) == "yes")
    return ChallengeSheet(pool=pool, tokens=tokens, lost=lost, spiral=spiral, templates=chosen)


# --- what the roster shows ------------------------------------------------------------------


def hero_stats(sheet: HeroSheet) -> tuple[str, str, str, str]:
    dice = " ".join(f"{SHORT_OF[p].capitalize()} d{sheet.die(p)}" for p in POOLS)
    usable = sum(b.usable for b in sheet.boons)
    total = sum(b.level for b in sheet.boons)
    held = len(sheet.held)
    sticky = sum(1 for h in sheet.held if h.sticky)
    held_text = f"{held}" + (f" ({sticky} sticky)" if sticky else "")
    return dice, f"Boons {usable}/{total}", str(sheet.favor), held_text


def template_names(templates: tuple[Template, ...]) -> str:
    return ", ".join(label for key, label in TEMPLATES if key in templates)


def challenge_stats(sheet: ChallengeSheet) -> tuple[str, str, str, str]:
    names = template_names(sheet.templates)
    dice = f"Pain {pain_base(sheet)}d6" + (f" ({names})" if names else "")
    health = "passed" if sheet.passed else f"Health {sheet.remaining}/{sheet.tokens}"
    return dice, health, "", ""


def pain_base(sheet: ChallengeSheet) -> int:
    """The pool after the death spiral, never under 3d6."""
    return max(MIN_PAIN_DICE, sheet.pool - sheet.spiral_loss)


class PainPoolSheets(Sheets):
    """Pain Pool's sheets part (``rules.roles.sheets``): a hero's, or a challenge's."""

    new_sheet = staticmethod(HeroSheet)
    fresh_sheet = staticmethod(rested)

    def sheet_kinds(self) -> tuple[tuple[str, HeroSheet | ChallengeSheet], ...]:
        return (("hero", HeroSheet()), ("challenge", ChallengeSheet()))

    def sheet_form(self, sheet: HeroSheet | ChallengeSheet) -> list[Field]:
        if isinstance(sheet, ChallengeSheet):
            return challenge_form(sheet)
        return hero_form(sheet)

    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any:
        if isinstance(sheet, ChallengeSheet):
            return challenge_from_form(values, sheet)
        return hero_from_form(values, sheet)
