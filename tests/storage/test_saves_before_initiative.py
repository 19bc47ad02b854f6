"""Saves from before initiative still open: the new fields of a combatant (its initiative,
its group) take their defaults. ``tests/data/before-initiative/`` holds the demos as they
were committed in ``saves/`` before them; the demos there now are rebuilt (``make demo``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import snapshot
from rules.commands import RollInitiative
from rules.dice import SeededDice
from rules.engine import decide
from rules.registry import get_system, names
from tracker.store import storage

BEFORE = Path(__file__).resolve().parents[1] / "data" / "before-initiative"
KEPT = sorted(BEFORE.glob(f"*{storage.SUFFIX}"))
# A deleted system's old save is not opened (it would be refused, rightly): `make without`.
SAVES = [save for save in KEPT if snapshot.read_header(save.read_bytes()).system in names()]


def test_there_are_old_saves_to_open() -> None:
    assert len(KEPT) >= 4 and SAVES


@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.name)
def test_a_save_from_before_initiative_opens_and_plays_on(save: Path, tmp_path: Path) -> None:
    history = storage.read(save)
    state = history.state
    assert state.combatants
    assert all(c.initiative is None and c.group == "" for c in state.combatants)
    if get_system(state.system).uses_turn_order:  # and initiative works on it
        history.commit(decide(state, RollInitiative(), SeededDice(1)), "roll initiative")
        assert all(c.initiative is not None for c in history.state.combatants)
        copy = tmp_path / save.name
        storage.write(copy, history)
        assert storage.read(copy).state == history.state  # saved with it, and read back
