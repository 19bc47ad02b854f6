"""Hostile text for the tests that every output is inert: every control character, format
characters that spoof, the escape sequences of the attack in issue #17, and a fight that holds
them raw (made without the rules' checks, as a hand-made save would be)."""

from __future__ import annotations

import unicodedata
from typing import Any

import msgspec
from hypothesis import strategies as st

from rules.bounds import SAVED_NAME
from rules.conditions import Condition
from rules.encounter import Combatant, CombatantAdded
from rules.events import ConditionAdded, EncounterCreated, NoteAdded
from rules.history import History
from rules.registry import get_system
from tests.picks import a_system

C0 = "".join(chr(code) for code in range(0x20))
C1 = "".join(chr(code) for code in range(0x80, 0xA0))
CONTROLS = C0 + "\x7f" + C1
SPOOFING = "\u202e\u202d\u202a\u2066\u2067\u2069\u200e\u200f\u200b\u200d\ufeff\u00ad\u2028\u2029"
SEQUENCES = (
    "\x1b]0;PWNED\x07",  # retitle the terminal
    "\x1b(0",  # line-drawing characters from now on
    "\x1bc",  # reset the terminal
    "\x1b[2J",  # clear the screen
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",  # a hyperlink
    "\x9b31m",  # CSI as one C1 character
    "\x1b]52;c;cm0gLXJmIH4=\x07",  # write the clipboard
    " " * 32 + "\x1b[201~",  # the filler that got a paste past the parser, and a paste end
)
EVERY = CONTROLS + SPOOFING + "".join(SEQUENCES)
# Valid notation whose outcomes are too many to work out at once: a product or quotient
# of big dice (issue 46: each once stalled the table for seconds, the last for minutes).
STALLING_DICE = (
    "1d1000*1d1000",
    "1d1000/997*1d1000",
    "(1d1000/997)/(1d1000/991)",
    "-" * 18 + "(1d1000/997)/(1d1000/991)",
)
# Dice lines that must each get one inert line, at once, wherever dice are typed: each with
# a part of what it is told.
HOSTILE_DICE = (
    ("(" * 30 + "1d6" + ")" * 30, "inside each other"),  # deep nesting
    ("100d1000*100d1000", "at most 100 dice at once"),  # huge counts
    ("99999999999d6", "at most 100 dice at once"),
    ("1d6rr<7", "it would never stop"),  # a reroll that can never stop
    ("10/(1d6-1)", "nothing divides by 0"),  # division by zero
    ("100d6!", "too many possible totals"),  # too big to work out
    *((line, "too many possible totals") for line in STALLING_DICE),
)
# Control characters in dice: refused where they reach the notation (the command line); an
# app's input takes them out as they are typed or pasted, so there nothing unsafe shows.
CONTROL_DICE = ("1d6\x1b]0;PWNED\x07", "1d20\u202e+5", "2d6\x1b[2J", "1d4\x9b31m")

hostile_text = st.lists(
    st.one_of(
        st.sampled_from(CONTROLS + SPOOFING),
        st.sampled_from(SEQUENCES),
        st.text(alphabet="abcXYZ é漢", max_size=3),
    ),
    min_size=1,
    max_size=12,
).map("".join)


def unsafe(text: str, allowed: str = "") -> list[str]:
    """The characters in ``text`` that could act on a terminal or disguise text, by Unicode's
    own categories (not by ``rules.text``, which these tests check)."""
    return sorted(
        {
            char
            for char in text
            if char not in allowed and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        }
    )


def strings_in(value: Any) -> list[str]:
    """Every string a value holds (a Struct, a document, lists and dicts of them)."""
    found: list[str] = []

    def walk(item: Any) -> None:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            for key, each in item.items():
                walk(key)
                walk(each)
        elif isinstance(item, list | tuple):
            for each in item:
                walk(each)

    walk(msgspec.to_builtins(value))
    return found


def unsafe_strings(value: Any) -> list[str]:
    return [text for text in strings_in(value) if unsafe(text)]


def raw_fight(name: str, note: str, condition: str, system: str | None = None) -> History:
    """A fight whose encounter, combatant, side, note and condition hold the text as it is
    (a name cut to what a save may hold, so the fight can be saved and read back), in the
    system given, else the first listed."""
    name = name[: SAVED_NAME - len("Fight ")]
    system = system or a_system()
    history = History(EncounterCreated(name=f"Fight {name}", system=system))
    sheet = get_system(system).new_sheet()
    combatant = Combatant(
        id="c1", name=f"Orla {name}", side=f"party {name}", notes=note, sheet=sheet
    )
    history.commit(
        [
            CombatantAdded(combatant),
            CombatantAdded(Combatant(id="c2", name="Brak", side="foes", sheet=sheet)),
            ConditionAdded("c1", Condition(f"Dazed {condition}")),
            NoteAdded(f"Note {note}", "c1"),
        ],
        "raw",
    )
    return history
