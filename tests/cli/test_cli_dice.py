"""`tracker dice`: plain dice headless, as text or JSON; bad notation is one line, exit 2."""

from __future__ import annotations

import json

import pytest

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


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["2d6+x"], "cannot read dice at 'x'"),
        (["200d6"], "roll 1 to 100 dice, not 200"),
        (["2d6", ">=", "lots"], "after >= comes a whole number"),
        (["100d6!"], "too many possible totals"),
    ],
)
def test_bad_notation_is_one_line_and_exit_2(words: list[str], message: str) -> None:
    done = tracker("dice", *words)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.count("\n") == 1 and message in done.stderr
    assert done.stderr.startswith("tracker: ")
