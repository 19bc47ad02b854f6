"""The Pain Pool demo: the Juggernaut on the bridge, mid-challenge, tokens on both sides."""

from __future__ import annotations

from rules.commands import AddCombatant, AddNote, NextTurn
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History

from .events import (
    ApplyOutcome,
    PainPoolRoll,
    SpendDespair,
    TakeDamage,
    damage_targets,
)
from .roll import PainPoolRolled
from .sheet import ChallengeSheet, HeroSheet, parse_boons

STEM = "demo-pain-pool"  # its bundled save: saves/demo-pain-pool.fight (make demo)
BULLET = "Big Gun +3d pow; Uncanny Aim +3d pre; Chink in the Armor +3d pos; Tough +2d pow"
SEED = 314  # chosen so the demo shows a maneuver, boon damage, Despair and Hope
PROFESSOR = "Eidetic Memory +2d pre; Be Prepared +2d pos; Villains of the City +3d pow/pre"


def hero(boons: str, **kw: int) -> HeroSheet:
    return HeroSheet(boons=parse_boons(boons), **kw)  # type: ignore[arg-type]  # the demo's own literal fields


def build() -> History:
    history = History(new_encounter("The Juggernaut's Bridge", "painpool"))
    dice = SeededDice(SEED)

    def run(command: object, label: str) -> None:
        history.commit(decide(history.state, command, dice), label)

    def settle() -> None:
        """Apply the last roll as a table would: tokens off, a bonus die, or boon damage."""
        roll = history.state.last_roll
        assert isinstance(roll, PainPoolRolled)
        if roll.tokens_lost or (roll.kind == "maneuver" and roll.outcome == "success"):
            run(ApplyOutcome(), "apply")
        elif roll.hero_damage:
            due = roll.hero_damage
            hits = []
            for target, room in damage_targets(history.state.combatant(roll.hero_id).sheet):
                hits.append((target, min(room, due)))
                due -= min(room, due)
            run(TakeDamage(hits=tuple(h for h in hits if h[1])), "take damage")

    bullet = hero(BULLET, power=8, precision=6, possibility=4, favor=2)
    professor = hero(PROFESSOR, power=4, precision=8, possibility=6, favor=1)
    juggernaut = ChallengeSheet(pool=7, tokens=8, spiral=3, templates=("tank",))
    run(AddCombatant(name="Bullet", side="heroes", sheet=bullet), "add Bullet")
    run(AddCombatant(name="The Professor", side="heroes", sheet=professor), "add Professor")
    run(AddCombatant(name="Juggernaut", side="challenge", sheet=juggernaut), "add Juggernaut")
    run(AddNote("The Juggernaut blocks the bridge to the Senate.", None), "note")
    maneuver = PainPoolRoll(
        hero_id="c2",
        challenge_id="c3",
        intent="know the armour is weak against kinetic attacks",
        kind="maneuver",
        boons=(("precision", "Eidetic Memory"), ("possibility", "Be Prepared")),
        beneficiary_id="c1",
        sticky=True,
    )
    run(maneuver, "the Professor's maneuver")
    settle()
    attack = PainPoolRoll(
        hero_id="c1",
        challenge_id="c3",
        intent="knock the Juggernaut off the bridge",
        best="it falls into the river",
        good="it staggers back",
        worst="it pins Bullet to the rail",
        boons=(
            ("power", "Big Gun"),
            ("precision", "Uncanny Aim"),
            ("possibility", "Chink in the Armor"),
        ),
        bonus=((0, "power"),) if history.state.combatant("c1").sheet.held else (),
    )
    run(attack, "Bullet attacks")
    rolled = history.state.last_roll
    if rolled is not None and rolled.despair_given:
        run(SpendDespair(), "GM spends Despair")
    settle()
    charge = PainPoolRoll(
        hero_id="c2",
        challenge_id="c3",
        intent="keep the Professor standing as the Juggernaut charges",
        initiator="challenge",
        boons=(("power", "Villains of the City"), ("precision", "Eidetic Memory")),
    )
    run(charge, "the Juggernaut charges")
    settle()
    run(NextTurn(), "the exchange ends")  # no turn order: every side acted, a new round
    return history


def _fields(command: PainPoolRoll) -> dict[str, object]:
    return {name: getattr(command, name) for name in command.__struct_fields__}
