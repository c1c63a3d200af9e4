"""Session and project memory: an agent's working notes for a long task, and what its project keeps.

``SessionMemory`` keeps one append-only JSONL log per session (``memory.store``), protects
entries by keyword and pin (``memory.protection``), returns a window of recent and protected
entries or a directive when it would not fit (``memory.views``), compacts old entries into an
extractive or LLM summary (``memory.summary``) and recalls by BM25 and recency
(``memory.search``). Details in ``memory.session``.

With a ``Project`` (``resolve_project``: the configured name, else the workspace's git root), the
sessions of one project share a pool of long-term entries (``memory.project``): a new session
opens with the goals, decisions and constraints earlier sessions left (``memory.project_block``),
and recall can search every session of the project (``memory.recall``).

Exports: ``SessionMemory``, ``MemoryPolicy``, ``resolve_project`` and the values and errors its
callers see.
"""

from __future__ import annotations

from context_mode.errors import MemoryInputError
from context_mode.memory.identity import Project, find_git_root, resolve_project
from context_mode.memory.policy import MemoryPolicy
from context_mode.memory.project import PoolEntry, ProjectPool
from context_mode.memory.project_block import BlockItem, ProjectBlock
from context_mode.memory.session import (
    RecallHit,
    SessionMemory,
    SessionStatus,
    Window,
    WindowDirective,
)
from context_mode.memory.store import Entry

__all__ = [
    "BlockItem",
    "Entry",
    "MemoryInputError",
    "MemoryPolicy",
    "PoolEntry",
    "Project",
    "ProjectBlock",
    "ProjectPool",
    "RecallHit",
    "SessionMemory",
    "SessionStatus",
    "Window",
    "WindowDirective",
    "find_git_root",
    "resolve_project",
]
