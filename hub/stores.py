"""Choosing and opening the hub's store: the default path and its siblings, a damaged store, no disk.

Contract:

- ``open_store(config, ephemeral=False) -> OpenedStore``. Without ``store.path`` in the config the
  candidates are the default directory and its siblings ``store-2`` … ``store-9``: one held by
  another running hub is skipped (several Claude Code windows each run a hub). A configured
  ``store.path`` that is held is a ``ConfigError``.
- The store is a cache, so it never stops the hub. A store that cannot be opened for any other
  reason (a garbled ``index/meta.json``, a truncated segment, ``spill/`` replaced by a file, an
  unreadable directory) is renamed to ``<name>.damaged-<UTC time>`` beside it, its session notes
  (``sessions/``, not a cache) are moved back into the fresh store opened in its place.
- When no store can be opened on disk (a read-only filesystem, a file where a directory must be),
  the hub serves with a store in memory: Direct and Summary results work, refs work until the hub
  exits, nothing is persisted.
- ``OpenedStore.notice`` says what happened in one sentence (None when nothing did); the hub logs
  it once at WARNING and ``hub_status`` shows it. ``OpenedStore.location`` names the store in use.
- ``reading_paths(config)``: the store directories the CLI's ``show``/``search``/``stats`` read,
  the configured one, or the default one and every sibling that holds an index;
  ``open_for_reading`` opens them read-only and ``find_ref`` names the one holding a ref.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context_mode.errors import RefEvicted, StoreError, StoreLocked
from context_mode.store import Store
from hub.config import HubConfig
from hub.errors import ConfigError, UsageError

log = logging.getLogger("ctxhub.store")
ALTERNATE_STORES = 8
# store.max_bytes bounds what the store has on disk (index, ledger, journal, its spill files;
# context_mode.store.disk); one payload may take at most half of it, its index the rest.
LARGEST_PAYLOAD_SHARE = 2
IN_MEMORY = "in memory (not persisted)"
_REASON_CHARS = 160
_STORE_MARKERS = ("index", "ledger.json", "store.lock", "reserved.log")


@dataclass(frozen=True)
class OpenedStore:
    store: Store
    location: str
    notice: str | None = None


def store_options(config: HubConfig) -> dict[str, Any]:
    return {
        "max_bytes": max(1024, config.store.max_bytes // LARGEST_PAYLOAD_SHARE),
        "disk_max_bytes": max(2048, config.store.max_bytes),
        "max_age": config.store.max_age,
        "mask_secrets": config.store.mask_secrets,
    }


def spill_dir(config: HubConfig) -> Path | None:
    return Path(config.store.spill_dir).expanduser() if config.store.spill_dir else None


def candidate_paths(config: HubConfig) -> list[Path]:
    """The store directories this hub may use, in order of preference."""
    base = config.store_path()
    if config.store.path:
        return [base]
    return [base, *(base.with_name(f"{base.name}-{n}") for n in range(2, ALTERNATE_STORES + 2))]


def reading_paths(config: HubConfig) -> list[Path]:
    """The store directories to read from: the configured one, or the default one and its siblings."""
    paths = candidate_paths(config)
    if config.store.path:
        return paths
    found = [path for path in paths if (path / "index").is_dir()]
    return found or paths[:1]


def open_for_reading(config: HubConfig) -> list[Store]:
    """Every store ``reading_paths`` names, read-only (running hubs may own them); at least one."""
    spill = spill_dir(config)
    stores: list[Store] = []
    errors: list[str] = []
    for path in reading_paths(config):
        try:
            stores.append(Store(path, spill_dir=spill, read_only=True))
        except StoreError as exc:
            errors.append(str(exc))
    if not stores:
        raise UsageError(errors[0] if errors else "there is no store to read; run the hub first")
    return stores


def find_ref(stores: list[Store], ref: str) -> Store:
    """The store that holds ``ref`` live; else the error of the first store that remembers it."""
    failures: list[StoreError] = []
    for store in stores:
        try:
            store.document(ref)
        except StoreError as exc:
            failures.append(exc)
        else:
            return store
    evicted = next((exc for exc in failures if isinstance(exc, RefEvicted)), None)
    if evicted is not None:
        raise UsageError(str(evicted)) from evicted
    where = ", ".join(str(store.path) for store in stores)
    raise UsageError(f"{str(failures[0]).split(';')[0]} (looked in {where}); use a ref from a recent result")


def open_store(config: HubConfig, *, ephemeral: bool = False) -> OpenedStore:
    options = store_options(config)
    spill = spill_dir(config)
    if ephemeral:
        return OpenedStore(Store(None, spill_dir=spill, **options), IN_MEMORY)
    candidates = candidate_paths(config)
    skipped: list[Path] = []
    for path in candidates:
        try:
            store = Store(path, spill_dir=spill, **options)
        except StoreLocked as exc:
            if config.store.path:
                raise ConfigError(str(exc)) from exc
            log.info("store %s is in use by another hub; trying the next one", path)
            skipped.append(path)
            continue
        except Exception as exc:  # a cache must not stop the hub: move it aside, start afresh
            return _replace_damaged(path, exc, spill, options)
        notice = None
        if skipped:
            notice = (
                f"the store {skipped[0]} is in use by another hub, so this hub uses {path} "
                "(ctxhub show/search/stats read both)"
            )
        return OpenedStore(store, str(path), notice)
    raise ConfigError(
        f"every default store directory next to {candidates[0]} is in use by another ctxhub; "
        "set store.path in the config to a directory of its own"
    )


def _replace_damaged(
    path: Path, error: Exception, spill: Path | None, options: dict[str, Any]
) -> OpenedStore:
    reason = _reason(error)
    if not any((path / marker).exists() for marker in _STORE_MARKERS):  # not a store: never move it
        return _in_memory(f"the store {path} cannot be used ({reason})", spill, options)
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    try:
        path.rename(aside)
    except OSError:
        return _in_memory(f"the store {path} cannot be used ({reason})", spill, options)
    _recover_sessions(aside, path)
    try:
        store = Store(path, spill_dir=spill, **options)
    except Exception as exc:
        what = f"the store {path} could not be opened ({reason}; moved to {aside})"
        return _in_memory(f"{what}, and a fresh one failed too ({_reason(exc)})", spill, options)
    notice = f"the store {path} could not be opened ({reason}); moved it to {aside} and started a fresh one"
    return OpenedStore(store, str(path), notice)


def _in_memory(what: str, spill: Path | None, options: dict[str, Any]) -> OpenedStore:
    try:
        store = Store(None, spill_dir=spill, **options)
    except Exception:
        if spill is None:
            raise ConfigError(f"{what}, and no temporary directory is writable; free some space") from None
        store = Store(None, **options)  # the configured spill_dir is unusable too: spill to a temp dir
    notice = f"{what}; serving with a store in memory: refs last until the hub exits (fix or move store.path)"
    return OpenedStore(store, IN_MEMORY, notice)


def _recover_sessions(aside: Path, fresh: Path) -> None:
    """Session notes are the user's, not a cache: carry them over into the fresh store."""
    sessions = aside / "sessions"
    if not sessions.is_dir():
        return
    with contextlib.suppress(OSError):
        fresh.mkdir(mode=0o700, parents=True, exist_ok=True)
        sessions.rename(fresh / "sessions")


def _reason(error: Exception) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 1] + "…"
