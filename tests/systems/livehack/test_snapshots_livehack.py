"""Screenshots of LiveHack's demo (pytest-textual-snapshot): its roll dialog, help, replay and
the end of its fight, compared with the SVGs in __snapshots__/. Regenerate after an intended
change with ``.venv/bin/pytest tests/systems/livehack/test_snapshots_livehack.py
--snapshot-update`` and look at the diff."""

from __future__ import annotations

from rules.systems.livehack.demo import STEM
from tests.app.test_snapshots import demo_app, pressing, replay_app


def test_roll_dialog(snap_compare) -> None:
    assert snap_compare(demo_app(STEM), terminal_size=(100, 34), run_before=pressing("r"))


def test_help_screen(snap_compare) -> None:
    assert snap_compare(demo_app(STEM), press=["question_mark"], terminal_size=(80, 24))


def test_replay_screen(snap_compare) -> None:
    assert snap_compare(
        replay_app(STEM),
        terminal_size=(100, 30),
        run_before=pressing("home", "right", "right", "right_square_bracket"),
    )


def test_the_end_of_a_fight(snap_compare) -> None:
    """The demo's last foe standing falls: the header says who won, the summary opens."""
    assert snap_compare(
        demo_app(STEM),
        terminal_size=(80, 24),
        run_before=pressing("colon", *"cond goblin-sneak dead", "enter"),
    )
