"""Widgets of the tracker, one per module."""
