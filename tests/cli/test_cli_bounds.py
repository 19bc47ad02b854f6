"""``tracker roll`` and ``tracker odds`` refuse what the rules cannot produce, in one line,
at once; and a top-level ``--seed`` reaches every headless roll (issue #18, items 18-21)."""

from __future__ import annotations

import time

import pytest

from rules.bounds import MODIFIER
from rules.registry import names, part
from tracker.cli import main

HUGE = "9" * 26


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exc:  # argparse's own refusals
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def examples() -> dict[str, tuple[str, ...]]:
    """Each registered system's ``tracker roll`` example (its ``roll_cli.EXAMPLE``)."""
    parts = {name: part(name, "roll_cli") for name in names()}
    return {name: module.EXAMPLE for name, module in parts.items() if module is not None}


@pytest.mark.parametrize("system", sorted(examples()))
def test_the_top_level_seed_reaches_every_headless_roll(
    capsys: pytest.CaptureFixture[str], system: str
) -> None:
    example = examples()[system]
    outputs = {run(capsys, "--seed", str(seed), "roll", system, *example)[1] for seed in (5, 5)}
    assert len(outputs) == 1
    (output,) = outputs
    assert output.rstrip().endswith("(seed 5)")
    # The roll's own --seed still wins when both are given.
    assert (
        run(capsys, "--seed", "5", "roll", system, *example, "--seed", "6")[1].rstrip()[-8:]
        == "(seed 6)"
    )


def integer_options() -> list[tuple[tuple[str, ...], str]]:
    """Each registered system's roll example with one of its whole numbers made huge: the
    args, and the option that must be named."""
    rows = []
    for name, example in sorted(examples().items()):
        for at, value in enumerate(example):
            if value.lstrip("-").isdigit() and example[at - 1].startswith("--"):
                huge = (*example[:at], HUGE, *example[at + 1 :])
                rows.append((("roll", name, *huge), example[at - 1]))
    return rows


def refused_at_once(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str, modifier: bool = True
) -> None:
    """One line naming the option and its bounds (the rules' ``MODIFIER`` for a modifier),
    and no output, at once."""
    started = time.perf_counter()
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"tracker: {message} must be between ")
    assert not modifier or f"{MODIFIER}" in err
    # Not a speed target (a loaded machine took 10 s): a refusal used to hang for ever.
    assert time.perf_counter() - started < 60


@pytest.mark.parametrize(("args", "message"), integer_options())
def test_a_number_beyond_the_rules_is_one_line_at_once(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    refused_at_once(capsys, args, message, modifier=False)  # an AC is bound by its own range
