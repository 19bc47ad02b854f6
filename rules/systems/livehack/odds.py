"""LiveHack's exact odds: the margin of an opposed Boon/Bane roll, tier by tier.

A Boon/Bane chain (one d12, rolling again and adding while it shows 12) totals ``12*K + R``:
``K`` the number of 12s, geometric with ``P(K=k) = (11/12)(1/12)^k``, and ``R`` the last die,
uniform on 1..11 and independent of ``K`` (``P(chain = 12k + r) = (1/12)^(k+1)``). A rolling
side adds its boon chain and subtracts its bane chain; taking zero adds 0, taking ten 10.

So the margin (attacker total - defender total) is ``c + Rs + 12*L``: ``c`` the modifiers and
takes, ``Rs`` a finite sum of ``±R`` (computed by convolution), and ``L`` the difference of two
sums of ``n`` geometrics (``n`` the number of rolling sides). ``P(L = l)`` is ``q^|l|`` times a
polynomial in ``|l|`` (``q = 1/12``), so every tail ``P(L >= m)`` is a geometric series with an
exact closed form. See ``docs/contributing/odds.md``. Integers and Fractions only: no truncation.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache

from rules.odds import Odds, TierOdds

from .table import DAMAGE_TABLE, DIE, TAKE_TEN, Take, row_label

Q = Fraction(1, DIE)  # the chance a die explodes
FACES = range(1, DIE)  # the face a chain stops on: 1..11
MISS = "miss"
ECLIPSE_ONE = Q * Q  # one roller's first boon and first bane both 12


def tier_bounds() -> tuple[tuple[str, int | None, int | None], ...]:
    """The tiers as ``LiveHack.tiers`` shows them: a miss, then the damage-table rows."""
    rows: list[tuple[str, int | None, int | None]] = [(MISS, None, -1)]
    for row in DAMAGE_TABLE:
        rows.append((row_label(row), row.low, row.high))
    return tuple(rows)


TIERS = tier_bounds()


# --- the finite part: the last faces of every chain ------------------------------------------


@cache
def face_sum(rollers: int) -> tuple[tuple[int, Fraction], ...]:
    """The distribution of the stopping faces, boons minus banes, of ``rollers`` rolling sides."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    one = Fraction(1, len(FACES))
    for _ in range(rollers):
        for sign in (1, -1):
            step: dict[int, Fraction] = {}
            for value, p in dist.items():
                for face in FACES:
                    key = value + sign * face
                    step[key] = step.get(key, Fraction(0)) + p * one
            dist = step
    return tuple(sorted(dist.items()))


# --- the open-ended part: how many 12s, boons minus banes ------------------------------------


@cache
def twelves_poly(rollers: int) -> tuple[Fraction, ...]:
    """Coefficients ``(a, b)`` with ``P(L = l) = q^|l| * (a + b*|l|)``.

    ``L`` is (geometrics of the boons) minus (geometrics of the banes), ``rollers`` of each.
    One roller: ``P(L=l) = (1-q)^2 q^l sum_t q^2t = (1-q)/(1+q) q^l``. Two rollers: the sum of
    two geometrics is ``P(S=s) = (s+1)(1-q)^2 q^s``, so for ``l >= 0``
    ``P(L=l) = (1-q)^4 q^l sum_t (l+t+1)(t+1) q^2t
    = (1-q)^4 q^l ((l+1)/(1-q^2)^2 + 2q^2/(1-q^2)^3)``.
    """
    q = Q
    if rollers == 0:
        return (Fraction(1), Fraction(0))  # L = 0; only used at l = 0 (see tail)
    if rollers == 1:
        return ((1 - q) / (1 + q), Fraction(0))
    if rollers == 2:
        k = (1 - q) ** 4
        u = 1 / (1 - q * q) ** 2
        v = 2 * q * q / (1 - q * q) ** 3
        return (k * (u + v), k * u)
    raise ValueError("a LiveHack opposed roll has at most two rolling sides")


@cache
def twelves_tail(rollers: int, m: int) -> Fraction:
    """``P(L >= m)``, exactly: ``sum_{l>=m} q^l (a + b l)
    = q^m (a/(1-q) + b (m/(1-q) + q/(1-q)^2))`` for ``m >= 1``; by symmetry below."""
    if rollers == 0:
        return Fraction(1) if m <= 0 else Fraction(0)
    if m <= 0:
        return 1 - twelves_tail(rollers, 1 - m)
    a, b = twelves_poly(rollers)
    q = Q
    return q**m * (a / (1 - q) + b * (m / (1 - q) + q / (1 - q) ** 2))


def _at_least(rollers: int, value: int, offset: int) -> Fraction:
    """``P(offset + 12 L >= value)``: ``L >= ceil((value - offset) / 12)``."""
    return twelves_tail(rollers, -((offset - value) // DIE))


# --- the answer ------------------------------------------------------------------------------


def side_dice(take: Take) -> tuple[int, int]:
    """(rolling sides, fixed dice total) for one side's choice."""
    if take == "roll":
        return 1, 0
    return 0, TAKE_TEN if take == "ten" else 0


@lru_cache(maxsize=4096)
def margin_tiers(rollers: int, offset: int) -> tuple[Fraction, ...]:
    """The chance of each tier of ``offset + (faces) + 12 L`` with ``rollers`` rolling sides."""
    result = []
    for _, low, high in TIERS:
        p = Fraction(0)
        for face, pf in face_sum(rollers):
            base = offset + face
            upper = Fraction(1) if low is None else _at_least(rollers, low, base)
            lower = Fraction(0) if high is None else _at_least(rollers, high + 1, base)
            p += pf * (upper - lower)
        result.append(p)
    return tuple(result)


def margin_probability(rollers: int, offset: int, margin: int) -> Fraction:
    """``P(margin == m)`` exactly (for tests and the docs)."""
    p = Fraction(0)
    for face, pf in face_sum(rollers):
        base = offset + face
        p += pf * (_at_least(rollers, margin, base) - _at_least(rollers, margin + 1, base))
    return p


def eclipse_chance(rollers: int) -> Fraction:
    """Either rolling side's first boon and bane both 12."""
    return 1 - (1 - ECLIPSE_ONE) ** rollers


def opposed_odds(
    attacker: int, defender: int, attacker_take: Take = "roll", defender_take: Take = "roll"
) -> Odds:
    """The odds of an opposed roll: attacker modifier vs defender modifier, each side rolling
    Boon/Bane, taking zero or taking ten. Tiers by margin (attacker - defender; 0 hits)."""
    a_rolls, a_fixed = side_dice(attacker_take)
    d_rolls, d_fixed = side_dice(defender_take)
    rollers = a_rolls + d_rolls
    probabilities = margin_tiers(rollers, attacker + a_fixed - defender - d_fixed)
    tiers = tuple(
        TierOdds(label, low, high, p)
        for (label, low, high), p in zip(TIERS, probabilities, strict=True)
    )
    return Odds(system="livehack", tiers=tiers, extra={"eclipse": eclipse_chance(rollers)})


RESISTED = "resisted"


def grim_tiers(
    tiers: tuple[tuple[str, int | None, int | None], ...],
) -> tuple[tuple[str, int | None, int | None], ...]:
    """A grim test's bands: a tie is the character's (docs/rulings.md, "The grim test"), so
    margin 0 moves from the table's first row to the resisted band."""
    (_, low, _), (_, _, high), *rest = tiers
    first = f"1-{high}" if high is not None else "1+"
    return ((RESISTED, low, 0), (first, 1, high), *rest)


def grim_odds(attacker: int, defender: int, attacker_take: Take, defender_take: Take) -> Odds:
    """The odds of a grim test: the experience's DR "attacks" the character's roll, a tie
    resisted."""
    found = opposed_odds(attacker, defender, attacker_take, defender_take)
    a_rolls, a_fixed = side_dice(attacker_take)
    d_rolls, d_fixed = side_dice(defender_take)
    offset = attacker + a_fixed - defender - d_fixed
    rollers = a_rolls + d_rolls
    tie = margin_probability(rollers, offset, 0)
    bands = grim_tiers(tuple((t.label, t.low, t.high) for t in found.tiers))
    moved = [found.tiers[0].p + tie, found.tiers[1].p - tie, *(t.p for t in found.tiers[2:])]
    tiers = tuple(TierOdds(*band, p) for band, p in zip(bands, moved, strict=True))
    return found._replace(tiers=tiers)


# --- joint actions: the best (Cooperation) or lowest (Chaos) margin against one defender roll --


@cache
def dice_at_least(value: int) -> Fraction:
    """``P(A >= value)`` for one rolling side's dice ``A`` (boon chain minus bane chain)."""
    return sum((pf * _at_least(1, value, face) for face, pf in face_sum(1)), Fraction(0))


@cache
def dice_exactly(value: int) -> Fraction:
    return dice_at_least(value) - dice_at_least(value + 1)


def _elementary(values: list[Fraction]) -> list[Fraction]:
    """``e_0 .. e_n`` of the values (``e_k``: the sum of every product of ``k`` of them)."""
    e = [Fraction(1)] + [Fraction(0)] * len(values)
    for v in values:
        for k in range(len(values), 0, -1):
            e[k] += e[k - 1] * v
    return e


def _components(
    kind: str, mods: tuple[int, ...], y: int, upper: bool, fixed: tuple[bool, ...] = ()
) -> list[Fraction]:
    """``P(best >= y)`` split into parts, part ``k`` shrinking by ``q^k`` for each 12 further
    out (``upper``: towards +infinity, else -infinity). Exact for every ``y``; the scaling
    holds once ``y`` is at least 11 beyond every modifier. A ``fixed`` participant (taking
    zero or ten) is a step: beyond its value its factor is 0 and drops out of every part."""
    n = len(mods)
    steady = fixed or (False,) * n
    # P(c + A >= y), shrinks upwards; for a fixed participant, whether c >= y.
    above = [
        Fraction(c >= y) if f else dice_at_least(y - c) for c, f in zip(mods, steady, strict=True)
    ]
    below = [1 - p for p in above]  # P(c + A < y), shrinks downwards
    parts = [Fraction(0)] * (n + 1)
    if kind == "cooperation":  # the best: 1 - P(everyone below)
        if upper:
            e = _elementary(above)
            for k in range(1, n + 1):
                parts[k] = e[k] if k % 2 else -e[k]
        else:
            parts[0] = Fraction(1)
            parts[n] = -_elementary(below)[n]
    elif upper:  # chaos, the lowest: everyone at or above
        parts[n] = _elementary(above)[n]
    else:
        e = _elementary(below)
        for k in range(n + 1):
            parts[k] = -e[k] if k % 2 else e[k]
    return parts


def _best_at_least(
    kind: str, mods: tuple[int, ...], y: int, fixed: tuple[bool, ...] = ()
) -> Fraction:
    return sum(_components(kind, mods, y, True, fixed), Fraction(0))


@lru_cache(maxsize=1024)
def joint_at_least(
    kind: str, mods: tuple[int, ...], threshold: int, fixed: tuple[bool, ...] = ()
) -> Fraction:
    """``P(chosen margin >= threshold)`` against a rolling defender whose dice ``D`` count
    against everyone: ``sum_d P(D = d) P(best >= threshold + d)``. A window of ``d`` is summed
    term by term; beyond it each part is a geometric series (ratio ``q^(k+1)`` per 12)."""
    reach = max(abs(threshold), *(abs(c) for c in mods)) + 2 * DIE
    total = Fraction(0)
    for d in range(-reach, reach):
        total += dice_exactly(d) * _best_at_least(kind, mods, threshold + d, fixed)
    for start, upper in ((reach, True), (-reach - DIE, False)):
        for d in range(start, start + DIE):
            parts = _components(kind, mods, threshold + d, upper, fixed)
            p = dice_exactly(d)
            for k, part in enumerate(parts):
                if part:
                    total += p * part / (1 - Q ** (k + 1))
    return total


def joint_odds(
    kind: str,
    mods: tuple[int, ...],
    defender: int,
    defender_take: Take = "roll",
    takes: tuple[Take, ...] = (),
) -> Odds:
    """Cooperation (the best margin) or Chaos (the lowest) of participants with modifiers
    ``mods``, each rolling or taking zero or ten (``takes``, all rolling when empty), against
    one defender roll (or its take zero or ten)."""
    d_rolls, d_fixed = side_dice(defender_take)
    sides = [side_dice(t) for t in takes] or [side_dice("roll")] * len(mods)
    shifted = tuple(c + f - defender - d_fixed for c, (_, f) in zip(mods, sides, strict=True))
    fixed = tuple(not r for r, _ in sides) if any(not r for r, _ in sides) else ()

    def at_least(value: int | None) -> Fraction:
        if value is None:
            return Fraction(1)
        if d_rolls:
            return joint_at_least(kind, shifted, value, fixed)
        return _best_at_least(kind, shifted, value, fixed)

    tiers = tuple(
        TierOdds(label, low, high, at_least(low) - (0 if high is None else at_least(high + 1)))
        for label, low, high in TIERS
    )
    rollers = sum(r for r, _ in sides) + d_rolls
    return Odds(system="livehack", tiers=tiers, extra={"eclipse": eclipse_chance(rollers)})
