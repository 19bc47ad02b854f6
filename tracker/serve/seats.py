"""The table: one live encounter, the seats looking at it, and who acts for whom.

Every seat (the GM's own terminal, and each SSH connection) gets a ``SeatSession``: the
encounter session as that seat's role may see and use it. The screen is the same for all;
it asks its session what to show (``state``, ``history``, the changes it is told of) and
what to offer (``allows``), and the session refuses what the role may not do.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from rules import passing
from rules.commands import PassTurn, RollDice
from rules.encounter import AnyEncounter, Event
from rules.errors import Rejected
from rules.history import RECENT, Applied
from rules.outcome import Outcome
from rules.permissions import refusal
from rules.system import RuleSystem
from rules.turn_times import Turn
from rules.visibility import (
    GM,
    Role,
    Sight,
    Viewer,
    follow,
    hidden_ids,
    seen_after,
    seen_alone,
)
from tracker.screens.encounter_keys.roles import may_use
from tracker.serve import alerts
from tracker.serve.limits import TOO_FAST, Bucket, command_limit
from tracker.serve.links import Link, Links
from tracker.session import Change, EncounterSession, Subscriber

if TYPE_CHECKING:
    from textual.app import App

SPECTATOR = Viewer(role="spectator")
NOTICES = 6  # the latest different ones kept for the seats dialog
SEEN_BEFORE = 32  # undos in a row that players' view goes back through without a refold
PASSING_OFF = "At this table the GM ends the turns: ask the GM to pass yours"


@dataclass
class Settings:
    """The table's own settings, the GM's to change in the seats dialog (w)."""

    players_pass: bool = True  # a player's n ends their own combatant's turn
    alerts: bool = True  # "your turn" and "up next" ring a seat's bell (each seat may say no)


@dataclass(frozen=True)
class SeatChange(Change):
    """A change as players see it: the (event, state before) pairs already filtered."""

    pairs: tuple[tuple[Event, AnyEncounter], ...] = ()

    def happened(self) -> list[tuple[Event, AnyEncounter]]:
        return list(self.pairs)


@dataclass(eq=False)
class Seat:
    """One connected view: who, from where, since when."""

    id: int
    role: Role
    name: str
    peer: str = "local"
    since: float = field(default_factory=time.monotonic)
    last_input: float = field(default_factory=time.monotonic)
    app: App[Any] | None = None
    close: Callable[[str], None] | None = None  # disconnects the seat with a message
    view: Viewer | None = None  # a shared view's own seat: what it shows, fixed
    link: Link | None = None  # the join link a browser seat sat down with
    # A shared view draws this seat (tracker/serve/views.py): its own app is not told of
    # changes, and catches up when the seat takes over.
    muted: bool = False
    # The commands (rolls) it may still give now; the GM's are not counted.
    commands: Bucket = field(default_factory=command_limit)
    # Turn alerts (tracker/serve/alerts.py): the seat's own say (b), how it is told (its
    # channel's; None: a seat with no terminal of its own), and what it was told last.
    alerts: bool = True
    alert: Callable[[str], None] | None = None
    alerted: tuple[passing.News, str, int] | None = None

    @property
    def remote(self) -> bool:
        return self.close is not None


class Table:
    """The shared session, its seats, the players' combatants, and the players' view."""

    def __init__(self, session: EncounterSession) -> None:
        self.session = session
        self.seats: dict[int, Seat] = {}
        self.assigned: dict[str, frozenset[str]] = {}  # player name -> combatant ids
        self.settings = Settings()
        # Players expected at the table (the players file's): the seats dialog lists those
        # not in yet, to hand combatants to before they join.
        self.expected: list[str] = []
        self.door = ""  # where the table is served: the seats dialog says it again
        self._ids = itertools.count(1)
        self._public: list[Subscriber] = []
        self._watchers: list[Callable[[str], None]] = []
        # What the GM is told about the door: refused logins, lockouts, seats that failed.
        # Each the latest time it was said, oldest first, with how many times (a seat turned
        # away at each of its tries is one notice, its count never lost to the others).
        self.notices: dict[str, int] = {}
        # Join links for browser seats (tracker/serve/web.py); the seats dialog shows them.
        self.links = Links(changed=lambda: self._tell_watchers(""))
        self._hidden = hidden_ids(session.history.effective_events(), session.state)
        self._public_state: AnyEncounter | None = None  # see ``_seen``
        # Players' view of the whole fight, worked out once for every seat that sits down
        # (seconds on a long fight, every seat waiting) and followed on as records come;
        # None: worked out again when next asked for (see ``public_pairs``).
        self._public_pairs: list[tuple[Event, AnyEncounter]] | None = None
        # What players saw before each of the last records applied, and how many events of
        # their view came before it, the newest last: an undo goes back to it rather than
        # through the whole history again.
        self._seen_before: list[tuple[Applied[Any], AnyEncounter, int | None]] = []
        self._unsubscribe = session.subscribe(self._changed)

    # --- seats ---

    def join(self, role: Role, name: str, peer: str = "local", **kw: Any) -> Seat:
        seat = Seat(next(self._ids), role, name, peer, **kw)
        if role == "player":  # the turn it joins on is told by its header, not an alert
            seat.alerted = self._news(self._seen(), seat)
        self.seats[seat.id] = seat
        self._tell_watchers(f"{name} joined ({role}, {peer})" if peer != "local" else "")
        return seat

    def leave(self, seat: Seat) -> None:
        if self.seats.pop(seat.id, None) is not None:
            self._tell_watchers(f"{seat.name} left ({seat.role})" if seat.remote else "")

    def kick(self, seat_id: int) -> bool:
        seat = self.seats.get(seat_id)
        if seat is None or seat.close is None:
            return False
        seat.close("The GM closed your seat.")
        self.leave(seat)
        return True

    def notice(self, line: str) -> None:
        """Tell the GM something about the table's door (kept for the seats dialog)."""
        self.notices[line] = self.notices.pop(line, 0) + 1
        while len(self.notices) > NOTICES:
            del self.notices[next(iter(self.notices))]
        self._tell_watchers(line)

    def named(self, name: str) -> Seat | None:
        """The seat called ``name`` (names are compared without case)."""
        folded = name.casefold()
        return next((s for s in self.seats.values() if s.name.casefold() == folded), None)

    def assign(self, player: str, ids: frozenset[str]) -> None:
        """``player`` acts for ``ids``, seated or not yet (they get them on joining)."""
        for other in [name for name in self.assigned if name.casefold() == player.casefold()]:
            del self.assigned[other]  # one name, whatever its case
        self.assigned[player] = ids
        self._tell_watchers("")

    def absent(self) -> list[str]:
        """The players expected, or given combatants, who have no seat now (by name)."""
        seated = {seat.name.casefold() for seat in self.seats.values()}
        links = [link.name for link in self.links if link.role == "player"]
        names = dict.fromkeys([*self.expected, *links, *self.assigned])
        return [name for name in names if name.casefold() not in seated]

    def spelled(self, name: str) -> str:
        """``name`` as a seat, an expected player or an assignment spells it (names are
        compared without case), else as given."""
        known = [s.name for s in self.seats.values() if s.role == "player"] + self.absent()
        return next((k for k in known if k.casefold() == name.casefold()), name)

    def change(self, **settings: bool) -> None:
        """Change the table's settings (``Settings``' names), telling the seats dialog."""
        for name, value in settings.items():
            setattr(self.settings, name, value)
        self._tell_watchers("")

    def viewer(self, seat: Seat) -> Viewer:
        if seat.view is not None:
            return seat.view
        if seat.role == "gm":
            return GM
        if seat.role == "spectator":
            return SPECTATOR
        return Viewer(role="player", name=seat.name, assigned=self.assigned_to(seat.name))

    def assigned_to(self, player: str) -> frozenset[str]:
        """The combatants ``player`` acts for (handed to their name in any case: a player
        who joins as "Dora" gets what the GM gave "dora")."""
        found = self.assigned.get(player)
        if found is None:
            folded = player.casefold()
            found = next((v for k, v in self.assigned.items() if k.casefold() == folded), None)
        return found or frozenset()

    def watch(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Be told when a seat joins or leaves (with a line saying so), or assignments change."""
        self._watchers.append(callback)
        return lambda: self._watchers.remove(callback)

    def _tell_watchers(self, news: str) -> None:
        for callback in list(self._watchers):
            callback(news)

    # --- what players see ---

    def sight(self, viewer: Viewer) -> Sight:
        if viewer.is_gm:
            return Sight(self.session.state, frozenset(), True)
        return Sight(self._seen(), frozenset(self._hidden), False)

    def _seen(self) -> AnyEncounter:
        """The encounter as players see it now, worked out again when a change could not
        simply follow on (an undo, a combatant hidden): from the newest state known whose
        last roll players could see (the state itself, mostly), not from the whole fight,
        which on a long one took seconds, every seat waiting."""
        if self._public_state is None:
            history, hidden = self.session.history, frozenset(self._hidden)
            since = history.in_effect_after(lambda state: seen_alone(state, hidden))
            self._public_state = seen_after(since, history.state, hidden)
        return self._public_state

    @property
    def view_kept(self) -> bool:
        """Whether players' view of the whole fight is kept (see ``public_pairs``)."""
        return self._public_pairs is not None and self._public_state is not None

    def public_pairs(self) -> list[tuple[Event, AnyEncounter]]:
        """Every event in effect as players see it, with the state they saw before it (see
        ``Sight.pairs``): the same objects for every seat, whose logs describe them once."""
        if not self.view_kept:
            history = self.session.history
            hidden = frozenset(self._hidden)
            self._public_pairs, self._public_state = follow(
                history.in_effect(), history.state, hidden
            )
        assert self._public_pairs is not None
        return self._public_pairs

    def view_work(self) -> Callable[[], Callable[[], None]] | None:
        """Players' view of the whole fight, to be worked out off the loop before a seat
        asks (``TableApp``, as the table opens): a function for a worker thread, which
        gives back one to call on the loop, keeping the view if the fight has not changed
        meanwhile. None: the view is kept already."""
        if self.view_kept:
            return None
        history = self.session.history
        pairs, after, hidden = history.in_effect(), history.state, frozenset(self._hidden)
        records = len(history.records)  # the log only grows: any change adds a record

        def work() -> Callable[[], None]:
            worked = follow(pairs, after, hidden)

            def keep() -> None:
                unchanged = len(self.session.history.records) == records
                if unchanged and self._public_pairs is None and self._hidden == hidden:
                    self._public_pairs, self._public_state = worked

            return keep

        return work

    def _alert(self) -> None:
        """Alert each player's seat whose news changed, once for the turn that brings it
        (tracker/serve/alerts.py)."""
        players = [s for s in self.seats.values() if s.role == "player" and s.view is None]
        if not players:
            return
        state = self._seen()
        for seat in players:
            key = self._news(state, seat)
            if key == seat.alerted:
                continue
            seat.alerted = key
            if key is None or seat.alert is None or not (seat.alerts and self.settings.alerts):
                continue
            seat.alert(alerts.words(key[0], state.name_of(key[1])))

    def _news(self, state: AnyEncounter, seat: Seat) -> tuple[passing.News, str, int] | None:
        """A player's turn news as a key (what, whose, which round): told when it changes;
        none once the fight is over, unless the GM plays on."""
        if self.session.stopped():
            return None
        found = passing.news(state, self.assigned_to(seat.name))
        return (found[0], found[1].id, state.round) if found is not None else None

    def subscribe_public(self, subscriber: Subscriber) -> Callable[[], None]:
        self._public.append(subscriber)
        return lambda: self._public.remove(subscriber)

    def _changed(self, change: Change) -> None:
        state = change.state
        was = self._hidden
        if change.kind != "undone":  # a redo applies its record's events again
            self._hidden = {
                cid for cid in self._hidden if (c := state.find(cid)) is None or c.gm_only
            } | hidden_ids(change.record.events, state)
        else:
            self._hidden = hidden_ids(self.session.history.effective_events(), state)
        seen, known = self._public_state, self._public_pairs
        # Hit points shown otherwise (`:hp`, its undo): every line players see is read again.
        anew = change.before.options.hp_views != state.options.hp_views
        same = self._hidden == was and not anew
        if change.kind != "undone" and same and seen is not None:
            # Follows on from what players saw: no need to go through the history again.
            hidden = frozenset(self._hidden)
            pairs, self._public_state = follow(change.happened(), state, hidden, seen)
            count = len(known) if known is not None else None
            self._seen_before.append((change.record, seen, count))
            del self._seen_before[:-SEEN_BEFORE]
            if known is not None:
                known.extend(pairs)
        else:
            if not (same and self._went_back(change)):
                self._forget()
            if self._public:
                # An undone record's events were applied to the state the undo went back
                # to, and led to the one before the undo. Followed without what players saw
                # before, these states lack the last roll they saw: only lines of hidden
                # rolls, left out anyway, would read it.
                after = change.before if change.kind == "undone" else state
                pairs = follow(change.happened(), after, frozenset(self._hidden))[0]
        self._alert()  # a player's turn, or theirs next: their seat is told once
        if not self._public:
            return
        # Worked out once for every player and spectator: they all see the same.
        record = msgspec.structs.replace(change.record, events=tuple(e for e, _ in pairs))
        public = SeatChange(
            change.kind,
            record,
            pairs[0][1] if pairs else self._seen(),
            self._seen(),
            pairs=tuple(pairs),
            anew=anew,
        )
        for subscriber in list(self._public):
            subscriber(public)

    def _went_back(self, change: Change) -> bool:
        """Players' view back to what they saw before the record an undo took back, if it
        is remembered (whether it was)."""
        if change.kind != "undone" or not self._seen_before:
            return False
        record, seen, count = self._seen_before.pop()
        if record != change.record:
            return False
        self._public_state = seen
        if self._public_pairs is not None and count is not None:
            del self._public_pairs[count:]
        else:
            self._public_pairs = None  # worked out again if a seat sits down
        return True

    def _forget(self) -> None:
        """Players' view is worked out again from the whole history when next asked for."""
        self._public_state = self._public_pairs = None
        self._seen_before.clear()  # what is remembered goes back to the history's top

    def close(self) -> None:
        self._unsubscribe()


class History:
    """The history as a seat may read it (``rules.history.HistoryView``): only what its
    role may see, for the log, the quick turn's last target and the prompt's completion."""

    def __init__(self, seat: SeatSession) -> None:
        self._seat = seat

    @property
    def in_effect_folds(self) -> bool:
        # A player's view leaves out events hidden from it, their changes kept.
        return self._seat.viewer.is_gm

    @property
    def state(self) -> AnyEncounter:
        return self._seat.state

    def in_effect(self) -> list[tuple[Event, AnyEncounter]]:
        seat = self._seat
        if not seat.viewer.is_gm:  # players and spectators see the same
            return list(seat.table.public_pairs())  # a copy: the table's grows
        return list(seat.table.session.history.in_effect())

    def in_effect_sparse(self) -> Iterable[tuple[Event, AnyEncounter | None]]:
        seat = self._seat
        if not seat.viewer.is_gm:
            return self.in_effect()
        return seat.table.session.history.in_effect_sparse()

    def recent_events(self, limit: int = RECENT) -> Iterator[Event]:
        """What the seat may see of the events in effect, newest first (the last ``limit``)."""
        for event, _ in reversed(self.in_effect()[-limit:]):
            yield event


class SeatSession:
    """The encounter session as one seat's role may see and use it (see the module doc)."""

    def __init__(self, table: Table, seat: Seat) -> None:
        self.table = table
        self.seat = seat
        self.behind = False  # changes were held back from a muted seat's screen

    @property
    def viewer(self) -> Viewer:
        return self.table.viewer(self.seat)

    @property
    def _session(self) -> EncounterSession:
        return self.table.session

    @property
    def state(self) -> AnyEncounter:
        viewer = self.viewer
        if viewer.is_gm:
            return self._session.state
        return self.table.sight(viewer).state

    @property
    def history(self) -> Any:
        # The GM's seat reads the whole history (replay, export); others a HistoryView.
        return self._session.history if self.viewer.is_gm else History(self)

    @property
    def system(self) -> RuleSystem:
        return self._session.system

    def clock(self) -> float | None:
        return self._session.clock()

    def turn_times(self) -> list[Turn]:
        """Every timed turn (the summary keeps those of whom the seat sees)."""
        return self._session.turn_times()

    def turn_started(self) -> float | None:
        """When the turn going on began, if this seat sees whose turn it is."""
        if self.state.current_id is None:
            return None  # a turn the seat may not see: no clock
        return self._session.turn_started()

    def outcome(self) -> Outcome:
        """The whole encounter's outcome: a side the GM hides is still in the fight, so no
        seat is told the fight is over while hidden foes stand."""
        return self._session.outcome()

    @property
    def playing_on(self) -> str | None:
        return self._session.playing_on

    @playing_on.setter
    def playing_on(self, headline: str | None) -> None:
        self._session.playing_on = headline  # the GM's: it runs every seat's turns on

    def stopped(self) -> bool:
        return self._session.stopped()

    @property
    def dice(self) -> Any:
        return self._session.dice

    @property
    def path(self) -> Any:
        return self._session.path

    @property
    def checked(self) -> bool:
        return self._session.checked

    def check(self) -> str | None:
        """The table's save was checked whole as it opened (``EncounterSession.check``)."""
        return self._session.check()

    def allows(self, action: str, argument: str = "") -> bool:
        if action in ("open_save", "new_party"):  # the served encounter stays the one served
            return False
        return may_use(self.viewer, self._session.state.system, action, argument)

    def acts_for(self) -> frozenset[str] | None:
        viewer = self.viewer
        return None if viewer.is_gm else viewer.assigned

    def refusal(self, command: object) -> str | None:
        return refusal(self._session.state, self.viewer, command)

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        def told(change: Change) -> None:
            if self.seat.muted:
                self.behind = True
            else:
                subscriber(change)

        if self.viewer.is_gm:
            return self._session.subscribe(told)
        return self.table.subscribe_public(told)

    def execute(self, command: object, label: str = "", choices: Any = ()) -> Applied[Any] | None:
        self.seat.last_input = time.monotonic()
        viewer = self.viewer
        if not viewer.is_gm and not self.seat.commands.take_all(1):
            raise Rejected(TOO_FAST)  # before any work: a roll is worked out on the loop
        if isinstance(command, RollDice | PassTurn) and not viewer.is_gm:
            if isinstance(command, PassTurn) and not self.table.settings.players_pass:
                raise Rejected(PASSING_OFF)
            command = msgspec.structs.replace(command, by=viewer.name)  # under their name
        return self._session.execute(command, label, choices, viewer=viewer)

    def undo(self) -> Applied[Any]:
        return self._session.undo(self.viewer)

    def redo(self) -> Applied[Any]:
        return self._session.redo(self.viewer)

    def save(self) -> str | None:
        return self._session.save() if self.viewer.is_gm else None

    def close(self) -> str | None:
        return self._session.close()
