"""Errors the rules raise for commands that cannot be carried out."""


class Rejected(Exception):
    """A command the rules refuse; the message is written for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
