"""The contract every rule system implements, and the values it shares with the app.

A rule system is one package, ``rules/systems/<name>/``, whose ``system`` module holds
``SYSTEM``, an instance of a ``RuleSystem`` subclass (see ``docs/adding-a-system.md``).
Abstract methods are what every system must say; every other hook has a default here, so
callers never probe a system for what it offers.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, NamedTuple

from msgspec import Struct

from rules.budget import Budget
from rules.commands import ChangeTrack
from rules.conversion import Conversion
from rules.dice import ANY_FACE, DiceSource
from rules.encounter import Combatant, Encounter, NoState
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.forms import Field
from rules.logline import LogEntry
from rules.mentions import mentions
from rules.odds import Odds, mid_percentile
from rules.spelling import slip_for


class Tier(Struct, frozen=True):
    """A band of results; ``low``/``high`` are inclusive bounds, None for an open end."""

    label: str
    low: int | None
    high: int | None
    effect: str

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


class Landing(Struct, frozen=True):
    """Where the last roll fell among the tiers."""

    tier: int
    value: int
    summary: str


class Damage(NamedTuple):
    """What one event took off one combatant, and who dealt it (None: nobody, e.g. a fumble,
    a difficulty pool or a grim experience), in the system's ``damage_unit``."""

    dealer_id: str | None
    target_id: str
    amount: int


class Luck(NamedTuple):
    """How one roll landed for one combatant: the chance of a result worse for it plus half
    the chance of one that lands as it did (1/2 on average, whatever the odds)."""

    combatant_id: str
    percentile: Fraction


def luck_against(
    odds: Odds | None, landing: Landing | None, sides: tuple[str | None, str | None]
) -> tuple[Luck, ...]:
    """How a roll that landed in ``landing``'s tier did among the tiers' chances, for the
    combatant a higher tier favours and the one a lower tier favours (``sides``)."""
    if odds is None or landing is None or not 0 <= landing.tier < len(odds.tiers):
        return ()
    high, low = sides
    percentile = mid_percentile([tier.p for tier in odds.tiers], landing.tier)
    out = []
    if high is not None:
        out.append(Luck(high, percentile))
    if low is not None:
        out.append(Luck(low, 1 - percentile))
    return tuple(out)


class Action(Struct, frozen=True):
    """A thing a system lets the user do, offered in the app's menu and command palette.

    Every system has the action "roll" (the ``r`` key). Others are the system's own: a grim
    test, a cede, spending a token...
    """

    id: str
    title: str
    description: str = ""


class Policy(Struct, frozen=True):
    """One way the tracker can play a combatant in solo play (e.g. "take-zero", "aggressive")."""

    id: str
    title: str
    description: str = ""


def policy_among(policies: tuple[Policy, ...], combatant: Combatant[Any]) -> str:
    """The policy ``combatant`` is played by: its own if ``policies`` has it, else the first."""
    if combatant.policy and any(p.id == combatant.policy for p in policies):
        return combatant.policy
    return policies[0].id if policies else ""


class Track(NamedTuple):
    """A combatant's main track, which quick changes move (``:wound NAME N``, ``+`` / ``-``):
    its name, where it stands and its bounds; ``rising``: a higher value is worse (Wounds)."""

    name: str
    value: int
    low: int
    high: int
    rising: bool = False


class Figure(NamedTuple):
    """One number of a combatant's state, under a name (a forecast averages them)."""

    name: str
    value: int


_BARS = " ▮▯"


@cache
def _figure() -> re.Pattern[str]:  # compiled when first asked for, not at every start
    return re.compile(r"(?:([A-Za-z]+) )?([+-]?[0-9]+)(?:/[0-9]+)?")


class Move(Struct, frozen=True):
    """A choice the tracker makes for ``actor_id`` in solo play: a command, and why."""

    actor_id: str
    command: Any
    reason: str


# A command's declared actor (``RuleSystem.command_actors``): it acts for whoever the last roll
# involved (applying its result, spending a token on it...), and names nobody itself.
LAST_ROLL = "<last roll>"
NOTE_SHOWN = 40  # characters of a typed condition name repeated in a note


class RuleSystem(ABC):
    """A resolution system.

    Sheets, commands, events and the system's state are its own msgspec Structs; each
    event, sheet and state type has an explicit tag starting with the system's name (tags
    are the save format: never rename one). The registry finds the system by its folder.
    """

    # --- what the system is (class attributes every system sets) -----------------------------

    name: ClassVar[str]  # the folder's name, and the ``system`` field of its saves
    title: ClassVar[str]
    sheet_types: ClassVar[tuple[type[Struct], ...]]  # the first is a new combatant's default
    event_types: ClassVar[tuple[type[Struct], ...]]
    command_types: ClassVar[tuple[type[Struct], ...]]
    roll_event_types: ClassVar[tuple[type[Struct], ...]]  # events that become the last roll
    stat_columns: ClassVar[tuple[str, ...]]
    uses_turn_order: ClassVar[bool]  # False: every side acts each round; "next" ends it

    # Optional attributes.
    state_type: ClassVar[type[Struct]] = NoState  # per-encounter state (tokens, pots...)
    has_odds: ClassVar[bool] = False  # True: ``odds`` answers the roll dialog exactly
    solo_policies: ClassVar[tuple[Policy, ...]] = ()  # solo play; the first is the default
    damage_unit: ClassVar[str] = "damage"  # what ``damage`` counts, for the fight's summary
    # False: ``out_of_fight`` reads the combatant alone, never the system's state, so a
    # forecast asks again only of the combatants a move changed even where the move changed
    # that state too (an action spent, a mark: most moves; issue 45).
    out_of_fight_reads_state: ClassVar[bool] = True
    # What only the GM does when seats are served (the GM's tokens, every side at once...):
    # commands refused to players, and action ids not offered to them.
    gm_commands: ClassVar[tuple[type[Struct], ...]] = ()
    gm_actions: ClassVar[frozenset[str]] = frozenset()
    # The `:` line's words for a quick change of the main track (``main_track``): worse, then
    # better. ``wound`` and ``heal`` work in every system; these are the system's own.
    track_words: ClassVar[tuple[str, str]] = ("wound", "heal")
    # The actions whose roll becomes the new last roll: the app asks about a consequence
    # still waiting before it opens one of them (see ``pending``).
    roll_actions: ClassVar[tuple[str, ...]] = ("roll",)
    # Whom each command acts for, which a served table checks against a player's seat: the
    # name of the command's field holding the combatant's id (or a tuple of ids), or
    # LAST_ROLL. A command not listed here is the GM's alone.
    command_actors: ClassVar[Mapping[type, str]] = {}
    # The action the ``L`` key opens: the GM's choice on the last roll (Generic d20's
    # Legendary Resistance turns a failed save into a success); "": none.
    overrule_action: ClassVar[str] = ""
    # The system's own styles of log lines (``Span.style``), besides the app's
    # (``tracker/render.py``): a Rich style, where a colour may be a theme's (``$warning``,
    # ``$secondary``...: the app colours it from its theme).
    log_styles: ClassVar[Mapping[str, str]] = {}

    REQUIRED: ClassVar[tuple[str, ...]] = (
        "name",
        "title",
        "sheet_types",
        "event_types",
        "command_types",
        "roll_event_types",
        "stat_columns",
        "uses_turn_order",
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Refused as the class is defined, not when a fight first reads the attribute.
        super().__init_subclass__(**kwargs)
        if missing := [attr for attr in cls.REQUIRED if not hasattr(cls, attr)]:
            raise TypeError(f"{cls.__qualname__} must set {', '.join(missing)} (RuleSystem)")

    def missing(self) -> list[str]:
        """The class attributes of ``REQUIRED`` this system has not set (the registry checks)."""
        return [attr for attr in self.REQUIRED if not hasattr(self, attr)]

    def new_state(self) -> Struct:
        return NoState()

    # --- sheets ----------------------------------------------------------------------------

    @abstractmethod
    def new_sheet(self) -> Any: ...

    @abstractmethod
    def sheet_form(self, sheet: Any) -> list[Field]: ...

    @abstractmethod
    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any: ...

    @abstractmethod
    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...

    def main_track(self, combatant: Combatant[Any]) -> Track | None:
        """The track a quick change moves (LiveHack Wounds, Fatigue Health...), or None when
        the combatant has none (then only its sheet's form changes it). Default: none."""
        return None

    def with_track(self, sheet: Any, value: int) -> Any:
        """The sheet with its main track at ``value`` (within the track's bounds)."""
        raise Rejected(f"{self.title} has no track to change")

    def track_command(self, state: Encounter, combatant: Combatant[Any], steps: int) -> Any:
        """The command that moves ``combatant``'s main track ``steps`` worse (negative:
        better). Default: the core's ``ChangeTrack``; a system with a rule about it (LiveHack
        healing that stabilizes) gives its own."""
        return ChangeTrack(combatant.id, steps)

    def fit_sheet(self, state: Encounter, sheet: Any) -> Any:
        """A sheet being added or edited, completed from the encounter (Beer Run files an
        ability typed without a category); ``Rejected`` when it cannot be. Default: as is."""
        return sheet

    def rolled_on_add(self, state: Encounter, sheet: Any, dice: DiceSource) -> Any:
        """The sheet of a combatant joining the fight, with what is rolled as it joins (hit
        points written as dice), every die kept in the sheet. By default: as it is."""
        return sheet

    def sheet_kinds(self) -> tuple[tuple[str, Any], ...]:
        """Each kind of sheet, blank, under the word a stat block names it by (``kind =
        "challenge"``); the first is ``new_sheet``'s. By default one kind, named ""."""
        return (("", self.new_sheet()),)

    def scaled(self, sheet: Any, factor: float) -> Any | None:
        """The sheet with what a fight wears down (hit points) ``factor`` times as much, as
        now and at most, for a fight tuned to a difficulty (``rules.tune``); None where the
        system has nothing to scale (then a tune adds and removes foes only). Default: None."""
        return None

    def fresh_sheet(self, sheet: Any) -> Any:
        """The sheet as it starts a new fight: damage healed, pools full, what a fight spends
        given back (a party carried over ``--fresh``). By default: as it is."""
        return sheet

    # --- the library: a stat block's figures, its challenge, its preview ---------------------

    def library_columns(self, sheet: Any) -> tuple[tuple[str, str], ...]:
        """A stat block's figures as ``tracker library list`` shows them, (header, value)
        each, the same headers for every sheet of the system. By default the combatants
        pane's columns."""
        return tuple(zip(self.stat_columns, self.sheet_stats(sheet), strict=False))

    def challenge_rating(self, sheet: Any) -> Fraction | None:
        """How dangerous a stat block is as one number (a d20 challenge rating), for the
        library's ``--cr`` filter; None: the system rates none, or this sheet has none."""
        return None

    def preview_lines(self, sheet: Any, target: Combatant[Any] | None) -> tuple[str, ...]:
        """What the library dialog shows of a stat block before it joins: its figures, its
        actions with their odds against ``target`` (the selected combatant; None: none), a
        line each. By default its figures on one line."""
        columns = self.library_columns(sheet)
        return ("  ".join(f"{header} {value}" for header, value in columns if value.strip()),)

    # --- actions: forms described as data, turned into commands ------------------------------

    @abstractmethod
    def actions(self, state: Encounter) -> list[Action]: ...

    @abstractmethod
    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        """The fields of an action's dialog; ``selected`` is the highlighted combatant."""

    @abstractmethod
    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> Any: ...

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        """A line shown live under the dialog as the user types ("" for none)."""
        return ""

    def gm_choice(self, key: str, value: str) -> bool:
        """Whether picking ``value`` in a dialog's field ``key`` is the GM's approval (LiveHack's
        Grim Advantage, a monster's Take Ten): a player's dialog does not offer it. Default:
        no choice is."""
        return False

    def gm_approvals(self, command: Any) -> tuple[str, ...]:
        """What in ``command`` only the GM may approve, named for the refusal a player gets
        (``rules.permissions``); empty when nothing. Default: nothing."""
        return ()

    def default_actor(self, state: Encounter, selected: str | None) -> Combatant[Any] | None:
        """Whom a dialog proposes as acting (its first field's default): by default whoever's
        turn it is, else the highlighted combatant (``selected``), else the first still in
        the fight; None when there is nobody."""
        found = state.current or state.find(selected)
        if found is not None:
            return found
        return next((c for c in state.combatants if not self.out_of_fight(state, c)), None)

    @abstractmethod
    def consequence_command(self, state: Encounter) -> Any:
        """The command that applies the last roll's result (the ``d`` key)."""

    # --- what the last roll leaves to apply ----------------------------------------------------

    def pending(self, state: Encounter) -> str:
        """What the last roll left waiting to be applied, in a few words ("" when nothing
        waits), e.g. "Goblin takes 2 Wounds". The header and the Consequences pane show it
        until it is applied or discarded, and the app asks about it before a new roll or the
        end of a turn would leave it behind. By default: the last roll's consequence while
        ``consequence_command`` would still apply it."""
        if state.last_roll is None or state.last_roll_applied:
            return ""
        try:
            self.decide(state, self.consequence_command(state), ANY_FACE)
        except Rejected:
            return ""
        return "the last roll's consequence"

    def pending_action(self, state: Encounter) -> str:
        """The action whose dialog applies what waits, when it takes the user's choices
        (Pain Pool: the boons a hero's damage crosses off); "" when ``consequence_command``
        applies it alone."""
        return ""

    def follow_up(self, state: Encounter, action: str, command: object = None) -> bool:
        """Whether what waits is a step a roll of ``action`` may carry on rather than leave
        behind (LiveHack: a hit, then its damage roll), so that roll starts without a
        question; with ``command``, whether it is the roll that carries it on (else the app
        asks before it rolls)."""
        return False

    def follows(self, state: Encounter, events: list[Any]) -> list[Any]:
        """What the system's rules make follow of themselves from a core command's events
        that can change what a combatant is (a condition added, a sheet edited, a track
        changed): more events, after them in the same record (``state``: before them).
        Generic d20: a caster stunned by hand stops concentrating. By default nothing."""
        return []

    # --- what a player may see (``rules.visibility``) -----------------------------------------

    def conceal(self, state: Encounter, event: Any, hidden: frozenset[str]) -> Any | None:
        """An event (applied to ``state``) or the last roll as one who may not see the
        ``hidden`` combatants sees it. Asked only of an event that names one of them or comes
        of a roll that does: return a copy without what only their roll could tell (its
        margin, dice, who made it), e.g. the wounds it left on a combatant the reader sees;
        or None to leave it out, the default. A copy that still names a hidden combatant is
        left out too."""
        return None

    def conceal_state(self, state: Encounter, hidden: frozenset[str]) -> Encounter:
        """The encounter (its hidden combatants already gone) without what in the system's
        own state or the sheets names a hidden combatant. By default the system's state
        starts afresh (``new_state``) when anything in it does; a system keeps what it can."""
        if mentions(state.system_state) & hidden:
            return state.update(system_state=self.new_state())
        return state

    def discard(self, state: Encounter) -> Encounter:
        """The state once what waits is set aside unapplied (the core ``ConsequenceDiscarded``
        event): by default the last roll counts as settled."""
        return state.update(last_roll_applied=True)

    # --- rules -----------------------------------------------------------------------------

    @abstractmethod
    def decide(self, state: Encounter, command: Any, dice: DiceSource) -> list[Any]: ...

    @abstractmethod
    def apply(self, state: Encounter, event: Any) -> Encounter: ...

    # --- what the app shows -------------------------------------------------------------------

    @abstractmethod
    def tiers(self, state: Encounter) -> list[Tier]: ...

    @abstractmethod
    def landing(self, state: Encounter) -> Landing | None: ...

    def lands_in(self, state: Encounter, landing: Landing) -> bool:
        """Whether the last roll's value may land in the tier ``landing`` names: by default
        when the value lies in the tier's band. A system whose tiers are more than bands of
        one number says so itself (a d20's natural 20 hits, whatever the total)."""
        tiers = self.tiers(state)
        return 0 <= landing.tier < len(tiers) and tiers[landing.tier].contains(landing.value)

    @abstractmethod
    def describe(self, state: Encounter, event: Any) -> LogEntry: ...

    def alerts(self, state: Encounter, event: Any) -> list[str]:
        """Messages worth a notification for an event, e.g. an Eclipse."""
        return []

    def notices(self, state: Encounter, event: Any) -> list[str]:
        """Every notification for an event: the system's ``alerts``, and for a condition
        just added the ``condition_note`` on how its name is read. What the screen shows."""
        notes = self.alerts(state, event)
        if isinstance(event, ConditionAdded) and (
            note := self.condition_note(event.condition.name)
        ):
            notes.append(note)
        return notes

    def condition_note(self, name: str) -> str:
        """One line on a condition just added whose name the rules do not know, where they
        know some (``condition_names``): a label of the table's own, with no rules effect,
        and the name it is a slip for, if any ("" for a name the rules know). A system that
        reads names its own way (a spelling read as another) says so here."""
        known = self.condition_names()
        shown = " ".join(name.split())[:NOTE_SHOWN]
        if not known or not shown or shown.casefold() in {k.casefold() for k in known}:
            return ""
        meant = slip_for(shown, known)
        guess = f" (did you mean {meant}?)" if meant else ""
        label = "a label with no rules effect"
        return f"{shown} is no condition {self.title}'s rules know: {label}{guess}"

    def status(self, state: Encounter) -> str:
        """Extra text for the header, e.g. token counts ("" for none)."""
        return ""

    def turn_order(self, state: Encounter) -> tuple[Combatant[Any], ...]:
        """Who takes a turn, in the order they take it (``uses_turn_order``; ``n`` passes the
        turn to the next): by default every combatant, as the order lists them (the GM moves
        them). A system may sort them (by initiative) or leave out who takes no turn (who is
        out of the fight); a current combatant left out passes the turn to the first."""
        return state.combatants

    # --- initiative (``uses_turn_order``; see ``rules.initiative``) ---------------------------

    def initiative_dice(self, state: Encounter, combatant: Combatant[Any]) -> str:
        """The dice notation ``combatant`` rolls for initiative (``rules.notation``: a
        constant such as ``"20"`` is a fixed initiative). Default ``"1d20"``; a system adds
        a sheet's bonus (``"1d20+2"``)."""
        return "1d20"

    def initiative_tiebreak(self, combatant: Combatant[Any]) -> tuple[int, ...]:
        """What breaks a tie of initiative, compared highest first (a higher tuple acts
        first; e.g. ``(dexterity,)``). Give every combatant a tuple of the same length (a
        shorter one loses to a longer it begins: ``(-1,)`` for a lair that loses every tie,
        ``(0,)`` for the rest). Default ``()``: tied combatants keep the order they had."""
        return ()

    def initiative_on_add(self, state: Encounter, combatant: Combatant[Any]) -> bool:
        """Whether ``combatant`` rolls its initiative (``initiative_dice``) as it is added,
        and takes its place in the order by it (unless told where). A group added together
        shares one roll. Default False: initiative waits for ``:init``."""
        return False

    def why_no_initiative(self) -> str:
        """Why there is no initiative to roll, in one line ("" when there is one: a system
        with ``uses_turn_order``)."""
        if self.uses_turn_order:
            return ""
        every = "every side acts each round, so nobody rolls initiative"
        return f"{self.title} has no turn order: {every}"

    def cannot_act(self, state: Encounter, combatant: Combatant[Any]) -> str:
        """Why a combatant cannot act now ("" if it can): the turn order marks it with ✗."""
        return ""

    def condition_endings(
        self, state: Encounter
    ) -> tuple[tuple[tuple[str, str], ...], list[Field]]:
        """Ways a condition laid with ``c`` may end beyond the core's durations, as (value,
        label) pairs for its "Lasts" choice, and the fields they need; none by default."""
        return (), []

    def condition_command(
        self, state: Encounter, combatant_id: str, name: str, values: Mapping[str, str]
    ) -> Any | None:
        """The command laying condition ``name`` on ``combatant_id`` that ends as
        ``values["duration"]`` says, one of ``condition_endings``' values, with their fields'
        values (None: a duration of the core's)."""
        return None

    def condition_line(
        self, state: Encounter, combatant_id: str, name: str, words: Sequence[str]
    ) -> Any | None:
        """The command ``:cond NAME CONDITION WORDS...`` gives when ``words`` name one of
        ``condition_endings`` (None: the core reads them as a duration)."""
        return None

    def condition_line_endings(self) -> tuple[str, ...]:
        """How ``condition_line`` reads the words after a condition, each as its usage shows
        it ("save ABILITY DC"): what the ``:cond`` hint lists after the core's durations, its
        first word what completion offers. None by default."""
        return ()

    def condition_names(self) -> tuple[str, ...]:
        """The conditions the rules know by name, each spelling they read ("prone"): a name
        typed close to one but none of them is a slip, asked "did you mean" on the `:` line
        (a name far from all is a label of the table's own). None by default."""
        return ()

    def turn_passing(
        self, state: Encounter, ending: Combatant[Any] | None, following: Combatant[Any]
    ) -> list[Any]:
        """Events as ``ending``'s turn ends and before ``following``'s begins (``state`` is
        still ``ending``'s turn): what the system ties to the end or start of a turn, e.g. a
        condition that lasts until then lifted, or a save it owes marked. None by default."""
        return []

    # The ways a table may play surprise (the ``surprise-way`` option), each an id and what it
    # does in a few words; the first is the default. None by default: one way, the system's.
    surprise_ways: ClassVar[tuple[tuple[str, str], ...]] = ()

    def surprise(
        self, state: Encounter, side: str, way: str, dice: DiceSource
    ) -> tuple[str, list[Any]]:
        """What surprise does to ``side`` as the fight begins (``:surprise SIDE``), played
        ``way`` (one of ``surprise_ways``, "" where there are none): a few words for the log,
        and the events. By default the rules say nothing of surprise: no rules effect."""
        return f"no rules effect ({self.title}'s rules say nothing of surprise)", []

    def reaction_spent(self, state: Encounter, combatant: Combatant[Any]) -> list[Any]:
        """Events as ``combatant`` takes the reaction it readied (``:act``): what the system
        counts of it, e.g. the reaction of an action economy (``Rejected`` when it has none
        left). By default nothing: the rules count no reactions."""
        return []

    def badges(self, state: Encounter, combatant: Combatant[Any]) -> tuple[str, ...]:
        """Short labels for what the sheet does to a combatant now, after its conditions."""
        return ()

    # --- the end of the fight (see ``rules.outcome``) ------------------------------------------

    def out_of_fight(self, state: Encounter, combatant: Combatant[Any]) -> str:
        """Why a combatant is out of the fight, in a word or two ("dead", "fled"...), or ""
        while it still fights. A side with nobody left in the fight has lost it; nobody
        picks one who is out as an actor or a target (solo play, the quick turn). Read from
        the combatant and the system's state alone: a forecast asks again only of a combatant
        a move changed, and of everyone when the system's state changed (``rules.outcome.
        followed``), unless ``out_of_fight_reads_state`` is False."""
        return ""

    def damage(self, state: Encounter, event: Any) -> tuple[Damage, ...]:
        """What an event (applied to ``state``) takes off combatants, and who dealt it."""
        return ()

    def roll_sides(self, state: Encounter, event: Any) -> tuple[str | None, str | None]:
        """For a roll event (``state`` is the state after it): the combatant a higher tier
        favours, and the one a lower tier favours (None: nobody, e.g. nature or a DR)."""
        return None, None

    def roll_luck(self, state: Encounter, event: Any) -> tuple[Luck, ...]:
        """How a roll event (``state`` is the state after it) landed for each combatant it
        favours or hurts, against the exact odds it had: by default the tier it landed in
        (``landing``) among the chances of ``last_odds``, for the sides of ``roll_sides``.
        Nothing without odds."""
        return luck_against(
            self.last_odds(state), self.landing(state), self.roll_sides(state, event)
        )

    # --- exact odds (``has_odds``) -----------------------------------------------------------

    def odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The exact chance of each tier for the roll a dialog describes now, or None."""
        return None

    def last_odds(self, state: Encounter) -> Odds | None:
        """The chances the last roll had, or None."""
        return None

    # --- solo play (see ``rules.solo``) -----------------------------------------------------

    def solo_move(self, state: Encounter) -> Move | None:
        """The next choice a combatant of a solo side must make now, or None."""
        return None

    def solo_fill(
        self, state: Encounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[Move]]:
        """A user's dialog values with the solo combatants' fields chosen by their policies,
        and a Move (its command None) per choice, whose reason is logged."""
        return dict(values), []

    # --- forecasts (see ``rules.forecast``) --------------------------------------------------

    def forecast_move(self, state: Encounter, acted: frozenset[str]) -> Move | None:
        """In a forecast every side is solo; when no solo move waits, what the table does
        next that no policy does (Beer Run: roll the round; Pain Pool: a hero's roll).
        ``acted``: the combatants whose move this was since the turn or round began. None:
        the turn or round ends (``NextTurn``). By default the table only ends turns."""
        return None

    def xp_budget(self, state: Encounter, party: str) -> Budget | None:
        """What the system's own encounter-building table (an XP budget) says of the fight,
        the side ``party`` being the party, to show beside the forecast's difficulty; None
        (the default) when the system has no such table or the sheets lack what it needs."""
        return None

    def exact_wins(self, state: Encounter, rounds: int) -> Mapping[str, float] | None:
        """Each side's chance to win the fight from ``state`` as a forecast plays it (every
        side by its policy, within ``rounds`` rounds), worked out rather than sampled, where
        the system can (a plain duel); None where it cannot, and a tune or the swings play it
        out instead. Default: None."""
        return None

    def end_figures(self, state: Encounter, combatant: Combatant[Any]) -> tuple[Figure, ...]:
        """A combatant's figures worth averaging over many fights (a forecast's expected end
        state), in the system's terms: by default each stat that reads as a number or
        "now/max" (bars aside), its first number, named by the word before it ("Health 7/8")
        or else by its column."""
        stats = self.sheet_stats(combatant.sheet)
        out = []
        for column, text in zip(self.stat_columns, stats, strict=False):
            found = _figure().fullmatch(text.strip(_BARS))
            if found is not None:
                out.append(Figure(found.group(1) or column, int(found.group(2))))
        return tuple(out)

    # --- the library (see ``tracker.library``) -----------------------------------------------

    def convert_stat_blocks(self, data: object) -> Conversion | None:
        """Stat blocks made from another tool's data (parsed JSON, bounded by the reader):
        None when the system reads no data of that shape (the default: none), ``Rejected``
        in one line when it is of its shape but cannot be read whole. ``tracker library
        import`` keeps them in the user's library; a maintainer's ``make srd`` bundles a
        set in the system's folder."""
        return None
