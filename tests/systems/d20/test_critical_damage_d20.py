"""Damage whose critical (the dice doubled) is too big to work out exactly, and hit point dice:
refused as the sheet or stat block is read, in one line naming the field; and a hero who has
such a damage from before (an older save) attacks, and its save opens, replays and exports:
nothing that reads a roll already made works its damage out again."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec import structs

import rules.notation.answer
from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import CombatantAdded
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.notation.parse import parse
from rules.replay import Timeline
from rules.systems.d20.encounter_odds import drop_this_round, swings_this_round
from rules.systems.d20.events import D20Attack, D20Attacked, D20Saved, D20SaveEffect
from rules.systems.d20.sheet import HERO, MAX_TEXT
from rules.systems.d20.system import SYSTEM
from tests.app.support import make_app, until
from tests.cli.support import tracker
from tests.hostile_text import HOSTILE_DICE
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, refused_by_library_add, run
from tracker.app import TrackerApp
from tracker.session import EncounterSession
from tracker.store import library, prepare, storage

# As the library took it before: 20d6e6 works out; 40d6e6, its critical, does not.
BIG = structs.replace(HERO_SHEET, kind=HERO, attack_bonus=30, damage="20d6e6", damage_type="fire")
TOUGH = structs.replace(FOE_SHEET, hp=5000, hp_max=5000)
CRITICAL = (20, *[1] * 40)  # a natural 20, then forty 1s (none explodes)
TOO_BIG = "too many possible totals"


def older_fight(*people: tuple[str, str, object]) -> History:
    """A fight whose combatants joined with these sheets as they are, unchecked: the events an
    older save holds (c1, c2... in order)."""
    history = History(new_encounter("Test", "d20"))
    for name, side, sheet in people:
        events = decide(history.state, AddCombatant(name=name, side=side), SeededDice(1))
        history.commit(
            [
                structs.replace(e, combatant=structs.replace(e.combatant, sheet=sheet))
                if isinstance(e, CombatantAdded)
                else e
                for e in events
            ]
        )
    return history


def saved_after_criticals(path: Path, count: int = 3) -> EncounterSession:
    """The hero's save after ``count`` criticals, each applied: as today's code wrote it."""
    session = EncounterSession(older_fight(("Orla", "party", BIG), ("Ogre", "foes", TOUGH)),
                               ScriptedDice(CRITICAL * count), path)  # fmt: skip
    for number in range(count):  # her action, then extra ones (Action Surge, haste)
        session.execute(D20Attack("c1", "c2", usage="extra" if number else "action", apply=True))
    return session


# --- refused as it is read -------------------------------------------------------------------


def test_damage_whose_critical_cannot_be_worked_out_is_refused_as_the_sheet_is_filled():
    with pytest.raises(Rejected) as refused:
        card(HERO, damage="20d6e6 fire", attack_bonus="30")
    message = refused.value.message
    assert message.startswith("Damage: a critical hit doubles the dice to 40d6e6: ")
    assert TOO_BIG in message and "\n" not in message
    assert card(damage="10d6e6 fire").damage == "10d6e6"  # its critical, 20d6e6, works out


def test_a_saving_throws_damage_is_never_doubled_so_only_its_own_dice_are_checked():
    state = older_fight(("Orla", "party", HERO_SHEET), ("Ogre", "foes", TOUGH)).state
    fireball = D20SaveEffect("c1", ("c2",), "Fireball", "dex", 15, damage="20d6e6 fire")
    _, events = run(state, fireball, 10, *[1] * 20)  # the Ogre's save, then the damage
    assert isinstance(events[0], D20Saved) and (events[0].damage, events[0].damage_total) == (
        "20d6e6",
        20,
    )


def test_a_stat_block_whose_critical_is_too_big_is_refused_by_library_add_in_one_line(
    tmp_path: Path,
) -> None:
    said = refused_by_library_add(
        tmp_path,
        "pyro.toml",
        'system = "d20"\nname = "Pyro"\nkind = "hero"\n\n[sheet]\nattack_bonus = 30\n'
        'damage = "20d6e6 fire"\n',
    )
    assert "pyro.toml line 7: Damage: a critical hit doubles the dice to 40d6e6" in said


def test_a_sheet_from_an_older_save_cannot_bring_such_damage_into_another_fight():
    state = older_fight(("Ogre", "foes", TOUGH)).state
    with pytest.raises(Rejected, match=r"^Damage: a critical hit doubles the dice to 40d6e6"):
        decide(state, AddCombatant(name="Orla", side="party", sheet=BIG), SeededDice(1))


def test_the_chance_to_drop_this_round_is_left_out_when_too_long_to_work_out():
    """Thirty attacks of 10d10 at 10,000 hit points: a long sum, refused as dice are, and the
    dialog's line says the rest."""
    ogre = card(hp="50/50", attack_bonus="6", damage="10d10 bludgeoning", multiattack="10")
    titan = structs.replace(HERO_SHEET, hp=10_000, hp_max=10_000)
    ogres = [("Ogre", "foes", ogre)] * 3
    state = older_fight(*ogres, ("Titan", "party", titan)).state
    attack = D20Attack("c1", "c4")
    assert len(swings_this_round(state, state.combatant("c1"), state.combatant("c4"), attack)) == 30
    assert drop_this_round(state, attack) is None
    line = SYSTEM.preview(state, "roll", {"attacker": "c1", "target": "c4"})
    assert line.startswith("Ogre 1's Attack: +6 vs AC 15, 10d10") and "attack 1 of 10" in line


# --- a hero who has it from before -------------------------------------------------------------


def test_the_odds_of_its_attack_leave_the_damage_out_and_say_so():
    history = older_fight(("Orla", "party", BIG), ("Ogre", "foes", TOUGH))
    state, events = run(history.state, D20Attack("c1", "c2"), *CRITICAL)
    assert isinstance(events[0], D20Attacked) and events[0].outcome == "critical"
    assert events[0].damage == "40d6e6" and events[0].damage_total == 40
    odds = SYSTEM.last_odds(state)
    assert odds is not None and [t.label for t in odds.tiers] == ["miss", "hit", "critical"]
    assert "damage 20d6e6: too many possible totals to work out" in str(odds.extra["note"])
    assert SYSTEM.roll_luck(state, events[0])  # the summary's luck needs the tiers alone


async def test_a_hero_whose_critical_is_too_big_attacks_ten_times_by_keys(tmp_path: Path) -> None:
    history = older_fight(("Orla", "party", BIG), ("Ogre", "foes", TOUGH))
    app = make_app(tmp_path, ScriptedDice(CRITICAL * 10), history)
    async with app.run_test(size=(80, 24)) as pilot:
        for number in range(1, 11):
            await pilot.press("r", "enter")
            await until(pilot, lambda: not app.session.state.last_roll_applied, "the attack")
            await pilot.press("d")
            hp = 5000 - 40 * number
            await until(pilot, lambda hp=hp: f"{hp}/5000" in screen_text(app), "the damage")
            await pilot.press("n", "n")  # the Ogre's turn, then hers again: one action a turn
            await until(pilot, lambda: app.session.state.current_id == "c1", "her next turn")
        assert "CRITICAL HIT" in screen_text(app)
    attacks = [e for e, _ in app.session.history.in_effect() if isinstance(e, D20Attacked)]
    assert [(a.attacker_id, a.outcome, a.damage) for a in attacks] == [
        ("c1", "critical", "40d6e6")
    ] * 10
    # and its save opens, replays and exports
    path = tmp_path / "cellar.fight"
    assert storage.load(path).history.state == app.session.state
    timeline = Timeline(storage.read(path))
    assert timeline.state_at(timeline.last) == app.session.state
    done = tracker("export", str(path))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.count("CRITICAL HIT") == 10


async def test_its_save_written_before_the_fix_opens_and_replays_in_the_app(
    tmp_path: Path,
) -> None:
    path = tmp_path / "pyro.fight"
    saved_after_criticals(path).close()
    opened = storage.open_save(path)
    assert not opened.repaired and opened.note == ""
    session, error = EncounterSession.resume(opened, SeededDice(1))
    assert error is None
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "4880/5000" in screen_text(app), "the fight as saved")
        await until(pilot, lambda: "critical" in screen_text(app), "the last roll's tiers")
    replay = TrackerApp(None, saves=tmp_path, replay=storage.read(path))
    async with replay.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")  # the last attack and its damage
        await until(pilot, lambda: "CRITICAL HIT" in screen_text(replay), "the attack replayed")
        await pilot.press("home", "end")
        await until(pilot, lambda: "CRITICAL HIT" in screen_text(replay), "the attack again")
    done = tracker("export", str(path), "--format", "json")
    assert done.returncode == 0 and done.stderr == "" and "40d6e6" in done.stdout


# --- hit point dice ------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "reason"), HOSTILE_DICE)
def test_hit_point_dice_are_bounded_as_a_roll_is_and_refused_naming_the_field(text, reason):
    with pytest.raises(Rejected) as refused:
        card(hp=text)
    message = refused.value.message
    if len(text) > MAX_TEXT:  # the field's own bound comes first
        reason = f"at most {MAX_TEXT} characters"
    assert message.startswith("Hit points: ") and reason in message and "\n" not in message


@pytest.mark.parametrize(("text", "reason"), HOSTILE_DICE)
def test_damage_dice_are_bounded_as_a_roll_is_and_refused_naming_the_field(text, reason):
    with pytest.raises(Rejected) as refused:
        card(damage=f"{text} fire")
    message = refused.value.message
    assert message.startswith("Damage: ") and reason in message and "\n" not in message


def test_a_stat_blocks_hit_point_dice_too_big_are_refused_by_library_add_in_one_line(
    tmp_path: Path,
) -> None:
    text = 'system = "d20"\nname = "Blob"\n\n[sheet]\nhp = "100d6!"\n'
    with pytest.raises(library.LibraryError) as refused:
        library.parse(text, "blob.toml")
    assert str(refused.value).startswith("blob.toml line 5: Hit points: too many possible totals")
    assert "\n" not in str(refused.value)


def test_a_group_with_hit_point_dice_works_them_out_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thirty of a stat block with hit point dice: one working out, not one a goblin (or a
    few a stat block read): a slow one made ``tracker new`` take 87 s."""
    folder = tmp_path / "lib" / "d20"
    folder.mkdir(parents=True)
    (folder / "bog.toml").write_text(
        'system = "d20"\nname = "Bog"\n\n[sheet]\nhp = "7d8+13"\n', encoding="utf-8"
    )
    worked: list[object] = []
    real = rules.notation.answer.distribution

    def counted(*args: object) -> object:
        if args[0] == parse("7d8+13"):  # the bundled stat blocks are read too
            worked.append(args[0])
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rules.notation.answer, "distribution", counted)
    found = library.load(tmp_path / "lib")
    history = prepare.new_history("Bog", "d20", SeededDice(1), library=found, foes=["Bog x30"])
    assert len(history.state.combatants) == 30
    hit_points = {c.sheet.hp_max for c in history.state.combatants}
    assert len(hit_points) > 1 and all(13 + 7 <= hp <= 13 + 56 for hp in hit_points)
    assert len(worked) <= 1


# --- a crafted roll ------------------------------------------------------------------------------


def crafted_save(path: Path, **changes: object) -> None:
    """A save whose last roll is an attack with ``changes``: values no roll can have, which
    the log and the Consequences pane would look up (a traceback as the save was drawn)."""
    session = EncounterSession(older_fight(("Orla", "party", HERO_SHEET), ("Ogre", "foes", TOUGH)),
                               ScriptedDice([]), path)  # fmt: skip
    events = decide(session.state, D20Attack("c1", "c2"), ScriptedDice([15, 3]))
    crafted = [structs.replace(e, **changes) if isinstance(e, D20Attacked) else e for e in events]
    session.history.commit(crafted, "Attack")
    session.close()  # its snapshot written with it


@pytest.mark.parametrize(
    "changes", [{"outcome": "bogus"}, {"mode": 7}, {"faces": ()}], ids=["outcome", "mode", "faces"]
)
def test_a_crafted_roll_in_a_save_is_refused_in_one_line_by_open_export_and_replay(
    tmp_path: Path, changes: dict[str, object]
) -> None:
    path = tmp_path / "crafted.fight"
    crafted_save(path, **changes)
    with pytest.raises(storage.SaveError) as refused:
        storage.load(path)
    assert "\n" not in str(refused.value) and str(refused.value).startswith(f"{path}: ")
    for command in ("open", "export", "replay"):
        done = tracker("--saves", str(tmp_path), command, str(path))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr == f"tracker: {refused.value}\n"
