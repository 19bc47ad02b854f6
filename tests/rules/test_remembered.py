"""What a player's view of a fight remembers between states (``rules.remembered``) and asks
of each (``rules.mentions.mentioned``) answers as working it out afresh would."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from msgspec import Struct

from rules.mentions import mentioned, mentions
from rules.remembered import ByIdentity, EachOf


class Item(Struct, frozen=True):
    item_id: str
    notes: str = ""


ITEMS = st.builds(Item, st.sampled_from(["a", "b", "c", 'd"', "é", ""]), st.text(max_size=3))
# Each next tuple: the last one with some items swapped for new ones, or grown, or shrunk.
CHANGES = st.lists(
    st.tuples(st.integers(0, 9), ITEMS, st.sampled_from(["swap", "swap", "grow", "shrink"])),
    max_size=30,
)


@given(start=st.lists(ITEMS, max_size=6), changes=CHANGES, also=st.lists(st.booleans()))
def test_each_of_maps_as_afresh(start: list[Item], changes: list[Any], also: list[bool]) -> None:
    each: EachOf[tuple[str, bool]] = EachOf()
    items = tuple(start)
    for number, (at, item, how) in enumerate(changes):
        flag = also[number] if number < len(also) else False
        listed = list(items)
        if how == "grow":
            listed.append(item)
        elif how == "shrink" and listed:
            listed.pop(at % len(listed))
        elif listed:
            listed[at % len(listed)] = item
        items = tuple(listed)

        def work(one: Item, flag: bool = flag) -> tuple[str, bool]:
            return one.item_id, flag

        mapped = each.map(items, flag, work)
        assert mapped == tuple(work(one) for one in items)
        assert each.map(items, flag, work) is mapped  # the very same tuple: the same answer


def test_by_identity_keeps_an_answer_per_object_and_forgets_when_full() -> None:
    known: ByIdentity[int] = ByIdentity(size=2)
    first, second, third = Item("a"), Item("a"), Item("a")  # equal, not the same
    asked: list[Item] = []

    def answer(of: Item) -> int:
        asked.append(of)
        return len(asked)

    assert known.get(first, None, lambda: answer(first)) == 1
    assert known.get(first, None, lambda: answer(first)) == 1  # remembered
    assert known.get(second, None, lambda: answer(second)) == 2  # equal is not the same
    assert known.get(first, "other", lambda: answer(first)) == 3  # also part of the question
    assert known.get(third, None, lambda: answer(third)) == 4
    assert known.get(first, None, lambda: answer(first)) == 5  # forgotten when it was full


@given(item=ITEMS, ids=st.frozensets(st.sampled_from(["a", "b", 'd"', "é", "x"])))
def test_mentioned_is_what_mentions_has_of_the_ids(item: Item, ids: frozenset[str]) -> None:
    assert mentioned(item, ids) == mentions(item) & ids


def test_a_value_with_no_json_is_asked_by_its_fields() -> None:
    class Held(Struct, frozen=True):
        target_id: str
        weights: dict[tuple[int, int], int]  # no JSON for its keys

    assert mentioned(Held("a", {(1, 2): 3}), frozenset({"a", "b"})) == {"a"}
