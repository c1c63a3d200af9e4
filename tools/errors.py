"""Errors raised by native tools; the hub turns each into an ``isError`` result with its message.

ToolError                 base: the call could not be served
├── ToolInputError        the caller's fault: bad argument, path outside the roots, unknown ref
└── ToolUnavailableError  the hub's fault or state: a store that is closed or not configured
"""

from __future__ import annotations


class ToolError(Exception):
    """A native tool could not serve the call; the message is one sentence with the fix."""


class ToolInputError(ToolError):
    """The call's arguments are at fault (bad value, refused path, unknown or evicted ref)."""


class ToolUnavailableError(ToolError):
    """The tool cannot run in this hub's state (for example, no store configured)."""
