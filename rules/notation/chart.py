"""A distribution drawn in block characters, a row per total (or per run of totals, when
there are more than ``MAX_ROWS``), each bar as long as its chance against the likeliest."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

from rules.notation.exact import Distribution
from rules.odds import percent

MAX_ROWS = 24
WIDTH = 40
_EIGHTHS = " ▏▎▍▌▋▊▉"


@cache
def _word() -> re.Pattern[str]:
    """Compiled when first used, not as the module loads (every start loads it)."""
    return re.compile(r"\s+chart\s*$", re.IGNORECASE)


def split_chart(text: str) -> tuple[str, bool]:
    """The notation, and whether the line ends with the word ``chart`` (``3d6 chart``: the
    roll, and the distribution of its total drawn under it), in the app's ``:roll`` and in
    ``tracker dice`` alike."""
    bare = _word().sub("", " " + text)
    return (bare.strip(), True) if bare != " " + text else (text, False)


def chart(odds: Distribution, width: int = WIDTH, rows: int = MAX_ROWS) -> list[str]:
    """At most ``rows`` rows: ``  7 ██████████▌ 16.7%``."""
    totals = sorted(odds.weights)
    if not totals:
        return []
    runs = _runs(totals, rows)
    shares: list[tuple[str, Fraction]] = []
    for low, high in runs:
        weight = sum(odds.weights[t] for t in totals if low <= t <= high)
        label = str(low) if low == high else f"{low}-{high}"
        shares.append((label, Fraction(weight, odds.denominator)))
    most = max(p for _, p in shares)
    pad = max(len(label) for label, _ in shares)
    return [f"{label:>{pad}} {_bar(p / most, width):<{width}} {percent(p)}" for label, p in shares]


def _runs(totals: list[int | Fraction], rows: int) -> list[tuple[int | Fraction, int | Fraction]]:
    if len(totals) <= rows:
        return [(t, t) for t in totals]
    size = -(-len(totals) // rows)
    return [
        (totals[i], totals[min(i + size, len(totals)) - 1]) for i in range(0, len(totals), size)
    ]


def _bar(share: Fraction, width: int) -> str:
    eighths = round(share * width * 8)
    if eighths == 0 and share > 0:
        eighths = 1  # a chance that is there shows, however small
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")
