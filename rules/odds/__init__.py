"""Exact odds: the chance of every consequence tier before the dice are rolled.

Pure, standard library only (integers and ``fractions.Fraction``): no simulation and no
truncation. One module per system (``rules/odds/<system>.py``); each returns an ``Odds``.
"""
