"""A fight's difficulty at prep from the command line (issue 43): ``tracker forecast --brief``
in every system, the batches that stop once the band is settled, the same line whatever the
jobs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.difficulty import BANDS, counts, party_of, settled
from rules.forecast import forecast
from tests.picks import every_demo, plays_solo
from tracker.demos import DEMOS
from tracker.headless.difficulty_runs import run_difficulty, stages
from tracker.headless.forecast_pool import Workers
from tracker.store import storage

from .support import tracker

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("stem", every_demo(plays_solo))
def test_brief_prints_each_systems_difficulty_line(stem: str, tmp_path: Path) -> None:
    save = tmp_path / "brawl.fight"
    shutil.copy(ROOT / "saves" / f"{stem}{storage.SUFFIX}", save)
    done = tracker("forecast", str(save), "--brief", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.split(":")[0].lower() in BANDS, first
    assert " win" in first and "a hero drops in " in first and "rounds" in first
    assert save.read_bytes() == (ROOT / "saves" / f"{stem}{storage.SUFFIX}").read_bytes()


def test_brief_json_is_the_same_with_one_job_or_two_and_names_the_band(tmp_path: Path) -> None:
    stem = every_demo(plays_solo)[0]
    save = tmp_path / "brawl.fight"
    shutil.copy(ROOT / "saves" / f"{stem}{storage.SUFFIX}", save)
    outs = [
        tracker("forecast", str(save), "--brief", "--json", "--jobs", jobs).stdout
        for jobs in ("1", "2")
    ]
    assert outs[0] == outs[1]
    doc = json.loads(outs[0])
    assert doc["band"] in BANDS and doc["runs"] in stages(1000)
    assert doc["lines"][0].lower().startswith(doc["band"])


def test_the_batches_stop_once_the_band_is_settled_and_match_a_whole_forecast() -> None:
    assert stages(1000) == [100, 200, 400, 1000] and stages(150) == [100, 150]
    assert stages(50) == [50]
    for stem in every_demo(plays_solo):
        state = DEMOS[stem]().state
        result = run_difficulty(state, seed=3, runs=400)
        party = party_of(s.side for s in result.sides)
        assert party is not None
        # It stopped at the first batch whose band is settled, or played them all.
        for stop in stages(400):
            whole = forecast(state, runs=stop, seed=3)
            if stop == result.runs:
                assert whole == result  # the same runs, the same report
                break
            assert settled(counts(whole, party)) is None, (state.system, stop)
        else:
            pytest.fail(f"{state.system}: stopped at {result.runs}, no batch's size")


def test_the_batches_split_over_workers_give_the_same_report() -> None:
    state = DEMOS[every_demo(plays_solo)[0]]().state
    told: list[int] = []
    with Workers(2) as workers:
        shared = run_difficulty(state, seed=5, runs=300, workers=workers, progress=told.append)
    assert shared == run_difficulty(state, seed=5, runs=300)
    assert told == sorted(told) and told[-1] == shared.runs


def test_tracker_new_opens_the_app_asking_for_the_difficulty_and_open_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tracker import cli, launch
    from tracker.app import TrackerApp

    made: list[TrackerApp] = []

    def run(app: TrackerApp) -> int:
        made.append(app)
        assert app.session is not None
        app.session.close()
        return 0

    monkeypatch.setattr(launch, "_run", run)
    stem = every_demo(plays_solo)[0]
    system = DEMOS[stem]().state.system
    saves = ["--saves", str(tmp_path), "--library", str(tmp_path / "lib")]
    assert cli.main([*saves, "new", "--system", system, "--name", "Ambush"]) == 0
    save = ROOT / "saves" / f"{stem}{storage.SUFFIX}"
    assert cli.main([*saves, "open", str(save)]) == 0
    assert [app.difficulty_at_start for app in made] == [True, False]
