"""Serving, without a network: what each role sees and may do, the players file, the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import asyncssh
import msgspec
import pytest
from textual.command import CommandPalette

from rules import registry
from rules.commands import AddCondition, AddNote, EditCombatant, NextTurn
from rules.errors import Rejected
from rules.permissions import refusal
from rules.system import LAST_ROLL, LAST_ROLLER
from rules.visibility import GM, Viewer, hidden_ids, sight
from tests.app.support import until
from tests.contract.headless_checks import example
from tests.picks import a_system, falls_at_worst_track, player_rolls
from tests.screen import screen_text
from tests.serve.serve_helpers import SECRET, SECRET_NOTE, encounter, fell, roll
from tracker.screens.encounter_keys.roles import may_use
from tracker.screens.encounter_keys.turn_keys import ANY_TURN
from tracker.serve import players
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table

ALICE = Viewer(role="player", name="Alice")
SPECTATOR = Viewer(role="spectator")


def test_players_and_spectators_see_no_gm_only_combatant_roll_or_note() -> None:
    session, ids = encounter()
    session.execute(roll(session.state, ids[SECRET], ids["Orla"]))
    state = session.state
    for viewer in (ALICE, SPECTATOR):
        seen = sight(state, viewer, hidden_ids(session.history.effective_events(), state))
        shown = [c.name for c in state.combatants if c.name != SECRET]
        assert [c.name for c in seen.state.combatants] == shown
        assert seen.state.last_roll is None
        assert SECRET_NOTE not in str(seen.state)
        pairs = seen.pairs(session.history.in_effect(), session.state)
        assert SECRET not in str(pairs) and SECRET_NOTE not in str(pairs)
    assert sight(state, GM).state == state


def test_a_removed_secret_combatant_stays_hidden_in_the_log() -> None:
    from rules.commands import RemoveCombatant

    session, ids = encounter()
    session.execute(AddNote("it stirs", ids[SECRET]))
    session.execute(RemoveCombatant(ids[SECRET]))
    state = session.state
    seen = sight(state, ALICE, hidden_ids(session.history.effective_events(), state))
    assert "it stirs" not in str(seen.pairs(session.history.in_effect(), session.state))


def test_what_a_player_may_do() -> None:
    session, ids = encounter()
    state = session.state
    alice = Viewer(role="player", name="Alice", assigned=frozenset({ids["Orla"]}))
    orla_hits = roll(state, ids["Orla"], ids["Goblin"])
    assert refusal(state, alice, orla_hits) is None
    assert refusal(state, alice, AddCondition(ids["Orla"], "Prone")) is None
    assert refusal(state, GM, NextTurn()) is None
    assert "GM" in str(refusal(state, alice, NextTurn()))
    assert "GM" in str(refusal(state, alice, EditCombatant(combatant_id=ids["Orla"], name="x")))
    brak = roll(state, ids["Brak"], ids["Goblin"])
    assert refusal(state, alice, brak) == "You do not act for Brak"
    at_secret = roll(state, ids["Orla"], ids[SECRET])
    assert refusal(state, alice, at_secret) == "No such combatant"
    # Applying a result: only once the last roll was one of hers.
    apply_it = session.system.consequence_command(state)
    assert refusal(state, alice, apply_it) is not None
    session.execute(orla_hits)
    assert refusal(session.state, alice, session.system.consequence_command(session.state)) is None
    assert "Spectators" in str(refusal(state, SPECTATOR, AddNote("hi")))
    with pytest.raises(Rejected, match="Only the GM"):
        session.execute(NextTurn(), viewer=alice)
    with pytest.raises(Rejected, match="Only the GM can undo"):
        session.undo(alice)


class Shove(msgspec.Struct, frozen=True):
    """A command no system declares an actor for: its field is named like none before."""

    source_id: str


def test_a_command_that_declares_no_actor_is_the_gms_alone() -> None:
    session, ids = encounter()
    alice = Viewer(role="player", name="Alice", assigned=frozenset({ids["Orla"]}))
    session.execute(roll(session.state, ids["Orla"], ids["Goblin"]))
    # The last roll was Orla's: once, any command naming nobody the tracker knew was hers.
    assert refusal(session.state, alice, Shove(ids["Orla"])) == "Only the GM can do that"
    assert refusal(session.state, GM, Shove(ids["Orla"])) is None
    with pytest.raises(Rejected, match="Only the GM"):
        session.execute(Shove(ids["Brak"]), viewer=alice)


def test_every_declared_actor_is_a_field_of_its_command() -> None:
    for system in registry.all_systems():
        for kind, field in system.command_actors.items():
            assert kind in system.command_types, f"{system.name}: {kind.__name__}"
            assert field in (LAST_ROLL, LAST_ROLLER) or field in kind.__struct_fields__, (
                f"{system.name}: {kind.__name__} has no field {field!r}"
            )


def test_what_each_role_is_offered() -> None:
    # A system's own GM-only actions are checked in its folder (test_serve_<name>.py).
    name = a_system(player_rolls)
    assert may_use(GM, name, "next_turn")
    assert may_use(ALICE, name, "roll")
    assert may_use(ALICE, name, "quick_turn")
    assert may_use(ALICE, name, "command_line")  # each line is refused as its key is
    assert may_use(ALICE, name, "next_turn")  # their own turn's end (rules.passing)
    assert not may_use(ALICE, name, ANY_TURN)  # anyone's is the GM's
    assert not may_use(SPECTATOR, name, "next_turn")
    assert not may_use(SPECTATOR, name, "roll")
    assert may_use(SPECTATOR, name, "help")


async def test_a_spectators_palette_and_screen_hold_nothing_secret(tmp_path: Path) -> None:
    session, ids = encounter()
    session.execute(roll(session.state, ids[SECRET], ids["Orla"]))
    table = Table(session)
    seat = table.join("spectator", "Bob")
    app = TableApp(table, seat, saves=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = screen_text(app)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        help_text = screen_text(app)
        await pilot.press("escape", "w")  # the GM's seats dialog: not for a spectator
        await pilot.pause()
        main = screen_text(app)
    for text in (palette, help_text, main):
        assert SECRET not in text and SECRET_NOTE not in text
    assert "Seats at the table" not in main
    assert "No roll yet" in main


async def test_help_lists_only_the_keys_a_seat_has(tmp_path: Path) -> None:
    """``?`` on a spectator's seat lists its own keys, not the GM's it cannot press."""
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("spectator", "Bob"), saves=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: "Esc or ? closes" in screen_text(app), "the help")
        shown = screen_text(app)
    # The dialog's rows: what is inside its frame (█), not the panes beside it.
    listed = "\n".join(line.split("█")[1] for line in shown.splitlines() if line.count("█") >= 2)
    assert "Fight summary" in listed and "Quit" in listed
    for gm_key in ("Next turn", "Add", "Roll", "Command line"):
        assert gm_key not in listed, f"a spectator's help offers {gm_key!r}"


def test_the_players_file(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="alice@home")
    public = key.export_public_key().decode().strip()
    bare = public.rsplit(" ", 1)[0]  # no comment
    text = f"# the table\n\nplayer:Alice {public}\nspectator {public}\ngm {bare}\n"
    found = players.parse(text)
    assert [(p.role, p.name) for p in found] == [
        ("player", "Alice"),
        ("spectator", "alice@home"),
        ("gm", "gm"),
    ]
    assert players.find(found, key.convert_to_public()) is found[0]
    with pytest.raises(players.PlayersError, match="line 1: 'wizard' is not a role"):
        players.parse(f"wizard {public}")
    with pytest.raises(players.PlayersError, match="line 2: not a public key"):
        players.parse(f"gm {public}\nplayer ssh-ed25519 AAAAnotakey")


def tracker(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_serve_refuses_bad_set_ups_in_one_line(tmp_path: Path) -> None:
    nobody = tracker("serve", cwd=tmp_path)
    assert nobody.returncode == 2
    assert nobody.stderr.strip().endswith(
        "nobody could join: give a players file, --password or --web"
    )
    (tmp_path / "players").write_text("wizard ssh-ed25519 AAAA\n")
    bad = tracker("serve", "--players", "players", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "line 1: 'wizard' is not a role" in bad.stderr
    listen = tracker("serve", "--listen", "nowhere", "--password", cwd=tmp_path)
    assert listen.returncode == 2 and "HOST:PORT" in listen.stderr


def test_headless_commands_load_no_ssh() -> None:
    name = a_system()
    words = ["roll", name, *example(registry.part(name, "roll_cli")), "--json"]
    code = (
        "import sys; from tracker.cli import main; "
        f"main({words!r}); "
        "print('asyncssh' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().endswith("False False")


def test_the_host_key_is_made_once_and_kept(tmp_path: Path) -> None:
    from tracker.serve.config import host_key

    path = tmp_path / "config" / "tracker" / "host_key"
    first, note = host_key(path)
    assert note == ""
    assert path.stat().st_mode & 0o777 == 0o600
    assert host_key(path)[0].get_fingerprint() == first.get_fingerprint()


def test_the_clients_colours_come_from_its_terminal() -> None:
    from tracker.serve.channel import color_system

    assert color_system("xterm", {}) == "standard"
    assert color_system("xterm-256color", {}) == "256"
    assert color_system("xterm-256color", {"COLORTERM": "truecolor"}) == "truecolor"


async def test_a_seat_leaving_leaves_the_served_heap_frozen(tmp_path: Path) -> None:
    import gc

    session, _ = encounter()
    table = Table(session)
    gc.freeze()  # as tracker.serve.heap does once the seats settle
    try:
        frozen = gc.get_freeze_count()
        app = TableApp(table, table.join("spectator", "Bob"), saves=tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
        # The seat's exit did not unfreeze the process (a few frozen objects may be freed).
        assert gc.get_freeze_count() > frozen // 2
    finally:
        gc.unfreeze()


async def test_a_hidden_foe_still_standing_keeps_the_fight_going_for_every_seat(
    tmp_path: Path,
) -> None:
    session, ids = encounter(system=a_system(falls_at_worst_track))
    fell(session, ids["Goblin"])  # the last foe the players see
    table = Table(session)
    seat = table.join("spectator", "Bob")
    app = TableApp(table, seat, saves=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Fight over" not in screen_text(app)
        fell(session, ids[SECRET])  # now the GM's foe falls too
        await pilot.pause()
        text = screen_text(app)
        assert "Fight over: party won" in text  # its summary, opened for every seat
        assert SECRET not in text  # and still nothing of the hidden foe


async def test_a_players_quick_turn_and_prompt_read_the_seats_own_history(
    tmp_path: Path,
) -> None:
    """Issue 26: a player's `t` closed the seat (the seat's history had no ``state``), and so
    did `:` (no ``done_indices``). Both read what the player may see of the log."""
    session, ids = encounter()
    session.execute(roll(session.state, ids["Orla"], ids["Goblin"]))
    table = Table(session)
    table.assign("Alice", frozenset({ids["Orla"]}))
    seat = table.join("player", "Alice")
    app = TableApp(table, seat, saves=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        dialog = screen_text(app)
        await pilot.press("escape", "colon")
        await pilot.pause()
        prompt = screen_text(app)
    assert app.return_code in (None, 0)
    assert "Orla" in dialog and "Goblin" in dialog  # the actor, then her last target
    assert SECRET not in dialog and SECRET not in prompt


async def test_the_gm_seat_is_not_offered_a_new_encounter_in_place_of_the_served_one(
    tmp_path: Path,
) -> None:
    """Found by the walk (tests/walk): the GM's seat pressed N, named the new encounter and
    pressed Enter, and the seat closed with "'SeatSession' object has no attribute
    'let_go'". The served encounter stays the one served: N is not offered at a seat."""
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("N", *"Next fight", "enter")
        await pilot.pause()
        assert app.return_code is None and app.is_running
        assert app.session is not None and app.session.state == session.state
        assert "New encounter with this party" not in screen_text(app)
        await pilot.press("ctrl+p", *"new encounter")
        await pilot.pause()
        assert "New encounter with this party" not in screen_text(app)
        # Closed before the app ends: a search still running as it ends may meet a palette
        # already torn down (Textual's NoMatches: CommandList), failing the test now and then.
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, CommandPalette), "palette closed")
