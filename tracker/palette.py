"""The command palette provider: every key binding of the screen, findable by name."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from tracker.screens.help import key_label


class ScreenActions(Provider):
    def _bindings(self) -> Iterator[Binding]:
        seen: set[str] = set()
        for binding in getattr(self.screen, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description and binding.action not in seen:
                seen.add(binding.action)
                yield binding

    def _command(self, binding: Binding) -> partial[object]:
        return partial(self.screen.run_action, binding.action)

    async def discover(self) -> Hits:
        for binding in self._bindings():
            yield DiscoveryHit(
                binding.description, self._command(binding), help=f"key: {key_label(binding.key)}"
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for binding in self._bindings():
            score = matcher.match(binding.description)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(binding.description),
                    self._command(binding),
                    help=f"key: {key_label(binding.key)}",
                )
