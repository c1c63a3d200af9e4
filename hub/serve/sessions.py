"""Which client session a request belongs to, so repeats and deltas refer only to what it was shown.

Contract: ``ClientSessions.key(ctx)`` returns a short id (``"c1"``, ``"c2"``…) that is the same for
every request of one client session and differs between sessions, or ``None`` when the request
has no session to remember anything in. A session is the channel the SDK's ``Connection`` sends
on (``Connection.outbound``): one per handshake-era connection (a stdio client, one streamable
HTTP ``Mcp-Session-Id``, one SSE stream) and one per 2026-07-28 stdio client (whose ``Connection``
is rebuilt for every request around the same channel). A 2026-07-28 request over HTTP has no
channel and no session (every request stands alone): ``None``, so it is never answered with a
repeat or a delta. Channels are held weakly; an id is never reused.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

from mcp.server import ServerRequestContext


class ClientSessions:
    """Stable ids for the client sessions seen, weakly keyed by their channel."""

    def __init__(self) -> None:
        self._ids: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
        self._numbers = itertools.count(1)

    def key(self, ctx: ServerRequestContext[Any]) -> str | None:
        connection = getattr(ctx.session, "_connection", None)  # the SDK's only per-connection handle
        if connection is None or not connection.has_standalone_channel:
            return None
        channel = connection.outbound
        try:
            found = self._ids.get(channel)
            if found is None:
                found = self._ids[channel] = f"c{next(self._numbers)}"
        except TypeError:  # a channel that cannot be weakly referenced: no session to remember in
            return None
        return found
