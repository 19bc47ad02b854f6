"""Dice for headless commands: the seed given, or a fresh one that is printed back."""

import os

from rules.dice import SeededDice


def fresh_seed() -> int:
    """32 bits from the system's randomness, as ``secrets.randbits(32)`` reads them, without
    loading ``secrets`` (hmac and hashlib, 2 ms of every start)."""
    return int.from_bytes(os.urandom(4), "big")


def dice_for(seed: int | None) -> tuple[int, SeededDice]:
    chosen = seed if seed is not None else fresh_seed()
    return chosen, SeededDice(chosen)
