"""Join links: a browser seat's key. Whoever holds a link sits down in its role and name.

A link is ``BASE/join/TOKEN`` with a random 128-bit token, made from a players-file line
``player:NAME link`` when the table is served with ``--web``, or by the GM in the seats
dialog, and kept in memory only: a link lives as long as the server (or until the GM
revokes it). Tokens are compared in constant time and never written to a log.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rules.visibility import Role

TOKEN_BYTES = 16  # 128 bits: not to be guessed, whatever the rate of tries
MAX_NAME = 32  # characters, as a password seat's name
MAX_LINKS = 256  # a table's links; each is one line in the GM's dialog
LINK_ROLES: tuple[Role, ...] = ("player", "spectator")
RESERVED = ("gm",)


@dataclass(frozen=True, eq=False)
class Link:
    role: Role
    name: str
    token: str = field(repr=False)  # a secret: never in a log, a repr or a traceback


def name_problem(role: str, name: str) -> str:
    """Why a link may not be made for ``name`` in ``role`` ('' if it may)."""
    if role not in LINK_ROLES:
        return "A join link seats a player or a spectator (the GM joins by key)."
    if not 0 < len(name) <= MAX_NAME or not name.isprintable() or name != name.strip():
        return f"A link's name is 1 to {MAX_NAME} printable characters."
    if name.casefold() in RESERVED:
        return f"{name} is the GM's name: choose another."
    return ""


class Links:
    """The table's join links; ``base`` is where the browser seats are served ('' if not)."""

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self.base = ""
        self._links: list[Link] = []
        self._changed = changed

    def __iter__(self) -> Iterator[Link]:
        return iter(list(self._links))

    def __len__(self) -> int:
        return len(self._links)

    def make(self, role: Role, name: str) -> Link:
        """A new link (``ValueError`` with one line if it may not be made)."""
        problem = name_problem(role, name)
        if not problem and len(self._links) >= MAX_LINKS:
            problem = f"A table has at most {MAX_LINKS} links: revoke one first."
        if problem:
            raise ValueError(problem)
        link = Link(role, name, secrets.token_urlsafe(TOKEN_BYTES))
        self._links.append(link)
        self._changed()
        return link

    def revoke(self, link: Link) -> bool:
        if link not in self._links:
            return False
        self._links.remove(link)
        self._changed()
        return True

    def find(self, token: str) -> Link | None:
        """The link with ``token``: every link compared in constant time, so that the
        time taken tells nothing of how close a guess came."""
        wanted = token.encode("utf-8", "replace")
        found = None
        for link in self._links:
            if hmac.compare_digest(link.token.encode(), wanted):
                found = link
        return found

    def url(self, link: Link) -> str:
        return f"{self.base}/join/{link.token}"
