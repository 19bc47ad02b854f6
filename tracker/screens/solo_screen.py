"""The "Solo play" dialog (``S``): which sides the tracker plays, and each NPC's policy."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from rules import solo
from rules.commands import SetPolicy, SetSolo
from rules.encounter import AnyEncounter
from rules.errors import Rejected
from rules.registry import get_system
from tracker.session import EncounterSession
from tracker.widgets.choice import Choice

BY = (("you", "played by you"), ("tracker", "⚙ played by the tracker"))


@dataclass
class SoloChoices:
    """What the dialog was left at: each side on or off, each combatant's policy."""

    sides: dict[str, bool] = field(default_factory=dict)
    policies: dict[str, str] = field(default_factory=dict)


def sides_of(state: AnyEncounter) -> list[str]:
    return list(dict.fromkeys(c.side for c in state.combatants))


class SoloScreen(ModalScreen[SoloChoices | None]):
    """↑/↓ or Tab move, ←/→ change, Enter applies, Esc cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="solo.cancel"),
        Binding("enter", "apply", "Apply", id="solo.apply"),
        Binding(
            "down,tab", "app.focus_next", "Next", show=False, priority=True, id="solo.focus_next"
        ),
        Binding(
            "up,shift+tab",
            "app.focus_previous",
            "Previous",
            show=False,
            priority=True,
            id="solo.focus_previous",
        ),
    ]

    def __init__(self, state: AnyEncounter) -> None:
        super().__init__()
        self.state = state
        self.sides = sides_of(state)
        self.policies = get_system(state.system).solo_policies

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Solo play: the tracker plays a side", style="bold"))
            if not self.policies:
                yield Static(Text("This system has no solo policies yet."))
            with VerticalScroll(id="fields"):
                for index, side in enumerate(self.sides):
                    with Horizontal(classes="row"):
                        yield Label(Text(f"Side {side}"), classes="label")
                        on = "tracker" if side in self.state.solo_sides else "you"
                        yield Choice(BY, on, id=f"side-{index}")
                options = tuple((p.id, p.title) for p in self.policies)
                for combatant in self.state.combatants:
                    row = Horizontal(classes="row policy", id=f"row-{combatant.id}")
                    row.display = combatant.side in self.state.solo_sides
                    with row:
                        yield Label(Text(f"  ⚙ {combatant.name}"), classes="label")
                        policy = solo.policy_of(self.state, combatant)
                        yield Choice(options, policy, id=f"policy-{combatant.id}")
            yield Static("", id="preview")
            yield Static(Text("←/→ change · ↑/↓ move · Enter applies · Esc cancels", "dim"))

    def on_mount(self) -> None:
        first = self.query_one_optional(Choice)
        if first is not None:
            first.focus()
            self._describe(first)

    def on_choice_changed(self, event: Choice.Changed) -> None:
        choice_id = event.choice.id or ""
        if choice_id.startswith("side-"):
            side = self.sides[int(choice_id.removeprefix("side-"))]
            for combatant in self.state.combatants:
                if combatant.side == side:
                    self.query_one(f"#row-{combatant.id}").display = event.value == "tracker"
        self._describe(event.choice)

    def on_descendant_focus(self, event: object) -> None:
        if isinstance(self.focused, Choice):
            self._describe(self.focused)

    def _describe(self, choice: Choice) -> None:
        """Under the list: what the focused policy does."""
        policy = next((p for p in self.policies if p.id == choice.value), None)
        if policy is not None:
            text = f"{policy.title}: {policy.description}"
        elif choice.value == "tracker":
            text = "The tracker makes this side's choices, each by its combatant's policy"
        else:
            text = "You make this side's choices"
        self.query_one("#preview", Static).update(Text(text, style="italic"))

    def choices(self) -> SoloChoices:
        out = SoloChoices()
        for index, side in enumerate(self.sides):
            out.sides[side] = self.query_one(f"#side-{index}", Choice).value == "tracker"
        for combatant in self.state.combatants:
            out.policies[combatant.id] = self.query_one(f"#policy-{combatant.id}", Choice).value
        return out

    def action_apply(self) -> None:
        self.dismiss(self.choices())

    def action_cancel(self) -> None:
        self.dismiss(None)


def apply_choices(
    session: EncounterSession, chosen: SoloChoices | None, warn: Callable[[str], object]
) -> None:
    """Run what the dialog was left at: a policy first, so a side turned on plays by it."""
    if chosen is None:
        return
    try:
        for cid, policy in chosen.policies.items():
            combatant = session.state.find(cid)
            if combatant is not None and policy != solo.policy_of(session.state, combatant):
                session.execute(SetPolicy(cid, policy), f"policy {combatant.name}")
        for side, on in chosen.sides.items():
            session.execute(SetSolo(side, on), f"solo {side}")
    except Rejected as exc:
        warn(exc.message)
