"""How the generic tests drive Generic d20's demo (``rules.testing``)."""

from rules.testing import Kit

KIT = Kit(quick_seed=3)  # Bram's second arrow hits the goblin: a result to apply
