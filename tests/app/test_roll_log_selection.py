"""The roll log's text, selected with the mouse and copied with ctrl+c."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddNote
from rules.dice import SeededDice
from tests.app.support import make_app
from tracker.widgets.roll_log import RollLog


async def test_text_selected_in_the_log_is_copied_and_the_app_goes_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(100, 30)) as pilot:
        app.session.execute(AddNote("first note"))
        app.session.execute(AddNote("second note"))
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        assert log.entries == ["Encounter Cellar begins", "✎ first note", "✎ second note"]
        left = log.content_region.x - log.region.x
        top = log.content_region.y - log.region.y
        # From the third character of the first line to the sixth of the third, inclusive.
        await pilot.mouse_down(log, offset=(left + 2, top))
        await pilot.hover(log, offset=(left + 5, top + 2))
        await pilot.mouse_up(log, offset=(left + 5, top + 2))
        await pilot.pause()
        selected = app.screen.get_component_rich_style("screen--selection").bgcolor
        shown = [
            (segment.text, segment.style and segment.style.bgcolor)
            for segment in log.render_line(0)
        ]
        assert ("En", selected) not in shown and shown[1] == ("counter ", selected)

        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running  # it crashed: our _render had taken the place of Textual's
        assert app.clipboard == "counter Cellar begins\n✎ first note\n✎ seco"

        # Dragged on below the last line: to the end of the log.
        await pilot.mouse_down(log, offset=(left, top + 1))
        await pilot.hover(log, offset=(left + 5, top + 8))
        await pilot.mouse_up(log, offset=(left + 5, top + 8))
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running
        assert app.clipboard == "✎ first note\n✎ second note"


async def test_part_of_a_wrapped_entry_is_copied_as_its_lines_show_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(100, 30)) as pilot:
        app.session.execute(AddNote(" ".join(f"word{number}" for number in range(30))))
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        left = log.content_region.x - log.region.x
        top = log.content_region.y - log.region.y
        second_line = log.render_line(2).text.rstrip()
        assert second_line.startswith("word")  # the note wraps
        await pilot.mouse_down(log, offset=(left + 2, top + 1))
        await pilot.hover(log, offset=(left + 3, top + 2))
        await pilot.mouse_up(log, offset=(left + 3, top + 2))
        await pilot.press("ctrl+c")
        await pilot.pause()
        first_line = log.render_line(1).text.rstrip()
        assert app.clipboard == f"{first_line[2:]}\n{second_line[:4]}"
