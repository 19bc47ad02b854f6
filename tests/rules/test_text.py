"""Text is inert where it enters: commands, and saves as they are read (rules.text)."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules import snapshot
from rules.commands import AddCombatant, RemoveCondition
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.text import UNSAFE, inert, inert_document, inert_value, is_inert
from tests.hostile_text import (
    EVERY,
    hostile_text,
    raw_fight,
    unsafe,
    unsafe_strings,
)
from tests.picks import a_system


def test_every_control_format_and_separator_character_is_unsafe() -> None:
    # The module writes its ranges out; Unicode's own categories must all be in them.
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        and not UNSAFE.fullmatch(chr(code))
    ]
    assert missed == []


@given(st.text(st.characters(exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))))
def test_ordinary_text_is_kept_as_it_is(text: str) -> None:
    assert inert(text) == text == inert_document(text)


@settings(max_examples=300)
@given(hostile_text)
@example(EVERY)
def test_hostile_text_comes_out_inert(text: str) -> None:
    line = inert(text)
    assert unsafe(line) == [] and is_inert(line)
    assert unsafe(inert_document(text), allowed="\n\t") == []
    assert inert(line) == line  # once is enough
    # Only the unsafe characters go: what is left of each escape sequence shows as text.
    assert "]0;PWNED" in inert(EVERY) and "(0" in inert(EVERY)


def test_a_line_keeps_its_words_apart() -> None:
    assert inert("Orla\tthe\nBold\x1b") == "Orla the Bold"
    assert inert_document("a\r\nb\tc\x1b[2J\u202e") == "a\nb\tc[2J"


def test_a_value_needing_nothing_is_the_same_object() -> None:
    command = AddCombatant(name="Orla", notes="weak to silver")
    assert inert_value(command) is command
    cleaned = inert_value(AddCombatant(name="Or\x1bla", notes="a\nb"))
    assert cleaned == AddCombatant(name="Orla", notes="a b")
    assert inert_value({"k\x1b": ["x\x9b", ("y",)]}) == {"k": ["x", ("y",)]}
    assert inert_value(["a\nb\x1b"], lines=True) == ["a\nb"]


def test_each_of_the_first_256_characters_in_a_value_is_kept_only_if_it_is_safe() -> None:
    """ASCII is seen by its bytes (``inert_value``'s fast case): every control, DEL among
    them, is still taken out, and the C1 controls and the rest of Latin-1 are looked at."""
    for code in range(0x100):
        value = [AddCombatant(name=f"Or{chr(code)}la", notes="x")]
        kept = inert_value(value) is value
        assert kept == is_inert(chr(code)), hex(code)
        if not kept:
            assert is_inert(inert_value(value)[0].name)


def test_an_unknown_condition_is_named_inert_in_the_refusal() -> None:
    history = History(new_encounter("Fight", a_system()))
    history.commit(decide(history.state, AddCombatant(name="Orla"), SeededDice(1)))
    with pytest.raises(Rejected) as refused:
        decide(history.state, RemoveCondition("c1", "Dazed\x1b]0;PWNED\x07"), SeededDice(1))
    assert unsafe(str(refused.value)) == []


def test_a_name_of_nothing_but_control_characters_is_refused() -> None:
    history = History(new_encounter("Fight", a_system()))
    with pytest.raises(Rejected, match="needs a name"):
        decide(history.state, AddCombatant(name="\x1b\u202e\u200b\x07"), SeededDice(1))
    with pytest.raises(Rejected, match="needs a name"):
        new_encounter(" \x1b\x07\u202e\t", a_system())


@settings(max_examples=30, deadline=None)
@given(name=hostile_text, note=hostile_text, condition=hostile_text)
@example(name=EVERY, note=EVERY, condition=EVERY)
def test_a_save_is_read_inert_whatever_it_holds(name: str, note: str, condition: str) -> None:
    """A hand-made save, its snapshot and its journal holding raw text: read every way the
    tracker reads one, nothing unsafe comes out, and its state still matches its log."""
    fight = raw_fight(name, note, condition)
    data = snapshot.encode(fight)
    assert unsafe(snapshot.read_header(data).name) == []
    decoded = snapshot.decode(data)  # checks the state against the log's fold
    assert unsafe_strings(decoded.state) == []
    assert [r for r in decoded.records if unsafe_strings(r)] == []
    lazily = snapshot.open_lazily(data)
    assert unsafe_strings(lazily.state) == []
    assert [r for r in lazily.records if unsafe_strings(r)] == []
    journal = b"".join(snapshot.encode_frame(n, r) for n, r in enumerate(fight.records))
    frames = snapshot.decode_frames(journal, fight.state.system)
    assert frames.problem is None and len(frames.entries) == len(fight.records)
    assert [e for e in frames.entries if unsafe_strings(e.record)] == []
