"""Write every bundled demo into a folder: ``python -m tracker.demos saves``."""

import sys
from pathlib import Path

from tracker import storage
from tracker.demos import DEMOS

folder = Path(sys.argv[1] if len(sys.argv) > 1 else "saves")
for stem, build in DEMOS.items():
    path = folder / f"{stem}{storage.SUFFIX}"
    storage.write(path, build())
    print(path)
