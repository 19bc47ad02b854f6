"""Which combatants a value names: by its fields, however deep (``rules.visibility``)."""

from __future__ import annotations

from typing import Any

import msgspec

# A field holding a combatant id is named ``*_id`` (``*_ids`` for several), ``id`` in a
# combatant (tests/contract/test_hidden_ids.py holds every system to it); ``against``, a
# pool's opponent, is older than the rule, and a save's field names never change.
ID_KEYS = frozenset({"against"})


def _is_id(key: str, value: object, holder: dict[str, object]) -> bool:
    return isinstance(value, str) and (
        key.endswith("_id") or key in ID_KEYS or (key == "id" and "sheet" in holder)
    )


def _ids_in(value: object, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if _is_id(key, item, value):
                out.add(item)
            elif isinstance(item, list | tuple) and key.endswith("_ids"):
                out.update(i for i in item if isinstance(i, str))
            else:
                _ids_in(item, out)
    elif isinstance(value, list | tuple):  # msgspec.to_builtins keeps a tuple a tuple
        for item in value:
            _ids_in(item, out)


def mentions(event: object) -> set[str]:
    """The ids of every combatant an event (or command) names, however deep in it."""
    found: set[str] = set()
    _ids_in(msgspec.to_builtins(event), found)
    found.discard("")
    return found


def relabel(value: Any, ids: dict[str, str]) -> Any:
    """Builtins (``msgspec.to_builtins``) with every combatant id in ``ids`` replaced by its
    label there: a player's export numbers the combatants it shows by itself, so the gaps
    of hidden ones do not show."""
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, item in value.items():
            if isinstance(item, str) and (_is_id(key, item, value) or key == "id"):
                out[key] = ids.get(item, item)
            elif isinstance(item, list | tuple) and key.endswith("_ids"):
                out[key] = [ids.get(i, i) if isinstance(i, str) else i for i in item]
            else:
                out[key] = relabel(item, ids)
        return out
    if isinstance(value, list | tuple):
        return [relabel(item, ids) for item in value]
    return value
