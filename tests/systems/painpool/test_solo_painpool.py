"""Pain Pool played by the tracker: the GM's challenges and solo heroes, then whole fights."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules import solo
from rules.commands import AddCombatant, EditCombatant, SetPolicy, SetSolo
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, fold_onto, new_encounter
from rules.events import NoteAdded, SoloChose
from rules.history import History
from rules.outcome import outcome
from rules.systems.painpool.events import (
    ApplyOutcome,
    PainPoolRoll,
    PainPoolState,
    SpendDespair,
    SpendHope,
    TakeDamage,
    damage_targets,
)
from rules.systems.painpool.forms import roll_command, roll_form
from rules.systems.painpool.roll import PainPoolRolled
from rules.systems.painpool.sheet import ChallengeSheet, HeroSheet, parse_boons
from rules.systems.painpool.solo import damage_plan, fill, next_move
from rules.systems.painpool.system import SYSTEM
from tests.helpers import notes_in_effect
from tracker.session import EncounterSession

BOONS = "Arm +1d pow; Aim +2d pre; Wit +1d pos; Sing +2d pos"
# Dice in the rules' order: Power 2d8 (Arm), Precision 3d6 (Aim), Possibility 3d4 (Sing, the
# bigger of its two boons), then the Pain Pool's 3d6.
WIN = (7, 1, 5, 3, 1, 3, 2, 2, 2, 2, 1)  # 7 + 5 + 3 = 15 against 5: success by 10
WIN_BY_2 = (3, 1, 3, 2, 1, 2, 1, 1, 2, 2, 2)  # 3 + 3 + 2 = 8 against 6: success by 2
TIE = (3, 1, 3, 2, 1, 2, 1, 1, 3, 3, 2)  # 8 against 8
LOSE_BY_3 = (3, 1, 3, 2, 1, 2, 1, 1, 5, 4, 2)  # 8 against 11: failure by 3


def table(
    *, challenge_policy: str = "steady", tokens: int = 6, pool: int = 3, hero_solo: bool = False
) -> History:
    """Bo (c1, a hero) against the Ogre (c2, a challenge the tracker plays)."""
    history = History(new_encounter("Bridge", "painpool"))
    bo = HeroSheet(boons=parse_boons(BOONS), favor=1)
    run(history, AddCombatant(name="Bo", side="heroes", sheet=bo))
    ogre = ChallengeSheet(pool=pool, tokens=tokens)
    run(history, AddCombatant(name="Ogre", side="challenge", sheet=ogre))
    run(history, SetSolo("challenge"))
    run(history, SetPolicy("c2", challenge_policy))
    if hero_solo:
        run(history, SetSolo("heroes"))
    return history


def run(history: History, command: object, *faces: int) -> None:
    history.commit(decide(history.state, command, ScriptedDice(faces)), type(command).__name__)


def bo_rolls(history: History, faces: tuple[int, ...], hero: str = "c1", **values: str) -> None:
    """A roll from the dialog's defaults: the hero's best boons against the Ogre."""
    defaults = {f.key: f.default for f in roll_form(history.state, hero)}
    run(history, roll_command(history.state, {**defaults, "challenge": "c2", **values}), *faces)


def with_tokens(history: History, despair: int = 0, hope: int = 0):
    return history.state.update(system_state=PainPoolState(despair=despair, hope=hope))


def test_three_policies_steady_first() -> None:
    assert [p.id for p in SYSTEM.solo_policies] == ["steady", "aggressive", "cautious"]
    history = table(challenge_policy="aggressive")
    assert solo.policy_of(history.state, history.state.combatant("c2")) == "aggressive"


# --- the GM's Despair -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "faces", "tokens", "spends"),
    [
        ("steady", WIN_BY_2, 6, True),  # the hero would take tokens off it
        ("steady", TIE, 6, False),
        ("steady", LOSE_BY_3, 6, False),
        ("aggressive", TIE, 6, True),  # the hero is not losing
        ("aggressive", LOSE_BY_3, 6, False),
        ("cautious", WIN_BY_2, 6, False),  # 2 of its 6 tokens: it keeps the token
        ("cautious", WIN_BY_2, 2, True),  # its last 2 tokens
    ],
)
def test_despair_by_policy(policy: str, faces, tokens: int, spends: bool) -> None:
    history = table(challenge_policy=policy, tokens=tokens)
    bo_rolls(history, faces)
    move = next_move(with_tokens(history, despair=1))
    assert (move is not None and move.command == SpendDespair()) is spends


def test_despair_needs_a_token_and_is_spent_once_per_roll() -> None:
    history = table()
    bo_rolls(history, WIN_BY_2)
    assert next_move(history.state) is None  # no token: Bo applies his win himself
    state = with_tokens(history, despair=2)
    move = next_move(state)
    assert move.reason == "spends Despair: Bo would take 2 health tokens off it"
    state = fold_onto(state, decide(state, move.command, ScriptedDice([1, 1, 1])))
    assert next_move(state) is None  # re-rolled already: the win is Bo's to apply


# --- striking back --------------------------------------------------------------------------------


def test_steady_strikes_back_once_the_heros_attack_is_settled() -> None:
    history = table()
    bo_rolls(history, WIN_BY_2, harm="failure")
    assert next_move(history.state) is None  # Bo's to apply
    run(history, ApplyOutcome())
    move = next_move(history.state)
    assert move.actor_id == "c2" and move.reason == "strikes back at Bo (who just acted against it)"
    assert move.command == PainPoolRoll(
        hero_id="c1",
        challenge_id="c2",
        intent="Ogre strikes back",
        initiator="challenge",
        harm="failure",  # the conflict's own stakes
        boons=(("power", "Arm"), ("precision", "Aim"), ("possibility", "Sing")),
        beneficiary_id="c1",  # the dialog's default, unused by an attack
    )
    run(history, move.command, *LOSE_BY_3)
    assert next_move(history.state) is None  # Bo takes the damage; no answer to an answer


def test_a_tie_is_settled_at_once_and_the_challenge_answers() -> None:
    history = table()
    bo_rolls(history, TIE)
    assert next_move(history.state).command.initiator == "challenge"


def test_the_challenge_waits_while_the_hero_has_damage_to_take() -> None:
    history = table()
    bo_rolls(history, LOSE_BY_3)
    assert next_move(history.state) is None
    run(history, TakeDamage(hits=(("Sing", 2), ("Wit", 1))))
    assert next_move(history.state).reason.startswith("strikes back at Bo")


def test_steady_ignores_a_maneuver_aggressive_answers_it_at_the_most_worn_hero() -> None:
    history = table()
    bo_rolls(history, TIE, kind="maneuver")
    assert next_move(history.state) is None
    history = table(challenge_policy="aggressive")
    worn = HeroSheet(boons=parse_boons("Aim +2d pre (damage 1)"))
    run(history, AddCombatant(name="Cy", side="heroes", sheet=worn))
    spent = HeroSheet(boons=parse_boons("Aim +1d pre (damage 1)"))  # out of the fight
    run(history, AddCombatant(name="Di", side="heroes", sheet=spent))
    bo_rolls(history, TIE, kind="maneuver")
    move = next_move(history.state)
    assert move.reason == "strikes back at Cy (the most worn hero)"
    assert move.command.hero_id == "c3" and move.command.boons == (
        ("power", ""),
        ("precision", "Aim"),
        ("possibility", ""),
    )


def test_cautious_only_defends_and_a_passed_challenge_does_nothing() -> None:
    history = table(challenge_policy="cautious")
    bo_rolls(history, TIE)
    assert next_move(history.state) is None
    history = table(tokens=1)
    bo_rolls(history, WIN)
    run(history, ApplyOutcome())
    assert history.state.combatant("c2").sheet.passed
    assert next_move(history.state) is None


# --- a solo hero ----------------------------------------------------------------------------------


def test_a_solo_hero_spends_hope_on_a_failure_then_takes_the_damage() -> None:
    history = table(challenge_policy="cautious", hero_solo=True)
    bo_rolls(history, LOSE_BY_3)
    move = next_move(with_tokens(history, hope=1))
    assert move.actor_id == "c1"
    assert move.command == SpendHope(pools=("power", "precision", "possibility"))
    assert move.reason == "spends Hope on a failure: re-rolls Power, Precision, Possibility"
    move = next_move(history.state)  # no Hope: the damage lands
    assert move.command == TakeDamage(hits=(("Wit", 1), ("Arm", 1), ("Aim", 1)))
    assert move.reason == "takes it on Wit -1, Arm -1, Aim -1 (boons it did not roll first)"


def test_a_solo_hero_applies_its_own_success() -> None:
    history = table(challenge_policy="cautious", hero_solo=True)
    bo_rolls(history, WIN_BY_2)
    move = next_move(history.state)
    assert move.command == ApplyOutcome()
    assert move.reason == "applies its success: 2 health tokens off Ogre"


def test_where_damage_lands_by_policy() -> None:
    history = table()
    bo_rolls(history, LOSE_BY_3)  # rolled with Arm, Aim and Sing; Wit stayed out
    bo: HeroSheet = history.state.combatant("c1").sheet
    roll = structs.replace(history.state.last_roll, raised=-1)  # lost by 4
    assert damage_plan(bo, roll, "steady")[0] == (("Wit", 1), ("Arm", 1), ("Aim", 2))
    assert damage_plan(bo, roll, "aggressive")[0] == (("Wit", 1), ("Aim", 2), ("Sing", 1))
    plan, why = damage_plan(bo, roll, "cautious")
    assert plan == (("Wit", 1), ("Arm", 1), ("Aim", 1), ("Sing", 1))
    assert why.endswith("(boons it did not roll first, a level at a time)")


def test_a_cascade_is_one_target_for_the_plan() -> None:
    history = table()
    talents = HeroSheet(
        boons=parse_boons("Aim +2d pre; Quick +1d pos @Talents; Sly +2d pos @Talents")
    )
    run(history, EditCombatant(combatant_id="c1", sheet=talents))
    bo_rolls(history, (3, 3, 2, 1, 2, 1, 1, 5, 4, 2))  # Sly in Possibility: 3 + 3 + 2 vs 11
    roll = history.state.last_roll
    plan, _ = damage_plan(history.state.combatant("c1").sheet, roll, "steady")
    assert plan == (("Aim", 2), ("Talents", 1))
    run(history, TakeDamage(hits=plan))  # the rules take it as given


def test_take_damage_is_filled_in_as_a_steady_hero_places_it() -> None:
    """The player's dialog offers the steady plan, so Enter takes a fair choice."""
    history = table()
    bo_rolls(history, LOSE_BY_3)  # rolled with Arm, Aim and Sing; Wit stayed out
    state = history.state
    fields = SYSTEM.action_form(state, "damage", None)
    values = {f.key: f.default for f in fields}
    plan, _ = damage_plan(state.combatant("c1").sheet, state.last_roll, "steady")
    command = SYSTEM.action_command(state, "damage", values)
    assert isinstance(command, TakeDamage) and dict(command.hits) == dict(plan)  # sheet order
    assert sum(points for _, points in plan) == state.last_roll.hero_damage
    assert "did not use" in SYSTEM.preview(state, "damage", values)


# --- a user's dialog ------------------------------------------------------------------------------


def test_a_solo_heros_dialog_gets_its_best_boons_and_free_bonus_die() -> None:
    history = table(hero_solo=True)
    bo_rolls(history, WIN, kind="maneuver")
    run(history, ApplyOutcome())  # Bo holds a bonus die
    values = {"hero": "c1", "boon_power": "", "bonus0": ""}
    filled, moves = fill(history.state, "roll", values)
    assert filled["boon_power"] == "Arm" and filled["bonus0"] == "power"
    assert moves[0].reason == "rolls with Arm, Aim, Sing; 1 bonus die on Power"
    run(history, SetPolicy("c1", "cautious"))
    filled, moves = fill(history.state, "roll", values)
    assert filled["bonus0"] == "" and moves[0].reason == "rolls with Arm, Aim, Sing"


def test_a_heros_best_boons_are_worked_out_once_for_the_same_boons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A forecast builds the roll form several times a turn: every combination of the same
    # boons tried once, not each time (a Pain Pool run was a third slower).
    from rules.systems.painpool import forms

    forms._boon_fields.cache_clear()
    searched: list[object] = []
    search = forms.best_boons
    monkeypatch.setattr(forms, "best_boons", lambda usable: searched.append(1) or search(usable))
    history = table()
    first = roll_form(history.state, "c1")
    assert roll_form(history.state, "c1") == first
    assert len(searched) == 1
    assert {f.key: f.default for f in first}["boon_power"] == "Arm"


def test_the_players_hero_is_left_alone() -> None:
    history = table()
    values = {"hero": "c1", "boon_power": ""}
    assert fill(history.state, "roll", values) == (values, [])
    assert fill(history.state, "hope", values) == (values, [])


# --- a whole fight --------------------------------------------------------------------------------


def play(policy: str, seed: int, exchanges: int = 40) -> EncounterSession:
    """A seeded fight where only the player's commands are sent: Bo attacks the Ogre, then
    applies his wins and takes his damage down the sheet; the tracker plays the Ogre."""
    history = table(challenge_policy=policy, tokens=10, pool=5)
    session = EncounterSession(history, SeededDice(seed))
    for _ in range(exchanges):
        if session.state.combatant("c2").sheet.passed:
            break
        defaults = {f.key: f.default for f in roll_form(session.state, "c1")}
        session.execute(roll_command(session.state, {**defaults, "intent": "smash"}))
        settle(session)
        settle(session)  # the Ogre's answer, if it struck back
    return session


def settle(session: EncounterSession) -> None:
    state = session.state
    roll = state.last_roll
    if not isinstance(roll, PainPoolRolled) or state.last_roll_applied:
        return
    if roll.tokens_lost:
        session.execute(ApplyOutcome())
    elif roll.hero_damage and (targets := damage_targets(state.combatant("c1").sheet)):
        due, hits = roll.hero_damage, []
        for target, room in targets:
            hits.append((target, min(room, due)))
            due -= min(room, due)
        session.execute(TakeDamage(hits=tuple(h for h in hits if h[1])))


@pytest.mark.parametrize("policy", ["steady", "aggressive", "cautious"])
def test_a_seeded_solo_fight_runs_until_the_challenge_is_passed(policy: str) -> None:
    session = play(policy, seed=21)
    assert session.state.combatant("c2").sheet.passed
    assert outcome(session.state).headline == "Fight over: heroes won"
    chose = [
        event
        for record in session.history.applied_in_effect()
        for event in record.events
        if isinstance(event, SoloChose)
    ]
    assert all(c.combatant_id == "c2" and c.policy == policy for c in chose)
    why = [c.reason for c in chose]
    assert any(r.startswith("spends Despair: Bo ") for r in why)
    struck = any(r.startswith("strikes back at Bo") for r in why)
    assert struck is (policy != "cautious")


@pytest.mark.parametrize("policy", ["steady", "aggressive", "cautious"])
def test_no_policy_ever_asks_for_what_the_rules_refuse(policy: str) -> None:
    for seed in range(1, 16):
        session = play(policy, seed)
        notes = notes_in_effect(session.history)
        assert notes == [], f"seed {seed}: {notes}"


def test_with_both_sides_solo_one_roll_plays_out_and_stops() -> None:
    session = EncounterSession(table(hero_solo=True), SeededDice(3))
    defaults = {f.key: f.default for f in roll_form(session.state, "c1")}
    values, moves = solo.fill(session.state, "roll", {**defaults, "intent": "smash"})
    session.execute(roll_command(session.state, values), choices=moves)
    events = session.history.applied_in_effect()[-1].events
    assert isinstance(events[0], SoloChose) and events[0].reason.startswith("rolls with Arm")
    rolls = [e for e in events if isinstance(e, PainPoolRolled)]
    assert [r.initiator for r in rolls] == ["hero", "challenge"]  # the answer, then no more
    assert session.state.last_roll_applied or next_move(session.state) is None
    assert not any(isinstance(e, NoteAdded) for e in events)
