"""``go test -json`` event streams: one JSON object per line, summarised by the failing tests.

``go_test_picks(lines)`` returns ``None`` unless the lines are such a stream (the first non-blank
line is an event object with an ``"Action"``). Otherwise it reads each event line once and
returns, for ``packing.pack``, picks of verbatim event lines:

- package results (``"Output":"FAIL\\tgithub.com/x/y\\t0.012s\\n"``, ``ok``) first;
- then each failing test's ``output`` events (its ``--- FAIL`` line, assertion messages with
  their ``file_test.go:52:`` locations, panics), the first and last two of every failing test
  before the rest, so thirteen failures show thirteen messages before any one test's middle;
- then the ``_SLOWEST`` slowest tests' result events (``"Action":"pass","Test":"TestX",
  "Elapsed":0.29``: where a run's time goes) and its skipped tests' result events;
- the first event line (the first package) last.

Other passing tests and ``=== RUN`` chatter are left out. Linear: one ``json.loads`` per line.
"""

from __future__ import annotations

import heapq
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.summaries.packing import Pick

_CHATTER = ("=== RUN", "=== PAUSE", "=== CONT", "=== NAME")
# The first and last output lines of each failing test come before any test's other lines (the
# last ones are its final mismatch and its ``--- FAIL`` line).
_FIRST_LINES = 2
_LAST_LINES = 2
_MAX_LINES = 60
_SLOWEST = 3  # the slowest tests shown
_SKIPPED = 5  # the skipped tests shown


@dataclass(frozen=True, slots=True)
class GoTestRun:
    """The picks of a ``go test -json`` stream, and what the outline needs."""

    picks: list[Pick]
    failing: int
    passed: int
    skipped: int
    messages: int  # failing tests' output lines worth showing (sizes the budget)
    events: int


def go_test_picks(lines: Sequence[str]) -> GoTestRun | None:
    """The picks for a ``go test -json`` stream, or ``None`` when ``lines`` are not one."""
    first = next((i for i, line in enumerate(lines[:20]) if line.strip()), None)
    if first is None or not _is_event(lines[first]):
        return None
    outputs: dict[tuple[str, str], list[int]] = defaultdict(list)
    failed: list[tuple[str, str]] = []
    package_lines: list[int] = []
    timed: list[tuple[float, int]] = []  # each test result's elapsed seconds and line
    skipped: list[int] = []
    passed = 0
    events = 0
    for index, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(event, dict):
            continue
        events += 1
        action, test = event.get("Action"), str(event.get("Test") or "")
        key = (str(event.get("Package") or ""), test)
        if action == "output":
            output = str(event.get("Output") or "")
            if test and not output.startswith(_CHATTER):
                outputs[key].append(index)
            elif not test and output.startswith(("FAIL", "ok", "---", "panic", "#")):
                package_lines.append(index)
        elif action in ("pass", "fail", "skip") and test:
            if action == "fail":
                failed.append(key)
            elif action == "skip":
                skipped.append(index)
            else:
                passed += 1
            elapsed = event.get("Elapsed")
            if isinstance(elapsed, int | float) and action != "skip":
                timed.append((float(elapsed), index))
    picks = [Pick(index, index + 1, 98.0) for index in package_lines]
    slowest = [index for seconds, index in heapq.nlargest(_SLOWEST, timed) if seconds > 0]
    picks += [Pick(index, index + 1, 50.0 - order) for order, index in enumerate(slowest)]
    picks += [Pick(index, index + 1, 45.0 - order * 0.1) for order, index in enumerate(skipped[:_SKIPPED])]
    for order, key in enumerate(failed):
        shown = outputs.get(key, [])
        for position, index in enumerate(shown):
            early = position < _FIRST_LINES or position >= len(shown) - _LAST_LINES
            if not early and position >= _MAX_LINES:
                continue
            priority = (90.0 if early else 60.0) - min(order, 50) * 0.1 - min(position, 100) * 0.01
            picks.append(Pick(index, index + 1, priority))
    picks.append(Pick(first, first + 1, 30.0))
    messages = sum(min(len(outputs.get(key, [])), _FIRST_LINES + _LAST_LINES) for key in failed)
    return GoTestRun(picks, len(failed), passed, len(skipped), messages, events)


def _is_event(line: str) -> bool:
    return line.startswith('{"') and '"Action":"' in line[:200]
