"""Hidden means hidden, public stays public: random fights of every system, played by the
solo policies with some combatants GM-only, checked against the GM's own log.

What players see comes two ways, and both are checked: live, change by change, as the
table tells its seats (``Table.subscribe_public``), and from the whole history, as a seat's
log and a player's export read it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.commands import AddCondition, AddNote, EditCombatant, NextTurn, SetSolo
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.encounter import Encounter, Event
from rules.engine import describe
from rules.errors import Rejected
from rules.events import TurnAdvanced
from rules.history import History
from rules.mentions import mentions
from rules.visibility import Viewer, follow, hidden_ids
from tests.contract.support import demo, values_of
from tests.picks import a_system, has_demo
from tracker.serve.seats import SeatChange, Table
from tracker.session import Change, EncounterSession
from tracker.store import export

HIDDEN_NAME = "Zorbex"  # hidden combatants are renamed Zorbex1, Zorbex2...: found anywhere
PLAYER = Viewer(role="player", name="Alice")

Step = tuple[str, int]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["next", "next", "roll", "solo", "unsolo", "apply", "condition", "note", "undo"]
        ),
        st.integers(0, 7),
    ),
    max_size=10,
)


class LiveLog:
    """A player's roll log and notifications, as a seat keeps them from the table's changes."""

    def __init__(self, table: Table) -> None:
        self.entries: list[list[str]] = []
        self.alerts: list[str] = []
        self.system = table.session.system
        table.subscribe_public(self.told)

    def told(self, change: Change) -> None:
        assert isinstance(change, SeatChange)
        happened = change.happened()
        if change.kind == "undone":
            del self.entries[len(self.entries) - len(happened) :]
            return
        for event, before in happened:
            self.entries.append(lines(before, event))
            self.alerts += self.system.notices(before, event)

    @property
    def lines(self) -> list[str]:
        return [line for entry in self.entries for line in entry]


def lines(before: Encounter, event: Event) -> list[str]:
    return describe(before, event).plain.splitlines()


def fight(name: str, hide: list[int], steps: list[Step], seed: int) -> tuple[History, LiveLog, int]:
    """The system's demo with the combatants at ``hide`` hidden and renamed, then ``steps``
    (an undo never takes back more than they did). Also: how many events were in effect
    before the steps, when the players' live log starts."""
    session = EncounterSession(demo(name), SeededDice(seed))
    people = session.state.combatants
    for number, index in enumerate(sorted({i % len(people) for i in hide}), 1):
        hide_it = EditCombatant(
            combatant_id=people[index].id, name=f"{HIDDEN_NAME}{number}", gm_only=True
        )
        session.execute(hide_it)
    start = len(list(session.history.in_effect()))
    table = Table(session)
    live = LiveLog(table)
    system = session.system
    done = 0
    for kind, pick in steps:
        state = session.state
        people = state.combatants
        who = people[pick % len(people)]
        sides = sorted({c.side for c in people})
        side = sides[pick % len(sides)]
        commands: dict[str, Any] = {
            "next": NextTurn(),
            "solo": SetSolo(side, True) if system.solo_policies else NextTurn(),
            "unsolo": SetSolo(side, False),
            "condition": AddCondition(who.id, "Marked", Duration("end-of-round")),
            "note": AddNote("a note", who.id),
        }
        try:
            if kind == "undo":
                if done:
                    session.undo()
                    done -= 1
            elif kind == "apply":
                done += session.execute(system.consequence_command(state)) is not None
            elif kind == "roll":  # the roll dialog's defaults, for the picked combatant
                values = values_of(system.action_form(state, "roll", who.id))
                roll = system.action_command(state, "roll", values)
                done += session.execute(roll) is not None
            else:
                done += session.execute(commands[kind]) is not None
        except Rejected:
            pass
        seen = table.sight(PLAYER).state
        assert HIDDEN_NAME not in str(seen), "the players' state names a hidden combatant"
        shown = [system.pending(seen), system.status(seen)]
        landing = system.landing(seen)
        shown += [landing.summary] if landing is not None else []
        assert not any(HIDDEN_NAME in text or "?" in text for text in shown), shown
    table.close()
    return session.history, live, start


def public_lines(pairs: list[tuple[Event, Encounter]], hidden: set[str]) -> list[str]:
    """The rounds, and the turns of those players see, in the order the log shows them."""
    out = []
    for event, before in pairs:
        if isinstance(event, TurnAdvanced):
            if event.round != before.round:
                out.append(f"— Round {event.round} —")
            if event.actor_id is not None and event.actor_id not in hidden:
                out.append(f"▶ {before.name_of(event.actor_id)}'s turn")
    return out


def public_alerts(history: History, hidden: set[str]) -> Counter[str]:
    """The GM's notifications at each turn and round that name only combatants players see."""
    system = registry.get_system(history.state.system)
    found: Counter[str] = Counter()
    for event, before in history.in_effect():
        if not isinstance(event, TurnAdvanced):
            continue
        visible = [c.name for c in before.combatants if c.id not in hidden]
        for alert in system.alerts(before, event):
            if HIDDEN_NAME not in alert and any(re.search(rf"\b{n}\b", alert) for n in visible):
                found[alert] += 1
    return found


def json_ids(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (key == "id" or key.endswith("_id") or key == "against"):
                out.add(item)
            else:
                json_ids(item, out)
    elif isinstance(value, list):
        for item in value:
            json_ids(item, out)
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(registry.names()),
    hide=st.lists(st.integers(0, 7), min_size=1, max_size=2),
    steps=STEPS,
    seed=st.integers(0, 2**16),
)
def test_players_see_nothing_hidden_and_every_public_line(
    name: str, hide: list[int], steps: list[Step], seed: int
) -> None:
    history, live, start = fight(name, hide, steps, seed)
    state = history.state
    hidden = hidden_ids(history.effective_events(), state)
    gm_pairs = list(history.in_effect())
    gm = export.to_json(history, gm=True)
    player = export.to_json(history)
    seen_pairs = follow(gm_pairs, state, frozenset(hidden))[0]
    player_lines = [line for e in player["events"] for line in e["text"].splitlines()]
    markdown = export.to_markdown(history)

    # Hidden means hidden: no name, no id, no line of a hidden roll, however it is read.
    everything = "\n".join([*live.lines, *live.alerts, markdown, json.dumps(player)])
    assert HIDDEN_NAME not in everything
    labels = json_ids(player, set()) - {""}  # "": someone unseen (Beer Run's hidden dealer)
    assert labels <= {f"c{n}" for n in range(1, len(labels) + 1)}, "ids with gaps"
    visible_lines = {
        line for e, before in gm_pairs if not mentions(e) & hidden for line in lines(before, e)
    }
    system = registry.get_system(name)
    gm_events = [e for e, _ in gm_pairs]
    # A roll the system shows in part (Beer Run: the contests players see) is its own.
    concealed = {
        line for e, before in seen_pairs if e not in gm_events for line in lines(before, e)
    }
    for event, before in gm_pairs:
        if isinstance(event, system.roll_event_types) and mentions(event) & hidden:
            for line in lines(before, event):
                if re.search(r"[0-9]", line) and line not in visible_lines | concealed:
                    assert line not in player_lines, f"a line of a hidden roll: {line!r}"
                    assert line not in live.lines, f"a line of a hidden roll: {line!r}"

    # Public stays public: every round, every visible turn, every alert about them.
    expected = public_lines(gm_pairs, hidden)
    shown = [line for line in player_lines if line.startswith(("— Round", "▶ "))]
    assert shown == expected
    live_public = [line for line in live.lines if line.startswith(("— Round", "▶ "))]
    assert live_public == public_lines(gm_pairs[start:], hidden)
    assert not public_alerts(history, hidden) - Counter(live.alerts)
    rounds = [line for line in markdown.splitlines() if line.startswith("## Round ")]
    assert rounds == ["## Round 1"] + [
        f"## {line.strip('— ')}" for line in expected if "Round" in line
    ]
    assert len(gm["events"]) >= len(player["events"])


def test_a_player_s_export_numbers_its_own_combatants_and_names_no_unseen_opponent() -> None:
    history = demo(a_system(has_demo))
    session = EncounterSession(history, SeededDice(1))
    people = session.state.combatants
    hidden = people[1]
    session.execute(EditCombatant(combatant_id=hidden.id, name=f"{HIDDEN_NAME}1", gm_only=True))
    gm = export.to_json(session.history, gm=True)
    player = export.to_json(session.history)
    assert hidden.id in json_ids(gm, set())
    visible = [c for c in people if c.id != hidden.id]
    assert [c["id"] for c in player["combatants"]] == [f"c{n}" for n in range(1, len(visible) + 1)]
    assert [c["name"] for c in player["combatants"]] == [c.name for c in visible]
    assert json_ids(player, set()) - {""} <= {c["id"] for c in player["combatants"]}
    text = json.dumps(player) + export.to_markdown(session.history)
    assert HIDDEN_NAME not in text and "vs ?" not in text and " ? " not in text
