"""Shared pieces of the reliability tests: fault-server config entries, the process table from /proc,
polling under a deadline, and a raw JSON-RPC client for ``ctxhub serve`` over stdio.

Every wait here is unbounded on its own: callers bound it with ``anyio.fail_after``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.abc

from tests.conftest import REPO, announced_url, children_of

FAULT_SERVER = REPO / "tests" / "fixtures" / "fault_server.py"
HUB_COMMAND = [sys.executable, "-m", "hub.cli", "serve", "--config"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "reliability", "version": "1"},
    },
}


def fault_server(name: str, *args: str, **options: Any) -> dict[str, Any]:
    """A config entry that runs the fault-injection server."""
    return {"command": sys.executable, "args": [str(FAULT_SERVER), "--name", name, *args], **options}


def hub_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def descendants(pid: int) -> dict[int, str]:
    """Live (not zombie) descendants of ``pid`` with their command lines, read from /proc."""
    return {child: _cmdline(child) for child in children_of(pid)}


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in ("Z", "X")


def hub_pid(config: Path) -> int:
    """The pid of the ``ctxhub serve`` child of this test process that runs ``config``."""
    running = descendants(os.getpid()).items()
    found = [pid for pid, line in running if "hub.cli" in line and str(config) in line]
    assert len(found) == 1, found
    return found[0]


def servers_under(pid: int, marker: str = "--name") -> dict[int, str]:
    """Descendants of ``pid`` that are downstream servers (their command line holds ``marker``)."""
    return {child: line for child, line in descendants(pid).items() if marker in line}


async def eventually(condition: Callable[[], bool], interval: float = 0.02) -> None:
    """Poll ``condition`` until true; bound it with ``anyio.fail_after``."""
    while not condition():  # noqa: ASYNC110 - the condition is another process's state
        await anyio.sleep(interval)


def strict_json(line: bytes) -> Any:
    """Parse one JSON line, refusing NaN/Infinity (which strict JSON parsers reject)."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"non-standard JSON constant {constant}")

    return json.loads(line, parse_constant=refuse)


class RawHub:
    """``ctxhub serve`` over stdio, spoken to in raw JSON-RPC lines.

    A reader task files every line the hub writes: answers by id, notifications in order, and
    lines that are not strict JSON (NaN, Infinity, garbage) in ``invalid`` — which must stay empty.
    """

    def __init__(self, process: anyio.abc.Process) -> None:
        self.process = process
        self.answers: dict[Any, dict[str, Any]] = {}
        self.notifications: list[dict[str, Any]] = []
        self.invalid: list[bytes] = []
        self.lines = 0
        self._arrived: dict[Any, anyio.Event] = {}
        self._ids = iter(range(1, 2**62))

    def next_id(self) -> int:
        return next(self._ids)

    async def read_forever(self) -> None:
        assert self.process.stdout is not None
        buffer = bytearray()
        async for chunk in self.process.stdout:
            buffer += chunk
            start = 0
            while (newline := buffer.find(b"\n", start)) >= 0:
                self._file(bytes(buffer[start:newline]))
                start = newline + 1
            del buffer[:start]

    def _file(self, line: bytes) -> None:
        self.lines += 1
        try:
            message = strict_json(line)
        except ValueError:
            self.invalid.append(line[:500])
            return
        if isinstance(message, dict) and "method" in message:
            self.notifications.append(message)
        elif isinstance(message, dict) and "id" in message:
            key = json.dumps(message["id"])
            self.answers[key] = message
            self._arrived.setdefault(key, anyio.Event()).set()
        else:
            self.invalid.append(line[:500])

    async def send(self, data: bytes | dict[str, Any]) -> None:
        assert self.process.stdin is not None
        raw = data if isinstance(data, bytes) else json.dumps(data).encode() + b"\n"
        await self.process.stdin.send(raw)

    async def answer(self, ident: Any) -> dict[str, Any]:
        """The hub's answer with id ``ident`` (bound the wait with ``fail_after``)."""
        key = json.dumps(ident)
        await self._arrived.setdefault(key, anyio.Event()).wait()
        return self.answers.pop(key)

    async def request(
        self, method: str, params: dict[str, Any] | None = None, *, ident: Any = None
    ) -> dict[str, Any]:
        ident = self.next_id() if ident is None else ident
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            body["params"] = params
        await self.send(body)
        return await self.answer(ident)

    async def call(self, name: str, arguments: dict[str, Any] | None = None, **meta: Any) -> dict[str, Any]:
        """A ``tools/call``; returns the result object (a JSON-RPC error fails the test)."""
        params: dict[str, Any] = {"name": name, "arguments": arguments or {}}
        if meta:
            params["_meta"] = meta
        answer = await self.request("tools/call", params)
        assert "result" in answer, answer
        return answer["result"]

    async def handshake(self) -> dict[str, Any]:
        answer = await self.request("initialize", INITIALIZE["params"], ident=0)
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer


def result_text(result: dict[str, Any]) -> str:
    return "\n".join(block.get("text", "") for block in result.get("content", []))


@asynccontextmanager
async def raw_hub(config: Path, errlog: Any = None, *, handshake: bool = True) -> AsyncIterator[RawHub]:
    """``ctxhub serve --config CONFIG`` as a child process driven in raw JSON-RPC."""
    async with (
        await anyio.open_process(
            [*HUB_COMMAND, str(config)], env=hub_env(), cwd=REPO, stderr=errlog or subprocess.DEVNULL
        ) as process,
        anyio.create_task_group() as group,
    ):
        hub = RawHub(process)
        group.start_soon(hub.read_forever)
        try:
            if handshake:
                await hub.handshake()
            yield hub
        finally:
            with anyio.CancelScope(shield=True):
                if process.returncode is None:
                    assert process.stdin is not None
                    await process.stdin.aclose()
                    with anyio.move_on_after(15):
                        await process.wait()
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            group.cancel_scope.cancel()


@asynccontextmanager
async def http_hub(config: Path, *options: str) -> AsyncIterator[tuple[str, anyio.abc.Process]]:
    """``ctxhub serve --transport http --port 0 [options]`` as a child; yields its base URL and process.

    On exit the hub gets SIGTERM and must stop cleanly (exit code 0).
    """
    command = [sys.executable, "-m", "hub.cli", "serve", "--transport", "http", "--port", "0", *options]
    async with await anyio.open_process([*command, "--config", str(config)], env=hub_env(), cwd=REPO) as hub:
        assert hub.stderr is not None
        base = (await announced_url(hub.stderr, b"(SSE)")).removesuffix("/mcp")

        async def drain() -> None:  # a full stderr pipe would block the hub
            assert hub.stderr is not None
            async for _ in hub.stderr:
                pass

        async with anyio.create_task_group() as group:
            group.start_soon(drain)
            try:
                yield base, hub
            finally:
                if hub.returncode is None:
                    hub.terminate()
                with anyio.CancelScope(shield=True), anyio.fail_after(30):
                    assert await hub.wait() == 0
