"""The ``intent`` argument every proxied tool gains: what the agent is looking for in the result.

``with_intent(tool, name)`` adds an optional string property ``name`` (``routing.intent_argument``,
default ``intent``) to a downstream tool's input schema, unless the tool declares a property of
that name itself (then the tool's own argument is left alone, neither added nor stripped).
``split_intent(arguments, tool, name)`` removes the hub's intent from the arguments before they
are forwarded and returns it; the core aims the summary with it (``summarize_for_intent``).
"""

from __future__ import annotations

from typing import Any

import mcp.types as types

DESCRIPTION = "What you are looking for in the result; the hub keeps matching lines in its summary."


def declares(tool: types.Tool, name: str) -> bool:
    """Whether the downstream tool has its own argument called ``name``."""
    properties = (tool.input_schema or {}).get("properties")
    return isinstance(properties, dict) and name in properties


def with_intent(tool: types.Tool, name: str) -> types.Tool:
    """``tool`` whose input schema also offers the optional ``name`` string."""
    if not name or declares(tool, name):
        return tool
    schema = dict(tool.input_schema or {"type": "object"})
    properties = dict(schema.get("properties") or {})
    properties[name] = {"type": "string", "description": DESCRIPTION}
    schema["properties"] = properties
    schema.setdefault("type", "object")
    return tool.model_copy(update={"input_schema": schema})


def split_intent(arguments: dict[str, Any], tool: types.Tool, name: str) -> tuple[dict[str, Any], str]:
    """The arguments to forward (the hub's intent removed) and the intent (``""`` when none)."""
    if not name or name not in arguments or declares(tool, name):
        return arguments, ""
    forwarded = {key: value for key, value in arguments.items() if key != name}
    value = arguments[name]
    return forwarded, value.strip() if isinstance(value, str) else ""
