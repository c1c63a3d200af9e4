"""Config hot reload: the hub watches its config file and applies valid edits while it serves.

``plan(old, new)`` says what a reload changes: servers to start (new), stop (gone or disabled),
restart (their connection settings changed: command, args, env, cwd, url, headers, type) and
servers whose other settings (timeouts, tool modes, namespace) are applied in place, plus whether
the top-level sections (routing, cache, tool_surface…) changed. ``watch_config(service, path)``
polls the file (modification time, size, inode: an editor's atomic replace counts) every
``interval`` seconds; a change is read once the file has stayed the same for one more poll (a
file written in place is truncated first: caught empty or half written, it would be applied as
such; an empty file is never applied), then loaded and validated; a valid one is applied with
``HubService.reload`` (clients get ``list_changed`` for what changed), an invalid one keeps the
running config, logs one ``ctxhub:`` line naming the file, key path and fix, and shows it in
``hub_status`` until a valid edit arrives. A serving hub records the config it applied in its
store directory (``running-config.json``), so ``ctxhub check`` on an edited file can say what a
reload would change (``preview``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from hub.config import HubConfig, load_config
from hub.downstream import fingerprint
from hub.errors import ConfigError

log = logging.getLogger("ctxhub.reload")

RUNNING_FILE = "running-config.json"  # in the store directory: the config a serving hub applied last
SECTIONS = ("routing", "cache", "store", "memory", "summarizer", "tool_surface", "ingest_roots")


@dataclass(frozen=True)
class Plan:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    restarted: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()  # settings applied without a restart
    sections: tuple[str, ...] = ()  # top-level sections that changed
    notes: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.restarted or self.updated or self.sections)

    def describe(self) -> str:
        parts = [
            f"{label} {', '.join(names)}"
            for label, names in (
                ("start", self.added),
                ("stop", self.removed),
                ("restart", self.restarted),
                ("update", self.updated),
                ("apply", self.sections),
            )
            if names
        ]
        return "; ".join(parts) if parts else "nothing changes"


def plan(old: HubConfig, new: HubConfig) -> Plan:
    """What applying ``new`` to a hub running ``old`` does (see the module docstring)."""
    before, after = old.active_servers(), new.active_servers()
    added = tuple(name for name in after if name not in before)
    removed = tuple(name for name in before if name not in after)
    restarted = tuple(
        name for name in after if name in before and fingerprint(after[name]) != fingerprint(before[name])
    )
    updated = tuple(
        name
        for name in after
        if name in before and name not in restarted and after[name].model_dump() != before[name].model_dump()
    )
    sections = tuple(section for section in SECTIONS if getattr(old, section) != getattr(new, section))
    notes = ["store settings apply at the next start"] if "store" in sections else []
    return Plan(added, removed, restarted, updated, sections, notes)


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size, status.st_ino)


async def watch_config(
    service: Any,
    path: Path,
    *,
    interval: float = 1.0,
    load: Callable[[Path], HubConfig] = load_config,
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
) -> None:
    """Apply every valid edit of ``path`` to ``service`` until cancelled (see the module docstring)."""
    last = _stamp(path)  # the file as last applied (or found at the start)
    pending: tuple[int, int, int] | None = None  # a change seen at the last poll, not applied yet
    while True:
        await sleep(interval)
        stamp = _stamp(path)
        if stamp == last or stamp is None:
            pending = None
            continue
        if stamp != pending:
            pending = stamp  # still being written, maybe (truncated, half there): look again
            continue
        last, pending = stamp, None
        try:
            if stamp[1] == 0:  # a writer that truncated the file and stopped: no config of no servers
                raise ConfigError(f"{path}: is empty; for a hub with no servers write 'servers: {{}}'")
            config = load(path)
        except ConfigError as exc:
            if service.reload_error != str(exc):
                log.error("ctxhub: config not reloaded, the running config stays: %s", exc)
            service.reload_error = str(exc)
            continue
        service.reload_error = None
        changes = await service.reload(config)
        record_running(config)
        log.warning("ctxhub: config %s reloaded: %s", path, changes.describe())


def record_running(config: HubConfig) -> None:
    """Remember ``config`` as the one a hub serves, for ``ctxhub check``'s reload preview."""
    path = config.store_path() / RUNNING_FILE
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(config.model_dump_json(), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:  # the preview is a convenience; serving goes on
        log.debug("could not record the running config in %s: %s", path, exc)


def preview(config: HubConfig) -> str | None:
    """What a hub serving from ``config``'s store would change if this config were its file."""
    path = config.store_path() / RUNNING_FILE
    try:
        running = HubConfig.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return plan(running, config).describe()
