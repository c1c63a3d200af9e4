"""The client side of stdio for downstream servers: spawn one, exchange newline-delimited JSON-RPC.

Contract: ``stdio_transport(command, args, env=..., cwd=..., errlog=...)`` is an async context
manager yielding the SDK's ``(read, write)`` stream pair, like ``mcp.client.stdio.stdio_client``.
Given ``child=`` (a ``hub.spawn.Child`` started before the event loop existed, so the server
imports while the hub does) it speaks over that process instead of spawning one; the pipes are
non-blocking file descriptors read and written through ``anyio.wait_readable``/``wait_writable``.
It replaces the SDK's client for three reasons found by the reliability tests:

- lines are assembled in linear time (the SDK's reader copies its whole buffer again for every
  64 KiB read, so one 50 MB result cost ~25 s of the hub's event loop);
- a line the SDK cannot parse is salvaged when it can be (``salvage``): lone UTF-16 surrogates
  become U+FFFD; an answer that still cannot be read (too deeply nested, wrong shape) becomes a
  JSON-RPC error for its id, so the waiting call fails at once with the reason instead of
  waiting for its timeout;
- a line longer than ``max_line_bytes`` is dropped without being held in memory (its call gets
  an error naming the size). Bytes that are not UTF-8 become U+FFFD.

The child runs in its own process group. Leaving the context closes its stdin, waits up to 2 s,
then SIGTERMs the group, waits 2 s more and SIGKILLs it (the MCP spec's order, the SDK's
timings); this runs shielded from cancellation, so a cancelled hub never leaks a child. The group
is signalled even when the leader exited at EOF: its own children (a server's workers, an
``npm exec`` under ``npx``) would outlive it otherwise. A server that has not sent a single
message gets SIGTERM as soon as its stdin is closed, with no wait for EOF: it has not answered
``initialize``, so it holds no work of ours, and one still importing its SDK would read the EOF
only once started (about a second for a Python server; on a warm start the hub answers
``tools/list`` from its cache, so a client that leaves soon after used to wait for that).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TextIO

import anyio
import anyio.lowlevel
import mcp.types as types
from mcp.shared.message import SessionMessage

from hub.downstream.spawn import Child, group_alive, spawn

log = logging.getLogger("ctxhub.stdio_client")
MAX_LINE_BYTES = 256 * 2**20
READ_BYTES = 256 * 1024
EXIT_GRACE = 2.0  # seconds a server may take to exit after its stdin closes
KILL_GRACE = 2.0  # seconds between SIGTERM and SIGKILL
WRITE_FLUSH = 0.5  # seconds queued messages may still be written at shutdown
UNREADABLE = -32700  # JSON-RPC "parse error"
_SURROGATE = re.compile("[\ud800-\udfff]")
_HEAD_ID = re.compile(rb'^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,128}")')
_TAIL_ID = re.compile(rb',\s*"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,128}")\s*\}\s*$')
_METHOD = re.compile(rb'"method"\s*:')
_KEEP = 256  # bytes kept from each end of an oversized line, to find its id


@dataclass(frozen=True, slots=True)
class _Oversized:
    head: bytes
    tail: bytes
    size: int


class LineSplitter:
    """Bytes in, complete lines out, in linear time; lines over ``limit`` come out as ``_Oversized``."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._scanned = 0
        self._dropping: _Oversized | None = None

    def feed(self, chunk: bytes) -> list[bytes | _Oversized]:
        out: list[bytes | _Oversized] = []
        if self._dropping is not None:
            newline = chunk.find(b"\n")
            dropped = self._dropping
            if newline < 0:
                tail = (dropped.tail + chunk)[-_KEEP:]
                self._dropping = _Oversized(dropped.head, tail, dropped.size + len(chunk))
                return out
            tail = (dropped.tail + chunk[:newline])[-_KEEP:]
            out.append(_Oversized(dropped.head, tail, dropped.size + newline))
            self._dropping = None
            chunk = chunk[newline + 1 :]
        self._buffer += chunk
        start = 0
        while True:
            newline = self._buffer.find(b"\n", max(start, self._scanned))
            if newline < 0:
                break
            out.append(bytes(self._buffer[start:newline]))
            start = newline + 1
            self._scanned = start
        if start:
            del self._buffer[:start]
        self._scanned = len(self._buffer)
        if len(self._buffer) > self._limit:
            data = bytes(self._buffer)
            self._dropping = _Oversized(data[:_KEEP], data[-_KEEP:], len(data))
            self._buffer.clear()
            self._scanned = 0
        return out

    def rest(self) -> bytes:
        """What is left after the stream ended: a last line with no newline, if any."""
        rest, self._buffer = bytes(self._buffer), bytearray()
        return rest


def read_line(line: bytes) -> SessionMessage | Exception | None:
    """One line from the server as a message, salvaged if need be; None for a blank line."""
    text = line.decode("utf-8", "replace")
    if not text.strip():
        return None
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValueError as exc:
        return salvage(text, exc)


def salvage(text: str, error: Exception) -> SessionMessage | Exception:
    """A readable message from a line the SDK refused, an error answer for its id, or ``error``."""
    reason = first_error(error)
    value: Any = None
    if "recursion limit" not in reason:  # deeper than clients parse: never pass it upstream
        try:
            value = json.loads(text)  # Python's parser accepts lone surrogates
        except (ValueError, RecursionError):
            value = None
    if isinstance(value, dict):
        try:
            message = types.jsonrpc_message_adapter.validate_python(scrubbed(value), by_name=False)
            return SessionMessage(message)
        except (ValueError, RecursionError):
            pass
        ident = value.get("id") if "method" not in value else None
    else:
        ident = _find_id(text.encode("utf-8", "replace"))
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return error
    return _error_answer(ident, f"the server's answer could not be read ({reason})")


def oversized(line: _Oversized) -> SessionMessage | Exception:
    ident = _find_id(line.head, line.tail)
    message = f"the server sent a {line.size}-byte line, over the hub's {MAX_LINE_BYTES}-byte limit"
    if ident is None:
        return ValueError(message)
    return _error_answer(ident, message)


def _error_answer(ident: int | str, message: str) -> SessionMessage:
    error = types.ErrorData(code=UNREADABLE, message=message)
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error))


def first_error(error: Exception) -> str:
    """The first reason pydantic gives for refusing a line (at most 200 characters)."""
    errors = getattr(error, "errors", None)
    if callable(errors):
        with contextlib.suppress(Exception):
            first = errors()[0]
            return str(first.get("msg", first.get("type", "invalid")))[:200]
    return (str(error) or type(error).__name__)[:200]


def _find_id(head: bytes, tail: bytes | None = None) -> int | str | None:
    """The id of a response line too broken to parse, when it sits first or last at the top level."""
    if _METHOD.search(head[:200]):
        return None  # a request or notification from the server, not an answer
    found = _HEAD_ID.match(head) or _TAIL_ID.search(tail if tail is not None else head)
    if found is None:
        return None
    raw = found.group(1).decode("utf-8", "replace")
    return raw[1:-1] if raw.startswith('"') else int(raw)


def scrubbed(value: Any) -> Any:
    """``value`` with lone surrogates in every string (keys too) replaced by U+FFFD; no recursion."""
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if isinstance(item, str):
            container[key] = _SURROGATE.sub("\ufffd", item)
        elif isinstance(item, list):
            stack.extend((item, index) for index in range(len(item)))
        elif isinstance(item, dict):
            cleaned = {_SURROGATE.sub("\ufffd", name): child for name, child in item.items()}
            container[key] = cleaned
            stack.extend((cleaned, name) for name in cleaned)
    return root[0]


@asynccontextmanager
async def stdio_transport(
    command: str,
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    errlog: TextIO,
    max_line_bytes: int = MAX_LINE_BYTES,
    child: Child | None = None,
    exit_grace: float = EXIT_GRACE,
) -> AsyncIterator[tuple[Any, Any]]:
    """Spawn ``command args`` (or take ``child``, already running) and yield (read, write) streams.

    The streams carry ``SessionMessage``; see the module doc for what leaving the context does
    (``exit_grace``: how long a server that has answered may take to exit on EOF).
    """
    child = child.claim() if child is not None else spawn(command, args, env=env, cwd=cwd, errlog=errlog)
    send_read, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, receive_write = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()
    heard = False  # whether the server has sent a message: until then it is still starting

    async def reader() -> None:
        nonlocal heard
        lines = LineSplitter(max_line_bytes)
        delivering = True
        async with send_read:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                while chunk := await _read_chunk(child.stdout):
                    for line in lines.feed(chunk):
                        message = oversized(line) if isinstance(line, _Oversized) else read_line(line)
                        if message is None:
                            continue
                        heard = heard or not isinstance(message, Exception)
                        if not delivering:
                            continue  # after the session left, keep draining so the server can exit
                        try:
                            await send_read.send(message)
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            delivering = False
                last = read_line(lines.rest())
                if last is not None and delivering:
                    await send_read.send(last)

    async def writer() -> None:
        try:
            async with receive_write:
                async for message in receive_write:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await write_all(child.stdin, (data + "\n").encode("utf-8", "replace"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await send_read.aclose()  # the server stopped reading: the session sees the end
        finally:
            writer_done.set()

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(reader)
            group.start_soon(writer)
            try:
                yield read, write
            finally:
                with anyio.CancelScope(shield=True):
                    read.close()
                    write.close()
                    with anyio.move_on_after(WRITE_FLUSH):
                        await writer_done.wait()
                    await _stop(child, exit_grace if heard else 0.0)
                group.cancel_scope.cancel()
    finally:  # the reader and writer have ended: nothing waits on the pipes any more
        child.close_stdin()
        child.close_stdout()


async def _read_chunk(fd: int) -> bytes:
    """The next bytes from ``fd`` (non-blocking), b"" at the end of the stream."""
    while True:
        try:
            chunk = os.read(fd, READ_BYTES)
        except BlockingIOError:
            await anyio.wait_readable(fd)
            continue
        await anyio.lowlevel.checkpoint()  # a server writing without pause must not starve the loop
        return chunk


async def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the non-blocking ``fd``, waiting while the pipe is full."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            await anyio.wait_writable(fd)
            continue
        view = view[written:]


async def _stop(child: Child, exit_grace: float) -> None:
    """EOF, up to ``exit_grace`` s for the leader to exit, SIGTERM, SIGKILL; then the group."""
    with contextlib.suppress(OSError, ValueError):
        anyio.notify_closing(child.stdin)  # wakes a writer still waiting on the pipe
    child.close_stdin()
    try:
        if exit_grace > 0:  # the leader alone: its descendants may never see the EOF
            await _exited(child, exit_grace)
        for signum in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(child.pid, signum)  # the group: descendants that outlived the leader too
            except ProcessLookupError:
                return
            except PermissionError:
                log.warning("no permission to signal process group %d; waiting for it anyway", child.pid)
            if await _exited(child, KILL_GRACE, group=True):
                return
    finally:
        child.end_group()


async def _exited(child: Child, limit: float, *, group: bool = False) -> bool:
    """Whether the process (and with ``group`` its whole group) is gone within ``limit`` seconds."""
    with anyio.move_on_after(limit):
        while child.returncode is None or (group and group_alive(child.pid)):  # noqa: ASYNC110 - the kernel's state
            await anyio.sleep(0.01)
        return True
    return False
