"""Dice notation as dice bots read it (avrae/d20's grammar), rolled and worked out exactly.

``tree`` holds the parsed expression and its bounds, ``parse`` reads a line into it, ``pool``
says what each operation does to a pool of dice, ``roll`` rolls a tree from a dice source,
``exact`` works out the exact distribution of its total and ``answer`` puts the three
together for a line. Light on purpose: no msgspec, no dataclasses, so ``tracker dice`` and a
system's ``tracker odds`` can load it fast (``rules.plain_dice`` makes the log's event of it).
"""
