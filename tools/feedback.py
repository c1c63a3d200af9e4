"""``hub_feedback``: the agent says a tool's summaries lose information or run too long.

Contract: ``feedback_tool(record)`` wraps ``record(tool, verdict, note)``, which the hub provides
(``hub.serve.policies.ToolPolicies.give_feedback``): it moves that tool's stage-1 budget (×1.5 for
``lost_info``, ×0.67 for ``too_long``, within the configured bounds), keeps it across restarts and
returns the sentence the agent gets. This module only checks the arguments' shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools.errors import ToolInputError
from tools.registry import NativeTool, object_schema

VERDICTS = ("lost_info", "too_long")
MAX_NOTE_CHARS = 2000


def feedback_tool(record: Callable[[str, str, str | None], str]) -> NativeTool:
    def run(arguments: dict[str, Any]) -> str:
        tool = arguments.get("tool")
        verdict = arguments.get("verdict")
        note = arguments.get("note")
        if not isinstance(tool, str) or not tool.strip():
            raise ToolInputError("pass 'tool': the exposed name of the tool, such as 'github__list_issues'")
        if verdict not in VERDICTS:
            raise ToolInputError(f"verdict {verdict!r} is unknown; pass 'lost_info' or 'too_long'")
        if note is not None and not isinstance(note, str):
            raise ToolInputError("'note' must be a string (what was missing or too long), or left out")
        if note is not None and len(note) > MAX_NOTE_CHARS:
            raise ToolInputError(f"'note' has {len(note)} characters; keep it under {MAX_NOTE_CHARS}")
        return record(tool.strip(), verdict, note)

    return NativeTool(
        name="hub_feedback",
        description=(
            "Call right after a ctxhub summary of a tool's result left out details you needed "
            "(verdict lost_info: that tool's later results get 1.5× the room) or was longer than useful "
            "(too_long: 0.67×)."
        ),
        input_schema=object_schema(
            {
                "tool": {
                    "type": "string",
                    "description": "the exposed tool name, e.g. 'github__list_issues'",
                },
                "verdict": {"type": "string", "enum": list(VERDICTS)},
                "note": {"type": "string", "description": "optional: what was missing or too long"},
            },
            required=("tool", "verdict"),
        ),
        run=run,
        read_only=False,
    )
