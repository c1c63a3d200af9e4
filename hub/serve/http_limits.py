"""Bounds that keep the HTTP hub serving under connection floods: a cap per transport, quieter logs, fds.

Contract: ``ConnectionLimits(max_connections)`` counts the open requests of each transport
(``/sse`` streams as ``sse``, ``/mcp`` requests as ``http``; other paths are not counted) and
``admit(path)`` says whether one more may open (``release`` when it ends); past the cap the app
answers ``503`` with ``Retry-After`` and a message naming ``http.max_connections``, so a flood
of idle SSE clients cannot take every file descriptor and freeze every other client.
``RepeatFilter`` is a ``logging.Filter`` that lets an identical message through once per
``interval`` seconds and says how many were held back (an fd shortage makes asyncio and uvicorn
log the same accept error thousands of times a second). ``raise_fd_limit()`` raises the soft
``RLIMIT_NOFILE`` to the hard limit and returns the new soft limit (None where it cannot).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

DEFAULT_MAX_CONNECTIONS = 1000
RETRY_AFTER_SECONDS = 5
_TRANSPORTS = {"/sse": "sse", "/mcp": "http"}


class ConnectionLimits:
    """Open requests per transport, each bounded by ``max_connections``."""

    def __init__(self, max_connections: int = DEFAULT_MAX_CONNECTIONS) -> None:
        self.max_connections = max_connections
        self.open = dict.fromkeys(_TRANSPORTS.values(), 0)
        self.refused = dict.fromkeys(_TRANSPORTS.values(), 0)

    def transport_of(self, path: str) -> str | None:
        return _TRANSPORTS.get(path.rstrip("/") or "/")

    def admit(self, transport: str) -> bool:
        if self.open[transport] >= self.max_connections:
            self.refused[transport] += 1
            return False
        self.open[transport] += 1
        return True

    def release(self, transport: str) -> None:
        self.open[transport] -= 1

    def refusal(self, transport: str) -> str:
        name = "SSE streams" if transport == "sse" else "streamable-HTTP requests"
        return (
            f"ctxhub already serves {self.max_connections} concurrent {name}; retry later, close idle "
            "clients, or raise http.max_connections in config.yaml"
        )


class RepeatFilter(logging.Filter):
    """Pass each distinct message at most once per ``interval`` seconds, noting how many were held."""

    def __init__(self, interval: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._last: dict[tuple[str, object], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        now = self._clock()
        seen = self._last.get(key)
        if seen is not None and now - seen[0] < self.interval:
            self._last[key] = (seen[0], seen[1] + 1)
            return False
        held = seen[1] if seen is not None else 0
        if held:
            record.msg = f"{record.msg} ({held} more like it in the last {self.interval:g} s not logged)"
        if len(self._last) > 1000:
            self._last.clear()
        self._last[key] = (now, 0)
        return True


def raise_fd_limit() -> int | None:
    """Raise the soft open-files limit to the hard one; the soft limit now, or None if unknown."""
    if resource is None:
        return None
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    except (OSError, ValueError):
        return None
    return int(soft)
