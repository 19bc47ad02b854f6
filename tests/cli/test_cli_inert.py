"""Reports and the command line's output are inert: nothing a save holds or an argument says
reaches the terminal as a control character."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.events import TurnAdvanced
from tests.cli.support import tracker
from tests.hostile_text import (
    CONTROLS,
    EVERY,
    SEQUENCES,
    SPOOFING,
    hostile_text,
    raw_fight,
    strings_in,
    unsafe,
)
from tracker import headless
from tracker.cli import main
from tracker.store import export, storage
from tracker.store.defaults import systems

# Every system's `tracker roll`/`tracker odds` sub-command, each found through its package.
PER_SYSTEM = [
    f"{command} {name}"
    for command in ("odds", "roll")
    for name in systems()
    if headless.command_part(command, name) is not None
]
COMMANDS = ["open", "export", "replay", *PER_SYSTEM, ""]
SETTINGS = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exit_:  # argparse's refusal
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


@SETTINGS
@given(name=hostile_text, note=hostile_text, condition=hostile_text)
@example(name="".join(SEQUENCES), note=EVERY, condition=CONTROLS + SPOOFING)
def test_both_reports_are_inert_whatever_the_fight_holds(
    name: str, note: str, condition: str
) -> None:
    fight = raw_fight(name, note, condition)
    for gm in (False, True):
        assert unsafe(export.to_markdown(fight, gm), allowed="\n") == []
        document = export.to_json(fight, gm)
        assert [text for text in strings_in(document) if unsafe(text, allowed="\n\t")] == []
        assert unsafe(json.dumps(document, ensure_ascii=False)) == []


def test_an_event_of_several_lines_keeps_them_in_json() -> None:
    fight = raw_fight("the Bold", "", "")
    fight.commit([TurnAdvanced(round=2, actor_id="c1", previous_id="c2")], "next")
    (turn,) = [e for e in export.to_json(fight)["events"] if e["kind"] == "turn"]
    assert turn["text"] == "— Round 2 —\n▶ Orla the Bold's turn"


def test_a_line_break_in_a_name_starts_no_heading() -> None:
    report = export.to_markdown(raw_fight("\n## Round 99\n", "\r\n# Won", "x"))
    assert "\n## Round 99" not in report and "\n# Won" not in report


@SETTINGS
@given(name=hostile_text, note=hostile_text, condition=hostile_text)
@example(name="".join(SEQUENCES), note=EVERY, condition=CONTROLS + SPOOFING)
def test_tracker_export_prints_a_hostile_save_inert(
    tmp_path: Path, name: str, note: str, condition: str
) -> None:
    save = tmp_path / "hostile.fight"
    save.unlink(missing_ok=True)
    storage.write(save, raw_fight(name, note, condition))
    for format_ in ("markdown", "json"):
        status, out, err = run("export", str(save), "--format", format_, "--gm")
        assert status == 0
        assert unsafe(out + err, allowed="\n") == []


@SETTINGS
@given(st.sampled_from(COMMANDS), hostile_text)
@example("open", EVERY + "\udcff")  # a file name not in UTF-8 reaches Python as a surrogate
def test_an_error_quoting_an_argument_is_inert(tmp_path: Path, command: str, text: str) -> None:
    argument = text.replace("\x00", "")  # no argument can hold a NUL
    path = str(tmp_path / f"x{argument}.fight")
    status, out, err = run(*command.split(), path if command else argument)
    assert status == 2
    assert err.strip()
    assert unsafe(out + err, allowed="\n\t") == []


def test_the_real_program_prints_a_hostile_save_inert(tmp_path: Path) -> None:
    """Issue #17: a bracketed paste put these in a note, and `tracker export` printed them."""
    save = tmp_path / "pasted.fight"
    storage.write(save, raw_fight("\x1bc", "\x1b]0;PWNED\x07 \x1b(0 \x1bc", "\x1b[2J"))
    done = tracker("export", str(save))
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "]0;PWNED" in done.stdout


HOSTILE_NAME = "r\x1b]0;PWNED\x07\n\ttracker: forged.md"  # a title, then a line of its own


def test_a_path_written_is_printed_inert_on_one_line(tmp_path: Path) -> None:
    """Issue #46: the report's path came back as given, its line break a forged line."""
    save = tmp_path / "x.fight"
    storage.write(save, raw_fight("Orla", "", ""))
    done = tracker("export", str(save), "-o", HOSTILE_NAME, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / HOSTILE_NAME).read_text().startswith("# ")  # written as named
    assert done.stderr == "Wrote r]0;PWNED  tracker: forged.md\n"


@pytest.mark.parametrize(
    "command",
    ["open", "replay", "export", "forecast", "library add", "library export", "export -o", ""],
)
def test_an_error_quoting_a_name_is_one_line(tmp_path: Path, command: str) -> None:
    """Every subcommand's one line stays one, whatever the name it quotes holds."""
    save = tmp_path / "x.fight"
    storage.write(save, raw_fight("Orla", "", ""))
    name = str(tmp_path / HOSTILE_NAME)
    argv = {
        "export -o": ["export", str(save), "-o", f"{save}/{HOSTILE_NAME}"],  # not a folder
        "library export": ["library", "export", str(save), HOSTILE_NAME],
        "": ["open", str(save), name],  # argparse's "unrecognized arguments"
    }.get(command, [*command.split(), name])
    status, out, err = run(*argv)
    assert status == 2
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "forged.md" in err and unsafe(out + err, allowed="\n") == []
