"""``status.json`` in the store directory: the downstream servers' state, for readers in other processes.

Contract: ``server_rows(service)`` lists each downstream's name, transport, state, tools, restarts,
start-up time and last error (what ``hub_status`` shows); ``save_status(service, path)`` writes
them with the time and the hub's pid atomically (best effort: an ``OSError`` is logged at DEBUG).
The hub writes it with ``stats.json`` and whenever a server's tool list changes; ``ctxhub
dashboard`` reads it.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("ctxhub.service")


def server_rows(service: Any) -> list[dict[str, Any]]:
    return [
        {
            "name": downstream.name,
            "transport": downstream.transport,
            "state": downstream.state,
            "tools": sorted(downstream.tools),
            "restarts": downstream.restarts,
            "startup_seconds": downstream.startup_seconds,
            "last_error": downstream.last_error,
        }
        for downstream in service.pool.downstreams.values()
    ]


def save_status(service: Any, path: Path) -> None:
    body = {"servers": server_rows(service), "updated": time.time(), "pid": os.getpid()}
    temporary = path.with_suffix(".tmp-status")
    try:
        temporary.write_text(json.dumps(body), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        log.debug("could not save the servers' status to %s: %s", path, exc)
