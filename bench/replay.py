"""Replay benchmark: a long fight's save opened, checked and its replay timeline built, as
`tracker replay` does, beside an older checkout (issue 45: the timeline folded every event
twice, every record was decoded twice, and then the check before it folded them once more).

Run: ``.venv/bin/python bench/replay.py [--before DIR] [--runs N] [--write]``, ``DIR`` an older
checkout (``git worktree add /tmp/old main``). Each run is a fresh process per checkout, the
checkouts alternated so that both see the same machine load; each opens the same fight from
a save it reads (an older checkout that reads no format 5 gets it as format 4 wrote it),
checks it and builds the timeline. Times are CPU seconds of that process
(``time.process_time``), so the load of other processes counts less; the events applied
and records decoded are counted. The ratio (this checkout over the older) is what to
compare. ``--write`` puts the table into
docs/contributing/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.checkouts import alternated  # noqa: E402
from bench.doc import write_block  # noqa: E402

# Run in a fresh process, with a checkout's own code first on the path: the save opened and
# its replay's timeline built as `tracker replay` does (tracker.launch.run_replay), the log
# checked to fold first (refused in a line if it does not), in whatever way that checkout does.
TIMED = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from rules import history, replay, snapshot
from rules.engine import apply
try:
    from tracker.store import storage
except ImportError:  # a checkout from before tracker/store/ (issue 44)
    from tracker import storage

counts = {{"applied": 0, "decoded": 0}}

def counting_apply(state, event):
    counts["applied"] += 1
    return apply(state, event)

class Counting:
    def __init__(self, decoder):
        self.decoder = decoder
    def decode(self, raw):
        decoded = self.decoder.decode(raw)
        counts["decoded"] += len(decoded) if isinstance(decoded, list) else 1
        return decoded

codec = snapshot.codec
def counting_codec(system):
    found = codec(system)
    counted = {{"record": Counting(found.record)}}
    if "records" in found._fields:  # the whole log decoded in one call
        counted["records"] = Counting(found.records)
    return found._replace(**counted)
snapshot.codec = counting_codec
history.apply = replay.apply = counting_apply
path = Path({fight!r})
started = time.process_time()
opened = storage.load(path).history if hasattr(storage, "load") else storage.read(path)
read = time.process_time()
if hasattr(storage, "replayable"):  # the timeline's fold is the check
    timeline = storage.replayable(path, opened)
else:
    if hasattr(storage, "refolded"):  # the check, a fold of its own
        storage.refolded(path, opened)
    timeline = replay.Timeline(opened)
built = time.process_time()
print(json.dumps({{"open": read - started, "timeline": built - read, **counts}}))
"""


def as_format_4(data: bytes) -> bytes:
    """A save of format 5 as format 4 wrote it: its records as they are, not packed."""
    import msgspec

    from rules import snapshot

    body = msgspec.msgpack.decode(data[len(snapshot.MAGIC) + 4 :])
    raws, _ = snapshot.unpack(body.pop("packed"))
    body.update(format=snapshot.PLAIN, records=raws)
    encoded = msgspec.msgpack.encode(body)
    return snapshot.MAGIC + zlib.crc32(encoded).to_bytes(4, "big") + encoded


def reads_packed(root: Path) -> bool:
    """Whether the checkout at ``root`` reads this checkout's saves (format 5 and later)."""
    code = "from rules import snapshot; print(getattr(snapshot, 'FORMAT', 0))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    from rules import snapshot

    return int(done.stdout) >= snapshot.FORMAT


def measured(
    runs: int, fights: dict[str, Path], roots: dict[str, Path]
) -> dict[str, list[dict[str, float]]]:
    return alternated(
        runs, roots, lambda name, root: TIMED.format(root=str(root), fight=str(fights[name]))
    )


def table(found: dict[str, list[dict[str, float]]], runs: int, label: str) -> str:
    names = list(found)
    both = len(names) > 1
    head = f"| {label} (median of {runs} fresh processes, CPU) | " + " | ".join(names)
    rows = [head + (" | ratio |" if both else " |"), "|---|" + "---:|" * (len(names) + both)]

    def row(what: str, values: list[float], unit: str) -> None:
        cells = " | ".join(f"{v * 1000:.0f} ms" if unit == "ms" else f"{v:,.0f}" for v in values)
        ratio = f" | {values[-1] / values[0]:.2f}x" if both else ""
        rows.append(f"| {what} | {cells}{ratio} |")

    def median(name: str, key: str) -> float:
        return statistics.median(run[key] for run in found[name])

    def total(name: str) -> float:
        return statistics.median(run["open"] + run["timeline"] for run in found[name])

    row("open the save", [median(n, "open") for n in names], "ms")
    row("check its log and build the replay timeline", [median(n, "timeline") for n in names], "ms")
    row("both", [total(n) for n in names], "ms")
    row("events applied", [median(n, "applied") for n in names], "")
    row("records decoded", [median(n, "decoded") for n in names], "")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--combatants", type=int, default=200)
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--before", type=Path, help="an older checkout, timed beside this one")
    args = parser.parse_args()

    from bench.big import SYSTEMS, big_fight, log_length
    from rules.registry import part
    from tracker.store import storage

    system = next(name for name in SYSTEMS if part(name, "demo") is not None)
    fight = big_fight(system, args.combatants, args.entries)
    label = f"{len(fight.state.combatants)} combatants, {log_length(fight):,} events"
    with tempfile.TemporaryDirectory() as folder:
        ours = Path(folder) / f"ours{storage.SUFFIX}"
        storage.write(ours, fight)
        fights = {"this checkout": ours}
        roots = {"this checkout": ROOT}
        if args.before:
            older = Path(folder) / f"older{storage.SUFFIX}"
            data = ours.read_bytes()
            older.write_bytes(data if reads_packed(args.before) else as_format_4(data))
            fights = {"before": older, **fights}
            roots = {"before": args.before, **roots}
        text = table(measured(args.runs, fights, roots), args.runs, label)
    print(text)
    if args.write:
        write_block("replay", text)


if __name__ == "__main__":
    main()
