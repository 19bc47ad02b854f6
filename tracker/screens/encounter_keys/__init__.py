"""The encounter screen's keys, one module an area (rolls, turns, roster, conditions...).

Each area is a class the screen is built from (``tracker.screens.encounter_screen``), holding its
keys (``KEYS``, Textual bindings, in the order the footer and the help list them), the
actions they run, and which roles may use them (``PLAYERS``, ``SPECTATORS``; the GM may use
every one). A new key is one line in its area's ``KEYS``, its ``action_`` method beside it,
and its name in ``PLAYERS`` if players may press it. ``roles`` answers for a seat.
"""
