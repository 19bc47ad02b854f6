"""Write every bundled demo into a folder: ``python -m tracker.demos saves``."""

import sys
from pathlib import Path

from tracker.demos import write_demos

for path in write_demos(Path(sys.argv[1] if len(sys.argv) > 1 else "saves")):
    print(path)
