"""How the generic tests drive Fatigue's demo (``rules.testing``)."""

from rules.testing import Kit

KIT = Kit(fight_seed=7)  # a fight of a few rounds
