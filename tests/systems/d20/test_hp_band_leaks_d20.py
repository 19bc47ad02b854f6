"""What a banded side (`:hp foes band`) still told a player's seat in Generic d20, now closed:
a long rest's maximum, a foe's death it was not told of, a down hero's ✗, a revived hero's
"1 hit point"; the GM's view keeps every number."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from msgspec import structs

from rules.commands import SetOption
from rules.dice import ScriptedDice, SeededDice
from rules.engine import describe
from rules.errors import Rejected
from rules.systems.d20.events import (
    D20Apply,
    D20DeathSave,
    D20Heal,
    D20Rest,
    D20SaveEffect,
    D20SetExhaustion,
)
from rules.systems.d20.sheet import D20Sheet
from tests.app.support import until
from tests.helpers import run
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, history_of
from tests.systems.d20.test_hp_band_d20 import row
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import SeatSession, Table
from tracker.session import EncounterSession
from tracker.store.export import to_json, to_markdown

DRAINED = structs.replace(FOE_SHEET, hp=5, hp_max=8, hp_max_lost=4)  # its maximum is 12


def session_of(tmp_path: Path, goblin: D20Sheet = FOE_SHEET, hero: D20Sheet = HERO_SHEET) -> Table:
    """Orla (Alice's) against a goblin and a wolf (the fight goes on when the goblin dies)."""
    people = (("Orla", "party", hero), ("Goblin", "foes", goblin), ("Wolf", "foes", FOE_SHEET))
    history = history_of(*people)
    table = Table(EncounterSession(history, SeededDice(2), tmp_path / "road.fight"))
    table.assign("Alice", frozenset({"c1"}))
    return table


def told(app: TableApp) -> list[str]:
    return [notice.message for notice in app._notifications]  # private, tests only


def test_a_long_rest_tells_a_banded_seat_no_maximum(tmp_path: Path) -> None:
    session = session_of(tmp_path, goblin=DRAINED).session
    session.execute(SetOption("hp-view", "band foes"))
    session.execute(D20Rest(("c2",)))
    player = to_markdown(session.history, gm=False)
    assert "Long rest" in player
    assert "12" not in player.split("Long rest", 1)[1].split("##", 1)[0]
    assert "maximum 8 → 12" in to_markdown(session.history, gm=True)


async def test_a_banded_seat_is_told_the_foe_it_killed_is_dead(tmp_path: Path) -> None:
    table = session_of(tmp_path, goblin=structs.replace(FOE_SHEET, hp=3))
    session = table.session
    session.execute(SetOption("hp-view", "band foes"))
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "bloodied" in row(app, "Goblin"), "bloodied")
        session.execute(D20SaveEffect("c1", ("c2",), "Fire", "dex", 30, "10 fire", half=False))
        session.execute(D20Apply())
        await until(pilot, lambda: "Goblin is dead" in told(app), "told it died")
        assert "down" in row(app, "Goblin") and "3/12" not in screen_text(app)


async def test_a_down_hero_on_a_banded_side_is_marked_unable_to_act(tmp_path: Path) -> None:
    table = session_of(tmp_path, hero=structs.replace(HERO_SHEET, hp=0))
    session = table.session
    app = TableApp(table, table.join("player", "Bob"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "✗" in row(app, "Orla"), "the GM's exact view marks it")
        session.execute(SetOption("hp-view", "band party"))
        await until(pilot, lambda: "down" in row(app, "Orla"), "down")
        assert "✗" in row(app, "Orla") and "0/20" not in row(app, "Orla")


def test_a_hero_revived_by_a_20_is_back_up_to_a_banded_seat(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", structs.replace(HERO_SHEET, hp=0)))
    session = EncounterSession(history, ScriptedDice([20]), tmp_path / "road.fight")
    session.execute(SetOption("hp-view", "band party"))
    session.execute(D20DeathSave("c1"))
    player = to_markdown(session.history, gm=False)
    assert "Orla is back up" in player and "1 hit point" not in player
    assert "Orla is back with 1 hit point" in to_markdown(session.history, gm=True)


def test_a_players_json_report_has_no_sheet_for_a_banded_foe(tmp_path: Path) -> None:
    session = session_of(tmp_path, goblin=structs.replace(FOE_SHEET, hp=7, hp_max=13)).session
    session.execute(SetOption("hp-view", "band foes"))
    session.execute(D20SaveEffect("c1", ("c2",), "Fire", "dex", 30, "2 fire", half=False))
    session.execute(D20Apply())
    player = to_json(session.history, gm=False)
    goblin = next(c for c in player["combatants"] if c["name"] == "Goblin")
    assert goblin["hp_shown"] == "bloodied" and goblin["sheet"] is None
    assert '"hp_max": 13' in json.dumps(to_json(session.history, gm=True)["combatants"])


# A hit point figure in a log line: "12 → 5 HP", "HP 8 → 12", "maximum 8", "5/12".
FIGURE = re.compile(r"\d+ → \d+ HP|HP \d|maximum \d|\d+/\d+")
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("hurt"), st.integers(1, 30), st.booleans()),
        st.tuples(st.just("heal"), st.integers(1, 20), st.booleans()),
        st.tuples(st.just("rest"), st.just(0), st.just(False)),
        st.tuples(st.just("tire"), st.integers(0, 5), st.just(False)),
    ),
    max_size=8,
)


def step(kind: str, amount: int, flag: bool) -> list[object]:
    """The commands of one step against the Goblin (c2), Orla (c1) acting."""
    if kind == "hurt":
        blast = D20SaveEffect(
            "c1", ("c2",), "Blast", "dex", 30, f"{amount}", half=False, drain=flag
        )
        return [blast, D20Apply()]
    if kind == "heal":
        return [D20Heal("c1", "c2", str(amount), temporary=flag)]
    return [D20Rest(("c2",))] if kind == "rest" else [D20SetExhaustion("c2", amount)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS)
@example(steps=[("hurt", 12, True)])  # drained to 0: its row read "0/0"
@example(steps=[("hurt", 5, True), ("rest", 0, False)])  # "HP 7 → 12, maximum 7 → 12"
def test_a_banded_seats_report_has_no_hit_point_figure_of_a_banded_foe(
    steps: list[tuple[str, int, bool]],
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    run(history, SetOption("hp-view", "band foes"))
    for kind, amount, flag in steps:
        for command in step(kind, amount, flag):
            try:
                run(history, command, SeededDice(amount))
            except Rejected:
                break  # healing the dead, the same exhaustion again: nothing happened
    player = to_markdown(history, gm=False)
    leaks = [line for line in player.splitlines() if "Goblin" in line and FIGURE.search(line)]
    assert not leaks


def test_a_band_set_after_a_foe_died_hides_its_damage_lines_numbers(tmp_path: Path) -> None:
    """The tester's: `Goblin takes 10 fire: 3 → 0 HP dies`, then `:hp foes band`: a seat
    that sits down reads the damage, not the hit points (nor does a player's report)."""
    table = session_of(tmp_path, goblin=structs.replace(FOE_SHEET, hp=3))
    session = table.session
    session.execute(D20SaveEffect("c1", ("c2",), "Fire", "dex", 30, "10 fire", half=False))
    session.execute(D20Apply())
    session.execute(SetOption("hp-view", "band foes"))
    seat = table.join("player", "Alice")
    log = "\n".join(
        describe(before, event).plain
        for event, before in SeatSession(table, seat).history.in_effect()
    )
    assert "Goblin takes 10 fire" in log and "3 → 0" not in log
    assert "3 → 0" in to_markdown(session.history, gm=True)
    assert "3 → 0" not in to_markdown(session.history, gm=False)
