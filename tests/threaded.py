"""An event loop in a thread of its own, for hypothesis tests of async things: hypothesis
cannot await, and starting an app (or a served table) for each example costs seconds."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic, TypeVar

H = TypeVar("H")
T = TypeVar("T")


class InThread(Generic[H]):
    """Enters ``enter()`` (an async context giving a handle: a Pilot, a served table) in its
    own thread, and runs each job given to ``run`` on that handle, inside that context (Textual
    finds its active app there), until the ``with`` block ends."""

    def __init__(self, enter: Callable[[], AbstractAsyncContextManager[H]]) -> None:
        self.enter = enter
        self.loop = asyncio.new_event_loop()
        self._jobs: asyncio.Queue[tuple[Callable[[H], Awaitable[Any]], Future[Any]] | None]
        self._ready: Future[None] = Future()
        self._thread = threading.Thread(target=self.loop.run_until_complete, args=(self._run(),))

    async def _run(self) -> None:
        self._jobs = asyncio.Queue()
        try:
            async with self.enter() as handle:
                self._ready.set_result(None)
                while (item := await self._jobs.get()) is not None:
                    job, done = item
                    try:
                        done.set_result(await job(handle))
                    except BaseException as exc:  # handed to the test's thread, which raises it
                        done.set_exception(exc)
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise
        left = asyncio.all_tasks() - {asyncio.current_task()}
        for task in left:  # timers stopped with the app, not yet ended
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)

    def __enter__(self) -> InThread[H]:
        self._thread.start()
        self._ready.result(60)
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self._jobs.put_nowait, None)
        self._thread.join(60)
        self.loop.close()

    def run(self, job: Callable[[H], Awaitable[T]]) -> T:
        done: Future[T] = Future()
        self.loop.call_soon_threadsafe(self._jobs.put_nowait, (job, done))
        return done.result(60)
