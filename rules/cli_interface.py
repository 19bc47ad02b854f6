"""What a system gives the headless commands, ``tracker roll`` and ``tracker odds``.

Each is a part of the system's package, found by ``rules.registry.part`` and pure like the
rest of ``rules/`` (the tracker parses, seeds the dice, prints, and turns ``Rejected`` into one
line on stderr):

``rules/systems/<name>/roll_cli.py``
    ``add_arguments(parser: Parser) -> None``: the options of ``tracker roll <name>`` (the
    tracker adds ``--seed`` and ``--json`` after them);
    ``roll(args: Arguments, dice: DiceSource) -> RollReport``: one roll;
    ``EXAMPLE: tuple[str, ...]``: the options of a typical roll;
    ``HELP: str`` (optional): what it rolls, in ``tracker roll --help``.

``rules/systems/<name>/odds_cli.py`` (light: no msgspec, nothing of the system's model, so
``tracker odds`` starts quickly)
    ``add_arguments(parser: Parser) -> None``: the options of ``tracker odds <name>`` (the
    tracker adds ``--json``);
    ``answer(args: Arguments) -> rules.odds.Odds``: the exact odds of what they describe;
    ``EXAMPLE: tuple[str, ...]``: the options of a typical question;
    ``HELP: str`` (optional): what its odds are for, in ``tracker odds --help``.

A value the options' types cannot refuse is refused with ``rules.errors.Rejected`` and a
one-line message naming the option.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol


class Parser(Protocol):
    """What a part needs of ``argparse.ArgumentParser``: adding options to it."""

    def add_argument(self, *name_or_flags: str, **options: Any) -> Any: ...


class Arguments(Protocol):
    """The parsed options (an ``argparse.Namespace``): one attribute per option, by its dest."""

    def __getattr__(self, name: str) -> Any: ...


class RollReport(NamedTuple):
    """One headless roll, for people and for scripts, without the seed: the tracker chose the
    dice, so it prints ``(seed N)`` after ``text`` and puts ``"seed"`` after ``"system"`` in
    the JSON.

    ``text`` is the breakdown as printed (lines joined by newlines, no trailing one); ``data``
    is what ``--json`` prints, JSON-ready (str keys; str, int, float, bool, None, lists and
    dicts), starting with ``"system": <name>``.
    """

    text: str
    data: dict[str, Any]
