"""What an odds question answers: a probability for each tier, exactly, plus system extras."""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

# NamedTuples, not dataclasses: ``dataclasses`` imports ``inspect``, which is a good part of the
# start-up time of ``tracker odds``.


class TierOdds(NamedTuple):
    """One tier of results; ``low``/``high`` are inclusive margin bounds, None for an open end."""

    label: str
    low: int | None
    high: int | None
    p: Fraction


class Odds(NamedTuple):
    """The exact chance of each tier (they sum to 1), and the system's own extra figures.

    ``extra`` holds JSON-ready values (numbers, strings, lists, dicts) whose probabilities are
    Fractions, e.g. ``{"eclipse": Fraction(1, 144)}`` or ``{"upper_hand": {...}}``; a
    ``"note"`` string is a line the app shows with the odds. ``whose`` says whose result the
    tiers give ("Orla's chances vs Goblin"): a system's ``odds`` and ``last_odds`` name it,
    a bare question (``tracker odds``) names nobody.
    """

    system: str
    tiers: tuple[TierOdds, ...]
    extra: dict[str, object] = {}  # never changed in place: every Odds is built whole
    whose: str = ""

    def tier_of(self, value: int) -> int | None:
        for index, tier in enumerate(self.tiers):
            if (tier.low is None or value >= tier.low) and (
                tier.high is None or value <= tier.high
            ):
                return index
        return None


def distribution_total(dist: dict[int, Fraction]) -> Fraction:
    return sum(dist.values(), Fraction(0))


def mid_percentile(chances: list[Fraction], index: int) -> Fraction:
    """Where outcome ``index`` of outcomes ordered worst to best sits in their distribution:
    the chance of a worse one plus half the chance of this one. Its mean over many draws is
    exactly 1/2, so above 1/2 is luckier than the odds, below is less lucky."""
    below = sum(chances[:index], Fraction(0))
    return below + chances[index] / 2


def percent(p: Fraction | float) -> str:
    """A chance as the app shows it: one decimal, and "<0.1%" for a tiny one, never "0.0%"."""
    share = float(p)
    return f"{share * 100:.1f}%" if share >= 0.001 or share == 0 else "<0.1%"


def whole_percent(p: Fraction | float) -> str:
    """A chance in whole points ("40%"): a sampled forecast's, or a figure read at a glance."""
    return f"{float(p) * 100:.0f}%"


def whose_chances(actor: str, against: str) -> str:
    return f"{actor}'s chances vs {against}"
