"""Generic d20's forecast pinned: the reports of a fixed seed, taken before the forecast was
made faster (issue 33), are the reports now. A change that makes one differ changes what a
forecast says: the demo (attacks, death saves) and a busier fight (a legendary creature's
Multiattack, a lair's save, concentration, conditions, every policy). Pinned again with the
action economy (issue 40, D4-01): no combatant acts twice on a turn, and the demo's Bram makes
his bonus action attack."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.commands import AddCondition, SetPolicy
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.forecast import forecast
from rules.systems.d20.demo import STEM
from tests.systems.d20.support import HERO, card, fight
from tracker.store.storage import read

ROOT = Path(__file__).resolve().parents[3]
RUNS, SEED = 40, 33


def the_demo() -> Encounter:
    return read(ROOT / "saves" / f"{STEM}.fight").state


def a_busy_fight() -> Encounter:
    state = fight(
        ("Orla", "party", card(HERO, hp="30/30", ac="17", attack_bonus="6",
                               damage="1d10+3 slashing", initiative="2")),
        ("Tamsin", "party", card(HERO, hp="22/22", ac="14", attack_bonus="5",
                                 damage="2d4+2 radiant", reach="ranged", concentrating="Bless",
                                 saves="Con +4 Wis +5")),
        ("Bram", "party", card(HERO, hp="26/26", temp_hp="5", ac="15", attack_bonus="7",
                               damage="1d6+4 piercing", reach="ranged", initiative="4")),
        ("Hollow King", "foes", card(hp="45/45", ac="15", attack_bonus="5",
                                     damage="1d8+1 necrotic", crit_range="19",
                                     resistances="piercing", multiattack="2", legendary="1")),
        ("Crypt", "foes", card("lair", damage="1d6 necrotic", lair_save="Con 11")),
        ("Archer", "foes", card(hp="13/13", ac="13", attack_bonus="4",
                                damage="1d6+2 piercing", reach="ranged",
                                vulnerabilities="radiant")),
    )  # fmt: skip
    commands: list[Any] = [
        SetPolicy("c1", "spread"),
        SetPolicy("c2", "cautious"),
        AddCondition("c6", "prone"),
        AddCondition("c1", "poisoned", Duration("rounds", 2)),
    ]
    for command in commands:
        state = fold_onto(state, decide(state, command, SeededDice(1)))
    return state


def test_the_demos_forecast_is_the_one_pinned() -> None:
    assert forecast(the_demo(), runs=RUNS, seed=SEED).to_json() == DEMO


def test_a_busy_fights_forecast_is_the_one_pinned() -> None:
    assert forecast(a_busy_fight(), runs=RUNS, seed=SEED).to_json() == BUSY


DEMO: dict[str, Any] = {
    "runs": 40,
    "seed": 33,
    "sides": {
        "foes": {"win": 0.65, "low": 0.4951, "high": 0.7787},
        "party": {"win": 0.35, "low": 0.2213, "high": 0.5049},
    },
    "none": 0.0,
    "rounds": {
        "mean": 6.2,
        "histogram": {"4": 3, "5": 14, "6": 7, "7": 8, "8": 5, "9": 2, "10": 1},
    },
    "combatants": {
        "c5": {
            "name": "Bog Goblin",
            "side": "foes",
            "out": 1.0,
            "first_out": 0.0,
            "end": {"HP": 0.0},
        },
        "c6": {
            "name": "Ridge Wolf",
            "side": "foes",
            "out": 1.0,
            "first_out": 0.8,
            "end": {"HP": 0.0},
        },
        "c1": {
            "name": "Orla Vance",
            "side": "party",
            "out": 0.975,
            "first_out": 0.2,
            "end": {"HP": 0.025},
        },
        "c3": {
            "name": "Bram Quill",
            "side": "party",
            "out": 0.65,
            "first_out": 0.0,
            "end": {"HP": 10.025},
        },
        "c9": {
            "name": "Rattling Archer",
            "side": "foes",
            "out": 1.0,
            "first_out": 0.0,
            "end": {"HP": 0.0},
        },
        "c10": {
            "name": "Marsh Troll",
            "side": "foes",
            "out": 0.35,
            "first_out": 0.0,
            "end": {"HP": 33.9},
        },
        "c7": {
            "name": "Road Cutthroat",
            "side": "foes",
            "out": 0.9,
            "first_out": 0.0,
            "end": {"HP": 1.075},
        },
        "c4": {
            "name": "Ysolde Fenn",
            "side": "party",
            "out": 0.75,
            "first_out": 0.0,
            "end": {"HP": 3.95},
        },
        "c8": {
            "name": "Tusk Raider",
            "side": "foes",
            "out": 1.0,
            "first_out": 0.0,
            "end": {"HP": 0.0},
        },
        "c2": {
            "name": "Sefi Marrow",
            "side": "party",
            "out": 0.875,
            "first_out": 0.0,
            "end": {"HP": 1.35},
        },
    },
}
BUSY: dict[str, Any] = {
    "runs": 40,
    "seed": 33,
    "sides": {
        "foes": {"win": 0.85, "low": 0.7093, "high": 0.9294},
        "party": {"win": 0.15, "low": 0.0706, "high": 0.2907},
    },
    "none": 0.0,
    "rounds": {"mean": 5.7, "histogram": {"3": 1, "4": 4, "5": 14, "6": 12, "7": 5, "8": 4}},
    "combatants": {
        "c5": {"name": "Crypt", "side": "foes", "out": 1.0, "first_out": 0.0, "end": {"HP": 10.0}},
        "c3": {
            "name": "Bram",
            "side": "party",
            "out": 0.925,
            "first_out": 0.0,
            "end": {"HP": 1.325},
        },
        "c1": {"name": "Orla", "side": "party", "out": 0.85, "first_out": 0.0, "end": {"HP": 2.2}},
        "c2": {
            "name": "Tamsin",
            "side": "party",
            "out": 0.975,
            "first_out": 0.775,
            "end": {"HP": 0.025},
        },
        "c4": {
            "name": "Hollow King",
            "side": "foes",
            "out": 0.15,
            "first_out": 0.0,
            "end": {"HP": 17.6},
        },
        "c6": {
            "name": "Archer",
            "side": "foes",
            "out": 0.9,
            "first_out": 0.225,
            "end": {"HP": 0.6},
        },
    },
}
