"""`tracker library list` by system, with Fatigue's bundled stat blocks (moved from
tests/cli/test_library.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_library import run


def test_list_by_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--library", str(tmp_path), "library", "list", "--system", "fatigue")
    assert code == 0
    assert "Bandit" in out and "Mara" in out and "Orla" not in out
