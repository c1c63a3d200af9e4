"""Web-server access logs (Common / Combined Log Format): the responses that went wrong.

``access_picks(lines)`` returns ``None`` unless the log holds access-log requests
(``"GET /path HTTP/1.1" 404 793``; HAProxy's ``404 933 … "GET /path HTTP/1.1"``; an application
server's, without the protocol, ``"GET /path" 500 155ms``, ``GET /path 404 3.150 ms``; a browser's
requests as Playwright MCP's ``browser_network_requests`` lists them, ``3. [GET] http://host/a.gif
=> [404] File not found``, and Chrome DevTools MCP's ``list_network_requests``, ``reqid=5 GET
http://host/a.png [404]``): at least
``_MIN_REQUESTS`` of them, or half its lines, as a service's journal mixes them with its other
lines. Else it gives the picks and the counts for a log summary:

- the counts per status code (``200 ×91, 502 ×13, 404 ×4 …``) for the outline;
- for every distinct (method, status) of a 4xx or 5xx response, its first line (server errors
  first, the rarest first: a lone 413 says more than the thirteenth 502), then the first
  line of each further path with that status, as space allows; redirects after them;
- ``highlights``: the distinct error responses, so a log of failing requests is summarised; a
  log of requests alone, all passing, counts one and shows its first and last requests.

Lines are shown as sent, cut after ``_WIDTH`` characters or the request's end, whichever is
later (the user agent can go). Linear: at most two bounded regexes per line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.summaries.packing import Pick

_REQUEST = re.compile(
    # The size may be missing (uvicorn's ``"GET /a HTTP/1.1" 404``) and the quotes escaped (the
    # same line as a JSON log record's message: ``\"GET /a HTTP/1.1\" 404``).
    r'"(?P<method>[A-Z]{3,10}) (?P<path>\S{1,400}) HTTP/\d(?:\.\d)?\\?" (?P<status>[1-5]\d\d)'
    r'(?: (?:\d+|-)|["\s]|$)'
    # HAProxy's HTTP log puts the status and size before the request:
    # ``fe be/srv 0/0/0/4/4 200 610 - - ---- 1/1/0/0/0 0/0 "GET /simple/ HTTP/1.1"``.
    r'|(?<![\S])(?P<status_first>[1-5]\d\d) (?:\d+|-) [^"]{0,80}"(?P<method_last>[A-Z]{3,10})'
    r' (?P<path_last>\S{1,400}) HTTP/\d(?:\.\d)?"'
    # Playwright MCP's browser_network_requests: ``12. [GET] http://host/a.gif => [404] Not Found``.
    r"|^\d+\. \[(?P<method_pw>[A-Z]{3,10})\] (?P<path_pw>\S{1,400}) => \[(?P<status_pw>[1-5]\d\d)\]"
    # Chrome DevTools MCP's list_network_requests: ``reqid=5 GET http://host/img/p000.png [404]``.
    r"|^reqid=\d+ (?P<method_cd>[A-Z]{3,10}) (?P<path_cd>\S{1,400}) \[(?P<status_cd>[1-5]\d\d)\]"
)
# An application server's own request line, without the protocol: hapi's and others'
# ``127.0.0.1 "GET /stations/LFPG/forecast" 500 155ms``, morgan's ``GET /books/2 404 3.150 ms - 139``.
# (HEAD and OPTIONS: rarely failing, and their marks cost a whole-text search of usual chars.)
_BARE_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
_BARE_REQUEST = re.compile(
    rf'(?<![\w/])(?P<method>{"|".join(_BARE_METHODS)}) "?(?P<path>/\S{{0,400}}?)"?'
    r" (?P<status>[1-5]\d\d)(?:\s|$)"
)
# Literals one of which every request line holds: a log without them has none.
REQUEST_MARKS = ("HTTP/", " => [", "reqid=", *(f"{method} /" for method in _BARE_METHODS))
_PREFIX = 2000
_WIDTH = 140  # the request, status and size come first: the user agent can go
_MAX_WIDTH = 320  # a line is shown at least up to its request's end (HAProxy's comes last)
# A log is (or holds) an access log with this many requests, or when half its lines are requests;
# a service's journal mixes them with its other lines.
_MIN_REQUESTS = 5
_NEWS = {"5": 86.0, "4": 85.0}  # priorities of a first error response by status class
_AMONG_OTHERS = {"5": 65.0, "4": 64.0}
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


def access_picks(lines: Sequence[str], matched: Sequence[str] | None = None) -> AccessLog | None:
    """The error responses of an access log as picks (see module doc), or None for other logs.

    ``matched`` is ``lines`` as read for matching (without colour codes: Werkzeug colours a 404's
    request), one per line; the picks index and show ``lines``."""
    matched = lines if matched is None else matched
    statuses: Counter[str] = Counter()
    first: dict[tuple[str, str], int] = {}
    paths: dict[tuple[str, str, str], int] = {}
    widths: dict[int, int] = {}
    first_request = last_request = -1
    for index, line in enumerate(matched):
        found = _request(line[:_PREFIX])
        if found is None:
            continue
        # (``_BARE_REQUEST`` names only its three, always set: each chain stops at its first)
        method = found["method"] or found["method_last"] or found["method_pw"] or found["method_cd"]
        status = found["status"] or found["status_first"] or found["status_pw"] or found["status_cd"]
        path = found["path"] or found["path_last"] or found["path_pw"] or found["path_cd"]
        statuses[status] += 1
        first_request = index if first_request < 0 else first_request
        last_request = index
        if status[0] in "345":
            end = found.end() + len(lines[index]) - len(line)  # the colour codes shown take room too
            widths[index] = min(max(_WIDTH, end + 1), _MAX_WIDTH)  # up to the request's end, uncut
            first.setdefault((method, status), index)
            paths.setdefault((method, status, path.split("?", 1)[0]), index)
    requests = sum(statuses.values())
    mostly = requests >= _SHARE * len(lines)
    if not requests or requests < _MIN_REQUESTS and not mostly:
        return None
    picks: list[Pick] = []
    firsts = set(first.values())
    for (_, status), index in first.items():
        # In an access log its error responses are the news; among a service's other lines they
        # rank as its weak errors do ("Connection refused"), below its errors and tracebacks.
        base = (_NEWS if mostly else _AMONG_OTHERS).get(status[0], 60.0 if mostly else 30.0)
        picks.append(
            Pick(index, index + 1, base - min(statuses[status], 50) * 0.05, widths[index], start_only=True)
        )
    for (_, status, _), index in paths.items():
        if index not in firsts:
            picks.append(
                Pick(index, index + 1, 45.0 if status[0] in "45" else 25.0, widths[index], start_only=True)
            )
    errors = sum(1 for _, status in first if status[0] in "45")
    if mostly and not errors:
        # A log of requests that all went well still says what was requested: its first and
        # last requests are summarised (a Directive would show none).
        for index, priority in ((first_request, 60.0), (last_request, 59.0)):
            picks.append(Pick(index, index + 1, priority, _WIDTH, start_only=True))
        errors = 1
    return AccessLog(picks, statuses, errors)


def _request(line: str) -> re.Match[str] | None:
    """The request ``line`` logs: its method, path and status (named groups of ``_REQUEST`` or
    ``_BARE_REQUEST``), or None."""
    if "HTTP/" in line or " => [" in line or line.startswith("reqid="):
        found = _REQUEST.search(line)
        if found is not None:
            return found
    return _BARE_REQUEST.search(line) if " /" in line or ' "/' in line else None
