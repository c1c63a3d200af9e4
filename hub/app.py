"""Wiring: config → store, session memory, native tools and the ``HubService``.

Contract: ``open_hub(config)`` is a context manager that opens the store (on disk at
``store.path``, or in RAM when ``ephemeral``), builds the native tools (doc_*, context_*,
hub_status) and yields a ``HubService`` ready to run; the store is closed on exit. When the
default store directory is held by another running hub, the next free sibling directory is used;
a damaged store is moved aside, and with no usable disk the store is kept in memory
(``hub.stores``). What happened is logged once and shown by ``hub_status``.

Start-up: ``children`` (``hub.spawn.spawn_servers``) are stdio servers already running, handed to
their supervisors. With a store on disk, ``catalog.json`` there (``hub.downstream.catalog_cache``) holds the
last run's tool lists: servers whose config is unchanged start warm (``Pool.warm_start``), and
their live lists replace the file's entries. An ephemeral hub (``check``, ``tools``) always lists
live.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio.from_thread

from context_mode.calls import FILE_NAME as CALLS_FILE
from context_mode.calls import CallLog
from context_mode.feedback import FILE_NAME as FEEDBACK_FILE
from context_mode.feedback import FeedbackBook
from context_mode.memory import MemoryPolicy, Project, SessionMemory, resolve_project
from hub.config import HubConfig
from hub.downstream import FILE_NAME, Child, Downstream, ToolCache
from hub.errors import ConfigError
from hub.policy_config import feedback_bounds
from hub.serve import HubService, list_bytes
from hub.stores import OpenedStore, open_store
from tools.context_tools import context_tools
from tools.doc_tools import doc_tools
from tools.feedback import feedback_tool
from tools.status import HubSnapshot, ServerRow, status_tool

log = logging.getLogger("ctxhub.app")


@contextmanager
def open_hub(
    config: HubConfig,
    *,
    ephemeral: bool = False,
    errlog: Any = None,
    children: Mapping[str, Child] | None = None,
) -> Iterator[HubService]:
    opened = open_store(config, ephemeral=ephemeral)
    store = opened.store
    if opened.notice:
        log.warning("%s", opened.notice)
    elif not ephemeral:
        log.info("store: %s", opened.location)
    llm = _llm(config)
    with ExitStack() as cleanup:
        cleanup.callback(store.close)
        if llm is not None:
            cleanup.callback(llm.close)
        if store.path is not None:
            # The configured store's sessions, also when this hub fell back to a sibling store:
            # hubs of one project share its memory (appends are safe across processes).
            sessions = config.store_path() / "sessions"
        else:
            sessions = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="ctxhub-memory-")))
        memory = SessionMemory(
            sessions, _memory_policy(config), summarizer=llm, mask=store.mask, project=_project(config)
        )
        if llm is not None:
            _calibrate_in_background(llm, memory, store.path / "llm_calibration.json" if store.path else None)
        roots = [Path(root).expanduser() for root in config.ingest_roots]
        holder: list[HubService] = []
        natives = [
            *doc_tools(store, ingest_roots=roots, allow_hardlinks=config.ingest_allow_hardlinks),
            *context_tools(memory),
            status_tool(lambda: snapshot(holder[0], opened)),
            feedback_tool(lambda tool, verdict, note: give_feedback(holder[0], tool, verdict, note)),
        ]
        stats_path = store.path / "stats.json" if store.path is not None else None
        feedback = FeedbackBook(
            store.path / FEEDBACK_FILE if store.path is not None else None,
            bounds=feedback_bounds(config),
            mask=store.mask,
        )
        calls = None
        if store.path is not None and config.store.call_log:
            calls = CallLog(store.path / CALLS_FILE, max_records=config.store.call_log, mask=store.mask)
        service = HubService(
            config,
            store=store,
            native_tools=natives,
            errlog=errlog,
            stats_path=stats_path,
            llm=llm,
            feedback=feedback,
            calls=calls,
        )
        holder.append(service)
        service.pool.adopt(children or {})
        if store.path is not None:
            service.pool.warm_start(ToolCache.load(store.path / FILE_NAME))
        yield service


def _calibrate_in_background(llm: Any, memory: SessionMemory, cache: Path | None) -> None:
    """Measure the endpoint's characters per token once (cached on disk) without delaying start-up."""
    key = f"{llm.url}|{llm.model}"

    def work() -> None:
        try:
            known = json.loads(cache.read_text(encoding="utf-8")) if cache and cache.is_file() else {}
        except (OSError, ValueError):
            known = {}
        if isinstance(known.get(key), int | float):
            memory.chars_per_token = float(known[key])
            return
        value = llm.calibrate()
        memory.chars_per_token = value
        if cache is not None:
            try:
                cache.write_text(json.dumps({**known, key: value}), encoding="utf-8")
            except OSError as exc:
                log.debug("could not cache the calibration in %s: %s", cache, exc)

    threading.Thread(target=work, name="ctxhub-llm-calibration", daemon=True).start()


def _memory_policy(config: HubConfig) -> MemoryPolicy:
    memory = config.memory
    options: dict[str, Any] = {
        "budget": memory.budget,
        "window": memory.window,
        "max_protected": memory.max_protected,
    }
    if memory.protected_keywords is not None:
        options["protected_keywords"] = tuple(memory.protected_keywords)
    options.update(project_budget=memory.project_budget, promote=memory.promote)
    return MemoryPolicy(**options)


def _project(config: HubConfig) -> Project:
    """``memory.project``, else the git root of ``$CTXHUB_WORKSPACE`` (or the working directory)."""
    workspace = Path(os.environ.get("CTXHUB_WORKSPACE") or ".")
    try:
        return resolve_project(config.memory.project, workspace)
    except ValueError as exc:
        raise ConfigError(f"{config.source}: {exc}") from exc


def _llm(config: HubConfig) -> Any:
    llm = config.summarizer.llm
    if llm is None:
        return None
    from hub.llm import LLMSummarizer

    return LLMSummarizer(llm.base_url, llm.model, timeout=llm.timeout, api_key=llm.api_key)


def give_feedback(service: HubService, tool: str, verdict: str, note: str | None) -> str:
    """``hub_feedback``: record the verdict, then clear the server's cached reads on the event loop."""

    def forget(server: str) -> None:
        try:
            anyio.from_thread.run_sync(service.cache.invalidate, server)
        except RuntimeError:  # not called from a worker thread (tests, in-process use): no loop to defer to
            service.cache.invalidate(server)

    return service.policies.give_feedback(
        tool, verdict, note, table=service.pool.tool_table(), native=service.native, forget=forget
    )


def snapshot(service: HubService, opened: OpenedStore | None = None) -> HubSnapshot:
    totals = service.stats.totals()
    per_tool = service.stats.per_tool()
    top = sorted(
        ((name, entry.calls, entry.bytes_saved) for name, entry in per_tool.items()), key=lambda row: -row[2]
    )
    store_view = dataclasses.asdict(service.store.stats())
    listed = service.listed_tools()
    return HubSnapshot(
        uptime_seconds=time.time() - service.started,
        servers=[
            ServerRow(
                d.name,
                d.transport,
                d.state,
                len(d.tools),
                d.startup_seconds,
                d.restarts,
                _problem(d, service.pool.list_wait),
            )
            for d in service.pool.downstreams.values()
        ],
        tools_exposed=len(service.pool.tool_table()) + len(service.native),
        calls=totals.calls,
        bytes_in=totals.bytes_in,
        bytes_out=totals.bytes_out,
        cache_entries=len(service.cache),
        cache_hits=service.cache.hits,
        modes=totals.modes,
        store=store_view,
        top_tools=top,
        store_location=opened.location if opened else "",
        store_notice=(opened.notice or "") if opened else "",
        tools_listed=len(listed),
        reload_error=service.reload_error or "",
        list_bytes=list_bytes(listed),
        policies=service.policies.rows(service.pool.tool_table(), service.stats),
    )


def _problem(downstream: Downstream, list_wait: float) -> str | None:
    """A server's last error, or that it is late: still starting after list calls stopped waiting."""
    waited = time.monotonic() - downstream.attempt_started
    if downstream.state == "starting" and waited > list_wait:
        return (
            f"late: no answer to initialize after {waited:.0f} s (gives up at "
            f"servers.{downstream.name}.startup_timeout = {downstream.config.startup_timeout:g} s); "
            "its tools are added with tools/list_changed when it answers"
        )
    return downstream.last_error
