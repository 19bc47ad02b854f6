"""A readied reaction in Generic d20 (`:ready`, then `:act`): taken with the creature's
reaction, so its action economy counts it and a second reaction that round is refused."""

from __future__ import annotations

import pytest

from rules.commands import Act, Ready
from rules.errors import Rejected
from rules.systems.d20.events import D20Reaction, D20ReactionUsed
from tests.systems.d20.support import duel, run


def test_a_readied_reaction_is_taken_with_the_creatures_reaction() -> None:
    state, _ = run(duel(), Ready("c2", "when Orla steps in"))
    state, events = run(state, Act("c2"))
    assert any(isinstance(e, D20ReactionUsed) for e in events)
    with pytest.raises(Rejected, match="used its reaction this round"):
        run(state, D20Reaction("c2", "a parry"))


def test_one_whose_reaction_is_spent_cannot_take_what_it_readied() -> None:
    state, _ = run(duel(), D20Reaction("c2", "a parry"))
    state, _ = run(state, Ready("c2", "when Orla steps in"))
    with pytest.raises(Rejected, match="used its reaction this round"):
        run(state, Act("c2"))
