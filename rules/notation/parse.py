"""Read a line of dice notation into a tree (``rules.notation.tree``), bounded, or refuse it
with one line that names the part and what was expected.

The grammar is avrae/d20's: comparisons below ``+ -``, below ``* / // %``, below signs; an
atom is a number, dice (``4d6kh3``, ``d%``) or a set in parentheses with its operations, and
any atom may carry labels in brackets. On purpose the tracker differs where dice bots
disagree: a bare number after ``k`` or ``p`` (``4d6k3``) is refused by name, ``!`` explodes
into one die's chain (as before), and ``c`` counts the dice that match (docs/reference/dice.md).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

from rules.errors import Rejected
from rules.notation.faces import support
from rules.notation.tree import (
    COMPARISONS,
    MAX_DEPTH,
    MAX_DICE,
    MAX_ITEMS,
    MAX_LABEL,
    MAX_NUMBER,
    MAX_OPS,
    MAX_PARTS,
    MAX_SIDES,
    MAX_TEXT,
    Binary,
    Dice,
    Group,
    Node,
    Number,
    Op,
    Paren,
    Selector,
    Unary,
)
from rules.text import is_inert

EXAMPLES = "like 2d6+3, 4d6kh3, 1d20ro1+5, (1d8+4)*2, 6d10c>=8, 1d20+5 >= 15"
# What a term may start with. The bracket is quoted, as every character a refusal names is:
# bare, "... or (" at the end of a refusal read as a line cut short.
TERM_START = "a number, dice like 2d6, or '('"
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Compiled when a line is first read, not as the module loads (every start loads it).
_NUMBER = r"[0-9]*(?:\.[0-9]*)?"
_DIGITS = r"[0-9]*"
_OPERATION = r"(rr|ro|ra|mi|ma|k|p|e|c)(h|l|<|>|=)?[0-9]"
_SELECTOR = r"(h|l|<=|>=|<|>|=)?([0-9]*)"
_pattern = cache(re.compile)
DICE_OPS = ("rr", "ro", "ra", "mi", "ma", "k", "p", "e", "c")
SET_OPS = ("k", "p", "c")
_NEVER_MERGED = ("mi", "ma")  # as d20: each minimum or maximum applies on its own


def parse(text: str) -> Node:
    """The tree a line writes; ``Rejected`` with one line when it cannot be read."""
    if len(text) > MAX_TEXT:
        raise Rejected(f"dice notation is at most {MAX_TEXT} characters")
    if not is_inert(text):
        raise Rejected("dice notation cannot hold control characters")
    text = text.replace("≥", ">=").replace("≤", "<=").strip()
    if not text:
        raise Rejected(f"type some dice, {EXAMPLES}")
    reader = _Reader(text)
    node = reader.comparison()
    reader.skip()
    if reader.at < len(text):
        reader.leftover()
    return node


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.low = text.translate(_LOWER)
        self.at = 0
        self.depth = 0
        self.parts = 0
        self.dice_count = 0

    # --- helpers ----------------------------------------------------------------------------

    def skip(self) -> None:
        while self.at < len(self.low) and self.low[self.at] == " ":
            self.at += 1

    def peek(self, *options: str) -> str:
        for option in options:
            if self.low.startswith(option, self.at):
                return option
        return ""

    def here(self) -> str:
        """Where reading stopped: the text from there (``refuse`` words the end itself)."""
        return repr(self.text[self.at :].strip()[:20])

    def refuse(self, expected: str) -> Rejected:
        if not self.text[self.at :].strip():
            return Rejected(f"{self.text.strip()[:20]!r} ends too soon: expected {expected}")
        return Rejected(f"cannot read dice at {self.here()}: expected {expected}")

    def part(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise Rejected(f"at most {MAX_PARTS} numbers, dice and operators at once")

    def leftover(self) -> None:
        rest = self.text[self.at :].strip()
        if _pattern(_OPERATION).match(rest.translate(_LOWER)):
            raise Rejected(
                f"cannot read dice at {self.here()}: an operation goes right after its dice, "
                "with no space (4d6kh3)"
            )
        if rest[0].isalpha():
            foreign(rest.translate(_LOWER))
            word = rest.split()[0]
            raise Rejected(
                f"cannot read dice at {self.here()}: a label goes in brackets, "
                f"e.g. 2d6 [{word[:MAX_LABEL]}]"
            )
        if rest[0] == ")":
            raise Rejected(f"cannot read dice at {self.here()}: this ')' closes no '('")
        raise Rejected(
            f"cannot read dice at {self.here()}: join terms with + - * / // % or a comparison"
        )

    # --- precedence climbing ------------------------------------------------------------------

    def comparison(self) -> Node:
        left = self.additive()
        while True:
            self.skip()
            op = self.peek(*COMPARISONS)
            if not op:
                return left
            self.at += len(op)
            self.part()
            left = Binary(op, left, self.additive())

    def additive(self) -> Node:
        left = self.multiplicative()
        while True:
            self.skip()
            op = self.peek("+", "-")
            if not op:
                return left
            self.at += 1
            self.part()
            left = Binary(op, left, self.multiplicative())

    def multiplicative(self) -> Node:
        left = self.unary()
        while True:
            self.skip()
            op = self.peek("//", "*", "/", "%")
            if not op:
                return left
            self.at += len(op)
            self.part()
            left = Binary(op, left, self.unary())

    def unary(self) -> Node:
        signs: list[str] = []
        while True:
            self.skip()
            sign = self.peek("+", "-")
            if not sign:
                break
            signs.append(sign)
            self.at += 1
            if len(signs) + self.depth > MAX_DEPTH:
                raise Rejected(f"at most {MAX_DEPTH} signs and parentheses inside each other")
        node = self.atom()
        for sign in reversed(signs):
            node = Unary(sign, node)
        return node

    def atom(self) -> Node:
        self.skip()
        self.part()
        node: Number | Dice | Group | Paren
        if self.peek("("):
            node = self.group()
        elif self.at < len(self.low) and (self.low[self.at] in "0123456789.d"):
            node = self.number_or_dice()
        else:
            raise self.refuse(TERM_START)
        labels = self.labels()
        return node._replace(labels=node.labels + labels) if labels else node

    def labels(self) -> tuple[str, ...]:
        found: list[str] = []
        while True:
            self.skip()
            if not self.peek("["):
                return tuple(found)
            end = self.text.find("]", self.at)
            if end < 0:
                raise Rejected(f"cannot read dice at {self.here()}: a label ends with ']'")
            label = " ".join(self.text[self.at + 1 : end].split())
            if len(label) > MAX_LABEL:
                raise Rejected(f"a label is at most {MAX_LABEL} characters")
            found.append(label)
            self.at = end + 1

    # --- atoms ----------------------------------------------------------------------------------

    def number_or_dice(self) -> Number | Dice:
        start = self.at
        found = _pattern(_NUMBER).match(self.low, self.at)
        digits = found.group(0) if found else ""
        self.at += len(digits)
        if self.peek("d") and "." not in digits:
            return self.dice(start, digits)
        if digits in ("", "."):
            raise self.refuse(TERM_START)
        if len(digits) > 12:
            raise Rejected(f"a number is at most {MAX_NUMBER:,}")
        value: int | Fraction = Fraction(digits) if "." in digits else int(digits)
        if value > MAX_NUMBER:
            raise Rejected(f"a number is at most {MAX_NUMBER:,}, not {digits}")
        return Number(value if value != int(value) else int(value), digits)

    def dice(self, start: int, digits: str) -> Dice:
        self.at += 1  # the d
        if len(digits) > 6:
            raise Rejected(f"at most {MAX_DICE} dice at once")
        count = int(digits) if digits else 1
        percent = bool(self.peek("%"))
        found = _pattern(_DIGITS).match(self.low, self.at)
        sides_text = "%" if percent else (found.group(0) if found else "")
        if not percent and not sides_text:
            if self.peek("f"):
                raise Rejected(
                    f"{self.text[start : self.at]}F: Fudge dice are not in this notation: "
                    "each is -1, 0 or +1, so 4dF is 4d3-8"
                )
            raise self.refuse("the number of sides after d, e.g. d6 or d%")
        self.at += len(sides_text)
        written = self.text[start : self.at]
        sides = 10 if percent else (int(sides_text) if len(sides_text) < 7 else MAX_SIDES + 1)
        if count > MAX_DICE:
            raise Rejected(f"{written}: roll 0 to {MAX_DICE} dice, not {count:,}")
        if not 1 <= sides <= MAX_SIDES:
            raise Rejected(f"{written}: a die has 1 to {MAX_SIDES:,} sides, not {sides_text}")
        self.dice_count += count
        if self.dice_count > MAX_DICE:
            raise Rejected(f"at most {MAX_DICE} dice at once, not {self.dice_count}")
        explode = bool(self.peek("!"))
        self.at += explode
        if explode and self.peek("!"):
            raise Rejected(
                "'!!' (Roll20's compounding) is not in this notation: '!' already adds a die's "
                "explosions into it (6+6+2)"
            )
        dice = Dice(count, sides, percent, explode)
        ops = self.operations(DICE_OPS, written + ("!" if explode else ""))
        checked = dice._replace(ops=ops)
        _check_stops(checked)
        return checked

    def group(self) -> Dice | Group | Paren:
        self.at += 1  # the (
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Rejected(f"at most {MAX_DEPTH} signs and parentheses inside each other")
        items: list[Node] = []
        trailing = False
        self.skip()
        while not self.peek(")"):
            items.append(self.comparison())
            if len(items) > MAX_ITEMS:
                raise Rejected(f"a set holds at most {MAX_ITEMS} values")
            self.skip()
            if self.peek(","):
                self.at += 1
                self.skip()
                trailing = True
                continue
            trailing = False
            if not self.peek(")"):
                raise self.refuse("',' or ')'")
        self.at += 1
        self.depth -= 1
        ops = self.operations(SET_OPS, "the set")
        if len(items) == 1 and not trailing:
            inner = items[0]
            if isinstance(inner, Dice | Group):
                if ops and inner.ops and inner.ops[-1].name == "c":
                    raise Rejected("'c' counts the dice, so it comes last")
                return inner._replace(ops=inner.ops + ops, wraps=(*inner.wraps, len(inner.ops)))
            if not ops:
                return Paren(inner)
        return Group(tuple(items), ops)

    # --- operations -----------------------------------------------------------------------------

    def operations(self, allowed: tuple[str, ...], after: str) -> tuple[Op, ...]:
        ops: list[Op] = []
        while True:
            name = self.peek(*DICE_OPS)
            if name == "c" and self.peek("cs", "cf"):
                foreign(self.low[self.at :])
            if not name:
                break
            if name not in allowed:
                raise Rejected(
                    f"'{name}' works on dice, not on a set: write it after the dice, "
                    f"e.g. 1d6{name}1"
                )
            if ops and ops[-1].name == "c":
                raise Rejected("'c' counts the dice, so it comes last")
            self.at += len(name)
            selector = self.selector(name)
            if ops and ops[-1].name == name and name not in _NEVER_MERGED:
                ops[-1] = Op(name, (*ops[-1].selectors, selector))
            else:
                ops.append(Op(name, (selector,)))
            if sum(len(op.selectors) for op in ops) > MAX_OPS:
                raise Rejected(f"at most {MAX_OPS} operations after {after}")
        if self.at < len(self.low) and self.low[self.at].isalpha():
            foreign(self.low[self.at :])
            raise Rejected(
                f"cannot read dice at {self.here()}: after {after} comes an operation "
                "(k p rr ro ra e mi ma c), a label in brackets, an operator or the end"
            )
        return tuple(ops)

    def selector(self, op: str) -> Selector:
        found = _pattern(_SELECTOR).match(self.low, self.at)
        kind, digits = (found.group(1) or "", found.group(2)) if found else ("", "")
        examples = {"mi": "mi2", "ma": "ma5", "k": "kh3", "p": "pl1", "c": "c>=8", "e": "e6"}
        example = examples.get(op, op + "<3")
        if not digits:
            needs = "a number" if op in ("mi", "ma") else "a selector"
            raise Rejected(f"'{op}' needs {needs}, e.g. {example}")
        self.at = found.end() if found else self.at
        if len(digits) > 7:
            raise Rejected(f"'{op}{kind}': a number is at most {MAX_NUMBER:,}")
        number = int(digits)
        written = f"{op}{kind}{digits}"
        if op in ("mi", "ma") and kind:
            raise Rejected(f"'{written}': '{op}' takes a plain number, e.g. {example}")
        if op in ("k", "p", "c") and not kind:
            raise Rejected(f"'{written}' is read differently by dice bots {_BARE[op](digits)}")
        if op in ("rr", "e", "c") and kind in ("h", "l"):
            what = "count" if op == "c" else "never stop"
            raise Rejected(f"'{written}' would {what}: '{op}' takes a number, <N, >N, <=N or >=N")
        return Selector(kind or "=", number)


# Other dice bots' notation a GM may type, refused by name with this notation's way to say it.
_FOREIGN = (
    (r"(adv|advantage)\b", "advantage is written 2d20kh1"),
    (r"(dis|disadvantage)\b", "disadvantage is written 2d20kl1"),
    (r"c[sf]", "'cs' and 'cf' (Roll20's critical range) are not in this notation"),
    (
        r"r(<|>|=|[0-9])",
        "'r' is Roll20's reroll: write rr1 to reroll until it is not 1, or ro1 to reroll once",
    ),
)


def foreign(rest: str) -> None:
    """Refuse, by name, another dice bot's way of writing what follows (lower case)."""
    for pattern, said in _FOREIGN:
        if _pattern(pattern).match(rest):
            raise Rejected(said)


_BARE = {
    "k": lambda n: (
        f"(d20 keeps the dice showing {n}, Roll20 the {n} highest): write kh{n} for the {n} "
        f"highest, or k={n} for the dice showing {n}"
    ),
    "p": lambda n: (
        f"(d20 drops the dice showing {n}, others the {n} lowest): write pl{n} or ph{n} for "
        f"the {n} lowest or highest, or p={n} for the dice showing {n}"
    ),
    "c": lambda n: (
        f"(Roll20 counts {n} or more, others the dice showing {n}): write c>={n} for {n} or "
        f"more, or c={n} for the dice showing {n}"
    ),
}


def _check_stops(dice: Dice) -> None:
    """A reroll or an explosion that every face matches would go on for ever: refused."""
    faces = support(dice)
    for op in dice.ops:
        if op.name not in ("rr", "e"):
            continue
        if all(any(s.matches(f) for s in op.selectors) for f in faces):
            die = "d%" if dice.percent else f"d{dice.sides}"
            verb = "rerolls" if op.name == "rr" else "explodes"
            raise Rejected(f"'{op.text}' {verb} every face of a {die}: it would never stop")
