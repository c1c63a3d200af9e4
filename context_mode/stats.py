"""Per-tool counters for ``hub_status`` and ``ctxhub stats``: calls, bytes in and out, modes, hits.

Contract: bounded by the number of distinct tool names recorded (callers record only tools the
hub exposes); ``bytes_saved`` is bytes in minus bytes out, never negative per call. ``bytes_in``
counts what was routed (after field pruning); ``pruned_bytes`` what pruning removed before that,
so ``context_saved`` (pruned plus saved) is what the downstream sent minus what the agent got.
``note_policy`` keeps the budget a tool's last result was routed with and where it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ToolStats:
    calls: int = 0
    errors: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    cache_hits: int = 0
    modes: dict[str, int] = field(default_factory=dict)
    pruned_bytes: int = 0
    budget: int | None = None
    budget_source: str = ""

    @property
    def bytes_saved(self) -> int:
        return max(0, self.bytes_in - self.bytes_out)

    @property
    def context_saved(self) -> int:
        return self.pruned_bytes + self.bytes_saved


class Stats:
    """Counters per exposed tool name."""

    def __init__(self, max_tools: int = 10_000) -> None:
        self._tools: dict[str, ToolStats] = {}
        self._max_tools = max_tools

    def record(
        self,
        tool: str,
        *,
        mode: str,
        bytes_in: int,
        bytes_out: int,
        cache_hit: bool = False,
        error: bool = False,
    ) -> None:
        entry = self._tools.get(tool)
        if entry is None:
            if len(self._tools) >= self._max_tools:
                return
            entry = self._tools[tool] = ToolStats()
        entry.calls += 1
        entry.errors += int(error)
        entry.bytes_in += bytes_in
        entry.bytes_out += min(bytes_out, bytes_in) if cache_hit else bytes_out
        entry.cache_hits += int(cache_hit)
        entry.modes[mode] = entry.modes.get(mode, 0) + 1

    def note_policy(self, tool: str, *, pruned_bytes: int, budget: int, budget_source: str) -> None:
        """Add the bytes pruning removed from a result of ``tool`` and the budget it was routed with."""
        entry = self._tools.get(tool)
        if entry is None:
            if len(self._tools) >= self._max_tools:
                return
            entry = self._tools[tool] = ToolStats()
        entry.pruned_bytes += pruned_bytes
        entry.budget = budget
        entry.budget_source = budget_source

    def to_json(self) -> dict[str, object]:
        """A plain snapshot for ``stats.json`` (read by ``ctxhub stats``)."""
        tools: dict[str, object] = {
            name: {
                "calls": entry.calls,
                "errors": entry.errors,
                "bytes_in": entry.bytes_in,
                "bytes_out": entry.bytes_out,
                "bytes_saved": entry.bytes_saved,
                "cache_hits": entry.cache_hits,
                "modes": dict(entry.modes),
                "pruned_bytes": entry.pruned_bytes,
                "context_saved": entry.context_saved,
                "budget": entry.budget,
                "budget_source": entry.budget_source,
            }
            for name, entry in sorted(self._tools.items())
        }
        return {"tools": tools}

    def per_tool(self) -> dict[str, ToolStats]:
        return dict(sorted(self._tools.items()))

    def totals(self) -> ToolStats:
        total = ToolStats()
        for entry in self._tools.values():
            total.calls += entry.calls
            total.errors += entry.errors
            total.bytes_in += entry.bytes_in
            total.bytes_out += entry.bytes_out
            total.cache_hits += entry.cache_hits
            total.pruned_bytes += entry.pruned_bytes
            for mode, count in entry.modes.items():
                total.modes[mode] = total.modes.get(mode, 0) + count
        return total
