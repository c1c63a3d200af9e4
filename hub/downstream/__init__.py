"""The client side of the proxy: everything that talks to downstream MCP servers.

One supervisor task per server owns its client session (``supervisor``: start, initialise, list,
reconnect with capped backoff, translate failures into ``DownstreamError``s via ``failures``);
stdio servers are spawned early and stopped with their process group (``spawn``,
``stdio_client``); remote ones open SSE or streamable HTTP (``transports``). ``Pool`` runs them
all and keeps the table of exposed names (``naming``); ``Catalog`` merges their resources,
templates and prompts; ``ToolCache`` remembers tool lists for a warm start (``catalog_cache``).

Exports below; the modules are private to this part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hub.exports import lazy_exports

if TYPE_CHECKING:
    from hub.downstream.catalog import Catalog as Catalog
    from hub.downstream.catalog import Entry as Entry
    from hub.downstream.catalog import ItemT as ItemT
    from hub.downstream.catalog_cache import (
        FILE_NAME as FILE_NAME,
    )
    from hub.downstream.catalog_cache import (
        ToolCache as ToolCache,
    )
    from hub.downstream.catalog_cache import (
        fingerprint as fingerprint,
    )
    from hub.downstream.catalog_cache import (
        warm_servers as warm_servers,
    )
    from hub.downstream.pool import Pool as Pool
    from hub.downstream.pool import Target as Target
    from hub.downstream.spawn import Child as Child
    from hub.downstream.spawn import signal_children as signal_children
    from hub.downstream.spawn import spawn_servers as spawn_servers
    from hub.downstream.stdio_client import (
        first_error as first_error,
    )
    from hub.downstream.stdio_client import (
        scrubbed as scrubbed,
    )
    from hub.downstream.stdio_client import (
        write_all as write_all,
    )
    from hub.downstream.supervisor import Downstream as Downstream
    from hub.downstream.supervisor import ProgressFn as ProgressFn

# Loaded on first use: ``ctxhub serve`` imports ``spawn`` and ``catalog_cache`` (standard library
# only) and starts its stdio servers before the MCP SDK is loaded.
_EXPORTS = {
    "Catalog": "catalog",
    "Child": "spawn",
    "Downstream": "supervisor",
    "Entry": "catalog",
    "FILE_NAME": "catalog_cache",
    "fingerprint": "catalog_cache",
    "ItemT": "catalog",
    "Pool": "pool",
    "ProgressFn": "supervisor",
    "Target": "pool",
    "ToolCache": "catalog_cache",
    "first_error": "stdio_client",
    "scrubbed": "stdio_client",
    "signal_children": "spawn",
    "spawn_servers": "spawn",
    "warm_servers": "catalog_cache",
    "write_all": "stdio_client",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)
