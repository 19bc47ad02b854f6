"""The encounter screen's own keys: the ``:`` line, the palette's list, help, quit."""

from __future__ import annotations

from typing import ClassVar

from textual.actions import parse
from textual.binding import Binding

from tracker.screens.encounter_keys.area import Area
from tracker.widgets.combatants import CombatantsPane


class ScreenKeys(Area):
    """``:``, ``z``, ``?``, ``q``."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("colon", "command_line", "Command line", id="encounter.command_line"),
        Binding(
            "z",
            "zoom",
            "Zoom the pane (the whole screen, and back)",
            show=False,
            id="encounter.zoom",
        ),
        Binding("question_mark", "help", "Help", id="encounter.help"),
        Binding("q", "quit", "Quit", id="encounter.quit"),
    ]
    # Players' lines run as their keys do: the session refuses what is not theirs.
    PLAYERS = frozenset({"command_line", "help", "quit", "zoom"})
    SPECTATORS = frozenset({"help", "quit", "zoom"})

    def action_command_line(self) -> None:
        from tracker.screens.command_prompt import prompt_for

        selected = self.query_one(CombatantsPane).selected_id
        self.app.push_screen(
            prompt_for(
                self,
                self.session,
                self.palette_commands,
                selected,
                self.settle_first,
                library=self.library(),
            )
        )

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """(title, action, help) for the command palette: every key, and the system's actions."""
        from tracker.screens.help import shown_key  # the help screen: loaded when asked for

        seen: set[str] = set()
        out = []
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding) or binding.action in seen:
                continue
            name, _, argument = binding.action.partition("(")
            if self.session.allows(name, argument.strip("()'\"")):
                seen.add(binding.action)
                out.append(
                    (binding.description, binding.action, f"key: {shown_key(self.app, binding)}")
                )
        if self.session.allows("export"):
            for title, fmt in (("Markdown", "markdown"), ("JSON", "json")):
                where = "a file in the saves folder"
                out.append((f"Export report ({title})", f"export({fmt!r})", where))
        out += [entry for entry in self.initiative_palette() if self.session.allows(entry[1])]
        system = self.session.system
        for action in system.actions(self.state):
            if not self.session.allows("system", action.id):
                continue
            out.append(
                (f"{system.title}: {action.title}", f"system({action.id!r})", action.description)
            )
        return out

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
        elif self.focused is not None:
            self.maximize(self.focused, container=False)

    def action_help(self) -> None:
        from tracker.screens.help import show_help

        intro = "The encounter is saved after every change. Tab moves between panes."
        show_help(self.app, self.BINDINGS, intro, self.offers, also=self.app_keys())

    def offers(self, binding: Binding) -> bool:
        """Whether this seat's role has ``binding``'s action."""
        return bool(self.check_action(*parse(binding.action)[1:]))

    def app_keys(self) -> list[Binding]:
        """The app's own keys this seat may use (a served table's: the GM's seats, a
        player's turn alerts), listed in help after the screen's."""
        return [
            binding
            for binding in type(self.app).BINDINGS
            if isinstance(binding, Binding)
            and binding.id is not None
            and self.app.check_action(*parse(binding.action)[1:])
        ]

    async def action_quit(self) -> None:
        await self.app.action_quit()  # the app's: it saves first
