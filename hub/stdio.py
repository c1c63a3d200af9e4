"""Serving over this process's stdin/stdout in a way that SIGTERM can interrupt.

Contract: ``stdio_streams()`` yields the SDK's (read, write) stream pair like
``mcp.server.stdio.stdio_server``, but reads a pipe or terminal on stdin without a worker thread
(``anyio.wait_readable`` + ``os.read``), so cancelling the serving task on SIGTERM ends at once
instead of waiting for a blocked ``readline``. While serving, fd 0 points at the null device so
nothing else reads the protocol stream; stdout is diverted by the SDK as usual. When stdin is a
regular file (not pollable), the SDK's own threaded reader is used.
"""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.stdio import stdio_server

READ_SIZE = 1 << 16


class _PipeLines:
    """Async iterator of decoded lines read from a pollable file descriptor."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()
        self._scanned = 0
        self._eof = False

    def __aiter__(self) -> _PipeLines:
        return self

    async def __anext__(self) -> str:
        while True:
            newline = self._buffer.find(b"\n", self._scanned)
            if newline >= 0:
                line = bytes(self._buffer[: newline + 1])
                del self._buffer[: newline + 1]
                self._scanned = 0
                return line.decode("utf-8", "replace")
            self._scanned = len(self._buffer)
            if self._eof:
                if self._buffer:
                    line = bytes(self._buffer)
                    self._buffer.clear()
                    return line.decode("utf-8", "replace")
                raise StopAsyncIteration
            await anyio.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, READ_SIZE)
            except BlockingIOError:
                continue
            if not chunk:
                self._eof = True
            self._buffer += chunk


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[tuple[Any, Any]]:
    try:
        pollable = not stat.S_ISREG(os.fstat(0).st_mode)
    except OSError:
        pollable = False
    if not pollable:
        async with stdio_server() as streams:
            yield streams
        return
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        async with stdio_server(stdin=_PipeLines(private)) as streams:  # type: ignore[arg-type]
            yield streams
    finally:
        os.dup2(private, 0)
        os.close(private)
