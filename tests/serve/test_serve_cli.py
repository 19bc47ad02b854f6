"""`tracker serve` refuses what it cannot use with one line and exit 2, never a traceback."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import asyncssh
import pytest

from tests.serve.serve_helpers import encounter
from tracker.cli import main
from tracker.serve import PASSWORD_ENV
from tracker.serve.config import host_key
from tracker.serve.players import PlayersError, load


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Path]:
    """A saved encounter and a players file with one key."""
    session, _ = encounter(tmp_path / "cellar.fight")
    assert session.save() is None
    session.close()
    key = asyncssh.generate_private_key("ssh-ed25519")
    players = tmp_path / "players.txt"
    players.write_text(f"gm {key.export_public_key().decode()}")
    players.chmod(0o600)
    return tmp_path / "cellar.fight", players


def serve(tmp_path: Path, *args: str) -> int:
    return main(["serve", "--saves", str(tmp_path), *args])


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    "kind", ["garbage", "empty", "encrypted", "folder", "a public key", "too large"]
)
def test_a_bad_host_key_is_one_line(
    tmp_path: Path, table: tuple[Path, Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    save, players = table
    bad = tmp_path / "host_key"
    key = asyncssh.generate_private_key("ssh-ed25519")
    if kind == "folder":
        bad.mkdir()
    else:
        data = {
            "garbage": b"\x00\xffnot a key at all\n" * 10,
            "empty": b"",
            "encrypted": key.export_private_key("pkcs8-pem", passphrase="secret"),
            "a public key": key.export_public_key(),
            "too large": b"x" * 100_000,
        }[kind]
        bad.write_bytes(data)
        bad.chmod(0o600)
    before = bad.read_bytes() if bad.is_file() else None
    code = serve(tmp_path, str(save), "--players", str(players), "--host-key", str(bad))
    assert code == 2
    line = one_line(capsys)
    assert line.startswith(f"tracker: {bad}:")
    if kind == "encrypted":
        assert "passphrase" in line
    assert (bad.read_bytes() if bad.is_file() else None) == before  # never overwritten


def test_a_host_key_readable_by_others_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "host_key"
    key, note = host_key(path)
    path.chmod(0o644)
    again, note = host_key(path)
    assert again.get_fingerprint() == key.get_fingerprint()
    assert path.stat().st_mode & 0o777 == 0o600
    assert "made private (chmod 600)" in note


def test_a_password_with_no_terminal_is_one_line(
    tmp_path: Path,
    table: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save, _ = table
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert serve(tmp_path, str(save), "--password") == 2
    assert PASSWORD_ENV in one_line(capsys)


def test_a_players_file_anyone_can_write_is_refused(
    tmp_path: Path, table: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    save, players = table
    players.chmod(0o666)
    assert serve(tmp_path, str(save), "--players", str(players)) == 2
    assert "writable by anyone" in one_line(capsys)
    assert serve(tmp_path, str(save), "--players", str(tmp_path)) == 2  # a folder
    assert "is a folder" in one_line(capsys)


def test_a_players_file_is_never_read_through_a_link(table: tuple[Path, Path]) -> None:
    _, path = table
    link = path.with_name("linked-players.txt")
    link.symlink_to(path)
    assert load(path)[0].role == "gm"
    with pytest.raises(PlayersError, match="symbolic link"):
        load(link)
