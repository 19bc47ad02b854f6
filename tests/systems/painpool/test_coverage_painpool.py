"""Pain Pool mechanics the coverage table (painpool/rulings.md, "Coverage") found with no test of
their own: several bonus dice in one action (*Maneuvers*), Possibility's flavour (*Dominance*),
and a resolved subplot (*Failure Levels and Damage*, the Impacted Boon)."""

from rules.commands import EditCombatant
from rules.engine import describe
from rules.systems.painpool.events import TakeDamage
from rules.systems.painpool.sheet import HeldBonus
from rules.systems.painpool.system import SYSTEM
from tests.helpers import run
from tests.systems.painpool.challenge import HERO, fight, hero, roll, sheet_of


def test_several_bonus_dice_are_spent_in_one_action() -> None:
    """*Maneuvers*: "Assuming it makes sense, multiple bonus dice can be spent in a single
    action": each adds a die to the pool it is spent on."""
    held = (HeldBonus(name="flanked"), HeldBonus(name="taunted"), HeldBonus(name="mud"))
    history = fight(hero(held=held))
    # Power: attribute, two bonus dice; Precision: attribute, one; Possibility; the Pain Pool.
    faces = [1, 2, 7, 1, 5, 1, 1, 1, 1]
    rolled = roll(history, faces, bonus=((0, "power"), (2, "power"), (1, "precision")))
    assert [p.count for p in rolled.pools] == [3, 2, 1]
    assert [p.kept for p in rolled.pools] == [7, 5, 1]
    assert rolled.pools[0].bonus == ("flanked", "mud")
    assert sheet_of(history).held == ()  # each plain maneuver is exploited once


def test_possibility_dominating_flavours_the_narration() -> None:
    """*Dominance*: "When Possibility dominates the exchange hinges on seized opportunities and
    realized potential"."""
    history = fight()
    before = history.state
    rolled = roll(history, [1, 1, 4, 3, 3, 3])  # Possibility's 4 over Pain's 3
    assert rolled.dominant == "possibility"
    assert "Possibility dominates: seized opportunities" in describe(before, rolled).plain


def test_a_resolved_subplot_lets_the_next_damaged_boon_become_impacted() -> None:
    """*Failure Levels and Damage*: "When the subplot is resolved, the next Boon to take damage
    becomes Impacted": the GM clears the Impacted boon on the sheet, and the next damage
    names a new one."""
    history = fight(hero("Fighting +3d pre; Wits +2d pos", impacted="Fighting"))
    form = {f.key: f.default for f in SYSTEM.sheet_form(sheet_of(history))}
    cleared = SYSTEM.sheet_from_form({**form, "impacted": ""}, sheet_of(history))
    assert cleared.impacted == ""
    run(history, EditCombatant(combatant_id=HERO, sheet=cleared))
    roll(history, [1, 1, 1, 2, 1, 1])  # 3 vs 4: 1 damage
    (event,) = run(history, TakeDamage(hits=(("Wits", 1),)))
    assert event.impacted == "Wits" and sheet_of(history).impacted == "Wits"
