"""Dice for headless commands: the seed given, or a fresh one that is printed back."""

import secrets

from rules.dice import SeededDice


def dice_for(seed: int | None) -> tuple[int, SeededDice]:
    chosen = seed if seed is not None else secrets.randbits(32)
    return chosen, SeededDice(chosen)
