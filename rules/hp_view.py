"""Hit points as a seat sees them: per side exact, a band (healthy, bloodied under half,
down) or hidden, as the GM sets it (``:hp foes band``; the ``hp-view`` table option).

Enforced where a seat's view is made (``rules.visibility.strip``): a combatant of a side
not shown exactly reaches the seat with its main track (``RuleSystem.main_track``: hit
points, Wounds, Health...) set to its best, and its band (or "hidden") in ``hp_shown``; every
stat column that reads the track shows that word instead (``shown_stats``). The GM's view is
never veiled. A seat's log reads the states before its events: each is veiled by the mode
of its time and by the mode now (``also``), so a band set later hides the numbers of the
lines already there too (and a line made under a band keeps none once the side is exact).
"""

from __future__ import annotations

from typing import Any

from msgspec import structs

from rules.encounter import AnyEncounter, Combatant
from rules.errors import Rejected
from rules.registry import get_system
from rules.system import RuleSystem

HEALTHY, BLOODIED, DOWN, HIDDEN = "healthy", "bloodied", "down", "hidden"


Views = tuple[tuple[str, str], ...]  # (side, mode) pairs, as ``TableOptions.hp_views``


def mode_of(state: AnyEncounter, side: str, also: Views = ()) -> str:
    """How ``side``'s hit points are shown in ``state``; where exact, as ``also`` says (the
    mode now, for a state of the past)."""
    mode = next((m for s, m in state.options.hp_views if s == side), "exact")
    if mode == "exact":
        mode = next((m for s, m in also if s == side), "exact")
    return mode


def band(system: RuleSystem, state: AnyEncounter, combatant: Combatant[Any]) -> str:
    """Healthy, bloodied (under half its best) or down (out of the fight, or at its worst);
    "" for one without a main track and still fighting (nothing to band)."""
    if system.out_of_fight(state, combatant):
        return DOWN
    track = system.main_track(combatant)
    if track is None:
        return ""
    span = track.high - track.low
    left = track.high - track.value if track.rising else track.value - track.low
    if left <= 0:
        return DOWN
    return BLOODIED if 2 * left < span else HEALTHY


def veiled(
    system: RuleSystem, state: AnyEncounter, combatant: Combatant[Any], also: Views = ()
) -> Combatant[Any]:
    """The combatant as a seat sees it under its side's mode (see ``mode_of``): exact as it
    is; else its track at its best (no number left that tells where it stands) and the word
    shown for it."""
    mode = mode_of(state, combatant.side, also)
    if mode == "exact":
        return combatant
    track = system.main_track(combatant)
    word = band(system, state, combatant) if mode == "band" else HIDDEN
    if track is None:
        # No track to set (Generic d20's dead have none): its stats may still tell one.
        return structs.replace(combatant, hp_shown=word) if word else combatant
    sheet = system.with_track(combatant.sheet, track.low if track.rising else track.high)
    return structs.replace(combatant, sheet=sheet, hp_shown=word)


def veil(state: AnyEncounter, also: Views = ()) -> AnyEncounter:
    """The encounter with every combatant of a side not shown exactly veiled (``also``: the
    modes now, for a state of the past: see ``mode_of``)."""
    if not state.options.hp_views and not also:
        return state
    system = get_system(state.system)
    shown = tuple(veiled(system, state, c, also) for c in state.combatants)
    return state.update(combatants=shown)


def track_columns(system: RuleSystem, combatant: Combatant[Any]) -> frozenset[int]:
    """The stat columns that read the main track: those that change as it goes from its
    worst to its best (for one without a track now, Generic d20's dead, as if it had one)."""
    track = system.main_track(combatant)
    sheet = combatant.sheet
    if track is None:
        try:
            sheet = system.with_track(sheet, 1)
        except Rejected:
            return frozenset()
        track = system.main_track(structs.replace(combatant, sheet=sheet))
        if track is None:
            return frozenset()
    # A track with no room (Generic d20's maximum drained to 0) still has its columns.
    top = track.high if track.high != track.low else track.low + 1
    low = system.sheet_stats(system.with_track(sheet, track.low))
    high = system.sheet_stats(system.with_track(sheet, top))
    return frozenset(i for i, (a, b) in enumerate(zip(low, high, strict=False)) if a != b)


def shown_stats(system: RuleSystem, combatant: Combatant[Any]) -> tuple[str, ...]:
    """Its stats as the reader may see them: a veiled combatant's track columns say its band
    (or "hidden") in place of any number."""
    stats = tuple(system.sheet_stats(combatant.sheet))
    if not combatant.hp_shown:
        return stats
    columns = track_columns(system, combatant)
    return tuple(combatant.hp_shown if i in columns else s for i, s in enumerate(stats))


def fallen(before: AnyEncounter, after: AnyEncounter) -> list[str]:
    """What a seat is told of a veiled combatant that went down between two of its views
    ("Goblin is dead"): the system's own alert reads numbers the veil has set aside."""
    if not before.options.hp_views and not after.options.hp_views:
        return []
    system = get_system(after.system)
    out = []
    for combatant in after.combatants:
        was = before.find(combatant.id)
        if combatant.hp_shown == DOWN and was is not None and was.hp_shown not in (DOWN, ""):
            out.append(f"{combatant.name} is {system.out_of_fight(after, combatant) or DOWN}")
    return out
