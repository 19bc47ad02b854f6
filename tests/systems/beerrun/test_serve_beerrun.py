"""A served Beer Run table: rolling the round is the GM's, so a player is offered no roll."""

from __future__ import annotations

import json

from msgspec.structs import replace

from rules.systems.beerrun.events import GoalGained
from rules.visibility import Viewer, follow, hidden_ids
from tests.serve.test_hidden import HIDDEN_NAME, fight
from tracker.screens.encounter_keys.roles import may_use
from tracker.store import export

ALICE = Viewer(role="player", name="Alice")


def test_a_player_is_offered_no_roll() -> None:
    assert not may_use(ALICE, "beerrun", "roll")  # rolling the round is the GM's
    assert not may_use(ALICE, "beerrun", "quick_turn")


def test_a_goal_gained_over_a_hidden_one_names_nobody_hidden() -> None:
    """Found by tests/serve/test_hidden.py: the demo's third combatant hidden, the tracker
    playing a side, the next turn and a round rolled. Mags gained her goal "(Zorbex1's
    Health is at zero)", in the players' live log and export: the reason was written with
    the hidden one's name, and no id field said whom it was about."""
    history, live, _ = fight("beerrun", [2], [("solo", 1), ("next", 0), ("roll", 0)], 0)
    gained = [e for e in history.effective_events() if isinstance(e, GoalGained)]
    assert gained and gained[0].about_id is not None  # whom the reason is about, by id
    player = json.dumps(export.to_json(history))
    for text in ("\n".join(live.lines), export.to_markdown(history), player):
        assert HIDDEN_NAME not in text
    assert "gains its goal" in export.to_markdown(history, gm=True)  # the GM's log has it


def test_an_older_saves_goal_gained_over_a_hidden_one_is_not_shown() -> None:
    """A goal gained in a save from before ``about_id``: its words alone name the hidden one."""
    history, _, _ = fight("beerrun", [2], [("solo", 1), ("next", 0), ("roll", 0)], 0)
    older = [
        replace(e, about_id=None) if isinstance(e, GoalGained) else e
        for e in history.effective_events()
    ]
    state = history.state
    hidden = frozenset(hidden_ids(history.effective_events(), state))
    pairs = list(zip(older, [before for _, before in history.in_effect()], strict=True))
    seen, _ = follow(pairs, state, hidden)
    assert not [e for e, _ in seen if isinstance(e, GoalGained) and HIDDEN_NAME in e.reason]
