"""The pure rules core: dice, encounter model, events, and the rule systems.

Nothing in this package touches the terminal, the clock, files or global randomness:
dice come from an injected ``DiceSource`` and every die rolled is kept in the events.
"""
