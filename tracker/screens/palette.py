"""The command palette provider: every action of the screen, findable by name."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider


class ScreenActions(Provider):
    """Lists ``screen.palette_commands()`` where a screen has it, else its bindings."""

    def _commands(self) -> Iterator[tuple[str, str, str]]:
        listed = getattr(self.screen, "palette_commands", None)
        if listed is not None:
            yield from listed()
            return
        from tracker.screens.help import shown_key  # the help screen: loaded when asked for

        seen: set[str] = set()
        for binding in getattr(self.screen, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description and binding.action not in seen:
                seen.add(binding.action)
                yield binding.description, binding.action, f"key: {shown_key(self.app, binding)}"

    def _run(self, action: str) -> Callable[[], object]:
        screen = self.screen
        return lambda: screen.run_action(action)

    async def discover(self) -> Hits:
        for title, action, help_text in self._commands():
            yield DiscoveryHit(title, self._run(action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, action, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), self._run(action), help=help_text)
