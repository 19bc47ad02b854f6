"""LiveHack: the system listed first, and whose demo a fresh start opens."""

LISTED_FIRST = True
