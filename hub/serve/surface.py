"""The tool surface: which tools ``tools/list`` shows, and the two tools that reach the rest.

Config ``tool_surface``: ``mode: all`` lists every exposed tool; ``lazy`` lists the native tools,
the ``pin`` globs' tools and ``hub_find_tools`` / ``hub_call``; ``auto`` (default) is lazy when more
than ``max_tools`` tools would be listed (Cursor stops at 40; every definition costs context on
every model turn). Whatever is listed, every exposed tool can still be called by name.

- ``hub_find_tools(query, limit=5)``: BM25 over exposed names, descriptions and parameter names
  (``context_mode.tool_search``); the matches' names, descriptions and input schemas as JSON.
- ``hub_call(tool, arguments)``: calls an exposed tool by name through the same path as a direct
  call (routing, cache, intent, stats).
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Sequence
from typing import Any

import mcp.types as types

from context_mode.tool_search import ToolDoc, ToolIndex
from hub.config import ToolSurfaceConfig

FIND = "hub_find_tools"
CALL = "hub_call"
NAMES = (FIND, CALL)
MAX_LIMIT = 20
DESCRIPTION_CHARS = 300

FIND_TOOL = types.Tool(
    name=FIND,
    description=(
        "Find hub tools by what they do (not all are listed): returns matching tool names, "
        "descriptions and input schemas; then call one with hub_call."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "what the tool should do, in words"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 5},
        },
        "required": ["query"],
    },
    annotations=types.ToolAnnotations(read_only_hint=True, destructive_hint=False),
)
CALL_TOOL = types.Tool(
    name=CALL,
    description="Call any hub tool by its exact name (from hub_find_tools) with its arguments.",
    input_schema={
        "type": "object",
        "properties": {
            "tool": {"type": "string", "description": "exact tool name, e.g. git__git_log"},
            "arguments": {"type": "object", "description": "the tool's arguments"},
        },
        "required": ["tool"],
    },
    annotations=types.ToolAnnotations(destructive_hint=True),
)


class ToolSurface:
    """Decides the listed tools and answers ``hub_find_tools``."""

    def __init__(self, config: ToolSurfaceConfig) -> None:
        self.config = config
        self._index: tuple[tuple[str, ...], ToolIndex] | None = None

    def is_lazy(self, count: int) -> bool:
        return self.config.mode == "lazy" or (self.config.mode == "auto" and count > self.config.max_tools)

    def listed(self, downstream: Sequence[types.Tool], native: Sequence[types.Tool]) -> list[types.Tool]:
        """The tools ``tools/list`` returns (see the module docstring)."""
        if not self.is_lazy(len(downstream) + len(native)):
            return [*downstream, *native]
        pinned = [
            tool for tool in downstream if any(fnmatch.fnmatchcase(tool.name, g) for g in self.config.pin)
        ]
        return [*pinned, *native, FIND_TOOL, CALL_TOOL]

    def find(self, tools: Sequence[types.Tool], arguments: dict[str, Any]) -> str:
        """The text reply of ``hub_find_tools``: a JSON list of the best matches."""
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ValueError("hub_find_tools needs a 'query': say in words what the tool should do")
        limit = arguments.get("limit", 5)
        limit = max(1, min(int(limit) if isinstance(limit, int | float) else 5, MAX_LIMIT))
        by_name = {tool.name: tool for tool in tools}
        matches = self._index_of(tools).search(query, limit)
        if not matches:
            return f"No tool matches {query!r}; try other words, or `ctxhub tools` for the full list."
        found = [_compact(by_name[name]) for name, _score in matches]
        return json.dumps(found, ensure_ascii=False, separators=(",", ":"))

    def _index_of(self, tools: Sequence[types.Tool]) -> ToolIndex:
        names = tuple(tool.name for tool in tools)
        if self._index is None or self._index[0] != names:
            docs = [
                ToolDoc(
                    tool.name,
                    tool.description or "",
                    tuple((tool.input_schema or {}).get("properties") or ()),
                )
                for tool in tools
            ]
            self._index = (names, ToolIndex(docs))
        return self._index[1]


def list_bytes(tools: Sequence[types.Tool]) -> int:
    """Bytes of the ``tools/list`` JSON of ``tools`` (what a client sends the model every turn)."""
    dumped = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]
    return len(json.dumps(dumped, separators=(",", ":")).encode())


def _compact(tool: types.Tool) -> dict[str, Any]:
    description = (tool.description or "").strip()
    if len(description) > DESCRIPTION_CHARS:
        description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    return {"name": tool.name, "description": description, "input_schema": tool.input_schema}
