"""Errors of the hub, split by whose fault they are.

    HubError                    base of everything the hub raises on purpose
    ├── ConfigError             the user's config.yaml is wrong (names file, key path, value, fix)
    ├── UsageError              a CLI or tool call is wrong (unknown tool, bad --args JSON)
    └── DownstreamError         a downstream server failed; becomes an ``isError`` result, never a crash
        ├── DownstreamUnavailable   not started, restarting or failed to start
        ├── DownstreamTimeout       did not answer within its timeout
        └── DownstreamCrashed       closed the connection during a call

Messages are one sentence that names the thing at fault and the fix.
"""

from __future__ import annotations


class HubError(Exception):
    """Base of the hub's own errors."""


class ConfigError(HubError):
    """config.yaml (or the command line) holds a bad key or value."""


class UsageError(HubError):
    """A command-line or tool call asked for something that does not exist or is malformed."""


class DownstreamError(HubError):
    """A downstream MCP server failed to serve a call."""


class DownstreamUnavailable(DownstreamError):
    """The downstream is not connected (starting, restarting, failed or disabled)."""


class DownstreamTimeout(DownstreamError):
    """The downstream did not answer within its configured timeout."""


class DownstreamCrashed(DownstreamError):
    """The downstream closed its connection while a call was in flight."""
