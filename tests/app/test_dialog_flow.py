"""The dialog flow (``tracker/dialog_flow.py``) on its own, no app: when a roll must settle
what waits first, and the form, preview, odds and command every way to roll asks of it.

The rule is checked on a registered system whose hooks about what waits are told what to say
(``Told``), so each case is exact whatever the system's own rules; the rest on the system
as it is."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.errors import Rejected
from rules.registry import get_system
from rules.system import RuleSystem
from tests.helpers import people, roll_to_apply, run
from tracker.dialog_flow import NOT_KNOWN, DialogFlow, Unsettled, must_settle

WAITING = "Goblin takes 2 Wounds"
SPOILED = "?"  # a value ``Told`` refuses to make a command of: a half-typed one


class Told:
    """A registered system whose result waiting, rolls carrying it on and approvals are as
    told; every other hook is the system's own."""

    def __init__(
        self,
        system: RuleSystem,
        waiting: str = WAITING,
        carries: Callable[[str, object], bool] = lambda action, command: False,
        gm_choice: Callable[[str, str], bool] | None = None,
    ) -> None:
        self.system = system
        self.waiting = waiting
        self.carries = carries
        self.asked: list[tuple[str, object]] = []  # follow_up's questions
        self.commands = 0  # the commands made
        if gm_choice is not None:
            self.gm_choice = gm_choice

    def __getattr__(self, name: str) -> Any:
        return getattr(self.system, name)

    def pending(self, state: Encounter) -> str:
        return self.waiting

    def follow_up(self, state: Encounter, action: str, command: object = None) -> bool:
        self.asked.append((action, command))
        return self.carries(action, command)

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> object:
        self.commands += 1
        if SPOILED in values.values():
            raise Rejected("a half-typed value")
        return self.system.action_command(state, action, values)


@dataclass
class Table:
    state: Encounter
    system: Any


def a_fight() -> Table:
    history = people(2)
    return Table(history.state, get_system(history.state.system))


def defaults(flow: DialogFlow, selected: str | None = "c1") -> dict[str, str]:
    return {f.key: f.default for f in flow.form(selected)}


def test_nothing_waiting_is_nothing_to_settle() -> None:
    table = a_fight()
    system = Told(table.system, waiting="")
    assert must_settle(system, table.state, "roll") == ""  # type: ignore[arg-type]
    assert system.asked == []  # the system is not asked whether a roll carries on nothing


def test_what_waits_is_settled_before_a_roll_or_the_end_of_a_turn() -> None:
    table = a_fight()
    system = Told(table.system)
    assert must_settle(system, table.state, "roll") == WAITING  # type: ignore[arg-type]
    assert must_settle(system, table.state) == WAITING  # type: ignore[arg-type]
    table.system = system
    flow = DialogFlow(table, "roll")
    assert flow.rolls and flow.must_settle() == WAITING
    with pytest.raises(Unsettled, match=f"Not applied yet: {WAITING} \\(d applies it"):
        flow.submit(defaults(flow))
    assert "Not applied yet: Goblin takes 2 Wounds (Enter asks first)" in flow.preview(
        defaults(flow)
    )


def test_a_roll_that_carries_what_waits_on_opens_and_rolls_without_a_question() -> None:
    table = a_fight()
    carried: list[object] = []
    # The dialog opens without a question (no command yet); only the one roll carries on.
    table.system = Told(
        table.system, carries=lambda action, command: command is None or command in carried
    )
    flow = DialogFlow(table, "roll")
    assert flow.must_settle() == ""
    values = defaults(flow)
    with pytest.raises(Unsettled):
        flow.submit(values)
    carried.append(flow.prepare(values).command)
    assert flow.submit(values) == flow.prepare(values)
    assert "Not applied yet" not in flow.preview(values)


def test_a_half_typed_roll_carries_nothing_on() -> None:
    table = a_fight()
    table.system = Told(table.system, carries=lambda action, command: True)
    flow = DialogFlow(table, "roll")
    values = defaults(flow)
    assert "Not applied yet" not in flow.preview(values)
    key = next(iter(values))
    assert f"Not applied yet: {WAITING}" in flow.preview({**values, key: SPOILED})
    assert all(command is not NOT_KNOWN for _, command in table.system.asked)


def test_an_action_that_rolls_nothing_leaves_nothing_behind() -> None:
    table = a_fight()
    system = table.system
    quiet = next((a.id for a in system.actions(table.state) if a.id not in system.roll_actions), "")
    if not quiet:
        pytest.skip(f"{system.name}: every action rolls")
    table.system = Told(system)
    assert DialogFlow(table, quiet).must_settle() == ""


def test_the_preview_makes_the_command_only_while_something_waits() -> None:
    table = a_fight()
    table.system = Told(table.system, waiting="")
    flow = DialogFlow(table, "roll")
    assert "Not applied yet" not in flow.preview(defaults(flow))
    assert table.system.commands == 0


def test_an_action_the_system_has_not_is_refused() -> None:
    table = a_fight()
    with pytest.raises(Rejected, match=f"{table.system.title} has no action 'nope'"):
        DialogFlow(table, "nope")


def test_a_roll_from_the_dialogs_defaults_is_the_systems_command() -> None:
    history = people(2)
    table = Table(history.state, get_system(history.state.system))
    flow = DialogFlow(table, "roll")
    title = next(a.title for a in table.system.actions(table.state) if a.id == "roll")
    values = defaults(flow)
    command, label, moves = flow.submit(values)
    assert command == table.system.action_command(table.state, "roll", values)
    assert (label, moves) == (title, [])
    if table.system.has_odds:
        assert flow.odds(values) == table.system.odds(table.state, "roll", values)


def test_a_waiting_result_from_a_real_roll() -> None:
    history = people(2)
    roll_to_apply(history)
    table = Table(history.state, get_system(history.state.system))
    waiting = table.system.pending(table.state)
    assert waiting
    # Ending the turn always leaves it behind; a roll does unless the system carries it on.
    assert must_settle(table.system, table.state) == waiting
    carries = table.system.follow_up(table.state, "roll")
    assert DialogFlow(table, "roll").must_settle() == ("" if carries else waiting)


def test_the_form_is_preset_and_a_players_has_no_gm_approvals() -> None:
    table = a_fight()
    fields = DialogFlow(table, "roll").form("c1")
    choice = next((f for f in fields if f.kind == "choice" and len(f.choices) > 2), None)
    if choice is None:
        pytest.skip(f"{table.system.name}: the roll dialog has no choice of three")
    kept, approval = choice.choices[0][0], choice.choices[-1][0]
    table.system = Told(table.system, gm_choice=lambda key, value: value == approval)
    flow = DialogFlow(table, "roll")
    preset = flow.form("c1", {choice.key: approval})
    assert next(f for f in preset if f.key == choice.key).default == approval
    players = flow.form("c1", {choice.key: approval}, approves=False)
    offered = next(f for f in players if f.key == choice.key)
    assert approval not in [v for v, _ in offered.choices]
    assert offered.default == kept


def test_those_out_of_the_fight_come_after_the_rest() -> None:
    history = people(3)
    table = Table(history.state, get_system(history.state.system))
    fields = DialogFlow(table, "roll").form("c1")
    ids = {c.id for c in table.state.combatants}
    people_field = next((f for f in fields if any(v in ids for v, _ in f.choices)), None)
    if people_field is None:
        pytest.skip(f"{table.system.name}: the roll dialog names no one")
    first = next(v for v, _ in people_field.choices if v in ids)

    class OutFirst(Told):
        def out_of_fight(self, state: Encounter, combatant: Any) -> str:
            return "out" if combatant.id == first else ""

    table.system = OutFirst(table.system, waiting="")
    reordered = next(f for f in DialogFlow(table, "roll").form("c1") if f.key == people_field.key)
    named = [v for v, _ in reordered.choices if v in ids]
    assert named[-1] == first


def test_a_flow_reads_the_table_as_it_is_at_each_call() -> None:
    """A flow reads the table at each call, so a dialog kept open sees the fight go on."""
    history = people(2)

    class Live:
        system = get_system(history.state.system)

        @property
        def state(self) -> Encounter:
            return history.state

    flow = DialogFlow(Live(), "roll")
    before = flow.state
    run(history, flow.submit(defaults(flow)).command, SeededDice(1))
    assert flow.state is history.state and flow.state is not before
