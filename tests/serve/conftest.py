"""A served table for the serve tests; a module needing a password or other limits defines its
own ``served``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.serve.serve_helpers import Served, serve


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    served = await serve(tmp_path)
    yield served
    served.server.close()
    await served.server.wait_closed()
