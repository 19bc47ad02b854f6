"""Form descriptions: how a rule system asks the app for input without knowing the app.

A system describes the fields of its sheet or roll as data; the app draws them and hands
back the typed strings, which the system parses with the helpers below.
"""

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Literal, TypeVar, overload

from msgspec import Struct

from rules.bounds import LIMIT, within
from rules.errors import Rejected

FieldKind = Literal["int", "text", "choice"]

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


class Field(Struct, frozen=True, kw_only=True):
    key: str
    label: str
    kind: FieldKind = "int"
    default: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (value, label) pairs for "choice"
    help: str = ""
    # Whether a dialog opens typing here when it is its first field to type in: not for one
    # seldom typed, whose empty value says "as usual" (an attack's own damage).
    focus_first: bool = True


# A dialog's fields again once a choice of it changed: the new defaults that follow the
# choice (``Dialogs.refilled``), None when none do; given the values and the choice's key.
Refill = Callable[[Mapping[str, str], str], "list[Field] | None"]


def int_value(
    values: Mapping[str, str],
    key: str,
    label: str,
    default: int = 0,
    limit: int = LIMIT,
    low: int | None = None,
) -> int:
    """Parse an integer field, with a message naming the field when it is not one or is
    beyond ``±limit`` (``rules.bounds.MODIFIER`` for what is added to a roll), or below
    ``low`` when given."""
    raw = values.get(key, "").strip()
    if not raw:
        return default
    # Plain ASCII digits only: int() would also take "1_000" and other scripts' digits.
    if not WHOLE_NUMBER.fullmatch(raw):
        raise Rejected(f"{label} must be a whole number, not {raw!r}")
    bottom = -limit if low is None else low
    if len(raw) > len(str(LIMIT)) + 1:  # int() of a huge string is slow, and it is refused
        raise Rejected(f"{label} must be between {bottom:,} and {limit:,}")
    return within(int(raw), label, bottom, limit)


C = TypeVar("C", bound=str)


@overload
def choice_value(values: Mapping[str, str], field: Field) -> str: ...


@overload
def choice_value(values: Mapping[str, str], field: Field, among: Iterable[tuple[C, str]]) -> C: ...


def choice_value(
    values: Mapping[str, str], field: Field, among: Iterable[tuple[str, str]] | None = None
) -> str:
    """The chosen value of a choice field. Given ``among``, the (value, label) pairs the field
    was built from (typed with a Literal), the value comes back as that type."""
    raw = values.get(field.key, field.default)
    allowed = [value for value, _ in field.choices]
    if raw in allowed:
        if among is None:
            return raw
        for value, _ in among:
            if value == raw:
                return value
    raise Rejected(f"{field.label} must be one of: {', '.join(allowed)}")


YES_NO: tuple[tuple[str, str], ...] = (("no", "No"), ("yes", "Yes"))


def yes_no_field(key: str, label: str, value: bool, help: str = "") -> Field:
    """A choice of No or Yes, ``value`` chosen."""
    default = "yes" if value else "no"
    return Field(key=key, label=label, kind="choice", default=default, choices=YES_NO, help=help)


def is_yes(values: Mapping[str, str], field: Field) -> bool:
    """Whether a ``yes_no_field`` was answered Yes (``Rejected`` for another answer)."""
    return choice_value(values, field) == "yes"
