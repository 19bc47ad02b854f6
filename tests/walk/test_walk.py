"""The walk in the suite: every system, every role, both sizes, a few seeded steps each
(``make explore`` walks for longer; docs/contributing/testing.md says how to replay a failure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.walk.walker import walk
from tests.walk.world import Case, cases

SEEDS = (1,)  # fixed: the suite walks the same steps every run
STEPS = 12  # a case's budget; about 90 seconds for every case on two cores


@pytest.mark.slow
@pytest.mark.parametrize("case", cases(), ids=str)
async def test_a_walk_breaks_nothing(case: Case, tmp_path: Path) -> None:
    for seed in SEEDS:
        folder = tmp_path / str(seed)
        folder.mkdir()
        walked = await walk(case, seed, STEPS, folder)
        assert walked.problem is None, walked.report()
        assert len(walked.steps) == STEPS
