"""A log's slowest record: the line with the longest duration among the lines timed alike.

Servers and clients time what they do (pino's ``"responseTime":1500.79``, nginx's ``rt=0.006``,
npm's ``fetch GET 200 … 11168ms``, uWSGI's ``in 3 msecs``): after its errors, the request that
stood out by its time is what an agent reads a log for. ``slowest_lines(joined)`` reads every
duration in ``joined`` (a log's lines, newline-joined) with one regex over the text, groups the
durations by how they are written (the field's name, else the unit), and of each group of at
least ``_MIN_TIMED`` lines returns the line holding its largest value (the first of equal ones)
when that value stands out: more than ``_OUTLIER`` times the group's median. ``"time":`` alone
is a timestamp, not a duration.
"""

from __future__ import annotations

import re
from collections import defaultdict

_MIN_TIMED = 5
_OUTLIER = 3.0
_GROUPS = 3  # groups whose slowest line is returned, the most timed first
_DURATION = re.compile(
    r"""(?<![\w.])["']?(?P<name>\w*(?:duration|elapsed|latency|took|response_?time|request_?time|time_?taken)|u?rt)"""
    r"""["']?\s*[=:]\s*["']?(?P<value>\d+(?:\.\d+)?)"""
    r"|(?<![\w.:/-])(?P<bare>\d+(?:\.\d+)?) ?(?P<unit>ms|msecs?|s|secs?|seconds?|µs|us)\b",
    re.IGNORECASE,
)


def slowest_lines(joined: str) -> list[int]:
    """Indexes of the lines of ``joined`` holding each timed group's outlying longest duration
    (see the module doc), in line order."""
    groups: dict[str, list[tuple[float, int]]] = defaultdict(list)
    line = 0
    position = 0
    for match in _DURATION.finditer(joined):
        line += joined.count("\n", position, match.start())
        position = match.start()
        name = match.group("name")
        key = name.lower() if name else match.group("unit").lower()
        timed = groups[key]
        if not timed or timed[-1][1] != line:  # a line counts once a group
            timed.append((float(match.group("value") or match.group("bare")), line))
    found: list[int] = []
    for timed in sorted(groups.values(), key=len, reverse=True)[:_GROUPS]:
        if len(timed) < _MIN_TIMED:
            break
        values = sorted(value for value, _ in timed)
        median = values[len(values) // 2]
        longest = max(timed, key=lambda pair: (pair[0], -pair[1]))
        if longest[0] > _OUTLIER * median:
            found.append(longest[1])
    return sorted(found)
