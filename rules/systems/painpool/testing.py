"""How the generic tests drive Pain Pool's demo (``rules.testing``)."""

from rules.testing import Kit

KIT = Kit(
    quick_seed=7,
    # Rounds, not turns, and t rolls for the selected hero: each hero's roll in turn, then n.
    fight_plan=(("Up", "Up", "t"), ("Down", "t"), ("n",)),
)
