"""``tracker dice EXPR``: plain dice rolled headless (``tracker.headless.dice_output``)."""

from __future__ import annotations

import argparse

from tracker.cli.parsing import Building
from tracker.headless import dice_output

HELP = "roll plain dice (2d6+3, 4d6kh3, 3d6!)"
FOLDERS = False


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    dice_output.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return dice_output.run(args)
