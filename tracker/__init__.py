"""The Textual combat tracker: sessions, saves, the CLI and the app."""
