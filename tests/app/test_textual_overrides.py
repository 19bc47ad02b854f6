"""Our Textual subclasses take none of Textual's private names by accident.

A private helper named like one of Textual's replaces it for Textual too: the roll log's
``_render(index)`` did, and copying selected text crashed the app. Public names (``render``,
``compose``, ``on_mount``...) are overridden on purpose and are not checked.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator

import tracker.screens
import tracker.widgets

MODULES = [
    *(f"tracker.widgets.{m.name}" for m in pkgutil.iter_modules(tracker.widgets.__path__)),
    *(f"tracker.screens.{m.name}" for m in pkgutil.iter_modules(tracker.screens.__path__)),
    "tracker.app",
    "tracker.screens.palette",
    "tracker.serve.seat_app",
    "tracker.serve.driver",
    "tracker.serve.seats_screen",
]


def textual_subclasses() -> Iterator[type]:
    for name in MODULES:
        for value in vars(importlib.import_module(name)).values():
            if inspect.isclass(value) and value.__module__ == name:
                yield value


def test_no_private_textual_name_is_taken_by_ours() -> None:
    taken = []
    for cls in textual_subclasses():
        textuals = [base for base in cls.__mro__ if base.__module__.startswith("textual.")]
        if not textuals:
            continue
        # Names Textual sets on every subclass (its reactives, CSS names, bindings...).
        every_subclass = set(vars(type("Probe", (textuals[0],), {})))
        # And the abc module's own (an ABC's subclass gets it as it is made, or later).
        every_subclass.add("_abc_impl")
        taken += [
            f"{cls.__module__}.{cls.__qualname__}.{name}"
            for name in vars(cls)
            if name.startswith("_")
            and not name.startswith("__")
            and name not in every_subclass
            and any(hasattr(base, name) for base in textuals)
        ]
    assert taken == []
