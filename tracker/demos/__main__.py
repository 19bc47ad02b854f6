"""Write every bundled demo into a folder: ``python -m tracker.demos [--missing] saves``
(``--missing``: only those not there yet, as ``make run`` does for a new system's)."""

import sys
from pathlib import Path

from tracker.demos import write_demos

args = sys.argv[1:]
missing = "--missing" in args
folders = [arg for arg in args if arg != "--missing"]
for path in write_demos(Path(folders[0] if folders else "saves"), keep=missing):
    print(path)
