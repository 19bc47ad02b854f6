"""The terminal's plumbing: Textual's private code in one place, partial renders, keys typed
in a burst, text fitted to a width, styled spans and inert text, a hung-up terminal."""
