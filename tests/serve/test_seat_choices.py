"""A dialog opened on a player's seat offers their own combatants alone as the one who acts
(one acting now the default), and the other side first as targets."""

from __future__ import annotations

from pathlib import Path

from tests.app.support import until
from tests.screen import screen_text
from tests.serve.serve_helpers import table as table_at
from tracker.screens.form import FormScreen
from tracker.serve.seat_app import TableApp

SMALL = (80, 24)


def combatant_choices(form: FormScreen, names: set[str]) -> list[tuple[str, list[str]]]:
    """Each choice of combatants in the dialog: its field's default's name, and its names."""
    by_id = {c.id: c.name for c in form.app.table.session.state.combatants}  # type: ignore[attr-defined]
    return [
        (by_id.get(field.default, ""), [by_id[v] for v, _ in field.choices if v in by_id])
        for field in form.fields
        if field.kind == "choice" and {label for _, label in field.choices} & names
    ]


async def test_a_players_dialog_offers_their_own_to_act_and_the_other_side_first(
    tmp_path: Path,
) -> None:
    table = table_at(tmp_path / "cellar.fight")
    state = table.session.state
    brak = next(c for c in state.combatants if c.name == "Brak")
    table.assign("Alice", frozenset({brak.id}))  # Orla acts now: not Alice's
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(alice.screen, FormScreen), "the roll dialog")
        form = alice.screen
        assert isinstance(form, FormScreen)
        (actor, acts), (_, targets), *_ = combatant_choices(form, {"Orla", "Brak", "Goblin"})
        assert (actor, acts) == ("Brak", ["Brak"])
        assert targets[0] == "Goblin" and set(targets) == {"Goblin", "Orla", "Brak"}
        assert "Brak" in screen_text(alice)
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=SMALL) as pilot:  # the GM's dialog offers everyone
        await pilot.press("r")
        await until(pilot, lambda: isinstance(gm.screen, FormScreen), "the GM's dialog")
        assert isinstance(gm.screen, FormScreen)
        (actor, acts), *_ = combatant_choices(gm.screen, {"Orla", "Brak", "Goblin"})
        assert actor == "Orla" and {"Orla", "Brak", "Goblin"} <= set(acts)
