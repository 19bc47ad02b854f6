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
mounted (its own focus given). Nothing private of Textual is touched. A key waits for as long
as that takes, however slow the machine: a clock that sent keys on after a second once sent
a burst's first key to a dialog still being built (``nistol`` for ``pistol`` under load).
Only a node that closes with the key's callback still queued lets the keys behind it go on
(a watchdog looks every ``STUCK`` seconds), as does a key not seen through in ``GIVE_UP``
seconds (a handler that never returns): late, never lost here.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import App, ScreenStackError
from textual.dom import DOMNode
from textual.timer import Timer

Route = Callable[[events.Event], Awaitable[None]]

MOST_HELD = 10_000  # keys waiting at once; past it a key goes on at once (a runaway paste)
STUCK = 1.0  # seconds between the watchdog's looks at what a held key waits behind
# Seconds one key may take before the keys behind it go on without it: only a handler that
# never returns takes that long; a slow machine takes its time and loses nothing.
GIVE_UP = 60.0
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
        self.turn = 0  # counts the keys sent on: a callback of an earlier turn is stale
        self.started = 0.0  # when the key on its way was sent (time.monotonic)
        self.waiting: DOMNode | None = None  # whose queue the key's callback is in
        self.watchdog: Timer | None = None  # while keys are held

    async def take(self, event: events.Event) -> None:
        """Route ``event`` now if nothing is ahead of it, else when its turn comes."""
        if not (self.busy or self.held) or len(self.held) >= MOST_HELD:
            await self._send(event)
            return
        self.held.append(event)
        self._watch()

    async def _send(self, event: events.Event) -> None:
        self.turn += 1
        turn = self.turn
        self.started = time.monotonic()
        self.busy = True
        try:
            screen = self.app.screen
        except ScreenStackError:  # no screen (starting or closing): Textual's routing says so
            await self.route(event)
            self.app.call_later(self._next, turn)
            return
        # Its turn comes once the screen has mounted, behind the focus it gave then; a screen
        # that closed unmounted never will: the key goes on as Textual routes it.
        if not screen.is_mounted and self._after(
            screen, lambda: self.app.call_later(self._next, turn)
        ):
            self.held.appendleft(event)
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
        ``passes`` more than one, again from where keys go now. A node closed on the way (a
        dialog that Enter closed) is passed over for its parent."""
        if node is not self.app:
            parent = node.parent or self.app
            if not self._after(node, lambda: self._behind(parent, turn, passes)):
                self._behind(parent, turn, passes)
        elif passes > 1:  # behind the key's binding (it runs in the app): what it set off
            self.app.call_later(lambda: self._behind(self._target(), turn, passes - 1))
        else:
            self.app.call_later(self._next, turn)

    def _after(self, node: DOMNode, then: Callable[[], object]) -> bool:
        """Run ``then`` behind what is in ``node``'s queue; False if it is closed."""
        if not node.call_later(then):
            return False
        self.waiting = node
        return True

    async def _next(self, turn: int) -> None:
        if turn != self.turn:  # a key the watchdog has already sent the others on past
            return
        self.busy = False
        self.waiting = None
        if self.held:
            await self._send(self.held.popleft())

    def _watch(self) -> None:
        """Keys are held: the watchdog looks at the key ahead of them every STUCK seconds."""
        if self.watchdog is None:
            self.watchdog = self.app.set_interval(STUCK, self._stuck)

    async def _stuck(self) -> None:
        """The keys behind go on if the key ahead can never be seen through: the node its
        callback waits in was taken out of the app (closed), or it has had GIVE_UP seconds.
        A screen still being built, however slowly, is waited for."""
        if not (self.busy or self.held):
            if self.watchdog is not None:
                self.watchdog.stop()
                self.watchdog = None
            return
        waiting = self.waiting
        lost = waiting is not None and waiting is not self.app and not waiting.is_attached
        if not self.busy or lost or time.monotonic() - self.started > GIVE_UP:
            await self._next(self.turn)
