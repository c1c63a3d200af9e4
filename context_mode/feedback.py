"""The agent's feedback on each tool's summaries, kept across restarts in one small JSON file.

Contract: ``FeedbackBook(path, bounds=...)`` loads ``path`` (a missing file is an empty book; a
damaged one is logged and ignored, never fatal; ``None`` keeps the book in memory only).
``record(tool, verdict, note, budget=...)`` counts a ``lost_info`` or ``too_long`` verdict for an
exposed tool name, moves the tool's factor (``context_mode.budgets.next_factor``: ×1.5 or ×0.67 of
the current budget, within the bounds) and rewrites the file atomically (a temporary file, then
``os.replace``) before it returns. ``factor(tool)`` is what the next result of that tool is scaled
by. At most ``MAX_TOOLS`` tools are kept (the least recently updated go first); notes are cut to
``MAX_NOTE_CHARS`` and masked with ``mask`` before they are kept. Safe to use from several threads.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from context_mode.budgets import FACTORS, LOST_INFO, TOO_LONG, Bounds, adjust, next_factor

log = logging.getLogger("ctxhub.feedback")

FILE_NAME = "feedback.json"
MAX_TOOLS = 2_000
MAX_NOTE_CHARS = 300
VERSION = 1


@dataclass(frozen=True, slots=True)
class ToolFeedback:
    """What the agent said about one tool, and the factor its budget is scaled by."""

    lost_info: int = 0
    too_long: int = 0
    factor: float = 1.0
    note: str = ""
    updated: float = 0.0
    budget: int = 0  # the budget this factor gave when it was last moved (shown by `ctxhub stats`)

    def scaled(self, configured: int, bounds: Bounds) -> int:
        """``configured`` scaled by this tool's factor, within ``bounds``."""
        return adjust(configured, self.factor, bounds)


class FeedbackBook:
    """Per-tool feedback counts and budget factors, persisted in ``path``."""

    def __init__(
        self,
        path: Path | None,
        *,
        bounds: Bounds | None = None,
        clock: Callable[[], float] = time.time,
        mask: Callable[[str], str] | None = None,
    ) -> None:
        self.path = path
        self.bounds = bounds or Bounds()
        self._clock = clock
        self._mask = mask
        self._lock = threading.Lock()
        self._tools: dict[str, ToolFeedback] = self._load()

    def factor(self, tool: str) -> float:
        entry = self._tools.get(tool)
        return entry.factor if entry is not None else 1.0

    def get(self, tool: str) -> ToolFeedback | None:
        return self._tools.get(tool)

    def entries(self) -> dict[str, ToolFeedback]:
        with self._lock:
            return dict(sorted(self._tools.items()))

    def record(self, tool: str, verdict: str, note: str | None = None, *, budget: int) -> ToolFeedback:
        """Count ``verdict`` for ``tool`` whose configured budget is ``budget``; return the new entry."""
        if verdict not in FACTORS:
            raise ValueError(f"verdict {verdict!r} is unknown; pass one of {', '.join(sorted(FACTORS))}")
        text = (note or "").strip()[:MAX_NOTE_CHARS]
        if text and self._mask is not None:
            text = self._mask(text)
        with self._lock:
            entry = self._tools.pop(tool, None) or ToolFeedback()
            factor = next_factor(budget, entry.factor, verdict, self.bounds)
            entry = replace(
                entry,
                lost_info=entry.lost_info + (verdict == LOST_INFO),
                too_long=entry.too_long + (verdict == TOO_LONG),
                factor=factor,
                note=text or entry.note,
                updated=self._clock(),
                budget=adjust(budget, factor, self.bounds),
            )
            self._tools[tool] = entry
            while len(self._tools) > MAX_TOOLS:
                del self._tools[min(self._tools, key=lambda name: self._tools[name].updated)]
            self._save()
        return entry

    def _load(self) -> dict[str, ToolFeedback]:
        if self.path is None or not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            tools = data["tools"]
            loaded = {
                str(name): ToolFeedback(
                    lost_info=int(entry.get("lost_info", 0)),
                    too_long=int(entry.get("too_long", 0)),
                    factor=float(entry.get("factor", 1.0)),
                    note=str(entry.get("note", "")),
                    updated=float(entry.get("updated", 0.0)),
                    budget=int(entry.get("budget", 0)),
                )
                for name, entry in tools.items()
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("ignoring the damaged feedback file %s (%s); feedback starts afresh", self.path, exc)
            return {}
        return {name: entry for name, entry in loaded.items() if 0 < entry.factor < 1e6}

    def _save(self) -> None:
        if self.path is None:
            return
        payload: dict[str, Any] = {
            "version": VERSION,
            "tools": {name: asdict(entry) for name, entry in sorted(self._tools.items())},
        }
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            temporary.write_text(json.dumps(payload, indent=1, ensure_ascii=False), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as exc:  # feedback still applies in this run; say why it will not survive
            log.warning("could not save feedback to %s (%s); it applies until the hub stops", self.path, exc)
            temporary.unlink(missing_ok=True)
