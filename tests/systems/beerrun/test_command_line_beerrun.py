"""The `:` command line in Beer Run's demo: a pool from its own form's fields, completed."""

from __future__ import annotations

from rules.systems.beerrun import demo as beerrun
from tests.app.line_support import options, run


def test_a_pool_from_its_own_form() -> None:
    pool = run("pool tib bouncer", beerrun.build())
    assert (pool.combatant_id, pool.against) == ("c2", "c3")  # type: ignore[attr-defined]


def test_completes_the_dice() -> None:
    assert "d12" in options("pool mags +dice d1", beerrun.build())
