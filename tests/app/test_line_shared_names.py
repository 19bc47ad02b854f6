"""A name on the `:` line that is both one of the app's commands and a system action's id or
title (in every system, on its demo): the app's command takes the words it fits, the action
any others, so an action's words are never lost to the app's command (``:save`` with a save
effect's words once saved the file); ``:help`` lists both; a command that takes no words
refuses them rather than ignore them."""

from __future__ import annotations

import pytest

from rules.forms import Field
from rules.registry import get_system
from tests.contract.support import demo
from tests.picks import every_system
from tracker.line_commands.completion import complete
from tracker.line_commands.names import norm, slug
from tracker.line_commands.outcomes import Context, Execute, ScreenAction
from tracker.line_commands.resolve import resolve, usage
from tracker.line_commands.table import BUILTIN_NAMES, BUILTINS

PALETTE = (("Replay", "replay", "key: R"),)
ROLLS = ("attack", "roll")  # the app's commands that are the system's roll already


def context(system: str) -> Context:
    state = demo(system).state
    return Context(state=state, system=get_system(system), palette=PALETTE)


def shared(system: str) -> list[tuple[str, str, str]]:
    """(name, action id, action title) of each built-in's name one of the system's actions has."""
    ctx = context(system)
    found = []
    for action in ctx.system.actions(ctx.state):
        for name in dict.fromkeys((norm(action.id), slug(action.title))):
            if name in BUILTIN_NAMES and not (name in ROLLS and action.id == "roll"):
                found.append((name, action.id, action.title))
    return found


SHARED = [(system, *names) for system in every_system() for names in shared(system)]


def words_for(field: Field) -> str:
    """``+key value``: the field's own default, by its key."""
    return f"+{norm(field.key)} {field.default or 'x'}"


@pytest.mark.parametrize(("system", "name", "action_id", "title"), SHARED)
def test_a_shared_name_with_the_actions_words_is_the_action(
    system: str, name: str, action_id: str, title: str
) -> None:
    ctx = context(system)
    fields = ctx.system.action_form(ctx.state, action_id, None)
    words = " ".join(words_for(f) for f in fields[:2])
    outcome = resolve(f"{name} {words}", ctx)
    assert isinstance(outcome, Execute) and outcome.action == action_id, outcome
    said = usage(ctx, name)
    assert said.startswith(name) and BUILTIN_NAMES[name].help in said, said
    assert f"with other words, {title}: {name} [ACTOR]" in said, said
    # Completion offers the action's field names too.
    assert f"+{norm(fields[0].key)}" in complete(f":{name} +", ctx).options


@pytest.mark.parametrize(("system", "name", "action_id", "title"), SHARED)
def test_a_shared_name_alone_or_with_its_own_words_is_the_apps(
    system: str, name: str, action_id: str, title: str
) -> None:
    ctx = context(system)
    alone = resolve(name, ctx)
    if BUILTIN_NAMES[name].usage:  # it needs words: alone, the action's dialog opens
        assert alone == ScreenAction(f"system({action_id!r})")
    else:
        assert isinstance(alone, ScreenAction) and not alone.action.startswith("system(")


WORDLESS = [b.name for b in BUILTINS if not b.usage]


@pytest.mark.parametrize("system", every_system())
@pytest.mark.parametrize("name", WORDLESS)
def test_a_command_that_takes_no_words_refuses_them(system: str, name: str) -> None:
    if any(found == name for found, _, _ in shared(system)):
        pytest.skip(f"{name} is also an action of this system (tested above)")
    with pytest.raises(Exception, match=f"^{name} takes no words$"):
        resolve(f"{name} now please", context(system))
