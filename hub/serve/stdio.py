"""Serving over this process's stdin/stdout in a way that SIGTERM can interrupt.

Contract: ``stdio_streams()`` yields the SDK's (read, write) stream pair like
``mcp.server.stdio.stdio_server``, but reads a pipe or terminal on stdin without a worker thread
(``anyio.wait_readable`` + ``os.read``), so cancelling the serving task on SIGTERM ends at once
instead of waiting for a blocked ``readline``. While serving, fd 0 points at the null device so
nothing else reads the protocol stream. When stdout is a pipe or socket, replies are written the
same way (``os.write`` on a private non-blocking duplicate, ``anyio.wait_writable`` when the pipe
is full: no worker-thread hop per message) and fd 1 points at stderr while serving, so stray
prints never corrupt the protocol stream. When stdin is a regular file or the null device (not
pollable), or stdout is a terminal or a file, the SDK's own threaded reader or writer is used.

Lines the SDK cannot read are answered, not dropped (``Answering``): JSON that is not valid gets
a ``-32700`` parse error with id ``null``; a message that is not a valid JSON-RPC request gets
``-32600`` with its id when one can be read (else ``null``); a request that only holds lone
UTF-16 surrogates is repaired (they become U+FFFD) and served. A notification (no ``id``) that
cannot be read is dropped, as JSON-RPC requires.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp.types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from hub.downstream import first_error, scrubbed, write_all

READ_SIZE = 1 << 16
BAD_ID = "Invalid Request: a request's id must be an integer or a string"
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_ID = re.compile(r'"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,256}")')


class Answering:
    """A served connection's read stream that answers unreadable lines on its write stream."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner, self._write = inner, write

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                message = item.message
                if isinstance(message, types.JSONRPCNotification) and not message.method.startswith(
                    "notifications/"
                ):  # a request whose id the SDK could not read (1.5, {}): it would never be answered
                    await self._write.send(_error(None, INVALID_REQUEST, BAD_ID))
                    continue
                return item
            repaired, answer = triage(item)
            if repaired is not None:
                return repaired
            if answer is not None:
                await self._write.send(answer)

    def __aiter__(self) -> Answering:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Answering:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def triage(error: Exception) -> tuple[SessionMessage | None, SessionMessage | None]:
    """For a line the SDK refused: the repaired message, or the error answer to send (or neither)."""
    reason = first_error(error)
    line, value = _refused_input(error)
    if line is not None:
        if not line.strip():
            return None, None  # a blank line
        try:
            if "recursion limit" in reason:  # deeper than JSON-RPC parsers go: never repaired
                raise ValueError(reason)
            value = json.loads(line)  # Python's parser accepts what only lone surrogates spoiled
        except (ValueError, RecursionError):
            return None, _error(_id_in(line), PARSE_ERROR, f"Parse error: {reason}")
    if isinstance(value, dict):
        if "id" not in value and "method" in value:
            return None, None  # a notification is never answered
        try:
            message = types.jsonrpc_message_adapter.validate_python(scrubbed(value), by_name=False)
        except (ValueError, RecursionError):
            ident = value.get("id")
            valid = isinstance(ident, int | str) and not isinstance(ident, bool)
            return None, _error(ident if valid else None, INVALID_REQUEST, f"Invalid Request: {reason}")
        return SessionMessage(message), None
    what = "a batch (MCP takes one message per line)" if isinstance(value, list) else "not a JSON object"
    return None, _error(None, INVALID_REQUEST, f"Invalid Request: {what}")


def _id_in(line: str) -> int | str | None:
    """The id of a request too broken to parse, when it shows near the start of the line."""
    found = _ID.search(line[:512])
    if found is None:
        return None
    ident: int | str = json.loads(found.group(1))
    return ident


def _refused_input(error: Exception) -> tuple[str | None, Any]:
    """What pydantic refused: ``(line, None)`` for text that is not JSON, else ``(None, value)``."""
    errors = getattr(error, "errors", None)
    if not callable(errors):
        return None, None
    try:
        details = errors()
    except Exception:  # not a pydantic error after all
        return None, None
    for detail in details:
        if detail.get("type") == "json_invalid" and isinstance(detail.get("input"), str):
            return detail["input"], None
    for detail in details:
        if isinstance(detail.get("input"), dict) and len(detail.get("loc", ())) <= 2:
            return None, detail["input"]
    return None, details[0].get("input") if details else None


def _error(ident: int | str | None, code: int, message: str) -> SessionMessage:
    error = types.ErrorData(code=code, message=message)
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error))


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


class _PipeWriter:
    """The SDK's ``stdout`` (``write`` + ``flush``) over a non-blocking pipe or socket descriptor."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    async def write(self, text: str) -> None:
        try:
            await write_all(self._fd, text.encode("utf-8"))
        except (BrokenPipeError, ConnectionResetError) as exc:  # the client is gone
            raise anyio.ClosedResourceError from exc

    async def flush(self) -> None:
        return None  # every write went straight to the descriptor


def _stream_fd(fd: int) -> bool:
    """Whether ``fd`` is a pipe or socket (pollable, and ours alone to make non-blocking)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _divert(fd: int, flags: int, target: str | int) -> int:
    """Point ``fd`` at ``target`` (a path or a descriptor) and return a private duplicate of it."""
    private = os.dup(fd)
    replacement = os.open(target, flags) if isinstance(target, str) else os.dup(target)
    os.dup2(replacement, fd)
    os.close(replacement)
    return private


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[tuple[Any, Any]]:
    pollable = _stream_fd(0) or os.isatty(0)  # not a file, nor the null device (epoll refuses both)
    private_in = _divert(0, os.O_RDONLY, os.devnull) if pollable else None
    private_out = None
    if _stream_fd(1):
        sys.stdout.flush()
        private_out = _divert(1, os.O_WRONLY, 2)
        os.set_blocking(private_out, False)
    stdin = _PipeLines(private_in) if private_in is not None else None
    stdout = _PipeWriter(private_out) if private_out is not None else None
    try:
        async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):  # type: ignore[arg-type]
            yield Answering(read, write), write
    finally:
        for fd, private in ((0, private_in), (1, private_out)):
            if private is not None:
                if fd == 1:
                    os.set_blocking(private, True)
                os.dup2(private, fd)
                os.close(private)
