"""``tracker roll`` and ``tracker odds`` refuse what the rules cannot produce, in one line,
at once; and a top-level ``--seed`` reaches every headless roll (issue #18, items 18-21)."""

from __future__ import annotations

import time

import pytest

from rules.bounds import MODIFIER
from tracker.cli import main

HUGE = "9" * 26


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exc:  # argparse's own refusals
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


ROLLS = {
    "livehack": ("--attacker", "3", "--defender", "1"),
    "beerrun": ("--pool", "d8,d6", "--against", "d10,d4"),
    "fatigue": ("--attacker", "3", "--defender", "1"),
    "painpool": ("--power", "2d8", "--precision", "d6", "--possibility", "1d4", "--pain", "5d6"),
}


@pytest.mark.parametrize("system", sorted(ROLLS))
def test_the_top_level_seed_reaches_every_headless_roll(
    capsys: pytest.CaptureFixture[str], system: str
) -> None:
    outputs = {
        run(capsys, "--seed", str(seed), "roll", system, *ROLLS[system])[1] for seed in (5, 5)
    }
    assert len(outputs) == 1
    (output,) = outputs
    assert output.rstrip().endswith("(seed 5)")
    # The roll's own --seed still wins when both are given.
    assert (
        run(capsys, "--seed", "5", "roll", system, *ROLLS[system], "--seed", "6")[1].rstrip()[-8:]
        == "(seed 6)"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "livehack", "--attacker", "50000", "--defender", "0"), "--attacker"),
        (("odds", "livehack", "--attacker", HUGE, "--defender", "0"), "--attacker"),
        (("odds", "livehack", "--attacker", "0", "--defender", "-101"), "--defender"),
        (("roll", "livehack", "--attacker", HUGE, "--defender", "0"), "--attacker"),
        (("roll", "livehack", "--attacker", "1", "--defender", f"-{HUGE}"), "--defender"),
        (("roll", "livehack", *ROLLS["livehack"], "--attacker-skill", "500"), "--attacker-skill"),
        (("roll", "livehack", *ROLLS["livehack"], "--defender-item", HUGE), "--defender-item"),
        (("roll", "livehack", *ROLLS["livehack"], "--positional", "-3"), "--positional"),
        (("roll", "livehack", *ROLLS["livehack"], "--aid-mos", HUGE), "--aid-mos"),
        (
            ("roll", "livehack", *ROLLS["livehack"], "--joint", "chaos", "--helper", HUGE),
            "--helper",
        ),
        (
            (
                "odds",
                "fatigue",
                "--attacker-dice",
                "1d20",
                "--attacker",
                HUGE,
                "--defender-dice",
                "1d20",
                "--defender",
                "0",
            ),
            "--attacker",
        ),
        (
            ("roll", "fatigue", "--attacker", "0", "--defender", "0", "--fatigue-penalty", HUGE),
            "--fatigue-penalty",
        ),
        (
            (
                "odds",
                "fatigue",
                "--attacker-dice",
                "1d20",
                "--attacker",
                "1",
                "--defender-dice",
                "1d20",
                "--defender",
                "0",
                "--fumble",
                HUGE,
            ),
            "--fumble",
        ),
        (("roll", "fatigue", *ROLLS["fatigue"], "--fumble", f"-{HUGE}"), "--fumble"),
    ],
)
def test_a_modifier_beyond_the_rules_is_one_line_at_once(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    started = time.perf_counter()
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"tracker: {message} must be between ")
    assert f"{MODIFIER}" in err
    # Not a speed target (a loaded machine took 10 s): a refusal used to hang for ever.
    assert time.perf_counter() - started < 60


def test_the_largest_modifiers_the_rules_allow_still_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "odds", "livehack", "--attacker", str(MODIFIER), "--defender", str(-MODIFIER)
    )
    assert status == 0 and "100.00%" in out


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("--pool", "0d6,d6", "--against", "d6"),
            "tracker: --pool: '0d6' rolls no dice; leave it out",
        ),
        (
            ("--pool", "0d6", "--against", "d6"),
            "tracker: --pool: '0d6' rolls no dice; leave it out",
        ),
        (
            ("--pool", "d" + HUGE, "--against", "d6"),
            "tracker: --pool's die must be a d1 to a d1000",
        ),
    ],
)
def test_beerrun_pools_are_read_one_way(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], line: str
) -> None:
    status, _, err = run(capsys, "roll", "beerrun", *args)
    assert status == 2
    assert err.startswith(line)


def test_beerrun_three_digit_faces_stay_apart(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "roll", "beerrun", "--pool", "d999,d999,d999", "--against", "3d999", "--seed", "2"
    )
    assert status == 0
    rows = [
        line.split()
        for line in out.splitlines()
        if line.startswith(("  Pool", "  Against")) and "success" not in line
    ]
    assert [len(row) for row in rows] == [7, 7]  # name, three faces, three dice
    assert all(1 <= int(face) <= 999 for row in rows for face in row[1:4])


PAIN = ("--precision", "d6", "--possibility", "1d4", "--pain", "5d6")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("--power", "1000d8", *PAIN), "tracker: --power must roll between 1 and 30 dice"),
        (("--power", f"{HUGE}d8", *PAIN), "tracker: --power must roll between 1 and 30 dice"),
        (("--power", "2d8", *PAIN[:-1], "5x6"), "tracker: --pain must look like 3d6, not '5x6'"),
        (("--power", "2d8", *PAIN[:-1], "31d6"), "tracker: --pain must roll between 1 and 30"),
    ],
)
def test_painpool_pools_name_what_is_wrong(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], line: str
) -> None:
    status, _, err = run(capsys, "roll", "painpool", *args)
    assert status == 2
    assert err.startswith(line)


def test_painpool_takes_a_die_without_its_count_as_beerrun_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "odds", "painpool", "--power", "d8", *PAIN)
    assert status == 0 and "%" in out
