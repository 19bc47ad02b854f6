"""The benchmarks' tables in docs/contributing/performance.md, each between its own pair of
markers."""

from __future__ import annotations

from pathlib import Path

PERFORMANCE = Path(__file__).resolve().parent.parent / "docs" / "contributing" / "performance.md"


def write_block(block: str, text: str) -> None:
    """Put ``text`` between ``<!-- block:start -->`` and ``<!-- block:end -->``."""
    start, end = f"<!-- {block}:start -->", f"<!-- {block}:end -->"
    before, rest = PERFORMANCE.read_text().split(start)
    _, after = rest.split(end)
    PERFORMANCE.write_text(f"{before}{start}\n{text}\n{end}{after}")
    print(f"wrote {PERFORMANCE} ({block})")
