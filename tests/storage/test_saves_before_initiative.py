"""Saves from before initiative (the committed demos) still open: the new fields default."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker import storage

SAVES = Path(__file__).resolve().parents[2] / "saves"


@pytest.mark.parametrize("save", sorted(SAVES.glob("*.fight")), ids=lambda p: p.name)
def test_a_save_from_before_initiative_still_opens(save: Path) -> None:
    history = storage.read(save)  # the committed demos predate the fields
    assert history.state.combatants
    assert all(c.initiative is None and c.group == "" for c in history.state.combatants)
