"""The words of a tool's name, and what they say about the tool.

Contract: ``tool_words(name)`` splits a tool name on ``_ - . / :`` and spaces and at camelCase
boundaries (``getUserLogs`` -> ``get user logs``), lowercased, in order. Name-based defaults
(which tools are read-only, which are log tools) test whole words, so ``login``,
``catalog_update`` and ``test_tool_with_logging`` are not log tools and ``target_deploy`` is not a
``get`` tool. ``MUTATING_WORDS`` are verbs that mark a tool as changing something: a name holding
one is never treated as read-only by name.
"""

from __future__ import annotations

import re

_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

READ_WORDS = (
    "search", "read", "get", "list", "log", "logs", "status", "show", "diff", "find",
    "describe", "view", "lookup", "inspect", "grep", "fetch",
)  # fmt: skip
MUTATING_WORDS = frozenset(
    """
    add append apply approve archive cancel checkout click clear clone close commit create
    delete deploy disable drop edit enable evaluate exec execute fill fork init insert install
    invoke kill lock login logout merge modify move navigate patch post press publish pull push
    put remove rename replace reset restart revert run save select send set start stage stop
    submit sync trigger type uninstall unlock unstage update upload upsert write
    """.split()
)
LOG_WORDS = frozenset({"log", "logs", "logcat", "journal", "journalctl"})


def tool_words(name: str) -> list[str]:
    """The lowercased words of ``name`` (``git__read_file`` -> ``["git", "read", "file"]``)."""
    return [part.lower() for part in _PARTS.findall(name)]


def is_log_tool(name: str) -> bool:
    """Whether the name says the tool returns logs (``read_log``, ``getBuildLogs``, ``logcat``)."""
    return any(word in LOG_WORDS for word in tool_words(name))
