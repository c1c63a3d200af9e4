"""The first and last lines of an output that carry its identity or its totals.

``edge_lines(lines)`` returns ``(head, tail)`` indexes: the first non-blank line when it names the
command, project or version (``$ mypy src``, ``> pkg@1.2.0 test``, ``platform linux -- Python
3.11``, ``Compiling foo v0.3.1``) or counts what the output holds (``Total messages: 10``,
``Found 12 matches``, RuboCop's ``Inspecting 44 files``; a heading over the result such as
``### Result`` is passed over), with the
counting lines right below it, and up to ``TAIL_LINES`` of the last non-blank lines that carry
totals (a count or duration next to passed / failed / errors / warnings / problems / tests…, a
score, rating or percentage (``Your code has been rated at 8.52/10``, ``TOTAL … 87%``), a
``BUILD SUCCESS``, ``FAIL``/``ok`` package line, an exit status, npm's and gyp's ``ERR!``
lines; a level tag is no count: Maven's ``[ERROR] [Help 1] http…`` is no totals line). Head+tail
truncation finds these facts; a summary must not drop them.

``banner_lines(lines)`` are a test runner's banners (pytest's ``platform linux -- Python 3.11.7,
pytest-9.2.0`` and ``collected 119 items``) wherever they are: a CI job log runs its tests after
many lines of set-up; and Maven's project and version (``[INFO] Building inventory 1.4.0-SNAPSHOT``,
a reactor's ``[INFO] Reactor Summary for shop-parent 2.3.1:``).

``address_lines(lines)`` are the lines near the top (the first 200: a debug log prints its settings
first) where a service says where it listens
(``* Running on http://127.0.0.1:5000``, ``listening on IPv4 address "0.0.0.0", port 5432``,
``Uvicorn running on http://…``, Vite's ``Local:   http://localhost:5173/``): what an agent
needs next to reach it; and the lines there where it names the version it starts as (unbound's
``info: start of service (unbound 1.17.1).``, coturn's ``Version Coturn-4.6.1 'Gorst'``) or the
runtime it uses (uv's ``Using Python 3.11.2 environment at: .venv``). Matching
sees lines through ``clean_line`` (no ANSI, no CI stamps).

``exchange_lines(lines)`` are ``curl -v``'s request and response lines among its first lines
(``> GET /zones.json HTTP/1.1``, ``< HTTP/1.0 404 File not found``, a redirect's ``< Location:``):
what was asked and what came, whatever the body below them is; none without a response's status.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.diagnostics import clean_line
from context_mode.framing import CURL_REQUEST, CURL_STATUS
from context_mode.line_groups import LineGroups
from context_mode.summaries.definitions import MAX_FOUND, pattern_lines

TAIL_LINES = 3
_LOOK = 8  # how far from each end to look
# A page's footer (Markdown's, a snapshot's): its last FOOTER_LINES lines that say something among
# its last FOOTER_REACH, on a page of FOOTER_PAGE lines or more (a shorter one's end is its content).
FOOTER_PAGE = 200
FOOTER_REACH = 20
FOOTER_LINES = 2
_IDENTITY = re.compile(
    r"^\s*(?:[$>#+] |❯ |Running |Compiling |Checking |Building |Installing |Collecting |\[INFO\] Building )"
    r"|\bv?\d+\.\d+(?:\.\d+)?\b|\bversion\b|\bplatform\b|session starts|\bRUN v",
    re.I,
)
# A tool's reply may open with a heading over its result (Playwright MCP's ``### Result``)…
_WRAPPER = re.compile(r"#{1,6} \w[\w ]{0,30}\Z")
# …and then count what it returns: ``Total messages: 10 (Errors: 10, Warnings: 0)``,
# ``Returning 41 messages``, ``Found 12 matches``, ``Showing 20 of 310 results``.
_COUNTED = re.compile(
    r"(?:Total\b[\w ]{0,30}:? *\d|(?:Returning|Found|Showing|Listing) \d|\d+ (?:results?|matches)\b"
    r"|(?:Inspecting|Checking|Scanning|Linting|Analy[sz]ing) \d+ (?:source )?files?\b)",
    re.I,
)
_HEAD_COUNTS = 2
_BEFORE_IDENTITY = 2  # lines the identity line may come under, when it names a tool's version:
# ``using npm@11.19.1``, ``Python 3.11.7`` (not a diagnostic's ``a.py:3:24: TODO: remove in v5.0.0``)
_NAMED_VERSION = re.compile(
    r"(?<![\w:])[A-Za-z][\w.+-]*@v?\d+\.\d+|\A(?!\S+:\d+:)[^:]*\b[A-Z][\w.+-]* v?\d+\.\d+"
)
# A test runner's banner, which a CI job log prints wherever its step starts: pytest's ``platform
# linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0``, Vitest's `` RUN  v1.6.0 /app``, cargo test's
# ``running 188 tests``.
# (Literal-led, so the search skips ahead fast: see ``log_marks``.)
_BANNERS = (  # each with the literal its matches start with
    (re.compile(r"platform \S+ -- Python \d\S*, pytest-\d"), "platform "),
    (re.compile(r"collected \d+ items?\b"), "collected "),  # and how many tests it found
    (re.compile(r"^running \d+ tests?$", re.MULTILINE), "running "),  # libtest's count, per binary
    (re.compile(r"RUN[ \t]+v\d+\.\d+\.\d+ /"), "RUN"),
    # Maven's project and version: a one-module build's ``[INFO] Building inventory 1.4.0-SNAPSHOT``
    # (a reactor's modules, ``… [2/5]``, are its summary's rows), a reactor's summary's heading
    (re.compile(r"^\[INFO\] Building [\w.-]+ \d[\w.-]*$", re.MULTILINE), "[INFO] Building "),
    (re.compile(r"^\[INFO\] Reactor Summary for \S.*:$", re.MULTILINE), "[INFO] Reactor Summary "),
)

_TOTALS = re.compile(
    r"^\D*+\d.*\b(?:passed|failed|failures?|errors?|warnings?|problems?|tests?|total|skipped|succeeded|"
    r"issues?|diagnostics?|findings?|violations?|offen[cs]es|alerts?|vulnerabilit(?:y|ies)|files?|checked|ok|"
    r"done|finished|took|elapsed|duration|time)\b|"
    r"\b(?<!\[)(?:passed|failed|errors?|warnings?|problems?|tests?|total|time|duration)\b.*\d|"
    r"BUILD (?:SUCCESS|FAILURE|FAILED)|^(?:FAIL|ok|PASS)\s|^FAILED|^PASSED|^error: |"
    r"All checks passed|no issues found|\d+(?:\.\d+)?\s?m?s\b|"
    r"\b(?:rated|score|coverage)\b.*\d|\d(?:\.\d+)?\s?%|"  # pylint's rating, a coverage share
    r"^(?:[\w-]+ ){0,2}exit(?:ed)?(?: with)?(?: status| code)?\s*[:=]?\s*-?\d+|^(?:npm|gyp) (?:ERR!|error) ",
    re.I,
)


_ADDRESS = re.compile(
    r"\b(?:listen(?:ing|s|ers?)?|running|serving|started|starting|ready|bound|accepting|available|local|network)\b"
    r".{0,80}?(?:\b(?:https?|wss?|tcp|grpc)://\S|\bport\s*[:=]?\s*\d{2,5}\b"
    r"|(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-f:]+\]|\*):\d{2,5}\b)",
    re.I,
)
# A word of each _ADDRESS match (lower-cased): an ASCII line holding none skips the regex, which
# tries every position of a line. (Not so a non-ASCII one: under re.I "ſ" is an "s", "K" a "k".)
_ADDRESS_WORDS = tuple("listen running serving start ready bound accepting available local network".split())
_ADDRESS_LOOK = 200  # a service says where it listens as it starts (after its config, in debug)
# …or after hundreds of boot steps (RabbitMQ's debug log: line 951): further down, a line that
# says "listen" (one substring test a line)
_LISTEN_LOOK = 2000
_ADDRESSES = 3
# …and what it is: a start or version word and a dotted version of three parts or more
# (or the runtime it runs with: uv's ``Using Python 3.11.2 environment at: .venv``, a name and its
# version apart; npm's ``using npm@11.19.1`` is its head's identity line already)
_STARTS_AS = re.compile(
    r"\b(?:start(?:s|ing|ed)?|version|launching|booting)\b.{0,80}?(?<![\w.])v?\d+\.\d+\.\d+"
    r"|\busing [a-z][\w.+-]* v?\d+\.\d+\.\d+",
    re.I,
)
_STARTS_AS_LINES = 2
_VERSION_HINT = re.compile(r"\d\.\d+\.\d")  # looked for first: most lines name no version


def address_lines(lines: Sequence[str]) -> list[int]:
    """Indexes of up to ``_ADDRESSES`` lines among the first ``_ADDRESS_LOOK`` that say where a
    service listens and up to ``_STARTS_AS_LINES`` that name the version it starts as (see module
    doc)."""
    found: list[int] = []
    versions = 0
    for index in range(min(len(lines), _LISTEN_LOOK)):
        line = lines[index]
        if len(line) > 400 or index >= _ADDRESS_LOOK and "isten" not in line:
            continue
        if len(found) - versions < _ADDRESSES and ("//" in line or ":" in line or "port" in line.lower()):
            cleaned = clean_line(line)
            if _may_address(cleaned) and _ADDRESS.search(cleaned):
                found.append(index)
                continue
        if versions < _STARTS_AS_LINES and _VERSION_HINT.search(line) and _STARTS_AS.search(clean_line(line)):
            found.append(index)
            versions += 1
    return found


def _may_address(line: str) -> bool:
    """False when ``line`` cannot match ``_ADDRESS`` (an ASCII line without its words)."""
    if not line.isascii():
        return True
    lowered = line.lower()
    return any(word in lowered for word in _ADDRESS_WORDS)


def edge_lines(lines: Sequence[str]) -> tuple[list[int], list[int]]:
    """Indexes of the identity line at the top and the totals lines at the bottom of ``lines``."""
    head: list[int] = []
    passed = 0  # lines above the identity line (npm's ``verbose cli /usr/bin/node`` above ``using npm@11``)
    for index in range(min(len(lines), _LOOK)):
        line = clean_line(lines[index]).strip()
        if not line or (not head and _WRAPPER.match(line)):
            continue
        if len(line) > 400 or not (_COUNTED.match(line) or not head and _IDENTITY.search(line)):
            if head or passed >= _BEFORE_IDENTITY or len(lines) <= 2 * _LOOK:  # a short one: its tail
                break
            passed += 1
            continue
        if passed and not _NAMED_VERSION.search(line):  # below others, only a tool's named version
            break
        head.append(index)
        if len(head) > _HEAD_COUNTS:
            break
    tail: list[int] = []
    first_tail = max(len(lines) - _LOOK, head[-1] + 1 if head else 0)
    for index in range(len(lines) - 1, first_tail - 1, -1):
        line = clean_line(lines[index]).strip()
        # A JSON log record is no totals line for its logger's name ("uvicorn.error") or stamp.
        if not line or len(line) > 400 or line.startswith('{"'):
            continue
        if _TOTALS.search(line):
            tail.append(index)
            if len(tail) >= TAIL_LINES:
                break
    tail.reverse()
    return head, tail


def banner_lines(joined: str, groups: LineGroups | None = None) -> list[int]:
    """The lines of ``joined`` (lines through ``clean_line``, newline-joined) that hold a test
    runner's banner: whole-text searches, no per-line step.

    ``groups``, when given, are those lines grouped: when their keys are whole lines, a banner is
    looked for only in the lines whose key holds its lead (which has no digit), the same lines.
    """
    found: set[int] = set()
    for banner, lead in _BANNERS:
        if groups is not None and groups.whole:
            members = groups.members(groups.holding(lead))
            held = [index for index in members if banner.search(groups.lines[index])]
            found.update(held[:MAX_FOUND])
        else:
            found.update(pattern_lines(joined, banner, lead=lead))
    return sorted(found)


# ``curl -v``'s request line, a response's status line and a redirect's target
_EXCHANGE = re.compile(rf"{CURL_REQUEST.pattern}|{CURL_STATUS.pattern}|< (?i:location): ")
_EXCHANGE_REACH = 400  # lines looked at: curl prints the exchange before the body
_EXCHANGES = 12  # lines kept at most (``curl -vL`` through a few redirects)


def exchange_lines(lines: Sequence[str]) -> list[int]:
    """``curl -v``'s request, status and ``Location:`` lines (see the module doc)."""
    found = [i for i in range(min(len(lines), _EXCHANGE_REACH)) if _EXCHANGE.match(lines[i])]
    if not any(lines[i].startswith("< HTTP/") for i in found):
        return []
    return found[:_EXCHANGES]
