"""A pytest plugin that records what each test costs in CPU, which holds under other load
where wall time does not: ``pytest -p tests.cpu_times`` with ``CPU_TIMES=folder`` writes one
JSON file a process (each xdist worker's), and ``python -m tests.cpu_times folder`` sums
them by module and area. Not loaded by default."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

_START = time.process_time()  # this process's CPU before the plugin was imported
_costs: dict[str, float] = {}  # test id -> CPU seconds: setup, call and teardown
_children: dict[str, float] = {}  # test id -> CPU seconds of the processes it waited for
_collected = 0.0  # CPU seconds the process spent until its first test


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    global _collected
    if not _costs:
        _collected = time.process_time()
    start, children = time.process_time(), _children_cpu()
    yield
    _costs[item.nodeid] = time.process_time() - start
    _children[item.nodeid] = _children_cpu() - children


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get("CPU_TIMES")
    if not folder or not _costs:
        return
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    record = {
        "process": time.process_time(),
        "before_plugin": _START,
        "until_first_test": _collected,
        "children": _children_cpu(),
        "tests": _costs,
        "tests_children": _children,
    }
    Path(folder).mkdir(parents=True, exist_ok=True)
    Path(folder, f"{name}.json").write_text(json.dumps(record))


def _area(nodeid: str) -> str:
    parts = nodeid.split("::")[0].split("/")
    return "/".join(parts[:3] if parts[1] == "systems" else parts[:2])


def report(folder: Path, top: int = 40) -> str:
    by_module: dict[str, float] = defaultdict(float)
    by_area: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    tests: dict[str, float] = {}
    lines = []
    total = overhead = children = 0.0
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        for nodeid, cost in record["tests"].items():
            cost += record["tests_children"].get(nodeid, 0.0)
            tests[nodeid] = cost
            by_module[nodeid.split("::")[0]] += cost
            by_area[_area(nodeid)] += cost
            counts[_area(nodeid)] += 1
        tested = sum(record["tests"].values())
        total += record["process"] + record["children"]
        overhead += record["process"] - tested
        children += record["children"]
        lines.append(
            f"{path.stem}: {record['process']:.0f} s CPU ({record['until_first_test']:.1f} s"
            f" to the first test), children {record['children']:.0f} s, {len(record['tests'])}"
            " tests"
        )
    lines.append(
        f"all: {total:.0f} s CPU, of it {overhead:.0f} s outside tests, {children:.0f}"
        " s in child processes"
    )
    lines.append("\nby area (CPU s, tests, s a test):")
    for area, cost in sorted(by_area.items(), key=lambda pair: -pair[1]):
        lines.append(f"  {cost:8.1f} {counts[area]:5d} {cost / counts[area]:6.2f}  {area}")
    lines.append(f"\nthe {top} dearest modules:")
    for module, cost in sorted(by_module.items(), key=lambda pair: -pair[1])[:top]:
        lines.append(f"  {cost:8.1f}  {module}")
    lines.append(f"\nthe {top} dearest tests:")
    for nodeid, cost in sorted(tests.items(), key=lambda pair: -pair[1])[:top]:
        lines.append(f"  {cost:8.1f}  {nodeid}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 40))
