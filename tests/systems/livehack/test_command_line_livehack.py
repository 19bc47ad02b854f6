"""The `:` command line without the app, in LiveHack's demo: lines become commands,
completions fit the line (each other system's own forms: its test_command_line_<name>.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import structs

from rules.commands import (
    AddCombatant,
    AddCondition,
    AddNote,
    NextTurn,
    RemoveCondition,
)
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.encounter import CombatantEdited
from rules.engine import decide
from rules.errors import Rejected
from rules.history import History
from rules.systems.livehack import demo as livehack
from tests.app.line_support import context, options, refused, run
from tracker.line_commands import command_history
from tracker.line_commands.completion import complete
from tracker.line_commands.names import find_combatant, handles, slug
from tracker.line_commands.outcomes import Redo, Say, ScreenAction, Undo
from tracker.line_commands.resolve import hint, resolve

WARREN = livehack.build()  # read only: commands are resolved, never committed


@pytest.fixture
def warren() -> History:
    return WARREN


# --- rolls from the dialog's own fields ---------------------------------------------------


def test_attack_fills_people_choices_text_and_named_fields(warren: History) -> None:
    command = run(":attack Orla goblin-sneak sword +effort 2 defender_extra=1 zero", warren)
    assert command.attacker_id == "c1" and command.defender_id == "c3"  # type: ignore[attr-defined]
    assert command.skill == "sword"  # type: ignore[attr-defined]
    assert command.effort == 2 and command.defender_extra == 1  # type: ignore[attr-defined]
    assert command.attacker_take == "zero"  # the first open field with that choice


def test_choice_words_and_defaults(warren: History) -> None:
    command = run("roll brak GOBLIN-SNEAK fortitude zero ten +trait fatigue", warren)
    assert command.attacker_id == "c2" and command.defense == "fortitude"  # type: ignore[attr-defined]
    assert (command.attacker_take, command.defender_take) == ("zero", "ten")  # type: ignore[attr-defined]
    assert command.trait == "fatigue" and command.effort == 0  # type: ignore[attr-defined]
    # A quoted name works as well as its handle, and the dialog's defaults fill the rest.
    quoted = run('attack Orla "Goblin Sneak"', warren)
    assert quoted.defender_id == "c3" and quoted.defense == "reflex"  # type: ignore[attr-defined]


def test_the_command_rolls_when_the_rules_decide_it(warren: History) -> None:
    command = run("attack orla goblin-sneak +effort 1", warren)
    events = decide(warren.state, command, SeededDice(3))
    assert events and type(events[0]).__name__ == "LiveHackRolled"


def test_system_actions_by_id_or_title(warren: History) -> None:
    by_title = run("grim-test brak tortured", warren)
    by_id = run("grim brak tortured", warren)
    assert by_title == by_id
    assert (by_title.combatant_id, by_title.experience) == ("c2", "tortured")  # type: ignore[attr-defined]


def test_without_words_a_command_opens_its_dialog(warren: History) -> None:
    ctx = context(warren)
    assert resolve(":roll", ctx) == ScreenAction("roll")
    assert resolve("attack", ctx) == ScreenAction("roll")
    assert resolve("grim-test", ctx) == ScreenAction("system('grim')")
    assert resolve("cond", ctx) == ScreenAction("add_condition")
    assert resolve("add", ctx) == ScreenAction("add_combatant")


# --- the other built-ins and the palette ---------------------------------------------------


def test_conditions_with_durations(warren: History) -> None:
    known = ("Discombobulated",)
    command = run("cond Brak discombobulated", warren, known_conditions=known)
    assert command == AddCondition("c2", "Discombobulated", Duration())
    assert run("cond brak prone 2", warren).duration == Duration("rounds", 2)  # type: ignore[attr-defined]
    assert run("cond brak prone round", warren).duration == Duration("end-of-round")  # type: ignore[attr-defined]
    assert run("cond brak dazed next-turn", warren).duration == Duration("end-of-next-turn")  # type: ignore[attr-defined]
    assert run("uncond goblin-boss PRONE", warren) == RemoveCondition("c4", "Prone")
    assert run("uncond goblin-sneak", warren) == RemoveCondition("c3", "Prone")


def test_the_simple_commands(warren: History) -> None:
    ctx = context(warren)
    assert run("next", warren) == NextTurn()
    assert resolve("undo", ctx) == Undo(1) and resolve("undo 3", ctx) == Undo(3)
    assert resolve("redo 2", ctx) == Redo(2)
    assert run("""note Orla's "big" swing""", warren) == AddNote("""Orla's "big" swing""")
    assert run('add "Goblin Archer"', warren) == AddCombatant(name="Goblin Archer", side="foes")
    assert run("add Wolf beasts", warren) == AddCombatant(name="Wolf", side="beasts")
    assert resolve("save", ctx) == ScreenAction("save")
    assert resolve("open", ctx) == ScreenAction("open_save")
    assert resolve("help", ctx) == ScreenAction("help")
    said = resolve("help attack", ctx)
    assert isinstance(said, Say) and "+effort" in said.text
    apply = run("apply", warren)
    assert type(apply).__name__ == "LiveHackApplyConsequence"


def test_every_palette_command_by_its_title_or_action(warren: History) -> None:
    ctx = context(warren)
    assert resolve("next-turn", ctx) == ScreenAction("next_turn")
    assert resolve("next-turn-round", ctx) == ScreenAction("next_turn")
    assert resolve("add", ctx) == ScreenAction("add_combatant")  # the built-in, no words
    assert resolve("replay", ctx) == ScreenAction("replay")
    assert resolve("quit", ctx) == ScreenAction("quit")


# --- bad input: one line, a suggestion, never a crash ----------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("atack orla goblin-sneak", "no command 'atack': did you mean 'attack'?"),
        ("nxt", "no command 'nxt': did you mean 'next'?"),
        ("zzzzzz", "no command 'zzzzzz'"),
        (":", "type a command"),
        ("cond Orlaa prone", "no combatant 'Orlaa': did you mean 'Orla'?"),
        ("cond orla", "usage: cond NAME CONDITION"),
        ("cond orla prone soon", "a duration is one of"),
        ("undo x", "undo takes a number of steps from 1 to 1000, not 'x'"),
        ("redo 0", "redo takes a number of steps"),
        ("attack orla +efort 2", "Opposed roll has no field 'efort': did you mean 'effort'?"),
        ("attack orla +effort", "+effort needs a value after it"),
        ("attack orla +effort 99999999999", "Effort must be between 0 and 5"),
        ("attack orla +effort 1000001", "Effort must be between 0 and 5, not 1,000,001"),
        ("attack orla +defender_effort 9", "Defender effort must be between 0 and 5, not 9"),
        ("attack orla +defense ice", "Against must be one of: reflex, fortitude, will, skill"),
        ('attack orla "goblin', "cannot read the line"),
        ("attack orla brak goblin-sneak", "Opposed roll has no place left for Goblin Sneak"),
        ("uncond orla", "Orla has no conditions"),
        ("uncond goblin-boss", "Goblin Boss has Incapacitated, Prone: say which"),
        ("uncond goblin-boss dazed", "Goblin Boss is not dazed"),
        ("replay now", "replay takes no words"),
        ("add a b c", "usage: add NAME [SIDE]"),
    ],
)
def test_bad_lines_get_one_clear_line(warren: History, line: str, message: str) -> None:
    text = refused(line, warren)
    assert message in text
    assert "\n" not in text


# --- names: slugs, duplicates, markup-looking names ---------------------------------------------


def with_people(*names: str) -> History:
    from rules.engine import new_encounter

    history = History(new_encounter("Test", "livehack"))
    for name in names:
        history.commit(decide(history.state, AddCombatant(name=name), SeededDice(1)))
    return history


def test_duplicates_and_spaces_get_numbered_slugs() -> None:
    # Adding numbers a repeated name (rules.engine), an edit refuses one; an older save can
    # hold one (its edit, as recorded then, committed here as it was).
    history = with_people("Goblin", "Orla", "Gob", "Cave Troll")
    renamed = structs.replace(history.state.combatant("c3"), name="Goblin")
    history.commit([CombatantEdited(renamed)])
    assert [h for h, _ in handles(history.state)] == ["goblin-1", "orla", "goblin-2", "cave-troll"]
    state = history.state
    assert find_combatant(state, "goblin-2").id == "c3"  # type: ignore[union-attr]
    assert find_combatant(state, "CAVE TROLL").id == "c4"  # type: ignore[union-attr]
    assert find_combatant(state, "c2").name == "Orla"  # type: ignore[union-attr]
    with pytest.raises(Rejected, match="say goblin-1, goblin-2"):
        find_combatant(state, "goblin")
    command = run("attack goblin-2 cave-troll", history)
    assert (command.attacker_id, command.defender_id) == ("c3", "c4")  # type: ignore[attr-defined]


def test_a_name_like_markup_is_plain_text() -> None:
    history = with_people("[red]", "Orla")
    assert slug("[red]") == "red"
    assert run("cond [red] prone", history) == AddCondition("c1", "Prone", Duration())
    assert run("cond red on-fire", history) == AddCondition("c1", "On-fire", Duration())
    assert run("cond red McGuffin", history) == AddCondition("c1", "McGuffin", Duration())
    assert "red" in complete("cond ", context(history)).options


# --- completion and hints -----------------------------------------------------------------------


def test_completes_command_names(warren: History) -> None:
    assert options(":att", warren)[:2] == ["attack", "attribute-check"]
    assert options("gri", warren) == ["grim", "grim-test"]
    assert options("repl", warren) == ["replay"]
    assert "undo" in options("", warren)


def test_completes_people_fields_choices_and_sheet_words(warren: History) -> None:
    assert options("attack ", warren)[:4] == ["orla", "brak", "goblin-sneak", "goblin-boss"]
    assert options("attack orla gob", warren) == ["goblin-sneak", "goblin-boss"]
    assert options("attack orla +ef", warren) == ["+effort"]
    assert options("attack orla +defense f", warren) == ["fortitude"]
    assert options("attack orla defense=w", warren) == ["defense=will"]
    assert options("attack orla +defender go", warren) == ["goblin-sneak", "goblin-boss"]
    assert options("attack orla goblin-sneak Me", warren) == ["Melee"]  # Orla's skill
    assert options("attack orla goblin-sneak tor", warren) == []  # no such word


def test_completes_conditions_durations_sides_dice_and_help() -> None:
    warren = livehack.build()
    assert options("cond brak ", warren) == ["Prone", "Incapacitated"]
    assert options("cond brak prone ", warren)[:2] == ["until-removed", "next-turn"]
    assert options("uncond goblin-boss ", warren) == ["Incapacitated", "Prone"]
    assert options("add Wolf ", warren) == ["party", "foes"]
    assert options("help un", warren) == ["uncond", "undo"]


def test_completion_lines_and_hints(warren: History) -> None:
    found = complete(":attack orla gob", context(warren))
    assert found.lines(":attack orla gob") == [
        ":attack orla goblin-sneak",
        ":attack orla goblin-boss",
    ]
    assert hint("", context(warren)).startswith("commands: attack")
    assert "+effort" in hint("attack ", context(warren))
    assert "+effort" in hint(":attack", context(warren))  # a whole name: its usage already
    assert hint(":atta", context(warren)).startswith("commands: attack")
    assert hint("cond ", context(warren)).startswith("cond NAME CONDITION")
    assert "did you mean 'attack'" in hint("atack ", context(warren))


# --- the history file ---------------------------------------------------------------------------


def test_history_is_kept_in_a_small_file(tmp_path: Path) -> None:
    path = command_history.history_path(tmp_path / "fight.fight")
    assert path == tmp_path / ".command-history"
    assert command_history.load(path) == []
    lines = command_history.remember([], "next", path)
    lines = command_history.remember(lines, "next", path)  # not twice in a row
    lines = command_history.remember(lines, "  undo 2 ", path)
    assert lines == ["next", "undo 2"]
    assert command_history.load(path) == ["next", "undo 2"]
    for n in range(command_history.KEEP + 5):
        lines = command_history.remember(lines, f"note {n}", path)
    assert len(command_history.load(path)) == command_history.KEEP
    assert command_history.remember([], "x", None) == ["x"]  # no file: kept in memory only
    unwritable = tmp_path / "missing" / "dir" / "history"
    assert command_history.remember([], "y", unwritable) == ["y"]  # a failed write is fine


WORDS = st.sampled_from(
    ["attack", "roll", "cond", "uncond", "undo", "note", "add", "help", "grim-test", "orla",
     "goblin-sneak", "+effort", "effort=", "zero", "prone", "2", "'", '"', "=", "+", ":", "[red]"]
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=40), st.lists(WORDS, max_size=6).map(" ".join)))
def test_any_line_is_an_outcome_or_one_clear_refusal(line: str) -> None:
    ctx = context(WARREN)
    try:
        resolve(line, ctx)
    except Rejected as exc:
        assert exc.message and "\n" not in exc.message
    complete(line, ctx)
    hint(line, ctx)
