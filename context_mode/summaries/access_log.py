"""Web-server access logs (Common / Combined Log Format): the responses that went wrong.

``access_picks(lines)`` returns ``None`` unless most lines are access-log requests
(``"GET /path HTTP/1.1" 404 793``). Else it gives the picks and the counts for a log summary:

- the counts per status code (``200 ×91, 502 ×13, 404 ×4 …``) for the outline;
- for every distinct (method, status) of a 4xx or 5xx response, its first line (server errors
  first, the rarest first: a lone 413 says more than the thirteenth 502), then the first
  line of each further path with that status, as space allows; redirects after them;
- ``highlights``: the distinct error responses, so a log of failing requests is summarised.

Lines are shown as sent, cut after ``_WIDTH`` characters (the request, status and size come
first). Linear: one bounded regex per line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.summaries.packing import Pick

_REQUEST = re.compile(
    r'"(?P<method>[A-Z]{3,10}) (?P<path>\S{1,400}) HTTP/\d(?:\.\d)?" (?P<status>[1-5]\d\d) (?:\d+|-)'
)
_PREFIX = 2000
_WIDTH = 140  # the request, status and size come first: the user agent can go
_SAMPLE = 200  # lines looked at to decide the log is an access log
_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class AccessLog:
    picks: list[Pick]
    statuses: Counter[str]
    highlights: int

    @property
    def outline(self) -> str:
        shown = ", ".join(f"{status} ×{count}" for status, count in self.statuses.most_common(8))
        return f"access log: {sum(self.statuses.values())} requests ({shown})"


def access_picks(lines: Sequence[str]) -> AccessLog | None:
    """The error responses of an access log as picks (see module doc), or None for other logs."""
    sample = [line for line in lines[:_SAMPLE] if line.strip()]
    if not sample or sum(bool(_REQUEST.search(line[:_PREFIX])) for line in sample) < _SHARE * len(sample):
        return None
    statuses: Counter[str] = Counter()
    first: dict[tuple[str, str], int] = {}
    paths: dict[tuple[str, str, str], int] = {}
    for index, line in enumerate(lines):
        found = _REQUEST.search(line[:_PREFIX])
        if found is None:
            continue
        method, status = found.group("method"), found.group("status")
        statuses[status] += 1
        if status[0] in "345":
            first.setdefault((method, status), index)
            paths.setdefault((method, status, found.group("path").split("?", 1)[0]), index)
    picks: list[Pick] = []
    firsts = set(first.values())
    for (_, status), index in first.items():
        base = {"5": 86.0, "4": 85.0}.get(status[0], 60.0)
        picks.append(Pick(index, index + 1, base - min(statuses[status], 50) * 0.05, _WIDTH))
    for (_, status, _), index in paths.items():
        if index not in firsts:
            picks.append(Pick(index, index + 1, 45.0 if status[0] in "45" else 25.0, _WIDTH))
    errors = sum(1 for _, status in first if status[0] in "45")
    return AccessLog(picks, statuses, errors)
