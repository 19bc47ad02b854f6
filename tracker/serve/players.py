"""The players file: which SSH key sits at the table, in which role, under which name.

Like ``authorized_keys``, one key a line, with the role (and the player's name) in front::

    # role[:name]     key type     key                     comment
    gm                ssh-ed25519  AAAAC3NzaC1lZDI1NTE5... gm@laptop
    player:Alice      ssh-ed25519  AAAAC3NzaC1lZDI1NTE5... alice@home
    spectator:Bob     ssh-rsa      AAAAB3NzaC1yc2EAAAAD...
    player:Cara       link

Without a name, the key's comment (or the role) is the name. ``link`` instead of a key
gives a player or spectator a join link for a browser (``serve --web``,
tracker/serve/links.py). Blank lines and ``#`` comments are skipped. A name with a control
or invisible character (``rules.text``) is refused; such characters are dropped from a
comment.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from rules.text import inert, is_inert
from rules.visibility import Role
from tracker.store import files

ROLES: tuple[Role, ...] = ("gm", "player", "spectator")
SIZE_LIMIT = 1024 * 1024  # bytes: a table's keys are a few KB


class PlayersError(Exception):
    """A players file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class Player:
    role: Role
    name: str
    key: asyncssh.SSHKey | None  # None: seated by the table password, or by a link
    link: bool = False  # sits down from a browser with a join link


def parse(text: str, source: str = "players file") -> list[Player]:
    players = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        role, _, name = words[0].partition(":")
        if role not in ROLES:
            raise PlayersError(
                f"{source}, line {number}: {role!r} is not a role (gm, player or spectator)"
            )
        if words[1:] == ["link"]:
            if role == "gm":
                raise PlayersError(
                    f"{source}, line {number}: the GM has no join link (the GM joins by key)"
                )
            players.append(Player(role, name or role, None, link=True))
            continue
        if len(words) < 3:
            raise PlayersError(
                f"{source}, line {number}: expected ROLE[:NAME] KEYTYPE KEY, or ROLE[:NAME] link"
            )
        try:
            key = asyncssh.import_public_key(" ".join(words[1:3]))
        except (asyncssh.KeyImportError, ValueError) as exc:
            raise PlayersError(f"{source}, line {number}: not a public key ({exc})") from None
        if not is_inert(name):
            raise PlayersError(
                f"{source}, line {number}: the name {name!r} holds a control or invisible character"
            )
        comment = " ".join(inert(" ".join(words[3:])).split())
        players.append(Player(role, name or comment or role, key))
    return players


def load(path: Path) -> list[Player]:
    """The players in ``path``; a file anyone could write to is refused (anyone could seat
    themselves as the GM)."""
    try:
        info = files.check(path, "players file")  # never through a link, nor a pipe
        if info.st_mode & stat.S_IWOTH:
            raise PlayersError(
                f"{path}: the players file is writable by anyone: refused (chmod o-w)"
            )
        text = files.read_bytes(path, SIZE_LIMIT, "players file").decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise PlayersError(f"{path}: cannot read the players file ({why})") from None
    return parse(text, str(path))


def find(players: list[Player], key: asyncssh.SSHKey) -> Player | None:
    wanted = key.public_data
    return next((p for p in players if p.key is not None and p.key.public_data == wanted), None)
