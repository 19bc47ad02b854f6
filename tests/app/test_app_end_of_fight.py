"""The end of a fight in the app, at 80x24, in each system: the last blow by keys (t, Enter,
Enter), then Fight over in the header, the summary opening by itself with its figures, ✗ and
the word in the combatants pane, n refused then confirmed, t refused, f and the palette."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rules.commands import AddCombatant, AddCondition, SetSolo
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.events import SoloChose
from rules.history import History
from rules.systems.beerrun.events import BuildPool, SetCategories
from rules.systems.beerrun.sheet import BeerRunSheet, parse_abilities
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from rules.systems.livehack.sheet import LiveHackSheet
from rules.systems.painpool.sheet import ChallengeSheet, HeroSheet
from tests.app.support import from_palette, until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.encounter import EncounterScreen
from tracker.screens.summary import SummaryScreen
from tracker.session import EncounterSession

SMALL = (80, 24)
PISTOL = Weapon(name="Pistol", kind="gun", n=2, fumble=8, hits=(10, 30, 60, 100))


def encounter(system: str, *commands: object) -> History:
    history = History(new_encounter("Pit", system))
    for command in commands:
        history.commit(decide(history.state, command, ScriptedDice([])))
    return history


def livehack() -> History:
    return encounter(
        "livehack",
        AddCombatant(name="Orla", side="party", sheet=LiveHackSheet(attack=5)),
        AddCombatant(name="Goblin", side="foes", sheet=LiveHackSheet()),
    )


def fatigue() -> History:
    orla = FatigueSheet(skills=(Skill("Pistol", 25),), weapons=(PISTOL,))
    return encounter(
        "fatigue",
        AddCombatant(name="Orla", side="party", sheet=orla),
        AddCombatant(name="Goblin", side="foes", sheet=FatigueSheet()),
    )


def beerrun() -> History:
    def sheet(abilities: str) -> BeerRunSheet:
        return BeerRunSheet(abilities=parse_abilities(abilities), intensity=10)

    return encounter(
        "beerrun",
        SetCategories(("Body", "Mind")),
        AddCombatant(name="Orla", side="party", sheet=sheet("Body: Fencing d8, Health d6")),
        AddCombatant(name="Goblin", side="foes", sheet=sheet("Body: Stab d10, Health d2")),
        BuildPool(combatant_id="c1", extra=("Health",), against="c2"),  # paid: t rolls it
    )


def painpool() -> History:
    return encounter(
        "painpool",
        AddCombatant(name="Orla", side="party", sheet=HeroSheet()),
        AddCombatant(name="Goblin", side="foes", sheet=ChallengeSheet(pool=3, tokens=2)),
    )


# (the fight before the last blow, the blow's dice, the word for the fallen Goblin, the figures
# of the summary: Orla's dealt, the unit, and the rolls of the blow)
FIGHTS = [
    # LiveHack's blow is two rolls: the hit (margin 15, +3) and its damage roll (margin 18:
    # four Wounds and Dying), which the quick turn's Enter rolls; d applies its table.
    (livehack, (11, 1, 1, 1, 11, 1, 1, 1), "dying", "4", "levels", 2),
    (fatigue, (20, 1), "dead", "70", "pool points", 1),  # lost by 44: 100 Health, HP -30/30
    (beerrun, (8, 6, 6), "dead", "2", "pips", 1),  # three successes on a Health d2
    (painpool, (5, 3, 2, 1, 1, 1), "passed", "2", "points", 1),  # 10 against 3: both tokens
]
LIVEHACK_BLOW = ("t", "enter", "enter", "d")  # the quick turn, then the damage roll's table


def make_app(tmp_path: Path, history: History, faces: tuple[int, ...]) -> TrackerApp:
    session = EncounterSession(history, ScriptedDice(list(faces)), tmp_path / "pit.fight")
    return TrackerApp(session, saves=tmp_path)


def row_of(app: TrackerApp, name: str, frame: str = "┃") -> str:
    """The row naming ``name`` in the pane (┃) or the summary dialog (█), spaces squeezed."""
    rows = (line for line in screen_text(app).splitlines() if line.startswith(frame))
    return " ".join(next(line for line in rows if f" {name} " in line).split())


def notices(app: TrackerApp) -> str:
    """The notifications shown now, whole (a toast wraps its lines at 80 columns)."""
    return "\n".join(notice.message for notice in app._notifications)  # private, tests only


@pytest.mark.parametrize(
    ("build", "faces", "word", "dealt", "unit", "rolls"),
    FIGHTS,
    ids=["livehack", "fatigue", "beerrun", "painpool"],
)
async def test_the_last_blow_by_keys_ends_the_fight(
    tmp_path: Path,
    build: Callable[[], History],
    faces: tuple[int, ...],
    word: str,
    dealt: str,
    unit: str,
    rolls: int,
) -> None:
    app = make_app(tmp_path, build(), faces)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("t", "enter")  # the quick turn: Orla against the Goblin, rolled
        await pilot.pause()
        assert "Fight over" not in screen_text(app)  # not before the blow lands
        await pilot.press("enter", *(("d",) if rolls == 2 else ()))  # applied
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)  # by itself, once
        app.clear_notifications()  # the blow's alerts would cover the summary's last lines
        await pilot.pause()
        text = screen_text(app)
        assert "Fight over: party won" in text
        over = f"over {rolls} roll{'s' if rolls > 1 else ''}"
        assert f"1 round · {over[5:]} · damage in {unit}" in text
        # Out, dealt, taken, rolls, then the sheet's own stats.
        assert row_of(app, "Orla", "█").startswith(f"█ Orla party in {dealt} 0 {rolls} ")
        goblin = f"█ Goblin foes ✗ {word} 0 {dealt} {rolls} "
        assert row_of(app, "Goblin", "█").startswith(goblin)
        assert "party: " in text and f"(luckier than the odds), {over}" in text
        assert "foes: " in text and f"(unluckier than the odds), {over}" in text

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        text = screen_text(app)
        assert "Fight over: party won" in text.splitlines()[0]  # the header
        assert f"✗ {word}" in row_of(app, "Goblin") and "✗" in row_of(app, "Goblin")
        await pilot.press("f")  # the summary again, whenever asked
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)


@pytest.mark.slow
async def test_n_stops_at_the_end_and_asks_before_playing_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack(), FIGHTS[0][1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press(*LIVEHACK_BLOW)
        await pilot.pause()
        await pilot.press("escape")  # the summary
        await pilot.pause()
        records = len(app.session.history.records)
        await pilot.press("n")
        await pilot.pause()
        assert len(app.session.history.records) == records  # the turn did not end
        assert "Fight over: party won: n no longer ends the turn" in notices(app)
        assert isinstance(app.screen, EncounterScreen)
        await pilot.press("t")  # nothing left to roll either
        await pilot.pause()
        assert "Fight over: party won: nothing left to roll" in notices(app)
        assert isinstance(app.screen, EncounterScreen)

        await pilot.press("n")  # again: a small dialog asks
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Play on with the next turn anyway?" in screen_text(app)
        await pilot.press("n")  # no
        await pilot.pause()
        assert len(app.session.history.records) == records
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("y")  # yes: the GM plays on, deliberately
        await pilot.pause()
        assert app.session.state.current_id == "c2"
        assert isinstance(app.screen, EncounterScreen)
        await pilot.press("n")  # and goes on without being asked again
        await pilot.pause()
        assert app.session.state.round == 2

        await pilot.press("u", "u", "u")  # undo the turns and the blow: the fight is on again
        await pilot.pause()
        assert "Fight over" not in screen_text(app).splitlines()[0]
        assert "▶ Orla's turn" in screen_text(app)


async def test_the_summary_is_in_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack(), ())
    async with app.run_test(size=SMALL) as pilot:
        await from_palette(pilot, "Fight summary")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        assert "The fight so far (not over)" in screen_text(app)  # any time, not only at the end


async def test_the_quick_turn_refuses_an_actor_out_of_the_fight(tmp_path: Path) -> None:
    history = livehack()
    history.commit(decide(history.state, AddCondition("c1", "Dying"), ScriptedDice([])))
    history.commit(decide(history.state, AddCombatant(name="Brak", side="party"), None))
    app = make_app(tmp_path, history, ())
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert "Orla is out of the fight (dying): n passes its turn" in notices(app)


async def test_an_encounter_opened_over_shows_it_without_the_summary(tmp_path: Path) -> None:
    history = livehack()
    history.commit(decide(history.state, AddCondition("c2", "Dead"), ScriptedDice([])))
    app = make_app(tmp_path, history, ())
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert "Fight over: party won" in screen_text(app).splitlines()[0]


async def test_a_solo_side_plays_no_more_once_the_fight_is_over(tmp_path: Path) -> None:
    history = livehack()
    history.commit(decide(history.state, SetSolo("foes"), ScriptedDice([])))
    app = make_app(tmp_path, history, FIGHTS[0][1])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*LIVEHACK_BLOW)
        await pilot.pause()
        await pilot.press("escape", "n", "n", "y")  # the GM plays on to the Goblin's turn
        await pilot.pause()
        state = app.session.state
        assert state.current_id == "c2"  # the dying Goblin's turn: the tracker passes nothing
        last = app.session.history.applied_in_effect()[-1]
        assert not any(isinstance(event, SoloChose) for event in last.events)


async def test_applying_from_the_question_that_ends_the_fight_ends_no_turn(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, livehack(), (11, 1, 1, 1) * 2)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("t", "enter", "escape")  # a hit
        await pilot.pause()
        await pilot.press("d")  # its damage roll; the blow not applied yet
        await pilot.pause()
        assert "waiting (d)" in screen_text(app)
        await pilot.press("n")  # asks first
        await pilot.pause()
        assert "Not applied yet" in screen_text(app)
        await pilot.press("d")  # applied from the question: the Goblin falls
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.outcome().over
        assert app.session.state.current_id == "c1"  # still Orla's turn: the fight is over
        assert app.session.state.round == 1
        assert isinstance(app.screen, SummaryScreen)  # the summary instead
        assert "Fight over: party won" in screen_text(app)
