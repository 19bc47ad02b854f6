"""Serving one live encounter over SSH: each seat gets its own view of the same session."""
