"""LiveHack's damage roll through the dialog flow (``tracker/dialog_flow.py``), no app: after
a hit the roll dialog opens without a question, its damage roll rolls, any other roll is
asked about first, and ending the turn always is."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rules.encounter import Encounter
from rules.history import History
from rules.system import RuleSystem
from rules.systems.livehack.system import SYSTEM
from tests.systems.livehack.test_pending_livehack import hit
from tracker.dialog_flow import DialogFlow, Unsettled, must_settle

WAITING = "Orla's damage roll on Goblin (Fortitude, +2 rolled over)"


@dataclass
class Table:
    history: History
    system: RuleSystem = SYSTEM

    @property
    def state(self) -> Encounter:
        return self.history.state


def test_after_a_hit_only_its_damage_roll_rolls_without_a_question() -> None:
    table = Table(hit(12))
    flow = DialogFlow(table, "roll")
    assert flow.must_settle() == ""  # r and t open the dialog at once
    values = {f.key: f.default for f in flow.form("c1")}
    damage = flow.submit(values)  # the dialog's defaults are the damage roll
    assert SYSTEM.follow_up(table.state, "roll", damage.command)
    assert "Not applied yet" not in flow.preview(values)
    to_hit = {**values, "defense": "reflex"}
    with pytest.raises(Unsettled, match="Not applied yet: Orla's damage roll on Goblin"):
        flow.submit(to_hit)
    assert f"Not applied yet: {WAITING} (Enter asks first)" in flow.preview(to_hit)
    assert DialogFlow(table, "grim").must_settle() == WAITING  # a grim test is no damage roll
    assert must_settle(SYSTEM, table.state) == WAITING  # n: the end of the turn asks


def test_a_half_typed_damage_roll_is_asked_about() -> None:
    flow = DialogFlow(Table(hit(12)), "roll")
    values = {f.key: f.default for f in flow.form("c1")}
    assert "Not applied yet" not in flow.preview(values)
    # Until it parses, the roll is not known to be the damage roll: Enter would ask.
    assert f"Not applied yet: {WAITING}" in flow.preview({**values, "effort": "zz"})
