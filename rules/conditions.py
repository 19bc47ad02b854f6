"""Conditions and how long they last."""

from typing import Literal

from msgspec import Struct

DurationKind = Literal["until-removed", "end-of-next-turn", "end-of-round", "rounds"]


class Duration(Struct, frozen=True):
    """How long a condition lasts, as the user chose it."""

    kind: DurationKind = "until-removed"
    rounds: int = 0

    def describe(self) -> str:
        match self.kind:
            case "until-removed":
                return "until removed"
            case "end-of-next-turn":
                return "until the end of its next turn"
            case "end-of-round":
                return "until the end of the round"
            case "rounds":
                return f"for {self.rounds} round{'s' if self.rounds != 1 else ''}"


class Expiry(Struct, frozen=True):
    """When a condition ends: at the end of ``round``, or of ``actor_id``'s turn in it.

    An actor-bound expiry also ends at the end of its round, so a bearer whose turn
    never came (removed from the order, say) does not keep the condition forever.
    """

    round: int
    actor_id: str | None = None


class Condition(Struct, frozen=True):
    name: str
    duration: Duration = Duration()
    expires: Expiry | None = None

    def time_left(self, round_: int) -> str:
        """Its time left in ``round_``, in a few cells: "2r" (rounds, this one counted), "1t"
        (until the end of its bearer's next turn), "" (until removed)."""
        if self.expires is None:
            return ""
        if self.expires.actor_id is not None:
            return "1t"
        return f"{max(self.expires.round - round_ + 1, 0)}r"

    def ends_with_turn(self, actor_id: str, round_: int) -> bool:
        e = self.expires
        return e is not None and e.actor_id == actor_id and e.round <= round_

    def ends_with_round(self, round_: int) -> bool:
        return self.expires is not None and self.expires.round <= round_
