"""What the generic tests need to drive a system by keys, with defaults that suit most.

A system whose demo needs another seed or other keys says so in its own ``testing`` part
(``rules/systems/<name>/testing.py``, holding ``KIT = Kit(...)``); a system without one gets
the defaults. Plain data, read only by tests: nothing here runs in the app.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.registry import part

Keys = tuple[str, ...]


class Kit(NamedTuple):
    """How the generic tests drive one system's demo."""

    # The quick turn (t, Enter, d, n): the dice seed with which the demo's roll leaves a result
    # to apply, and keys pressed first to settle what the demo leaves waiting (none: d when
    # something waits).
    quick_seed: int = 1
    quick_keys: Keys = ()
    # A fight played to its end by keys in a real terminal: its dice seed, the keys pressed
    # on the main screen in turn when nothing else is asked (a dialog takes Enter, a result
    # waiting d), and the header's words after which n ends the round.
    fight_seed: int = 1
    fight_plan: tuple[Keys, ...] = (("t",), ("n",))
    round_over: str = ""


def kit(name: str) -> Kit:
    """The system's own kit, else the defaults."""
    module = part(name, "testing")
    if module is None:
        return Kit()
    found = getattr(module, "KIT", None)
    if not isinstance(found, Kit):
        raise TypeError(f"{module.__name__} must define KIT, a rules.testing.Kit")
    return found
