"""The small makers of LiveHack's dialog fields, which every form of ``forms.py`` uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.forms import Field

if TYPE_CHECKING:
    from .events import LiveHackEncounter


def people(state: LiveHackEncounter) -> tuple[tuple[str, str], ...]:
    return tuple((c.id, c.name) for c in state.combatants)


def choice(key: str, label: str, choices: tuple[tuple[str, str], ...], default: str) -> Field:
    return Field(key=key, label=label, kind="choice", default=default, choices=choices)


def text(key: str, label: str, default: str = "", help: str = "") -> Field:
    return Field(key=key, label=label, kind="text", default=default, help=help)


def number(key: str, label: str, default: int = 0) -> Field:
    return Field(key=key, label=label, default=str(default))
