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
    SNAPSHOT = "snapshot"  # a browser accessibility tree (Playwright MCP's ``[ref=eNN]`` YAML)
    ROWS = "rows"  # a row set: flat records as JSON, Python repr or ``N. row`` blocks
    TREE = "tree"  # a directory tree or a list of paths
    SOURCE = "source"  # source code read from one or more files
    LINT = "lint"  # lint / type-check diagnostics (tsc, ESLint, mypy, ruff, rustc/clippy)
    TEXT = "text"
