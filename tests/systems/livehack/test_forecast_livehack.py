"""Forecasts of LiveHack's demo: a side already out, its JSON's words, and a policy that never
rolls (moved from tests/rules/test_forecast.py)."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCondition, SetPolicy
from rules.conditions import Duration
from rules.dice import ANY_FACE
from rules.encounter import Encounter
from rules.engine import apply, decide
from rules.forecast import forecast as forecast_here
from tracker.store.storage import read

ROOT = Path(__file__).resolve().parents[3]


def demo(name: str) -> Encounter:
    return read(ROOT / "saves" / f"demo-{name}.fight").state


def test_one_side_already_out_of_a_demo_wins_nobody_else_anything() -> None:
    state = demo("livehack")
    for event in decide(state, AddCondition("c3", "Dead", Duration()), ANY_FACE):
        state = apply(state, event)
    result = forecast_here(state, runs=20, seed=3)
    assert {s.side: s.p for s in result.sides} == {"party": 1.0, "foes": 0.0}
    assert result.none == 0.0 and result.mean_rounds == 0.0
    assert result.to_json()["rounds"]["histogram"] == {"0": 20}


def test_a_policy_set_on_a_combatant_is_the_one_it_plays() -> None:
    state = demo("livehack")
    zero = state
    for cid in ("c1", "c2", "c3"):
        for event in decide(zero, SetPolicy(cid, "take-zero"), ANY_FACE):
            zero = apply(zero, event)
    # Nobody rolls: every run is the same fight, so its figures are certain.
    result = forecast_here(zero, runs=5, seed=1)
    assert len(result.histogram) == 1
    assert {s.p for s in result.sides} <= {0.0, 1.0}
    assert forecast_here(state, runs=40, seed=1).histogram != result.histogram


def test_the_json_has_the_issues_shape() -> None:
    doc = forecast_here(demo("livehack"), runs=10, seed=9).to_json()
    assert set(doc) == {"runs", "seed", "sides", "none", "rounds", "combatants"}
    assert (doc["runs"], doc["seed"]) == (10, 9)
    assert set(doc["sides"]["party"]) == {"win", "low", "high"}
    assert set(doc["rounds"]) == {"mean", "histogram"}
    assert all(isinstance(k, str) for k in doc["rounds"]["histogram"])
    orla = doc["combatants"]["c1"]
    assert orla["name"] == "Orla" and {"out", "first_out", "end"} <= set(orla)
    assert "Wnd" in orla["end"]
