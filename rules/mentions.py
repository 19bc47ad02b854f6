"""Which combatants a value names: by its fields, however deep (``rules.visibility``)."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from rules.remembered import ByIdentity

# A field holding a combatant id is named ``*_id`` (``*_ids`` for several), ``id`` in a
# combatant (tests/contract/test_hidden_ids.py holds every system to it); ``against``, a
# pool's opponent, is older than the rule, and a save's field names never change.
ID_KEYS = frozenset({"against"})


def _is_id(key: str, value: object, holder: dict[str, object]) -> bool:
    return isinstance(value, str) and (
        key.endswith("_id") or key in ID_KEYS or (key == "id" and "sheet" in holder)
    )


def _ids_in(value: object, out: set[str]) -> None:
    # Only containers are gone into: a roll's dice are many numbers, none of them an id.
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str):
                if _is_id(key, item, value):
                    out.add(item)
            elif isinstance(item, list | tuple) and key.endswith("_ids"):
                out.update(i for i in item if isinstance(i, str))
            elif isinstance(item, dict | list | tuple):
                _ids_in(item, out)
    elif isinstance(value, list | tuple):  # msgspec.to_builtins keeps a tuple a tuple
        for item in value:
            if isinstance(item, dict | list | tuple):
                _ids_in(item, out)


def mentions(event: object) -> set[str]:
    """The ids of every combatant an event (or command) names, however deep in it."""
    found: set[str] = set()
    _ids_in(msgspec.to_builtins(event), found)
    found.discard("")
    return found


def mentioned(value: object, ids: frozenset[str]) -> frozenset[str]:
    """The ids among ``ids`` that ``value`` names (``mentions(value) & ids``), remembered
    for the last few values asked about: every state after a roll holds the very same
    roll, and a player's view of a fight asks about it for every state."""
    return _MENTIONED.get(value, ids, lambda: _mentioned(value, ids))


def _mentioned(value: object, ids: frozenset[str]) -> frozenset[str]:
    # At once where the value's encoding holds none of the ids as a whole string, as most
    # events do.
    if not ids:
        return frozenset()
    quoted = _QUOTED.get(ids, None, lambda: _quoted(ids))
    try:
        encoded: bytes | None = msgspec.json.encode(value)
    except (TypeError, msgspec.EncodeError):
        encoded = None  # no JSON for it: its fields are walked
    if encoded is not None and quoted.search(encoded) is None:
        return frozenset()
    return frozenset(mentions(value) & ids)


def _quoted(ids: frozenset[str]) -> re.Pattern[bytes]:
    """Any of ``ids`` as a whole string of a JSON encoding."""
    return re.compile(b"|".join(re.escape(msgspec.json.encode(i)) for i in sorted(ids)))


_QUOTED: ByIdentity[re.Pattern[bytes]] = ByIdentity()
_MENTIONED: ByIdentity[frozenset[str]] = ByIdentity()


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
