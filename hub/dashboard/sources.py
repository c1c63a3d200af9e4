"""Where the dashboard reads from: a running hub (``LiveSource``) or a store directory (``StoreDirSource``).

Contract: a ``Source`` names itself (``label``, ``location``) and hands out, each call reading
the current state: the ``Store`` (or None when there is none to read), a ``CallLogReader`` over
``calls.jsonl`` (or None), the per-tool counters (the ``stats.json`` shape), the servers' rows
(the ``status.json`` shape, ``hub.serve.status_file``), the session memory directory, the store's
bytes on disk and the configured ``store.max_bytes``. Every method may block on disk: callers run
them in a worker thread.

``StoreDirSource`` never writes: it opens the store read-only (a running hub owns it) and opens
it again when the hub's ``ledger.json`` changed, so new payloads show up; a store that cannot
be opened yet is reported by ``problem()``, not raised. ``sources_for(config, store)`` lists the
stores ``ctxhub dashboard`` offers: ``--store PATH`` alone, else the default store and its
siblings (``store-2`` …) that exist, as ``ctxhub show``/``search`` read them.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Protocol

from context_mode.calls import FILE_NAME as CALLS_FILE
from context_mode.calls import CallLogReader
from context_mode.errors import StoreError
from context_mode.store import Store
from hub.config import HubConfig
from hub.serve import server_rows
from hub.stores import reading_paths, spill_dir


class Source(Protocol):
    label: str
    location: str

    def store(self) -> Store | None: ...
    def calls(self) -> CallLogReader | None: ...
    def tool_stats(self) -> dict[str, Any]: ...
    def servers(self) -> list[dict[str, Any]]: ...
    def servers_updated(self) -> float | None: ...
    def hub_running(self) -> bool | None: ...
    def memory_dir(self) -> Path | None: ...
    def disk_bytes(self) -> int: ...
    def max_bytes(self) -> int: ...
    def problem(self) -> str | None: ...


def directory_bytes(path: Path | None) -> int:
    """Bytes of the regular files under ``path`` (the store directory's size on disk)."""
    if path is None:
        return 0
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.stat(os.path.join(root, name), follow_symlinks=False).st_size
            except OSError:
                continue
    return total


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


class LiveSource:
    """The hub serving this page over HTTP: its own store, counters and servers."""

    label = "live"

    def __init__(self, service: Any) -> None:
        self._service = service
        store = service.store
        self.location = str(store.path) if store.path is not None else "in memory (not persisted)"
        calls = service.calls
        self._calls = CallLogReader(calls.path) if calls is not None else None
        self._calls_lock = threading.Lock()

    def store(self) -> Store | None:
        store: Store = self._service.store
        return store

    def calls(self) -> CallLogReader | None:
        return self._calls

    def tool_stats(self) -> dict[str, Any]:
        tools: dict[str, Any] = self._service.stats.to_json()["tools"]
        return tools

    def servers(self) -> list[dict[str, Any]]:
        return server_rows(self._service)

    def servers_updated(self) -> float | None:
        return None  # live

    def hub_running(self) -> bool | None:
        return True

    def memory_dir(self) -> Path | None:
        if self._service.store.path is None:
            return None
        path: Path = self._service.config.store_path() / "sessions"
        return path

    def disk_bytes(self) -> int:
        return directory_bytes(self._service.store.path)

    def max_bytes(self) -> int:
        return int(self._service.config.store.max_bytes)

    def problem(self) -> str | None:
        return (
            None if self._calls is not None else "no call log: the store is in memory or store.call_log is 0"
        )


class StoreDirSource:
    """A store directory that a hub (maybe running now) wrote; read-only."""

    def __init__(
        self, path: Path, *, label: str, memory: Path | None, max_bytes: int, spill: Path | None = None
    ) -> None:
        self.path = path
        self.label = label
        self.location = str(path)
        self._memory = memory
        self._max_bytes = max_bytes
        self._spill = spill
        self._calls = CallLogReader(path / CALLS_FILE)
        self._store: Store | None = None
        self._seen: tuple[float, int] | None = None
        self._problem: str | None = None
        self._lock = threading.Lock()

    def store(self) -> Store | None:
        with self._lock:
            ledger = self.path / "ledger.json"
            try:
                status = ledger.stat()
                seen: tuple[float, int] | None = (status.st_mtime, status.st_size)
            except OSError:
                seen = None
            if self._store is not None and seen == self._seen:
                return self._store
            try:
                fresh = Store(self.path, spill_dir=self._spill, read_only=True)
            except StoreError as exc:
                self._problem = str(exc)
                return self._store
            except Exception as exc:  # a store mid-commit or damaged: show the last good one
                self._problem = f"the store {self.path} cannot be read now ({type(exc).__name__}: {exc})"
                return self._store
            if self._store is not None:
                self._store.close()
            self._store, self._seen, self._problem = fresh, seen, None
            return fresh

    def calls(self) -> CallLogReader | None:
        return self._calls

    def tool_stats(self) -> dict[str, Any]:
        tools = _read_json(self.path / "stats.json").get("tools")
        return tools if isinstance(tools, dict) else {}

    def servers(self) -> list[dict[str, Any]]:
        rows = _read_json(self.path / "status.json").get("servers")
        return [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []

    def servers_updated(self) -> float | None:
        updated = _read_json(self.path / "status.json").get("updated")
        return float(updated) if isinstance(updated, int | float) else None

    def hub_running(self) -> bool | None:
        """Whether the hub that wrote ``status.json`` still runs (None: unknown)."""
        pid = _read_json(self.path / "status.json").get("pid")
        if not isinstance(pid, int) or pid <= 0:
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process with that pid
            return True
        return True

    def memory_dir(self) -> Path | None:
        return self._memory

    def disk_bytes(self) -> int:
        return directory_bytes(self.path)

    def max_bytes(self) -> int:
        return self._max_bytes

    def problem(self) -> str | None:
        return self._problem

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


def sources_for(config: HubConfig, store: Path | None = None) -> list[StoreDirSource]:
    """The stores ``ctxhub dashboard`` offers: ``store`` alone, else the default one and its siblings."""
    spill = spill_dir(config)
    memory = config.store_path() / "sessions"
    max_bytes = config.store.max_bytes
    if store is not None:
        path = store.expanduser().resolve()
        sessions = path / "sessions" if (path / "sessions").is_dir() else memory
        return [StoreDirSource(path, label=path.name, memory=sessions, max_bytes=max_bytes, spill=spill)]
    return [
        StoreDirSource(path, label=path.name, memory=memory, max_bytes=max_bytes, spill=spill)
        for path in reading_paths(config)
    ]
