"""Screens and dialogs of the tracker, one per module."""
