"""The contract every rule system keeps, as checks on one system.

The tests in this folder run each check on every registered system; ``test_fifth_system``
runs them on a system written at test time, which proves that one folder is all it takes.
Every check is a plain function of the system (and its demo), so both can call it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
from rich.errors import StyleSyntaxError
from rich.style import Style

from rules import registry, snapshot
from rules.commands import DiscardConsequence
from rules.dice import SeededDice
from rules.encounter import CombatantAdded, CombatantEdited, Encounter, NoState
from rules.engine import apply, decide, describe, fold_onto, initial_state
from rules.errors import Rejected
from rules.events import ConsequenceDiscarded, CoreEvent
from rules.forms import Field
from rules.history import History
from rules.logline import LogEntry, Span
from rules.odds import Odds, TierOdds
from rules.outcome import Summary, outcome, summary_of
from rules.system import Damage, Landing, Luck, Policy, RuleSystem, Tier
from tracker.terminal.render import PLAIN_COLOURS, STYLES, THEME_COLOUR, styles_of

ROOT = Path(__file__).resolve().parents[2]
SEED = 1
ATTRIBUTES = ("sheet_types", "event_types", "command_types", "roll_event_types")
# Left by ``rules.solo.respond`` when a policy asks for what the rules refuse, or never settles.
SOLO_TROUBLE = ("The tracker could not play", "The tracker stopped")


# --- small helpers ---------------------------------------------------------------------------


def demo(name: str) -> History:
    """A fresh copy of the system's demo encounter."""
    module = registry.part(name, "demo")
    assert module is not None, f"rules/systems/{name}/demo.py is missing"
    history = module.build()
    assert isinstance(history, History), f"{name}: demo.build() must return a History"
    assert history.state.system == name, f"{name}: the demo is a {history.state.system} fight"
    return history


def values_of(fields: Iterable[Field]) -> dict[str, str]:
    """A dialog's values when the user takes every default."""
    return {field.key: field.default for field in fields}


def actor(state: Encounter) -> str | None:
    """The combatant a user would have selected: whoever acts, else the first in the order."""
    if state.current_id is not None:
        return state.current_id
    return state.combatants[0].id if state.combatants else None


def one_line(exc: Rejected, what: str) -> None:
    message = exc.message
    assert isinstance(message, str) and message.strip(), f"{what}: a Rejected with no message"
    assert "\n" not in message.strip(), f"{what}: a Rejected message of more lines: {message!r}"


def tag_of(kind: type[Any]) -> Any:
    return kind.__struct_config__.tag


def saved_types(system: RuleSystem) -> list[type[Any]]:
    """The types a save holds by their tags: sheets, events, roll events and the state."""
    kinds = [*system.sheet_types, *system.event_types, *system.roll_event_types]
    if system.state_type is not NoState:
        kinds.append(system.state_type)
    return list(dict.fromkeys(kinds))


def states_in_effect(history: History) -> list[Encounter]:
    """The state after each record in effect, oldest first (the last is ``history.state``)."""
    records = history.applied_in_effect()
    state = initial_state(records[0].events[0])
    states = [state]
    for record in records[1:]:
        state = fold_onto(state, record.events)
        states.append(state)
    return states


# --- what a system is ------------------------------------------------------------------------


def check_identity(name: str) -> RuleSystem:
    system = registry.get_system(name)
    assert isinstance(system, RuleSystem)
    assert system.name == name, f"the system in rules/systems/{name}/ is named {system.name!r}"
    module = registry.part(name, "system")
    assert module is not None and module.SYSTEM is system
    assert isinstance(system.title, str) and system.title.strip(), f"{name}: no title"
    for attribute in ATTRIBUTES:
        kinds = getattr(system, attribute)
        assert isinstance(kinds, tuple) and kinds, f"{name}.{attribute}: a non-empty tuple"
        for kind in kinds:
            assert isinstance(kind, type) and issubclass(kind, msgspec.Struct), (
                f"{name}.{attribute}: {kind!r} is not a msgspec Struct"
            )
    assert set(system.roll_event_types) <= set(system.event_types), (
        f"{name}: every roll event type is also an event type (else a save cannot hold it)"
    )
    columns = system.stat_columns
    assert isinstance(columns, tuple) and columns, f"{name}.stat_columns: a non-empty tuple"
    assert all(isinstance(c, str) and c.strip() for c in columns), f"{name}.stat_columns"
    assert isinstance(system.uses_turn_order, bool), f"{name}.uses_turn_order: a bool"
    assert isinstance(system.has_odds, bool), f"{name}.has_odds: a bool"
    assert issubclass(system.state_type, msgspec.Struct)
    assert type(system.new_state()) is system.state_type, (
        f"{name}: new_state() is a {type(system.new_state()).__name__}, "
        f"not its state_type {system.state_type.__name__}"
    )
    assert isinstance(system.new_sheet(), system.sheet_types[0]), (
        f"{name}: new_sheet() is not its first sheet type"
    )
    policies = system.solo_policies
    assert isinstance(policies, tuple) and all(isinstance(p, Policy) for p in policies)
    ids = [p.id for p in policies]
    assert all(ids) and len(set(ids)) == len(ids), f"{name}: policy ids {ids} (unique, named)"
    return system


def check_tags(system: RuleSystem) -> dict[str, type[Any]]:
    """Every saved type has its own tag, ``<name>.something``; returns them by tag."""
    by_tag: dict[str, type[Any]] = {}
    for kind in saved_types(system):
        tag = tag_of(kind)
        assert isinstance(tag, str), f"{kind.__name__} has no string tag (tag={tag!r})"
        assert tag.startswith(f"{system.name}.") and len(tag) > len(system.name) + 1, (
            f"{kind.__name__}'s tag {tag!r} does not start with {system.name + '.'!r}"
        )
        assert kind.__struct_config__.tag_field == "type", (
            f"{kind.__name__} has tag_field {kind.__struct_config__.tag_field!r}: saves use 'type'"
        )
        assert by_tag.setdefault(tag, kind) is kind, (
            f"{system.name}: {kind.__name__} and {by_tag[tag].__name__} share the tag {tag!r}"
        )
    return by_tag


def check_view(system: RuleSystem, state: Encounter) -> None:
    """What the app shows of a state has the types it draws."""
    assert isinstance(system.status(state), str)
    waiting = system.pending(state)
    assert isinstance(waiting, str) and "\n" not in waiting, f"pending: {waiting!r}"
    tiers = system.tiers(state)
    assert isinstance(tiers, list) and tiers and all(isinstance(t, Tier) for t in tiers)
    landing = system.landing(state)
    assert landing is None or isinstance(landing, Landing)
    if landing is not None:
        assert 0 <= landing.tier < len(tiers), f"landing in tier {landing.tier} of {len(tiers)}"
        assert system.lands_in(state, landing), (
            f"{landing.value} is not in the tier it landed in, {tiers[landing.tier]}"
        )
        assert isinstance(landing.summary, str) and landing.summary.strip()
    order = system.turn_order(state)
    assert len({c.id for c in order}) == len(order), "someone takes two turns in a round"
    assert all(state.find(c.id) is not None for c in order), "a turn for someone not here"
    actor = system.default_actor(state, None)
    assert actor is None or state.find(actor.id) is not None, f"acting: {actor}"
    for combatant in state.combatants:
        assert isinstance(system.cannot_act(state, combatant), str)
        badges = system.badges(state, combatant)
        assert isinstance(badges, tuple) and all(isinstance(b, str) for b in badges)
        stats = system.sheet_stats(combatant.sheet)
        assert isinstance(stats, tuple) and all(isinstance(s, str) for s in stats)
        assert len(stats) == len(system.stat_columns), (
            f"{combatant.name}: {len(stats)} stats for {len(system.stat_columns)} columns"
        )


def check_fields(fields: object, what: str) -> list[Field]:
    """A form is a list of Fields with unique keys, each choice's default one of its choices."""
    assert isinstance(fields, list) and all(isinstance(f, Field) for f in fields), what
    keys = [f.key for f in fields]
    assert len(set(keys)) == len(keys), f"{what}: repeated field keys {keys}"
    for field in fields:
        assert field.kind in ("int", "text", "choice"), f"{what}: {field.key} is a {field.kind}"
        if field.kind == "choice":
            allowed = [value for value, _ in field.choices]
            assert field.default in allowed, (
                f"{what}: {field.key}'s default {field.default!r} is not among {allowed}"
            )
    return fields


# --- sheets ----------------------------------------------------------------------------------


def sheets_to_check(system: RuleSystem, history: History) -> list[Any]:
    """A new sheet, each sheet type as it comes, and every sheet of the demo."""
    blank = [kind() for kind in system.sheet_types]
    return [system.new_sheet(), *blank, *(c.sheet for c in history.state.combatants)]


def check_sheet_round_trip(system: RuleSystem, sheet: Any) -> None:
    fields = check_fields(system.sheet_form(sheet), f"{type(sheet).__name__}'s form")
    again = system.sheet_from_form(values_of(fields), sheet)
    assert again == sheet, f"the sheet form changes an untouched sheet:\n{sheet}\n{again}"


def check_log_styles(system: RuleSystem) -> None:
    """A system's own log styles are new names, each a style Rich reads, theme colours named."""
    shadowed = set(system.log_styles) & set(STYLES)
    assert not shadowed, f"{system.name}.log_styles redefines the app's {shadowed}"
    for name, style in system.log_styles.items():
        unknown = set(THEME_COLOUR.findall(style)) - set(PLAIN_COLOURS)
        assert not unknown, f"{system.name}.log_styles[{name!r}]: no theme colour {unknown}"
        try:
            Style.parse(styles_of(system.name)[name])
        except StyleSyntaxError as exc:
            raise AssertionError(f"{system.name}.log_styles[{name!r}]: {exc}") from None


# --- events ----------------------------------------------------------------------------------


def check_entry(entry: object, event: object, styles: Iterable[str] = STYLES) -> None:
    what = type(event).__name__
    assert isinstance(entry, LogEntry), f"describe({what}) is a {type(entry).__name__}"
    assert isinstance(entry.kind, str) and entry.kind, f"describe({what}): no kind"
    assert entry.lines, f"describe({what}) has no line"
    for line in entry.lines:
        assert all(isinstance(span, Span) for span in line), f"describe({what}): not Spans"
        assert "".join(span.text for span in line).strip(), f"describe({what}): an empty line"
        unknown = {span.style for span in line} - set(styles) - {""}
        assert not unknown, f"describe({what}) uses styles the app does not know: {unknown}"


def savable(system: RuleSystem) -> tuple[type[Any], ...]:
    return (CoreEvent, CombatantAdded, CombatantEdited, *system.event_types)  # type: ignore[return-value]


def play(system: RuleSystem, state: Encounter, events: Iterable[object]) -> Encounter:
    """Apply events one by one, checking each is one a save can hold, its log entry and its
    alerts; returns the state after them."""
    kinds = savable(system)
    for event in events:
        assert isinstance(event, kinds), (
            f"{type(event).__name__} is neither a core event nor in {system.name}.event_types"
        )
        check_entry(describe(state, event), event, styles_of(system.name))
        alerts = system.notices(state, event)
        assert isinstance(alerts, list) and all(isinstance(a, str) for a in alerts)
        state = apply(state, event)
    return state


# --- saves ------------------------------------------------------------------------------------


def check_save_round_trip(history: History) -> None:
    """Encode, decode: the same fight; encode again: the same bytes. Also opened lazily."""
    data = snapshot.encode(history)
    assert snapshot.read_header(data).system == history.state.system
    again = snapshot.decode(data)
    assert again.state == history.state
    assert list(again.records) == list(history.records)
    assert again.done_indices() == history.done_indices()
    assert again.undone_indices() == history.undone_indices()
    assert snapshot.encode(again) == data, "encode -> decode -> encode changes the bytes"
    lazy = snapshot.open_lazily(data)
    assert lazy.state == history.state
    assert snapshot.encode(lazy) == data


# --- actions ----------------------------------------------------------------------------------


def selections(state: Encounter) -> list[str | None]:
    """Who may be selected when a dialog opens: the actor first, then everyone, then nobody."""
    first = actor(state)
    return list(dict.fromkeys([first, *(c.id for c in state.combatants), None]))


def check_action(
    system: RuleSystem, history: History, action: str, selected: str | None, must_roll: bool
) -> list[object] | None:
    """From the dialog with every default to a command, decided, applied, logged and saved.

    A Rejected with a one-line message is an answer (the action does not apply here), except
    that with ``must_roll`` the dialog must give a command. Returns the events, or None.
    """
    state = history.state
    what = f"{system.name} {action!r} with {selected!r} selected"
    try:
        fields = system.action_form(state, action, selected)
    except Rejected as exc:
        assert not must_roll, f"{what}: the roll dialog is refused: {exc.message}"
        one_line(exc, f"{what}: action_form")
        return None
    values = values_of(check_fields(fields, what))
    assert isinstance(system.preview(state, action, values), str), f"{what}: preview"
    odds = system.odds(state, action, values)
    if not system.has_odds:
        assert odds is None, f"{what}: odds from a system without has_odds"
    try:
        command = system.action_command(state, action, values)
    except Rejected as exc:
        assert not must_roll, f"{what}: the roll dialog's defaults give no command: {exc}"
        one_line(exc, f"{what}: action_command")
        assert odds is None, f"{what}: odds for a dialog whose command is refused"
        return None
    try:
        events = decide(state, command, SeededDice(SEED))
    except Rejected as exc:
        one_line(exc, f"{what}: decide")
        assert odds is None, f"{what}: odds for a roll the rules refuse ({exc.message})"
        return None
    if odds is not None:
        check_odds(system, odds, f"{what}: odds")
    assert isinstance(events, list), f"{what}: decide returns a list"
    if any(isinstance(event, system.roll_event_types) for event in events):
        # The app asks about a result still waiting before it opens such an action.
        assert action in system.roll_actions, f"{what}: makes a new roll, not in roll_actions"
    after = play(system, state, events)
    check_view(system, after)
    history.commit(events, action)
    assert history.state == after
    check_save_round_trip(history)
    history.undo()
    return events


# --- the roll ---------------------------------------------------------------------------------


class Rolled(NamedTuple):
    """The roll dialog's defaults, rolled at the latest point of the demo where they roll."""

    history: History  # after the roll (earlier records undone, when it is not the demo's end)
    before: Encounter
    values: dict[str, str]
    events: list[object]

    @property
    def after(self) -> Encounter:
        return self.history.state


def roll_dialog(
    system: RuleSystem, state: Encounter
) -> tuple[dict[str, str], object, list[object]] | None:
    try:
        values = values_of(system.action_form(state, "roll", actor(state)))
        command = system.action_command(state, "roll", values)
        return values, command, decide(state, command, SeededDice(SEED))
    except Rejected:
        return None


def roll_from_demo(system: RuleSystem, history: History) -> Rolled:
    """Roll with the dialog's defaults at the demo's end or, when the rules refuse it there
    (a round already rolled), at the latest earlier point where they roll."""
    states = states_in_effect(history)
    for back, state in enumerate(reversed(states)):
        rolled = roll_dialog(system, state)
        if rolled is None:
            continue
        for _ in range(back):
            history.undo()
        assert history.state == state
        values, _, events = rolled
        history.commit(events, "roll")
        return Rolled(history, state, values, events)
    raise AssertionError(f"{system.name}: the roll dialog's defaults roll nowhere in the demo")


def check_roll(system: RuleSystem, rolled: Rolled) -> None:
    assert rolled.events, "the roll decided no event"
    after = play(system, rolled.before, rolled.events)
    assert after == rolled.after
    rolls = [e for e in rolled.events if isinstance(e, system.roll_event_types)]
    assert rolls, f"the roll gave no event of {system.name}.roll_event_types"
    assert after.last_roll == rolls[-1], "the last roll is not the roll just made"
    assert not after.last_roll_applied
    check_view(system, after)
    assert system.landing(after) is not None, "no landing for the roll just made"


def check_consequence(system: RuleSystem, rolled: Rolled) -> list[object] | None:
    """The ``d`` key after the roll: events, or a clear Rejected."""
    state = rolled.after
    try:
        events = decide(state, system.consequence_command(state), SeededDice(SEED + 1))
    except Rejected as exc:
        one_line(exc, f"{system.name}: the consequence of the roll")
        return None
    after = play(system, state, events)
    check_view(system, after)
    rolled.history.commit(events, "apply")
    check_save_round_trip(rolled.history)
    return events


# --- what waits to be applied -----------------------------------------------------------------

DISCARDS = 50  # a guard: what waits must come to an end, one discard at a time


def check_pending(system: RuleSystem, history: History) -> bool:
    """What the last roll leaves waiting, on the history's state: said in one line while ``d``
    (or the dialog ``pending_action`` names) would apply something, and discarded one piece at
    a time, each a logged, saved ``ConsequenceDiscarded``, until nothing waits. True if
    anything waited. The history is left with the discards undone."""
    state = history.state
    assert set(system.roll_actions) <= {a.id for a in system.actions(state)}, (
        f"{system.name}: roll_actions {system.roll_actions} are not all actions"
    )
    waiting = system.pending(state)
    try:
        applies = bool(decide(state, system.consequence_command(state), SeededDice(SEED)))
    except Rejected:
        applies = False
    dialog = system.pending_action(state)
    if applies:
        assert waiting, f"{system.name}: d applies the last roll, yet pending says nothing waits"
    if dialog:
        assert waiting, f"{system.name}: pending_action {dialog!r} with nothing waiting"
        assert dialog in {a.id for a in system.actions(state)}, f"no action {dialog!r}"
    if not waiting:
        try:
            decide(state, DiscardConsequence(), SeededDice(SEED))
        except Rejected as exc:
            one_line(exc, f"{system.name}: discarding with nothing waiting")
        else:
            raise AssertionError(f"{system.name}: a discard with nothing waiting was decided")
        return False
    assert applies or dialog, f"{system.name}: {waiting!r} waits; neither d nor a dialog applies it"
    discards = 0
    while waiting:
        assert discards < DISCARDS, f"{system.name}: still waiting after {DISCARDS} discards"
        events = decide(state, DiscardConsequence(), SeededDice(SEED))
        assert len(events) == 1 and isinstance(events[0], ConsequenceDiscarded), events
        assert events[0].what == waiting, f"{system.name}: {events[0].what!r} for {waiting!r}"
        assert waiting in describe(state, events[0]).plain, "the log line says what was discarded"
        after = play(system, state, events)
        assert after != state, f"{system.name}: discarding {waiting!r} changed nothing"
        check_view(system, after)
        history.commit(events, "discard")
        discards += 1
        check_save_round_trip(history)
        state, waiting = after, system.pending(after)
    assert state.last_roll_applied, f"{system.name}: nothing waits, yet the roll is unsettled"
    assert state.last_roll_discarded, "the Consequences pane would say applied, not discarded"
    for _ in range(discards):
        history.undo()
    return True


# --- odds -------------------------------------------------------------------------------------


def check_odds(system: RuleSystem, odds: object, what: str) -> Odds:
    assert isinstance(odds, Odds), f"{what}: a {type(odds).__name__}, not an Odds"
    assert odds.system == system.name, f"{what}: the odds say they are {odds.system!r}"
    assert isinstance(odds.tiers, tuple) and odds.tiers, f"{what}: no tiers"
    for tier in odds.tiers:
        assert isinstance(tier, TierOdds), f"{what}: {tier!r}"
        assert type(tier.p) is Fraction, f"{what}: {tier.label}'s chance is a {type(tier.p)}"
        assert 0 <= tier.p <= 1, f"{what}: {tier.label}'s chance is {tier.p}"
    assert sum((t.p for t in odds.tiers), Fraction(0)) == 1, f"{what}: the chances sum to 1"
    assert isinstance(odds.extra, dict) and all(isinstance(k, str) for k in odds.extra)
    return odds


def same_tiers(odds: Odds, tiers: list[Tier], what: str) -> None:
    """The odds answer the tiers the Consequences pane shows: one each, in order."""
    shown = [(t.label, t.low, t.high) for t in tiers]
    answered = [(t.label, t.low, t.high) for t in odds.tiers]
    assert answered == shown, f"{what}: odds for tiers {answered}, the pane shows {shown}"


def check_roll_odds(system: RuleSystem, rolled: Rolled) -> None:
    before = system.odds(rolled.before, "roll", rolled.values)
    last = system.last_odds(rolled.after)
    if not system.has_odds:
        assert before is None and last is None, "odds from a system without has_odds"
        return
    before = check_odds(system, before, "the roll dialog's odds")
    last = check_odds(system, last, "the last roll's odds")
    tiers = system.tiers(rolled.after)
    same_tiers(before, tiers, "the roll dialog")
    same_tiers(last, tiers, "the last roll")
    assert before == last, "the dialog's odds differ from the odds the same roll had"
    assert last.whose, "the odds do not say whose chances they are (Odds.whose)"


# --- the end of the fight ----------------------------------------------------------------------


def check_outcome(system: RuleSystem, history: History) -> Summary:
    """Who is out of the fight, the damage each event deals, where each roll landed for whom:
    of the types the summary adds up, naming combatants of the state; and the summary itself,
    JSON-ready, with a line per combatant and per side."""
    rolls = 0
    for event, before in history.in_effect():
        for hit in system.damage(before, event):
            assert isinstance(hit, Damage), f"damage() gave a {type(hit).__name__}, not a Damage"
            assert isinstance(hit.amount, int) and hit.amount >= 0, f"damage of {hit.amount}"
            assert before.find(hit.target_id) is not None, f"damage to {hit.target_id!r}"
            assert hit.dealer_id is None or before.find(hit.dealer_id) is not None
        if not isinstance(event, system.roll_event_types):
            continue
        rolls += 1
        after = apply(before, event)
        sides = system.roll_sides(after, event)
        assert isinstance(sides, tuple) and len(sides) == 2
        assert all(cid is None or after.find(cid) is not None for cid in sides), sides
        for luck in system.roll_luck(after, event):
            assert isinstance(luck, Luck) and after.find(luck.combatant_id) is not None
            assert type(luck.percentile) is Fraction and 0 <= luck.percentile <= 1, luck
    state = history.state
    for combatant in state.combatants:
        word = system.out_of_fight(state, combatant)
        assert isinstance(word, str) and word == word.strip() and "\n" not in word, word
    assert isinstance(system.damage_unit, str) and system.damage_unit.strip()
    figures = summary_of(history)
    assert figures.rolls == rolls and figures.rounds == state.round
    assert [f.id for f in figures.fighters] == [c.id for c in state.combatants]
    assert [s.side for s in figures.luck] == sides_of(state)
    assert figures.outcome == outcome(state)
    json.dumps(figures.to_json())
    return figures


def sides_of(state: Encounter) -> list[str]:
    return list(dict.fromkeys(c.side for c in state.combatants))
