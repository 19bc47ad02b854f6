"""The benchmarks' tables in docs/contributing/performance/, each between its own pair of
markers in whichever page holds them."""

from __future__ import annotations

from pathlib import Path

PAGES = Path(__file__).resolve().parent.parent / "docs" / "contributing" / "performance"


def write_block(block: str, text: str) -> None:
    """Put ``text`` between ``<!-- block:start -->`` and ``<!-- block:end -->``."""
    start, end = f"<!-- {block}:start -->", f"<!-- {block}:end -->"
    page = next((p for p in sorted(PAGES.glob("*.md")) if start in p.read_text()), None)
    if page is None:
        raise SystemExit(f"no page in {PAGES} has the markers {start} {end}")
    before, rest = page.read_text().split(start)
    _, after = rest.split(end)
    page.write_text(f"{before}{start}\n{text}\n{end}{after}")
    print(f"wrote {page} ({block})")
