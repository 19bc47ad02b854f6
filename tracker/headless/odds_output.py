"""Printing an ``Odds``: a small table with bars for people, or JSON for scripts."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.odds import Odds

BAR = 30


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    return value


def as_json(odds: Odds) -> dict[str, Any]:
    """``{"system", "tiers": [{"label", "low", "high", "p", "exact"}], ...extras}``."""
    tiers = [
        {
            "label": tier.label,
            "low": tier.low,
            "high": tier.high,
            "p": float(tier.p),
            "exact": f"{tier.p.numerator}/{tier.p.denominator}",
        }
        for tier in odds.tiers
    ]
    return {"system": odds.system, "tiers": tiers, **_jsonable(odds.extra)}


def as_table(odds: Odds) -> str:
    width = max((len(t.label) for t in odds.tiers), default=4)
    lines = []
    for tier in odds.tiers:
        filled = round(float(tier.p) * BAR)
        bar = "█" * filled + "·" * (BAR - filled)
        lines.append(f"{tier.label:<{width}}  {bar}  {float(tier.p) * 100:6.2f}%")
    for key, value in odds.extra.items():
        lines.append(f"{key}: {_plain(value)}")
    return "\n".join(lines)


def _plain(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{float(value) * 100:.2f}%"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_plain(v) for v in value)
    return str(value)


def print_odds(odds: Odds, json_output: bool) -> None:
    """``tracker odds``'s output: JSON for ``--json``, else the table."""
    if json_output:
        import json  # only here: the table does without it

        print(json.dumps(as_json(odds)))
    else:
        print(as_table(odds))
