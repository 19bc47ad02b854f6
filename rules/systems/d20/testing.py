"""How the generic tests drive Generic d20's demo (``rules.testing``)."""

from rules.testing import Kit

KIT = Kit()
