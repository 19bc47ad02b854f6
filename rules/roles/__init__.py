"""The ``RuleSystem`` contract by role: one small ABC per part of a system (its sheets, its
dialogs, its rules, its log...), each with defaults for its optional hooks.

``rules.system.RuleSystem`` is all of them; a system's modules may each provide the part
they hold (a subclass of one of these), and its ``system.py`` composes them.
"""
