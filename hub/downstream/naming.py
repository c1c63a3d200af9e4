"""Exposed tool names: ``<namespace>__<tool>``, safe for every client.

A ``passthrough`` server has the empty namespace: its tools keep their own (sanitised) names and,
sorting first, win collisions. Prompts are named the same way.

Contract: ``assign_names`` maps every (server, tool) pair to a unique name that matches
``[A-Za-z0-9_-]{1,64}`` (Claude Code's limit). Unsafe characters become ``_``; a name longer than
64 characters is cut and gets a stable 8-character hash suffix; a collision (after sanitising,
or with a native tool) is resolved deterministically, in sorted (namespace, tool) order, by a
hash suffix. The same inputs always give the same names.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable

MAX_NAME = 64
SEPARATOR = "__"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
log = logging.getLogger("ctxhub.naming")


def sanitize(text: str) -> str:
    return _UNSAFE.sub("_", text) or "_"


def _suffixed(base: str, key: str) -> str:
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    return f"{base[: MAX_NAME - 9]}_{digest}"


def exposed_name(namespace: str, tool: str) -> str:
    """The preferred exposed name for one tool, before collisions are resolved (no prefix if no namespace)."""
    name = f"{sanitize(namespace)}{SEPARATOR}{sanitize(tool)}" if namespace else sanitize(tool)
    if len(name) > MAX_NAME:
        name = _suffixed(name, f"{namespace}\0{tool}")
    return name


Key = tuple[str, str, str]  # (namespace, tool, owning server)


def assign_names(keys: Iterable[Key], reserved: Iterable[str] = ()) -> dict[Key, str]:
    """Map (namespace, tool, server) keys to unique exposed names, avoiding ``reserved`` names."""
    taken = set(reserved)
    names: dict[Key, str] = {}
    for namespace, tool, server in sorted(set(keys)):
        name = exposed_name(namespace, tool)
        attempt = 0
        while name in taken:
            attempt += 1
            name = _suffixed(exposed_name(namespace, tool), f"{namespace}\0{tool}\0{server}\0{attempt}")
        if attempt:
            log.warning(
                "tool name collision: %s/%s (server %s) is exposed as %s", namespace, tool, server, name
            )
        taken.add(name)
        names[(namespace, tool, server)] = name
    return names
