"""A choice of combatants offers those out of the fight after the others in every dialog, by
keys at 80x24 (docs/guide/playing.md, "In a dialog"): the condition dialog's Combatant and
its Whose turn, the note's About, the initiative's Who; as the Attack dialog always did.
``z`` on the condition's Combatant went to a dead Zombie 1 before a live Zombie 2."""

from __future__ import annotations

from pathlib import Path

from rules.dice import ScriptedDice
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, history_of
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.widgets.choice import Choice

SIZE = (80, 24)
DEAD = card(hp="0/12", ac="8")
ORDER = ["Bram", "Troll", "Zombie 2", "Orla", "Zombie 1"]  # the living, then the out


def graveyard():  # type: ignore[no-untyped-def]
    """Bram, Troll, Orla (down at 0), Zombie 1 (dead) and Zombie 2, in that order."""
    return history_of(
        ("Bram", "party", HERO_SHEET),
        ("Troll", "foes", FOE_SHEET),
        ("Orla", "party", card("hero", hp="0/20", ac="15")),
        ("Zombie 1", "foes", DEAD),
        ("Zombie 2", "foes", FOE_SHEET),
    )


def choice(app, key: str) -> Choice:  # type: ignore[no-untyped-def]
    return app.screen.query_one(f"#field-{key}", Choice)


def names(app, key: str) -> list[str]:  # type: ignore[no-untyped-def]
    state = app.session.state
    return [state.combatant(v).name for v, _ in choice(app, key).options if state.find(v)]


async def opened(pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: isinstance(pilot.app.screen, EncounterScreen), "the encounter")
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, FormScreen), f"{key}'s dialog")


async def test_z_on_the_conditions_combatant_finds_the_live_zombie_first(tmp_path: Path) -> None:
    app = make_app(tmp_path, ScriptedDice([]), graveyard())
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "c")
        assert names(app, "who") == ORDER
        await pilot.press("up")  # from the Condition's name to the Combatant
        await until(pilot, lambda: app.screen.focused is choice(app, "who"), "on Combatant")
        await pilot.press("z")
        await until(pilot, lambda: choice(app, "who").value == "c5", "Zombie 2, alive")
        assert "◀ Zombie 2 ▶" in screen_text(app)
        assert names(app, "whose") == ORDER  # the system's own field: Whose turn
        await pilot.press("escape")
        await opened(pilot, "o")
        assert names(app, "about") == ORDER
        await pilot.press("escape")
        await opened(pilot, "i")
        assert names(app, "who") == ORDER
