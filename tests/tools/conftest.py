"""Shared fixtures for the tools tests: the anyio backend and an MCP client over a real stdio child."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TextIO

import anyio
import pytest
from mcp import ClientSession
from mcp.client.session import MessageHandlerFnT
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO_ROOT = Path(__file__).resolve().parents[2]


Connect = Callable[..., AbstractAsyncContextManager[ClientSession]]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def connect(
    args: Sequence[str],
    errlog: TextIO,
    env: dict[str, str] | None = None,
    message_handler: MessageHandlerFnT | None = None,
) -> AsyncIterator[ClientSession]:
    """An initialized ClientSession to ``python ARGS`` started in the repo root, its stderr to ``errlog``."""
    parameters = StdioServerParameters(command=sys.executable, args=list(args), env=env, cwd=REPO_ROOT)
    async with (
        stdio_client(parameters, errlog=errlog) as (read_stream, write_stream),
        ClientSession(read_stream, write_stream, message_handler=message_handler) as session,
    ):
        with anyio.fail_after(15):
            await session.initialize()
        yield session


@pytest.fixture(scope="module")
def connect_stdio() -> Iterator[Connect]:
    """``connect`` with stderr dropped; stdio_client needs a real file there, it becomes the child's fd 2."""
    with open(os.devnull, "w") as devnull:
        yield functools.partial(connect, errlog=devnull)
