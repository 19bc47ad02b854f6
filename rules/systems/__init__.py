"""The rule systems, one module (or a few ``<name>_*`` modules) each.

The registry that lists them is ``rules.registry``; this package stays empty so that
importing one system (for a headless roll or odds) does not load the others.
"""
