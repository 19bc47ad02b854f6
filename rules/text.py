"""Text people type is inert: nothing in it can act on a terminal or disguise what it says.

The one place that decides which characters are unsafe, used where text enters (every
command, in ``rules.engine.decide``; a save as it is read, in ``rules.snapshot``; the app's
pastes) and again where it leaves (the app's and the seats' screens, exports, the
command line's output). Unsafe are: the C0 controls (ESC among them), DEL and the C1
controls, which a terminal obeys; Unicode's format characters (bidi overrides such as
U+202E, zero-width spaces and joiners, the BOM), line and paragraph separators and lone
surrogates, which reorder, hide or break text. None of them is printable (``str.isprintable``),
which is every check's fast path. In one line of text a tab or line break becomes a space; a
document keeps its line breaks and tabs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")

# Written out, not read from unicodedata at import: this module is loaded by every command
# (``tracker odds`` among them) and a scan of the code space costs a third of a second.
# tests/rules/test_text.py checks these ranges still hold every format character (Cf).
_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_SEPARATORS = "\u2028\u2029"
_SURROGATES = "\ud800-\udfff"  # only a lone one can be in a str; never valid UTF-8
_LINE_BREAKS = "\t\n\x0b\x0c\r\x1c-\x1f\x85" + _SEPARATORS  # what str.split() splits on

UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_FORMAT}{_SEPARATORS}{_SURROGATES}]")
_SPACED = re.compile(f"[{_LINE_BREAKS}]")
_UNSAFE_IN_DOCUMENTS = re.compile(
    f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_FORMAT}{_SEPARATORS}{_SURROGATES}]"
)


def slug(text: str) -> str:
    """ "Goblin Sneak" -> "goblin-sneak": a name that needs no quotes on the ``:`` line, the
    word a combatant is told by (two names of one slug are one name there)."""
    return re.sub(r"[^0-9a-z]+", "-", text.casefold()).strip("-")


def is_inert(text: str) -> bool:
    """Whether ``text`` holds no unsafe character at all (tabs and line breaks included)."""
    return text.isprintable() or UNSAFE.search(text) is None


def inert(text: str) -> str:
    """One line of text made safe: tabs and line breaks become spaces, every other unsafe
    character is removed."""
    if is_inert(text):
        return text
    return UNSAFE.sub("", _SPACED.sub(" ", text))


def inert_document(text: str) -> str:
    """A document made safe (a report, the command line's output): its line breaks and tabs
    stay (a Windows line end becomes a plain one), every other unsafe character is removed."""
    if _UNSAFE_IN_DOCUMENTS.search(text) is None:
        return text
    return _UNSAFE_IN_DOCUMENTS.sub("", text.replace("\r\n", "\n"))


# --- whole values: a command, an event, a save's state ---------------------------------------

# In msgspec's JSON a control character is escaped (\n, \u001b); the rest are as they are.
_ESCAPE = re.compile(r"\\[bfnrtu]")


def inert_value(value: T, lines: bool = False) -> T:
    """``value`` (a Struct, or tuples, lists and dicts of them) with each of its strings made
    ``inert`` (``inert_document`` given ``lines``: a report's text of several lines keeps
    them); ``value`` itself when none needed it, the usual case, found in one pass in C."""
    # Imported here: the command line's output passes through this module, and `tracker
    # odds` starts without msgspec.
    import msgspec

    try:
        encoded = msgspec.json.encode(value)
    except (TypeError, ValueError):  # not JSON (a Raw record's MessagePack): look at each part
        return cast("T", _walk(value, msgspec, inert_document if lines else inert))
    if b"\\" not in encoded and encoded.isascii() and b"\x7f" not in encoded:
        # JSON escapes every character below a space, so this is printable ASCII: the usual
        # case, seen at the speed of a byte search (``isprintable`` looks at each character:
        # 20 ms of a 20,000-record log's 40)
        return value
    text = encoded.decode()
    if "\\" not in text and text.isprintable():
        return value  # no escape, nothing unsafe, seen without a regex
    if _ESCAPE.search(text) is None and is_inert(text):
        return value
    return cast("T", _walk(value, msgspec, inert_document if lines else inert))


def _walk(value: Any, msgspec: Any, clean: Callable[[str], str]) -> Any:
    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return clean(value)
        if isinstance(value, msgspec.Struct):
            fields = {name: getattr(value, name) for name in value.__struct_fields__}
            changes = {name: now for name, was in fields.items() if (now := walk(was)) is not was}
            return msgspec.structs.replace(value, **changes) if changes else value
        if isinstance(value, tuple | list):
            items = [walk(item) for item in value]
            if all(now is was for now, was in zip(items, value, strict=True)):
                return value
            return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
        if isinstance(value, dict):
            pairs = [(key, item, walk(key), walk(item)) for key, item in value.items()]
            if all(k is k2 and v is v2 for k, v, k2, v2 in pairs):
                return value
            return {k2: v2 for _, _, k2, v2 in pairs}
        return value

    return walk(value)
