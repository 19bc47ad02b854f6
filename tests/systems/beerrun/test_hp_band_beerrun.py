"""A Health die a player's seat sees as a band (`:hp foes band`) loses its size in a damage
line: the seat reads the pips lost, the GM the die before and after."""

from __future__ import annotations

from rules.systems.beerrun.events import DamageLanded, Hit
from tests.seat_view import banded, seat_line
from tests.systems.beerrun.last_blow import build


def test_a_banded_health_die_loses_its_size_on_the_seat() -> None:
    history = banded(build())  # the Goblin's Health d2
    landed = DamageLanded(dealer_id="c1", target_id="c2", hits=(Hit("Health", 1, 2),))
    assert "Health d2 → d1" in seat_line(history, landed, gm=True)
    seen = seat_line(history, landed)
    assert "Health -1" in seen and "d2" not in seen and "d1" not in seen
