"""The reliability suite shares one event loop per module, so a module may share one running hub."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"
