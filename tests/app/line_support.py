"""What the `:` command line's tests share: a line resolved or completed against a history,
as the app's encounter screen would, with a small palette."""

from __future__ import annotations

import pytest

from rules.errors import Rejected
from rules.history import History
from rules.registry import get_system
from tracker.line_commands.completion import complete
from tracker.line_commands.outcomes import Context, Execute
from tracker.line_commands.resolve import resolve

PALETTE = (
    ("Next turn/round", "next_turn", "key: n"),
    ("Replay", "replay", "key: R"),
    ("Add", "add_combatant", "key: a"),
    ("Quit", "quit", "key: q"),
    ("LiveHack: Grim test", "system('grim')", ""),
)


def context(history: History, **kw: object) -> Context:
    state = history.state
    return Context(state=state, system=get_system(state.system), palette=PALETTE, **kw)  # type: ignore[arg-type]


def run(line: str, history: History, **kw: object) -> object:
    outcome = resolve(line, context(history, **kw))
    assert isinstance(outcome, Execute), outcome
    return outcome.command


def refused(line: str, history: History) -> str:
    with pytest.raises(Rejected) as caught:
        resolve(line, context(history))
    return caught.value.message


def options(line: str, history: History) -> list[str]:
    return complete(line, context(history)).options
