"""`tracker dice`: plain dice headless, as text or JSON; bad notation is one line, exit 2."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from tests.hostile_text import CONTROL_DICE, HOSTILE_DICE, STALLING_DICE, unsafe

from .support import tracker


def test_dice_as_text_and_json() -> None:
    done = tracker("dice", "2d6+3", "--seed", "4")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("2d6+3: ") and " · mean 10" in lines[0]
    assert lines[-1] == "(seed 4)"
    again = tracker("--seed", "4", "dice", "2d6+3")  # the seed before the command: the same
    assert again.stdout == done.stdout
    data = json.loads(tracker("dice", "4d6kh3", ">=", "12", "--seed", "4", "--json").stdout)
    assert data["expression"] == "4d6kh3 >= 12" and data["seed"] == 4
    (group,) = data["dice"]
    kept = [sum(chain) for chain, keep in zip(group["rolls"], group["kept"], strict=True) if keep]
    assert len(group["rolls"]) == 4 and len(kept) == 3
    assert data["total"] == sum(kept)
    assert data["mean"]["fraction"] == "15869/1296"
    assert data["at_least"]["fraction"] == "799/1296"
    assert data["at_least"]["reached"] == (data["total"] >= 12)
    chances = {row["total"]: row["fraction"] for row in data["distribution"]}
    assert len(chances) == 16 and chances[18] == "7/432" and chances[3] == "1/1296"
    assert data["goal"] == {
        "comparison": ">=",
        "against": 12,
        "fraction": "799/1296",
        "p": 799 / 1296,
        "reached": data["total"] >= 12,
    }


def test_dice_labels_rerolls_and_a_goal_made_or_missed() -> None:
    done = tracker("dice", "1d20ro1+5 [luck] >= 15", "--seed", "4")
    first = done.stdout.splitlines()[0]
    assert first.startswith("1d20ro1+5 [luck] >= 15: ") and " [luck] = " in first
    assert (" · made it · " in first) != (" · missed · " in first)
    assert "exactly" not in done.stdout  # the fractions only when asked
    exact = tracker("dice", "4d6kh3", "--seed", "4", "--exact").stdout
    assert "exactly: mean 15869/1296" in exact


def test_dice_chart_draws_the_distribution_in_blocks() -> None:
    lines = tracker("dice", "2d6", "--seed", "1", "--chart").stdout.splitlines()
    rows = [line for line in lines if "%" in line and "█" in line]
    assert len(rows) == 11
    assert rows[5].startswith(" 7 " + "█" * 40) and rows[5].endswith("16.7%")
    assert rows[0].startswith(" 2 ██████▋") and rows[0].endswith("2.8%")


@pytest.mark.parametrize("words", [["2d6 chart"], ["2d6", "chart"], ["2d6", "CHART"]])
def test_dice_ending_with_the_word_chart_draw_it_as_the_apps_roll_does(words: list[str]) -> None:
    asked = tracker("dice", *words, "--seed", "1")
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout == tracker("dice", "2d6", "--seed", "1", "--chart").stdout


def test_the_help_says_where_the_notation_differs_from_d20s() -> None:
    help_text = " ".join(tracker("dice", "--help").stdout.split())
    for said in ("d20 dice bot", "4d6k3", "4d6kh3", "4d6k=3", "c counts successes"):
        assert said in help_text
    assert "docs/reference/dice.md" in help_text  # the whole table of differences


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["2d6+x"], "cannot read dice at 'x'"),
        (["200d6"], "roll 0 to 100 dice, not 200"),
        (["2d6", ">=", "lots"], "cannot read dice at 'lots': expected a number"),
        (["100d6!"], "too many possible totals"),
        (["1d6rr<7"], "it would never stop"),
        (["10/(1d6-1)"], "nothing divides by 0"),
        (["(" * 30 + "1" + ")" * 30], "parentheses inside each other"),
        (["1d6\x1b[2J"], "cannot hold control characters"),
    ],
)
def test_bad_notation_is_one_line_and_exit_2(words: list[str], message: str) -> None:
    done = tracker("dice", *words)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.count("\n") == 1 and message in done.stderr
    assert done.stderr.startswith("tracker: ")


@pytest.mark.parametrize(
    "argv",
    [
        ["dice", "4d6kh3", ">=", "12", "--seed", "2"],
        ["--seed", "2", "dice", "1d20ro1+5", "--chart"],
        ["--saves", "roll", "dice", "2d6"],  # a folder named like a command changes nothing
    ],
)
def test_dice_loads_no_msgspec_no_textual_no_inspect_and_no_system(argv: list[str]) -> None:
    """``tracker dice`` starts as fast as ``tracker odds``: the notation alone, no system's
    part (their ``roll_cli`` loads msgspec), no Textual, and no ``pkgutil`` or ``inspect``
    (``tracker new``'s parser listed the systems through them for every command)."""
    code = (
        "import sys, json; from tracker.cli import main; "
        f"status = main({argv!r}); "
        "print(status, json.dumps(sorted(m for m in sys.modules if m.startswith(('msgspec', "
        "'textual', 'rules.systems.', 'rules.encounter', 'dataclasses', 'inspect', 'pkgutil')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    status, loaded = out.stdout.strip().splitlines()[-1].split(" ", 1)
    assert status == "0", out.stderr
    assert json.loads(loaded) == []


@pytest.mark.parametrize(
    ("line", "told"),
    [*HOSTILE_DICE, *((line, "cannot hold control characters") for line in CONTROL_DICE)],
)
def test_hostile_dice_get_one_inert_line(line: str, told: str) -> None:
    done = tracker("dice", "--", line)  # "--": a line may start with a minus sign
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and told in done.stderr
    assert not unsafe(done.stderr, "\n")


@pytest.mark.parametrize("line", STALLING_DICE)
def test_dice_too_many_to_work_out_are_refused_in_one_line_within_a_second(line: str) -> None:
    """Each once took the CPU from 0.7 s to more than 30 s; the bound is about half a second,
    and the child's CPU time is checked generously (it counts Python starting, too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = tracker("dice", "--", line)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith("tracker: too many possible totals to work out exactly in ")
    assert done.stderr.count("\n") == 1
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert cpu < 2.0, cpu
