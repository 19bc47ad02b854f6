"""How the generic tests drive LiveHack's demo (``rules.testing``)."""

from rules.testing import Kit

KIT = Kit(quick_seed=2)  # seed 1: Orla misses
