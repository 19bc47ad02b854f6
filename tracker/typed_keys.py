"""Keys typed in a burst reach the screen they were typed for, in the order they were typed.

Textual routes each key to the focused widget the moment the app reads it, but a key's
binding runs only once the key has bubbled back up to the app, through the queue of every
widget on its way. In a burst (a fast typist, a paste, ``tmux send-keys ':note x' Enter``)
the keys after `:` were all routed to the encounter's table before `:` had opened the prompt,
and reached the app again once the prompt was up, whose bindings did nothing with them: the
burst was lost. A key that arrived while the prompt was being mounted went to the prompt's
screen itself, with nothing focused yet to type into: lost too.

So each key waits here until the one before it has been handled all the way up (a callback
follows it from widget to parent, behind it in each queue), and until the screen on top is
mounted (its own focus given). Nothing private of Textual is touched. If a key is not seen
through within ``STUCK`` seconds (a widget on its way closed), the keys behind it go on as
Textual would route them: late, never lost here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from textual import events
from textual.app import App, ScreenStackError
from textual.dom import DOMNode
from textual.timer import Timer

Route = Callable[[events.Event], Awaitable[None]]

MOST_HELD = 10_000  # keys waiting at once; past it a key goes on at once (a runaway paste)
STUCK = 1.0  # seconds a key may take before the ones behind it go on without it
# Times a key is followed up to the app: once behind the key itself, once more behind what
# its binding set off in the widgets keys go to (Enter's Input.Submitted closing a dialog; a
# screen it opened, behind its mount and the focus it gives).
PASSES = 2


def typed(event: events.Event) -> bool:
    """A key or a paste from the terminal (not one on its way back up from a widget)."""
    return isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded


class TypedKeys:
    """Holds typed keys while the one before is being handled; ``route`` is Textual's own
    routing of a key (``App.on_event``)."""

    def __init__(self, app: App[Any], route: Route) -> None:
        self.app = app
        self.route = route
        self.held: deque[events.Event] = deque()
        self.busy = False  # a key is on its way, or waits for its screen
        self.turn = 0  # counts the keys sent on: the watchdog's sign of progress
        self.watchdog: Timer | None = None  # while keys are held

    async def take(self, event: events.Event) -> None:
        """Route ``event`` now if nothing is ahead of it, else when its turn comes."""
        if not (self.busy or self.held) or len(self.held) >= MOST_HELD:
            await self._send(event)
            return
        self.held.append(event)
        self._watch()

    async def _send(self, event: events.Event, wait: bool = True) -> None:
        self.turn += 1
        turn = self.turn
        try:
            screen = self.app.screen
        except ScreenStackError:  # no screen (starting or closing): Textual's routing says so
            await self.route(event)
            return
        self.busy = True
        if wait and not screen.is_mounted:
            # Its turn comes once the screen has mounted, behind the focus it gave then.
            self.held.appendleft(event)
            self._after(screen, turn, lambda: self.app.call_later(self._next, turn))
            return
        target = self._target()
        await self.route(event)
        self._behind(target, turn, PASSES)

    def _target(self) -> DOMNode:
        """Where Textual sends a key now."""
        try:
            return self.app.focused or self.app.screen
        except ScreenStackError:  # no screen (closing)
            return self.app

    def _behind(self, node: DOMNode, turn: int, passes: int) -> None:
        """Wait behind the key in ``node``'s queue, then in its parent's, up to the app's:
        a key handled by a widget goes no further, one that bubbles is ahead in each. Then,
        ``passes`` more than one, again from where keys go now."""
        if node is not self.app:
            self._after(node, turn, lambda: self._behind(node.parent or self.app, turn, passes))
        elif passes > 1:  # behind the key's binding (it runs in the app): what it set off
            self.app.call_later(lambda: self._behind(self._target(), turn, passes - 1))
        else:
            self.app.call_later(self._next, turn)

    def _after(self, node: DOMNode, turn: int, then: Callable[[], object]) -> None:
        if not node.call_later(then):  # closed: nothing more to wait for there, or to mount
            self.app.call_later(self._next, turn, False)

    async def _next(self, turn: int, wait: bool = True) -> None:
        if turn != self.turn:  # a key the watchdog has already sent the others on past
            return
        self.busy = False
        if self.held:
            await self._send(self.held.popleft(), wait)

    def _watch(self) -> None:
        """Keys are held: if the key ahead of them is still on its way in STUCK seconds, it
        is taken as lost (each key gets that long at the least)."""
        if self.watchdog is None:
            self.watchdog = self.app.set_timer(STUCK, partial(self._stuck, self.turn))

    async def _stuck(self, turn: int) -> None:
        self.watchdog = None
        if turn == self.turn and self.busy:
            await self._next(turn, wait=False)
        if self.held:
            self._watch()
