"""Beer Run's odds in an encounter: the contest the roll dialog or the pool being built
would make, and the last round's first one, named for the Consequences pane (the arithmetic
is ``odds``, free of msgspec)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from msgspec import structs

from rules.dice import ANY_FACE
from rules.errors import Rejected
from rules.odds import TierOdds, percent
from rules.roles.rolls import Rolls

from . import decide, forms
from .apply import apply
from .events import BuildPool, Contest, PoolBuilt, RoundRolled
from .odds import pool_odds, sided_odds
from .table import side_bands

if TYPE_CHECKING:
    from rules.odds import Odds

    from .events import BeerRunEncounter


class SidedBand(NamedTuple):
    """One row of a comparison's odds: whose upper hand (``side`` "top", "bottom", or ""
    for every pair tied) and how many successes it keeps (``pips``, the least of the band;
    ``open`` for 5+). ``low``/``high`` bound the signed value ``landing`` gives: the top
    side's kept successes, the bottom side's as negatives, 0 for a tie."""

    label: str
    low: int | None
    high: int | None
    side: str
    pips: int
    open: bool


def sided_bands(contest: Contest, state: BeerRunEncounter) -> tuple[SidedBand, ...]:
    """The rows of ``contest``, worst for its top side first: the bottom side's upper hand
    from the most successes down, every pair tied, the top side's from 1 up. Each is
    labelled with the name of the side that takes the upper hand ("Bouncer 2", "Mags 5+")."""
    top = state.name_of(contest.top_id)
    bottom = state.name_of(contest.bottom_id, "difficulty")
    rows = [
        SidedBand(
            f"{bottom} {label}", None if high is None else -high, -low, "bottom", low, high is None
        )
        for label, low, high in reversed(side_bands(tuple(d.size for d in contest.bottom)))
    ]
    rows.append(SidedBand("ties", 0, 0, "", 0, False))
    rows += [
        SidedBand(f"{top} {label}", low, high, "top", low, high is None)
        for label, low, high in side_bands(tuple(d.size for d in contest.top))
    ]
    return tuple(rows)


def contest_odds(contest: Contest, state: BeerRunEncounter, unpaid: bool = False) -> Odds:
    """The exact odds of one comparison, its top row as the pool, split by who takes the
    upper hand (``sided_bands``): the note says how likely each side is to (and, ``unpaid``,
    that the opponent has paid nothing yet: its dice may change it all)."""
    sizes = tuple(d.size for d in contest.top), tuple(d.size for d in contest.bottom)
    found = pool_odds(*sizes)
    theirs, tied, mine = sided_odds(*sizes)
    chances = (*reversed(theirs), tied, *mine)  # the bottom side's most successes first
    tiers = tuple(
        TierOdds(band.label, band.low, band.high, p)
        for band, p in zip(sided_bands(contest, state), chances, strict=True)
    )
    top = state.name_of(contest.top_id)
    bottom = state.name_of(contest.bottom_id, "the difficulty")
    upper = found.extra["upper_hand"]
    assert isinstance(upper, dict)
    if_unpaid = f", if {bottom} pays nothing" if unpaid else ""
    note = (
        f"upper hand{if_unpaid}: {top} {percent(upper['pool'])}, "
        f"{bottom} {percent(upper['against'])}, neither {percent(upper['none'])}"
    )
    whose = f"{top} vs {bottom}: who takes the upper hand, keeping how many"
    return found._replace(tiers=tiers, whose=whose, extra={**found.extra, "note": note})


def dialog_odds(state: BeerRunEncounter, action: str, values: Mapping[str, str]) -> Odds | None:
    """The exact odds of the contest the Consequences pane would show after this action.

    ``roll``: the round's first comparison (None once rolled, or while helping pools wait:
    their successes change the dice of the rest). ``pool``: the pool being built against
    its opponent's paid pool (or its missing dice) or its difficulty.
    """
    try:
        unpaid = False
        if action == "roll":
            contest = _next_contest(state)
        elif action == "pool":
            contest, unpaid = _pool_contest(state, values)
        else:
            return None
        return None if contest is None else contest_odds(contest, state, unpaid)
    except Rejected:  # values that do not parse, or pools too large for exact odds
        return None


def last_odds(state: BeerRunEncounter) -> Odds | None:
    roll = state.last_roll
    if not isinstance(roll, RoundRolled) or not roll.contests:
        return None
    try:
        return contest_odds(roll.contests[0], state)
    except Rejected:
        return None


def _next_contest(state: BeerRunEncounter) -> Contest | None:
    if decide.br_state(state).rolled_round == state.round:
        return None
    pools = decide.round_pools(state)
    if not pools or any(p.kind == "helping" for p in pools):
        return None
    rolled = decide.roll_main(state, list(pools), ANY_FACE, {})[0]
    assert isinstance(rolled, RoundRolled)
    return rolled.contests[0] if rolled.contests else None


def _pool_contest(
    state: BeerRunEncounter, values: Mapping[str, str]
) -> tuple[Contest | None, bool]:
    """The contest the pool being built would make, and whether its opponent has paid
    nothing yet this round (then it is counted as paying nothing)."""
    command = forms.action_command(state, "pool", values)
    assert isinstance(command, BuildPool)
    paid = {p.combatant_id for p in decide.round_pools(state)}
    pool = decide.build_pool(state, command)
    state = apply(state, PoolBuilt(pool))
    helpers: dict[str, decide.SideRoll] = {}
    if pool.kind == "helping":
        rolled = decide.roll_helping(state, [pool], ANY_FACE, helpers)[0]
    else:
        pools = decide.round_pools(state)
        helping = [p for p in pools if p.kind == "helping"]
        decide.roll_helping(state, helping, ANY_FACE, helpers)  # a helper resists with it
        main = [p for p in pools if p.kind != "helping"]
        rolled = decide.roll_main(state, main, ANY_FACE, helpers)[0]
    assert isinstance(rolled, RoundRolled)
    who = pool.combatant_id
    for contest in rolled.contests:
        if contest.top_id == who:
            return contest, contest.bottom_id is not None and contest.bottom_id not in paid
        if contest.bottom_id == who:  # the opponent paid first: seen from the builder
            seen = structs.replace(
                contest,
                top=contest.bottom,
                bottom=contest.top,
                top_id=who,
                bottom_id=contest.top_id,
            )
            return seen, False
    return None, False


class BeerRunOdds(Rolls):
    """Beer Run's exact odds (``rules.roles.rolls``)."""

    has_odds = True
    odds = staticmethod(dialog_odds)
    last_odds = staticmethod(last_odds)
