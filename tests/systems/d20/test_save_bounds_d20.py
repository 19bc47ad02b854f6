"""Generic d20's counts that drive a loop (Multiattack: the attacks solo play and the quick
key make, one by one; legendary actions) are bounded where a save is read, as the sheet's form
bounds them where they are typed: a save pack's Multiattack of 10**9 once took 20 GB."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec import structs

from rules.commands import AddCombatant, EditCombatant
from rules.dice import SeededDice
from rules.engine import decide
from rules.errors import Rejected
from rules.systems.d20.sheet import MAX_MULTIATTACK
from rules.systems.d20.table import MAX_LEGENDARY
from tests.cli.support import measured, tracker
from tests.storage.test_save_counts import crowded, plain_export, refused_at_once
from tests.systems.d20.support import FOE_SHEET, duel, history_of
from tracker.store import storage

TROLL = structs.replace(FOE_SHEET, multiattack=MAX_MULTIATTACK, legendary=MAX_LEGENDARY)


@pytest.mark.parametrize(
    ("field", "value"), [("multiattack", 10**9), ("multiattack", 11), ("legendary", 10**6)]
)
@pytest.mark.parametrize("command", ["export", "open"])
def test_a_save_with_a_count_past_its_form_is_refused_at_once(
    tmp_path: Path, field: str, value: int, command: str
) -> None:
    path = tmp_path / "troll.fight"
    before = crowded(path, 3, first=history_of(("Troll", "foes", TROLL)), **{field: value})
    done = measured("--saves", str(tmp_path), command, str(path))
    refused_at_once(done, plain_export(tmp_path), path, f"{field}`")
    assert done.stderr.startswith(f"tracker: {path}: it holds more than a save may")
    assert path.read_bytes() == before


def test_the_most_the_form_takes_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "troll.fight"
    crowded(path, 3, first=history_of(("Troll", "foes", TROLL)))
    sheets = {c.sheet for c in storage.read(path).state.combatants}
    assert sheets == {TROLL}


@pytest.mark.parametrize("change", [{"multiattack": 10**9}, {"legendary": MAX_LEGENDARY + 1}])
def test_a_sheet_past_its_bounds_is_refused_however_it_is_added(change: dict[str, int]) -> None:
    """Not only through the form (a served seat's command, a script, a stat block read)."""
    state = duel()
    beyond = structs.replace(FOE_SHEET, **change)
    for command in (
        AddCombatant(name="Troll", sheet=beyond),
        EditCombatant(combatant_id="c2", sheet=beyond),
    ):
        with pytest.raises(Rejected, match="more than a save may"):
            decide(state, command, SeededDice(1))


def test_a_stat_block_with_a_multiattack_past_the_form_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    block = tmp_path / "troll.toml"
    block.write_text(
        'name = "Troll"\nsystem = "d20"\n[sheet]\nmultiattack = 1000000000\n', encoding="utf-8"
    )
    done = tracker("library", "--library", str(tmp_path / "library"), "add", str(block))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"Multiattack must be between 1 and {MAX_MULTIATTACK}" in done.stderr
