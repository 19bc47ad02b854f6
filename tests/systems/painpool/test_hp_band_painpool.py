"""A challenge whose health tokens a player's seat sees as a band (`:hp foes band`): the
seat reads the tokens lost, not how many are left; the GM reads both."""

from __future__ import annotations

from rules.systems.painpool.events import TokensLost
from tests.seat_view import banded, seat_line
from tests.systems.painpool.last_blow import build


def test_a_banded_challenge_does_not_say_the_tokens_left_on_the_seat() -> None:
    history = banded(build())  # the Goblin's 2 tokens
    lost = TokensLost(challenge_id="c2", tokens=1)
    assert "loses 1 health token: 1 left" in seat_line(history, lost, gm=True)
    seen = seat_line(history, lost)
    assert "loses 1 health token" in seen and "left" not in seen
