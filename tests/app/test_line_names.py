"""Names on the `:` line at 80x24, by keys: a first name or a unique prefix finds the
combatant in every command, a word that fits several gets "did you mean A or B?", and
``:add`` with a mistyped stat block offers the library's nearest names, adding a blank sheet
only when asked (``blank``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.engine import new_encounter
from rules.history import History
from rules.registry import get_system
from rules.visibility import Viewer
from tests.app.line_support import context
from tests.app.support import until
from tests.app.test_app_command_line import type_line
from tests.app.test_initiative import WITH_ORDER, fight, initiative, line, order
from tests.app.test_layout import SMALL
from tests.picks import (
    a_system,
    every_system,
    has_bundled_foes,
    has_main_track,
    has_turn_order,
    knows_conditions,
)
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.line_commands.completion import complete
from tracker.line_commands.resolve import hint
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_keys.roles import may_use
from tracker.session import EncounterSession
from tracker.store import library


async def refused_with(pilot, text: str, wanted: str) -> None:  # type: ignore[no-untyped-def]
    """A line refused with ``wanted`` on the screen, the prompt still open, nothing done."""
    app = pilot.app
    records = len(app.session.history.records)
    await type_line(pilot, text)
    await until(pilot, lambda: wanted in screen_text(app), f"{wanted!r}")
    assert isinstance(app.screen, CommandLineScreen)
    assert len(app.session.history.records) == records


async def test_a_first_name_or_a_unique_prefix_finds_the_combatant(tmp_path: Path) -> None:
    app = fight(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        for name in ('"Orla Vance" party', "Bram party", "Goblin"):
            await line(pilot, f"add {name}")
        await line(pilot, "init orla 17")  # her first name
        await line(pilot, "init gob 12")  # a prefix only the goblin's name has
        await line(pilot, "init BR 5")  # in any case
        assert initiative(app) == {"Orla Vance": 17, "Bram": 5, "Goblin": 12}
        await line(pilot, "order gob before orla")
        assert order(app)[0] == "Goblin"
        await line(pilot, "cond orl Prone")
        assert [c.name for c in app.session.state.combatants[1].conditions] == ["Prone"]


async def test_a_word_that_fits_several_gets_did_you_mean_both(tmp_path: Path) -> None:
    app = fight(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        for name in ('"Orla Vance" party', '"Orc Brute"', "Bram party"):
            await line(pilot, f"add {name}")
        wanted = "'or' fits 2 combatants: did you mean 'Orla Vance' or 'Orc Brute'?"
        for text in ("init or 12", "cond or Prone", "order bram after or"):
            await refused_with(pilot, text, wanted)
            await pilot.press("escape")


def library_app(tmp_path: Path) -> tuple[TrackerApp, str]:
    """An empty fight with the bundled library, and the name of one of its foes."""
    system = a_system(has_bundled_foes)
    foe = next(e for e in library.load(None).of(system) if e.side == "foes")
    history = History(new_encounter("Ambush", system))
    session = EncounterSession(history, ScriptedDice([1] * 200), tmp_path / "ambush.fight")
    return TrackerApp(session, saves=tmp_path, library=tmp_path / "lib"), foe.name


async def test_add_a_mistyped_stat_block_offers_the_nearest_and_blank_adds_one(
    tmp_path: Path,
) -> None:
    app, foe = library_app(tmp_path)
    typo = foe.split()[-1][:-1].lower()  # "Bog Goblin" -> "gobli"
    async with app.run_test(size=SMALL) as pilot:
        await refused_with(pilot, f"add {typo}", f"no stat block '{typo}': did you mean")
        assert f"'{foe}'" in screen_text(app) and f"add {typo} blank" in screen_text(app)
        await pilot.press("escape")
        assert not app.session.state.combatants
        await line(pilot, f"add {typo} blank")
        assert [c.name for c in app.session.state.combatants] == [typo]


async def test_a_mistyped_condition_the_rules_know_gets_did_you_mean(tmp_path: Path) -> None:
    system = a_system(knows_conditions)
    known = get_system(system).condition_names()[0]  # "blinded"
    slip = known[:-2] + known[-1]  # "blindd"
    app = fight(tmp_path, system=system)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, 'add "Orla Vance" party')
        await refused_with(pilot, f"cond orla {slip}", f"did you mean '{known}'?")
        await pilot.press("escape")
        await line(pilot, f"cond orla {known}")
        await line(pilot, "cond orla Marked")  # a label of the table's own, far from all
        names = [c.name.casefold() for c in app.session.state.combatants[0].conditions]
        assert names == [known.casefold(), "marked"]


async def test_wound_heal_uncond_and_keep_find_a_name_and_say_did_you_mean(
    tmp_path: Path,
) -> None:
    app = fight(tmp_path, system=a_system(has_turn_order, has_main_track))
    async with app.run_test(size=SMALL) as pilot:
        for name in ('"Orla Vance" party', "Goblin"):
            await line(pilot, f"add {name}")
        await line(pilot, "cond orla Prone")
        before = len(app.session.history.records)
        for text in ("wound gob", "wound orla", "heal orla", "uncond orl prone"):
            await line(pilot, text)
        assert len(app.session.history.records) == before + 4
        assert app.session.state.combatants[0].conditions == ()
        for command in ("wound", "heal", "uncond", "keep"):
            wanted = "no combatant 'orlaa': did you mean 'Orla Vance'?"
            await refused_with(pilot, f"{command} orlaa", wanted)
            await pilot.press("escape")


def test_a_players_completions_and_hint_offer_none_of_the_gms_commands() -> None:
    history = History(new_encounter("Ambush", WITH_ORDER.name))
    player = Viewer(role="player", name="Ana")
    ctx = context(history, allows=lambda a, arg: may_use(player, WITH_ORDER.name, a, arg))
    offered = complete(":", ctx).options
    gms = ("add", "wound", "heal", "order", "undo", "redo", "keep", "save", "open", "export")
    assert "cond" in offered and "note" in offered and "attack" in offered
    assert not set(gms) & set(offered), offered
    assert not set(gms) & set(complete(":help ", ctx).options)
    shown = hint(":", ctx).removeprefix("commands: ").split()
    assert "cond" in shown and not set(gms) & set(shown), shown
    gm = context(history)  # the GM is offered every one
    assert set(gms) <= set(complete(":", gm).options)


@pytest.mark.parametrize("system", every_system())
def test_the_cond_hint_lists_the_systems_own_endings(system: str) -> None:
    ctx = context(History(new_encounter("Ambush", system)))
    shown = hint(":cond ", ctx)
    endings = get_system(system).condition_line_endings()
    assert shown.startswith("cond NAME CONDITION [N | round | next-turn")
    assert all(f" | {ending}" in shown for ending in endings), shown
    firsts = [ending.split()[0] for ending in endings]
    assert set(firsts) <= set(complete(":cond orla prone ", ctx).options)
