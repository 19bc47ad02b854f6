"""Twins: seats that have typed, and show the same thing, drawn by one app for all.

A seat that has typed draws itself: its own app lays out and renders every change, one seat
after another on the one loop. But seats that typed the same keys (every player pressed ↓
to see the same combatant), or went back to where they were, show exactly what another
seat with the same view (tracker/serve/views.py's key: role and combatants, size, colours,
theme) shows. So once a typed seat has been quiet for ``QUIET`` seconds, its whole screen
is compared with those of other quiet seats with its view; if one shows the same, that one
leads: its frames go to the twin's terminal too, and the twin's own app is muted, as a
watching seat's is (it skips changes, and catches up with a whole frame when it draws
again). A twin draws itself again at its first key, click or paste, or a resize; a leader
about to change its screen (its own input, a resize, its end, other combatants) first hands
its twins to one of them, which catches up with a whole frame and leads the rest.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from tracker.terminal import textual_internals

# A seat's channel (tracker/serve/channel.py's SeatChannel), as the twins use it: named by
# what it offers, so the channel can use this module without a cycle of imports.
SeatChannel = TypeVar("SeatChannel", bound="Twin[Any]")


class Twin(Protocol[SeatChannel]):
    app: Any
    server: Any
    typed: bool
    printed: tuple[int, bytes] | None
    leader: SeatChannel | None
    followers: list[SeatChannel]

    @property
    def drawing_own(self) -> bool: ...
    def twin_key(self) -> object: ...
    def seat_last_input(self) -> float: ...
    def write(self, data: str) -> None: ...
    def tee(self, follower: SeatChannel) -> None: ...
    def untee(self, follower: SeatChannel) -> None: ...
    def is_closing(self) -> bool: ...


QUIET = 1.0  # seconds without input before a typed seat looks for a twin
LOOKS = 3  # looks after an input, QUIET, then 2 QUIET, then 3 QUIET apart
TRIES = 8  # other seats' screens rendered at most, each time a seat looks


def screen_print(channel: SeatChannel, fresh: bool = False) -> bytes | None:
    """A digest of the seat's whole screen as its app draws it (None: unknown). Kept until
    the seat's app sends another frame, unless ``fresh``: a table that goes quiet all at
    once has each seat compare itself with a few others, and each screen is rendered once."""
    driver = channel.app.channel_driver
    frames = driver.frames if driver is not None else -1
    kept = channel.printed
    if not fresh and kept is not None and kept[0] == frames:
        return kept[1]
    text = textual_internals.whole_screen(channel.app)
    if text is None:
        return None
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    channel.printed = (frames, digest)
    return digest


def may_lead(channel: SeatChannel) -> bool:
    """The seat draws itself, and could lead twins or follow another."""
    return channel.typed and channel.leader is None and channel.drawing_own


def pair(channel: SeatChannel, others: Iterable[SeatChannel]) -> SeatChannel | None:
    """Find a quiet seat showing what ``channel`` shows, and have ``channel`` follow it
    (its own twins, if any, are handed on first). Returns the leader, if one was found."""
    if not may_lead(channel) or channel.followers:
        return None
    key = channel.twin_key()
    now = time.monotonic()
    mine: bytes | None = None
    tries = 0
    for other in others:
        if other is channel or not may_lead(other) or other.twin_key() != key:
            continue
        if now - other.seat_last_input() < QUIET:
            continue  # still typing: it would hand ``channel`` back at once
        if mine is None:
            mine = screen_print(channel, fresh=True)  # drawn now: what it shows
            if mine is None:
                return None
        if screen_print(other) == mine and follow(channel, other):
            return other
        tries += 1
        if tries >= TRIES:
            break
    return None


def follow(channel: SeatChannel, leader: SeatChannel) -> bool:
    """``channel`` shows ``leader``'s frames from now on, starting with a whole one: what its
    own app drew last may not have reached its terminal yet (a key's frame, dropped once it
    is muted). Returns whether it does."""
    frame = textual_internals.whole_screen(leader.app)
    if frame is None:
        return False
    channel.app.mute()
    channel.write(frame)
    channel.leader = leader
    leader.followers.append(channel)
    leader.tee(channel)
    # No heap.changed(): a muted app makes nothing new to keep, and the full collection a
    # settle brings (a few hundred ms at 30 seats) would stall every seat for a pairing.
    return True


def still_twins(channel: SeatChannel) -> None:
    """Once its own app has caught up after pairing: a key it was given just before (in the
    same burst, handled only after the pairing) may have changed what it shows, which its
    leader does not show. Then it draws itself again. A seat held behind (a change skipped
    while muted) cannot be compared, and is left following."""
    leader = channel.leader
    if leader is None or channel.is_closing() or getattr(channel.app.session, "behind", False):
        return
    mine = screen_print(channel, fresh=True)
    if mine is not None and mine != screen_print(leader):  # the leader's: kept per frame
        unfollow(channel)


def unfollow(channel: SeatChannel, *, draw: bool = True) -> None:
    """``channel`` stops following its leader; with ``draw``, its own app draws it again,
    caught up, with a whole frame."""
    leader = channel.leader
    if leader is None:
        return
    channel.leader = None
    if channel in leader.followers:
        leader.followers.remove(channel)
    leader.untee(channel)
    if draw:
        channel.app.unmute()
        channel.server.heap.changed()


def part(leader: SeatChannel) -> None:
    """``leader``'s screen is about to change: its twins follow the first of them, which
    catches up and draws them all."""
    followers = [f for f in leader.followers if not f.is_closing()]
    for follower in list(leader.followers):
        unfollow(follower, draw=False)
    if not followers:
        return
    heir, *rest = followers
    heir.app.unmute()
    heir.server.heap.changed()
    for follower in rest:
        follower.leader = heir
        heir.followers.append(follower)
        heir.tee(follower)
