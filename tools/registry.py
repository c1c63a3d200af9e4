"""The shape of a native tool: a name, a short prescriptive description, a JSON schema and a sync function.

The hub lists these next to the downstream tools and runs ``run(arguments)`` in a worker thread.
``run`` returns the text for the agent; it raises ``tools.errors.ToolError`` (its message reaches the
agent as an ``isError`` result). Native results are not routed again: they are already sized for context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class NativeTool:
    name: str
    description: str
    input_schema: dict[str, Any]
    run: Callable[[dict[str, Any]], str]
    read_only: bool = True
    annotations: dict[str, Any] = field(default_factory=dict)


def object_schema(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """A JSON-schema object with the given properties that rejects unknown keys."""
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema
