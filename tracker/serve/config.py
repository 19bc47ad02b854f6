"""What the SSH server is told: its settings, and its host key (made once and kept)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from tracker.serve.players import Player
from tracker.store import storage
from tracker.store.defaults import config_folder

HOST_KEY_LIMIT = 64 * 1024  # bytes: any real private key is far smaller
KEY_NAME = "ssh_host_ed25519_key"


def default_host_key() -> Path:
    """Where the host key is kept: $TRACKER_HOST_KEY, else the user's config folder."""
    if os.environ.get("TRACKER_HOST_KEY"):
        return Path(os.environ["TRACKER_HOST_KEY"])
    # A key made before the platform's folders were used stays where it is: a new one would
    # make every player's ssh warn of a changed host.
    earlier = Path.home() / ".config" / "tracker" / KEY_NAME
    return earlier if earlier.exists() else config_folder() / KEY_NAME


def host_key(path: Path) -> tuple[asyncssh.SSHKey, str]:
    """The server's key, generated on the first start and kept, so clients see no change;
    with a line to show if something had to be said (the file was made private).

    A file that is no private key (a folder, garbage, empty, one with a passphrase) is
    refused with one line (``storage.SaveError``)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return new_host_key(path), ""
    except OSError as exc:
        raise storage.SaveError(path, f"cannot read the host key ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise storage.SaveError(path, "is not a host key file (a folder, or a special file)")
    if info.st_size > HOST_KEY_LIMIT:
        raise storage.SaveError(path, "is far too large to be a host key")
    note = ""
    if info.st_mode & 0o077:
        try:
            path.chmod(0o600)
        except OSError:
            raise storage.SaveError(
                path, "the host key is readable by others and cannot be made private: chmod 600"
            ) from None
        note = f"{path}: the host key was readable by others: made private (chmod 600)"
    try:
        data = path.read_bytes()
        key = asyncssh.import_private_key(data)
    except OSError as exc:
        raise storage.SaveError(path, f"cannot read the host key ({exc.strerror})") from None
    except (asyncssh.KeyImportError, ValueError) as exc:
        why = "it has a passphrase" if b"ENCRYPTED" in data or "assphrase" in str(exc) else exc
        raise storage.SaveError(path, f"is not a usable host key ({why})") from None
    return key, note


def new_host_key(path: Path) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="tracker table")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
    except OSError as exc:
        raise storage.SaveError(path, f"cannot write the host key ({exc.strerror})") from None
    return key


@dataclass
class Config:
    host: str = "127.0.0.1"
    port: int = 2222
    players: list[Player] = field(default_factory=list)
    password: str | None = None
    host_key: Path = field(default_factory=default_host_key)
    max_seats: int = 64
    idle_timeout: float = 30 * 60
    login_timeout: float = 10
    saves: Path = Path("saves")
    library: Path | None = None  # the GM's stat blocks, for the GM's seats' ``a``
    # Connections that have not logged in: their own pool (tracker/serve/admission.py).
    max_pending: int = 32
    pending_per_address: int = 8
    # Browsers one join link may seat at once (a player's link seats one: its holder).
    link_seats: int = 8
    # Wrong table passwords, per address: the growing wait, and the lockout.
    password_delay: float = 0.5
    password_lock_after: int = 8
    password_lockout: float = 300
