"""Core value types shared by the router, the summarisers and the store.

Everything here is a plain value: enums and frozen dataclasses, no I/O.
"""

from __future__ import annotations

from enum import StrEnum


class OutputStyle(StrEnum):
    """How a tool's results may be shaped before they reach the agent (its tag)."""

    DIRECT = "DIRECT"
    SUMMARY = "SUMMARY"
    DIRECTIVE = "DIRECTIVE"
    AUTO = "AUTO"


class ContentKind(StrEnum):
    """What a payload is, which decides how it is summarised and chunked."""

    LOG = "log"
    JSON = "json"
    CODE_SEARCH = "code"
    MARKDOWN = "markdown"
    DIFF = "diff"
    TABLE = "table"
    TEXT = "text"
