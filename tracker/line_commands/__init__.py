"""The `:` command line's words, without Textual: a typed line becomes what to do.

``resolve`` turns a line into an outcome (a rules command for the session, undo/redo steps,
or a screen action such as a dialog to open), ``completion.complete`` lists the words that
fit where the line ends, and ``resolve.hint`` says how the command being typed is used. A
system's actions are filled from the same form fields as their dialogs, so every system
works without code of its own here. Any mistake raises ``Rejected`` with one line for the
user. The prompt that shows it all is ``tracker.screens.command_prompt``.
"""
