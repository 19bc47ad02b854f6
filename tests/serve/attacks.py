"""Stalled logins for the admission tests and `make soak`: connections that stop at one
stage of an SSH login, and a crowd of them that reconnects as soon as it is dropped."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from typing import Any

import asyncssh

Stall = Callable[[int, str], Awaitable[None]]  # (port, local address)


class Stalled(asyncssh.SSHClient):
    """A client that exchanges keys, asks to log in, and never says its password."""

    async def password_auth_requested(self) -> str | None:
        await asyncio.Event().wait()
        return None


async def banner_only(port: int, address: str) -> None:
    """Sends its SSH banner and nothing more, until the server drops it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(b"SSH-2.0-x\r\n")
    with contextlib.suppress(OSError):
        await reader.read()
    writer.close()


async def after_key_exchange(port: int, address: str) -> None:
    """Exchanges keys, asks to log in, then stalls until the server drops it."""
    with contextlib.suppress(asyncssh.Error, OSError):
        await asyncssh.connect(
            "127.0.0.1",
            port,
            local_addr=(address, 0),
            username="mallory",
            client_factory=Stalled,
            client_keys=None,
            known_hosts=None,
            preferred_auth="password",
        )


@contextlib.asynccontextmanager
async def crowd(port: int, stall: Stall, addresses: int, each: int) -> AsyncIterator[None]:
    """``each`` stalled connections from each of ``addresses`` addresses (127.0.0.2 on),
    each reconnecting as soon as it is dropped, until the block ends."""

    async def keep(address: str) -> None:
        while True:
            with contextlib.suppress(OSError):
                await stall(port, address)
            await asyncio.sleep(0.01)

    async with running(keep(f"127.0.0.{n + 2}") for n in range(addresses) for _ in range(each)):
        yield


@contextlib.asynccontextmanager
async def running(coroutines: Iterable[Coroutine[Any, Any, None]]) -> AsyncIterator[None]:
    """The attackers run for as long as the block does, then are cancelled."""
    tasks = [asyncio.create_task(coroutine) for coroutine in coroutines]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
