"""The lines that go with a hit in a test failure or a diagnostic: the message, where it failed.

For ``excerpts.unit_lines``, each gives chunk line numbers (0-based) to show with a passage on
lines ``first .. last``, or []:

- ``tap_failure``: a TAP failure the hit is in or heads (tape's ``not ok 36 …`` with its YAML
  ``operator`` / ``expected`` / ``actual`` / ``at`` lines; Test::More's ``#   Failed test '…'`` with
  its ``#   at t/basic.t line 57.`` and ``got`` / ``expected`` lines);
- ``message_below``: for a hit in a traceback or a failure's frames, the exception or assertion
  message below it (``E   …``, ``FooError: …``, ``Caused by: …``, ``panicked at …``, ``--- FAIL``;
  below a Python traceback's frames, its first line not indented, ``StopIteration`` too)
  and pytest's location line closing it (``tests/test_a.py:137: AssertionError``);
- ``diagnostic_head``: a diagnostic in rustc's or ruff's layout, its headline and
  `` --> file:line:col`` line.

Pure; each looks at a bounded number of lines around the hit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.diagnostics import clean_line
from context_mode.levels import RAISED_NAME

_LOOKAHEAD = 30  # lines below a traceback hit searched for its message
_TAP_FAILURE = re.compile(r"\s*(?:not ok \d+\b|#\s+Failed test\b)")
_TAP_OK = re.compile(r"\s*ok \d+\b")
_TAP_YAML_START = re.compile(r"\s*---\s*\Z")
_TAP_YAML_STOP = re.compile(r"\s*(?:\.\.\.\s*\Z|stack:)")
_TAP_PLAN = re.compile(r"#\s+Looks like you")
_TAP_LOOKBACK = 40  # lines above a hit searched for the failure it is in
_TAP_BLOCK_LINES = 8  # of a failure's diagnostic lines, at most these are looked at
_LOCATION_REACH = 12  # lines of ``E`` below a message searched for pytest's location line
# rustc's and ruff's `` --> src/a.rs:12:5``; miette's (oxlint's) ``,-[lib/query.js:4547:1]`` / ``╭─[…]``
_ARROW = re.compile(r"\s*(?:--> \S+:\d+(?::\d+)?|(?:,-|╭─)\[\S+:\d+(?::\d+)?\])\s*\Z")
# their code lines: `` 12 | x``, ``  |``, miette's carets under ``:`` or ``·``
_SNIPPET = re.compile(r"\s*(?:\d+\s*)?(?:\||[-+] |\d+ [+-] |[:·] )")
_ARROW_REACH = 12  # code lines above a hit searched for its diagnostic's location
_PYTEST_LOCATION = re.compile(r"\S+\.\w+:\d+: [A-Z]\w*\Z")  # ``tests/test_a.py:137: AssertionError``
_MESSAGE = re.compile(
    r"^\s*+(?:E\s{2,}\S|>?\s*+[\w.$]*?(?:Error|Exception|Failure|Panic)\b[:(]|Caused by:|"
    r"thread '.*' panicked|panic:|--- FAIL|assert(?:ion)?\b|AssertionError|Expected|Received|"
    r"error(?:\[\w+\])?:|expected: |got: )",  # RSpec's ``expected: 5`` / ``     got: 20``
    re.IGNORECASE,
)
_FRAME = re.compile(
    r'^\s*(?:>|at |File "|Traceback|\w[\w/.\-]*\.\w+:\d+|#\d+ |\d+: |_{3,}|FAILED|--- FAIL|=+ FAIL'
    r"|Failure/Error: )"  # RSpec's failing statement
)


def tap_failure(lines: Sequence[str], first: int, last: int) -> list[int]:
    """A TAP failure the hit is in or heads: tape's ``not ok 36 …`` with its YAML block's
    ``operator`` / ``expected`` / ``actual`` / ``at`` lines (not its stack), Test::More's
    ``#   Failed test '…'`` with its ``#   at t/basic.t line 57.`` and ``got`` / ``expected``."""
    head = None
    for number in range(last, max(-1, first - _TAP_LOOKBACK), -1):
        text = clean_line(lines[number])
        if _TAP_FAILURE.match(text):
            head = number
            break
        if not text.strip() or _TAP_OK.match(text):
            return []  # a passing test (the hit's own line, or one above it) ends the search
    if head is None:
        return []
    block: list[int] = []
    yaml = False
    for number in range(head + 1, min(len(lines), head + 1 + _TAP_BLOCK_LINES)):
        text = clean_line(lines[number])
        if number == head + 1 and _TAP_YAML_START.match(text):
            yaml = True
            continue
        if yaml and _TAP_YAML_STOP.match(text):
            break
        if not yaml and (not text.startswith("#") or _TAP_FAILURE.match(text) or _TAP_PLAN.match(text)):
            break
        block.append(number)
    return [head, *block]


def message_below(lines: Sequence[str], first: int, last: int) -> list[int]:
    """The message below a traceback's or failure's hit, and pytest's location line closing it."""
    if any(_MESSAGE.match(lines[n]) for n in range(first, last + 1)):
        return _location_below(lines, last)
    if not any(_FRAME.match(lines[n]) for n in range(first, min(len(lines), last + 3))):
        return []
    # In a Python traceback's frames, the first line not indented below them is its exception,
    # whatever the class is called (``StopIteration``, ``DisallowedHost: Invalid HTTP_HOST …``).
    python = any('File "' in lines[n] for n in range(first, last + 1))
    for number in range(last + 1, min(len(lines), last + 1 + _LOOKAHEAD)):
        if _MESSAGE.match(lines[number]):
            following = [
                n for n in range(number + 1, min(len(lines), number + 3)) if _MESSAGE.match(lines[n])
            ]
            return [number, *following, *_location_below(lines, (following or [number])[-1])]
        if python and lines[number][:1] not in ("", " ", "\t"):
            return [number] if RAISED_NAME.match(lines[number]) else []
    return []


def diagnostic_head(lines: Sequence[str], first: int, last: int) -> list[int]:
    """A compiler's or linter's diagnostic in the rustc / ruff layout (``E501 Line too long``,
    then `` --> src/a.py:119:30``, then `` 12 | code``) or miette's (oxlint's ``,-[a.js:12:1]``):
    for a hit on its headline, the location line below it; for a hit in its code, the headline
    and location above."""
    below = last + 1
    if below < len(lines) and _ARROW.match(lines[below]):
        return [below]
    for number in range(first, max(first - _ARROW_REACH, 0), -1):
        if _ARROW.match(lines[number]):
            return [number - 1, number] if number > first else []
        if not _SNIPPET.match(lines[number]):
            return []
    return []


def _location_below(lines: Sequence[str], last: int) -> list[int]:
    """pytest's ``glom/test/test_basic.py:137: AssertionError`` closing the failure whose ``E``
    lines end at or above ``last``: where it failed."""
    for number in range(last + 1, min(len(lines), last + 1 + _LOCATION_REACH)):
        line = lines[number]
        if _PYTEST_LOCATION.match(line):
            return [number]
        if not (line.startswith("E ") or not line.strip()):
            return []
    return []
