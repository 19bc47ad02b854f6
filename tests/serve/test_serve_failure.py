"""What fails at a served table reaches the GM as one line: the exception and where in our
code; no traceback reaches a screen or a stream, and the rest of the table plays on."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from rules.commands import AddNote
from tests.hostile_text import EVERY, unsafe
from tests.serve.serve_helpers import Client, Served, until
from tests.serve.web_helpers import Browser, channel_of, seat_of, serve_web
from tracker.serve import failure

# What ``fail_in_our_code`` (and a help dialog given no bindings) is said as.
IN_HELP = r"TypeError: 'int' object is not iterable \(tracker/screens/help\.py:\d+ in \w+\)"


def said_once(notices: Iterable[str], pattern: str) -> None:
    """Exactly one notice, and it reads ``pattern``."""
    found = list(notices)
    assert len(found) == 1 and re.fullmatch(pattern, found[0]), found


def fail_in_our_code() -> None:
    from tracker.screens.help import HelpScreen

    HelpScreen(5, "")  # type: ignore[arg-type]  # not bindings: fails in our code


def test_one_line_names_the_exception_and_our_innermost_line() -> None:
    with pytest.raises(TypeError) as caught:
        fail_in_our_code()
    line = failure.one_line(caught.value)
    assert re.fullmatch(IN_HELP, line), line


def test_one_line_is_inert_and_short_and_says_no_place_outside_our_code() -> None:
    error = ValueError(EVERY * 50)
    line = failure.one_line(error)  # never raised: no traceback, no place
    assert line.startswith("ValueError: ") and not line.endswith(")")
    assert not unsafe(line) and len(line) < failure.LONGEST + 20
    assert failure.one_line(KeyError()) == "KeyError"


async def test_a_shared_view_that_fails_leaves_its_seats_drawn(
    served: Served, capfd: pytest.CaptureFixture
) -> None:
    bob = await Client.join(served, "bob")  # only watches: a shared view draws him
    view = next(iter(served.server.views))
    view.app.screen.BINDINGS = 5
    view.app.call_later(view.app.screen.action_help)
    await until(lambda: any("view" in n for n in served.table.notices))
    said = [n for n in served.table.notices if "view" in n]
    assert len(said) == 1 and re.fullmatch(
        r"The shared spectator view \(100x30\) failed, its seats now drawn on their own:"
        r" TypeError: .* \(tracker/.*\)",
        said[0],
    ), said
    served.session.execute(AddNote("still drawn"))
    await until(lambda: "still drawn" in bob.text())
    out, err = capfd.readouterr()
    assert "Traceback" not in err + out and "NOTE" not in err + out
    await bob.close()


async def test_an_error_on_the_tables_loop_is_one_line(
    served: Served, capfd: pytest.CaptureFixture
) -> None:
    asyncio.get_running_loop().call_soon(fail_in_our_code)
    await until(lambda: any("loop" in n for n in served.table.notices))
    said_once(served.table.notices, "An error on the table's loop: " + IN_HELP)
    out, err = capfd.readouterr()
    assert "Traceback" not in err + out


async def test_a_browser_seat_that_fails_is_one_line_too(
    tmp_path: Path, capfd: pytest.CaptureFixture
) -> None:
    web = await serve_web(tmp_path)
    try:
        cara = await Browser.join(web, web.link("player", "Cara"))
        await cara.type("?")  # her first key: her own app draws her
        await until(lambda: "closes this help" in cara.text())
        await cara.type("\x1b")
        await until(lambda: "closes this help" not in cara.text())
        channel = channel_of(web, "Cara")
        channel.app.screen.BINDINGS = 5
        await cara.type("?")
        await until(lambda: seat_of(web, "Cara") is None)
        said_once(
            (n for n in web.served.table.notices if "Cara" in n),
            r"Cara's seat \(127\.0\.0\.1:\d+ \(web\)\) was closed by an error: " + IN_HELP,
        )
        out, err = capfd.readouterr()
        assert "Traceback" not in err + out
        await cara.close()
    finally:
        await web.close()
