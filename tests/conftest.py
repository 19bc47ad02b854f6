"""Shared by every test: the user's own folders are never touched."""

from __future__ import annotations

import os
import tempfile

# platformdirs reads these (on Linux): saves, the library, settings and the host key of a
# `tracker` started without --saves go here, in this process and the ones it starts.
_HOME = tempfile.mkdtemp(prefix="tracker-user-")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
