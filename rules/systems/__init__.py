"""The rule systems, one package each (``rules/systems/<name>/``).

``rules.registry`` finds them by folder and loads one on first use; this package stays
empty so that importing one system (for a headless roll or odds) does not load the others.
See ``docs/contributing/adding-a-system.md``.
"""
