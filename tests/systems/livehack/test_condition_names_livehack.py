"""LiveHack's conditions by name: a slip for one the rules lay or read ("Prne") is asked
"did you mean", a name far from all is the table's own label (#42, item 8)."""

from __future__ import annotations

from pathlib import Path

from rules.registry import get_system
from rules.systems.livehack.decide import FALLS_DOWN
from rules.systems.livehack.events import CANNOT_ACT, CONDITION_DURATIONS, DAZED
from tests.app.support import until
from tests.app.test_app_command_line import type_line
from tests.app.test_initiative import fight, line
from tests.app.test_layout import SMALL
from tests.screen import screen_text

SYSTEM = get_system("livehack")


def test_every_condition_the_rules_lay_or_read_is_known_by_name() -> None:
    known = set(SYSTEM.condition_names())
    laid = {*CONDITION_DURATIONS, *DAZED, *CANNOT_ACT, *FALLS_DOWN, "Prone", "Stabilized"}
    assert laid <= known
    for name in known:
        assert SYSTEM.condition_note(name) == ""


def test_a_slip_for_prone_is_asked_did_you_mean_and_a_label_is_the_tables_own() -> None:
    assert SYSTEM.condition_note("Prne").endswith("(did you mean Prone?)")
    assert SYSTEM.condition_note("Incapacitatd").endswith("(did you mean Incapacitated?)")
    assert SYSTEM.condition_note("Inspired").endswith("a label with no rules effect")


async def test_the_line_asks_did_you_mean_prone_for_prne(tmp_path: Path) -> None:
    app = fight(tmp_path, system="livehack")
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, 'add "Orla Vance" party')
        await type_line(pilot, "cond orla prne")
        said = "did you mean 'Prone'?"
        await until(pilot, lambda: said in screen_text(app), "the slip told")
        assert app.session.state.combatants[0].conditions == ()
