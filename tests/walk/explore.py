"""Explore (``make explore``): fresh seeds over every case until the time is up, a few walks
at once (each in a process of its own, so a hung one is stopped), then what the walks
reached and what failed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from tests.walk.walker import STEP_TIMEOUT, Walked
from tests.walk.world import Case, cases


@dataclass
class Reached:
    """What the walks of one case did, added up."""

    walks: int = 0
    steps: int = 0
    screens: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def tally(walked: Walked) -> dict[str, Any]:
    """A walk as its process reports it to the explorer (one JSON line)."""
    return {
        "steps": len(walked.steps),
        "screens": walked.screens,
        "actions": walked.actions,
        "report": walked.report() if walked.problem else "",
    }


def one_walk(case: Case, seed: int, steps: int) -> dict[str, Any]:
    """Walk in a process of its own (``python -m tests.walk ... --json``)."""
    width, height = case.size
    command = [sys.executable, "-m", "tests.walk", "--json", "--seed", str(seed)]
    command += ["--system", case.system, "--role", case.role, "--size", f"{width}x{height}"]
    command += ["--steps", str(steps)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=steps * STEP_TIMEOUT + 60
        )
    except subprocess.TimeoutExpired:
        replay = " ".join(command[2:]).replace(" --json", "")
        return {"steps": 0, "report": f"the walk hung: python {replay}"}
    lines = done.stdout.strip().splitlines()
    if done.returncode not in (0, 1) or not lines:
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"steps": 0, "report": f"{case} seed {seed}: the walk's process failed: {why}"}
    found: dict[str, Any] = json.loads(lines[-1])
    return found


def explore(minutes: float, jobs: int, steps: int) -> int:
    """Walk until ``minutes`` are up; 1 if any walk failed."""
    first = random.SystemRandom().randrange(1_000_000_000)
    print(f"exploring for {minutes:g} minutes, {jobs} walks at once, {steps} steps a walk;")
    print(f"seeds from {first} up (a failure's report has its seed)", flush=True)
    deadline = time.monotonic() + minutes * 60
    every = cases()
    reached: dict[Case, Reached] = defaultdict(Reached)
    seed = first
    with ThreadPoolExecutor(jobs) as pool:
        running: dict[Future[dict[str, Any]], Case] = {}
        while running or time.monotonic() < deadline:
            while time.monotonic() < deadline and len(running) < jobs:
                case = every[(seed - first) % len(every)]
                running[pool.submit(one_walk, case, seed, steps)] = case
                seed += 1
            done, _ = wait(running, timeout=5, return_when=FIRST_COMPLETED)
            for future in done:
                case = running.pop(future)
                add(reached[case], case, future.result())
    print(summary(reached))
    return 1 if any(t.failures for t in reached.values()) else 0


def add(into: Reached, case: Case, walked: dict[str, Any]) -> None:
    into.walks += 1
    into.steps += walked["steps"]
    into.screens.update(walked.get("screens", {}))
    into.actions.update(walked.get("actions", {}))
    if walked["report"]:
        into.failures.append(walked["report"])
        print(f"\nFAILED {case}:\n{walked['report']}\n", flush=True)


def summary(reached: dict[Case, Reached]) -> str:
    lines = ["", "what the walks reached:", ""]
    lines.append(f"{'case':32} {'walks':>5} {'steps':>6} {'screens':>7} {'actions':>7} failed")
    screens: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for case in sorted(reached, key=str):
        each = reached[case]
        screens.update(each.screens)
        actions.update(each.actions)
        lines.append(
            f"{case!s:32} {each.walks:5} {each.steps:6} {len(each.screens):7} "
            f"{len(each.actions):7} {len(each.failures)}"
        )
    total = sum(t.steps for t in reached.values())
    walks = sum(t.walks for t in reached.values())
    lines += ["", f"{walks} walks, {total} steps, {len(actions)} different actions"]
    lines.append("screens seen (steps taken on each):")
    lines += [f"  {count:6}  {name}" for name, count in screens.most_common()]
    lines.append("actions taken (screen: action), the most taken first:")
    lines += [f"  {count:6}  {name}" for name, count in actions.most_common()]
    failures = [report for t in reached.values() for report in t.failures]
    lines += ["", f"{len(failures)} failed walks" + (":" if failures else "")]
    lines += failures
    return "\n".join(lines)
