"""Session memory: an agent's working notes for a long task, sized for its next turn.

``SessionMemory`` keeps one append-only JSONL log per session (``memory.store``), protects
entries by keyword and pin (``memory.protection``), returns a window of recent and protected
entries or a directive when it would not fit (``memory.views``), compacts old entries into an
extractive or LLM summary (``memory.summary``) and recalls by BM25 and recency
(``memory.search``). Details in ``memory.session``.

Exports: ``SessionMemory``, ``MemoryPolicy`` and the values and errors its callers see.
"""

from __future__ import annotations

from context_mode.errors import MemoryInputError
from context_mode.memory.session import (
    MemoryPolicy,
    RecallHit,
    SessionMemory,
    SessionStatus,
    Window,
    WindowDirective,
)
from context_mode.memory.store import Entry

__all__ = [
    "Entry",
    "MemoryInputError",
    "MemoryPolicy",
    "RecallHit",
    "SessionMemory",
    "SessionStatus",
    "Window",
    "WindowDirective",
]
