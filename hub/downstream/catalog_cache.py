"""The last run's tool lists, for a warm start: ``catalog.json`` in the store directory.

Contract: ``ToolCache.load(path)`` reads the file. A missing file is an empty cache; an unreadable
or malformed one is logged as a warning and ignored, so start-up never fails because of it.
``tools_for(name, server)`` returns the tools cached for server ``name`` when its config
``fingerprint`` still matches (command, args, env, cwd, url, headers and transport; timeouts and
per-tool settings do not change what a server lists), else None; an entry that does not validate
is ignored with a warning. ``remember(name, server, tools)`` records a live list and rewrites the
file atomically (a temporary file renamed over it) when that changed anything; ``forget(name)``
drops a server's entry. A failed write is logged, never raised. One hub owns a store directory
at a time (the store's lock), so nothing else writes the file meanwhile.

``warm_servers(config)`` answers, with the standard library only (before the hub imports the SDK),
which servers would start warm from the default store's file; ``hub.downstream.spawn`` uses it to decide what
to start early.

The file: ``{"version": 1, "servers": {name: {"config": sha256, "tools": [Tool wire form]}}}``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hub.config import HubConfig, ServerConfig

if TYPE_CHECKING:
    import mcp.types as types  # imported when needed: ``warm_servers`` runs before the SDK is loaded

log = logging.getLogger("ctxhub.catalog_cache")
VERSION = 1
FILE_NAME = "catalog.json"


def fingerprint(server: ServerConfig) -> str:
    """A hash of what decides which process or endpoint a server is (not how long the hub waits)."""
    identity = server.model_dump(mode="json", include={"command", "args", "env", "cwd", "url", "headers"})
    identity["kind"] = server.kind
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode("utf-8")).hexdigest()


class ToolCache:
    """Tool lists by server name, each under the fingerprint of the config that listed it."""

    def __init__(self, path: Path, entries: dict[str, dict[str, Any]] | None = None) -> None:
        self.path = path
        self._entries = dict(entries or {})
        self._write_failed = False

    @classmethod
    def load(cls, path: Path) -> ToolCache:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as exc:
            _ignore(path, str(exc))
            return cls(path)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            _ignore(path, f"not valid JSON: {exc}")
            return cls(path)
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(servers, dict):
            _ignore(path, f"not a version-{VERSION} tool cache")
            return cls(path)
        return cls(path, {name: entry for name, entry in servers.items() if isinstance(entry, dict)})

    def tools_for(self, name: str, server: ServerConfig) -> list[types.Tool] | None:
        import mcp.types as types

        entry = self._entries.get(name)
        if entry is None or entry.get("config") != fingerprint(server):
            return None
        listed = entry.get("tools")
        try:
            if not isinstance(listed, list):
                raise ValueError(f"'tools' is {type(listed).__name__}, not a list")
            return [types.Tool.model_validate(tool) for tool in listed]
        except (ValueError, TypeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            log.warning(
                "ignoring the cached tools of %s in %s (%s); they are replaced once it lists its tools",
                name,
                self.path,
                first,
            )
            return None

    def remember(self, name: str, server: ServerConfig, tools: list[types.Tool]) -> None:
        entry = {
            "config": fingerprint(server),
            "tools": [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools],
        }
        if self._entries.get(name) != entry:
            self._entries[name] = entry
            self._save()

    def forget(self, name: str) -> None:
        if self._entries.pop(name, None) is not None:
            self._save()

    def _save(self) -> None:
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        text = json.dumps({"version": VERSION, "servers": self._entries}, ensure_ascii=False)
        try:
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, self.path)  # readers see the old file or the new one, never half
        except (OSError, ValueError) as exc:
            with contextlib.suppress(OSError):
                temporary.unlink()
            if not self._write_failed:  # once: the next start is merely cold
                log.warning("could not write the tool cache %s (%s); start-ups stay cold", self.path, exc)
            self._write_failed = True


def warm_servers(config: HubConfig) -> set[str]:
    """The enabled servers with a cached tool list for their current config (quietly none on any error)."""
    try:
        data = json.loads((config.store_path() / FILE_NAME).read_text(encoding="utf-8"))
        entries = data["servers"] if data.get("version") == VERSION else {}
        return {
            name
            for name, server in config.active_servers().items()
            if isinstance(entries.get(name), dict)
            and entries[name].get("config") == fingerprint(server)
            and isinstance(entries[name].get("tools"), list)
        }
    except (OSError, ValueError, RecursionError, TypeError, KeyError, AttributeError, RuntimeError):
        return set()


def _ignore(path: Path, reason: str) -> None:
    log.warning(
        "ignoring the tool cache %s (%s); the servers' tools are listed live and the file is rewritten",
        path,
        reason,
    )
