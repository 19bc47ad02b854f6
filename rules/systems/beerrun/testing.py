"""How the generic tests drive Beer Run's demo (``rules.testing``)."""

from rules.testing import Kit

KIT = Kit(
    quick_keys=("u",),  # the demo's round is rolled already: undo it, its paid pools remain
    # Rounds, not turns: pay each hero's base pool (s, Build pool, its defaults), roll the
    # round with t, and end it with n once the header says it is rolled.
    fight_plan=(
        ("Up", "Up", "s", "Down", "Down", "Enter"),
        ("Down", "s", "Down", "Down", "Enter"),
        ("t",),
    ),
    round_over="rolled:",
)
