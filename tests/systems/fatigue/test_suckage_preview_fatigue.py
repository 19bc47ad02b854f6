"""The suckage and call-off dialogs' live previews: each names a consequence only for values OK
takes, and says OK's refusal for any other (a tester saw -1 preview a fumble for a defender,
-10 a worse tier and 99 a successful defense)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.encounter import AnyEncounter
from rules.engine import decide
from rules.errors import Rejected
from rules.systems.fatigue.demo import build as fatigue_demo
from rules.systems.fatigue.system import SYSTEM, FatigueTakeSuckage
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.fatigue.duel import attack, fight

# The demo opens on Mara's lost defense: lost by 15 against thresholds 0/7/14/21/28.
REFUSAL = "Take 1 to 15 suckage points (the defense lost by 15)"


def refusal_of(state: AnyEncounter, points: int) -> str:
    """What OK says of ``points``: the decision's refusal."""
    with pytest.raises(Rejected) as refused:
        decide(state, FatigueTakeSuckage(points, "falls to one knee"), None)
    return refused.value.message


@pytest.mark.parametrize("points", [-10, -1, 0, 16, 99])
def test_points_out_of_range_preview_the_refusal_not_a_consequence(points: int) -> None:
    state = fatigue_demo().state
    preview = SYSTEM.preview(state, "suckage", {"points": str(points), "cost": ""})
    assert preview == REFUSAL == refusal_of(state, points)


@pytest.mark.parametrize(
    ("points", "line"),
    [(1, "lost by 15 -> 14: Bad defense"), (2, "lost by 15 -> 13: Flailing defense")],
)
def test_points_in_range_still_preview_the_consequence(points: int, line: str) -> None:
    state = fatigue_demo().state
    assert SYSTEM.preview(state, "suckage", {"points": str(points), "cost": ""}) == line
    assert SYSTEM.preview(state, "suckage", {"points": "15", "cost": ""}).endswith(
        "lost by 15 -> 0: Successful defense"
    )


def test_a_fumble_previews_the_refusal_past_its_line() -> None:
    history = fight()
    attack(history, 4, 1)  # Ann 4 + 3 = 7 against her fumble line 8: missed by 1
    state = history.state
    refused = SYSTEM.preview(state, "suckage", {"points": "2", "cost": ""})
    assert refused == "Take 1 to 1 suckage points (the fumble stays a fumble)"
    assert refused == refusal_of(state, 2)


async def test_the_dialog_previews_the_refusal_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, history=fatigue_demo())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await until(pilot, lambda: "Take suckage points" in screen_text(app), "the actions")
        await pilot.press("down", "enter")
        await until(pilot, lambda: "Suckage points" in screen_text(app), "the suckage dialog")
        for typed, shown in (("-1", REFUSAL), ("-10", REFUSAL), ("99", REFUSAL)):
            await pilot.press("ctrl+a", "ctrl+k", *typed)
            await until(pilot, lambda shown=shown: shown in screen_text(app), f"{typed}'s line")
            text = screen_text(app)
            assert "fumble" not in text.split("Suckage points", 1)[1].split("OK", 1)[0]
            assert "Successful defense" not in text and " -> " not in text
        await pilot.press("ctrl+a", "ctrl+k", "2")
        line = "lost by 15 -> 13: Flailing defense"
        await until(pilot, lambda: line in screen_text(app), "2's line")


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({"levels": "-1", "gm_allows": "yes"}, "Calling off lowers the consequence one or two"),
        ({"levels": "3", "gm_allows": "yes"}, "Calling off lowers the consequence one or two"),
        ({"levels": "1", "gm_allows": "no"}, "is combat: calling off is for tasks outside"),
        ({"levels": "1", "gm_allows": "yes"}, "Bad defense -> "),
    ],
)
def test_the_call_off_preview_says_what_ok_says(values: dict[str, str], said: str) -> None:
    """It previewed -1 as 'Bad defense -> Terrible defense' and, in combat, 1 as a lower
    consequence, both refused by OK."""
    assert said in SYSTEM.preview(fatigue_demo().state, "calloff", values)
