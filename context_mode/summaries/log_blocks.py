"""The lines below a log line that belong to it: a report's section, a TAP block, a test's message.

``section_lines(lines, heading, most)`` are a heading's line and the lines indented deeper below
it (valgrind's ``LEAK SUMMARY:`` and its totals), ``without_pid`` reads a line past valgrind's
``==13084==`` prefix. ``opens_tap_block`` tells a TAP failure followed by its YAML block (``---``
to ``...``), whose ``tap_diagnostics`` are the lines saying what was expected, what came and where
(a block scalar with its value on the next line). ``says_why`` tells whether the line under a
failing test's can be its message (not blank, not a rule, not another test's result).
``sanitizer_legend`` is AddressSanitizer's shadow-memory dump and legend (from ``SHADOW`` to its
``==N==ABORTING``), the same in every report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.log_lines import is_test_line

SHADOW = "Shadow bytes around the buggy address:"  # where ASan's shadow dump starts
_ABORTING = re.compile(r"==\d+==ABORTING")
_RULE = re.compile(r"[-=_*#~─━]{3,}\Z")
_TAP_KEYS = ("expected:", "actual:", "found:", "wanted:", "got:", "at:", "message:", "error:")
_SCALAR_LINES = 3  # a block scalar's lines shown with its key
_TAP_BLOCK = 40  # lines of a TAP diagnostic block looked at


def section_lines(lines: Sequence[str], heading: int, most: int) -> list[int]:
    """The heading's line and the lines below it indented deeper than its text, ``most`` at most."""
    indent = _indent(lines[heading])
    found = [heading]
    for index in range(heading + 1, min(heading + 1 + most, len(lines))):
        if _indent(lines[index]) <= indent or not without_pid(lines[index]).strip():
            break
        found.append(index)
    return found


def _indent(line: str) -> int:
    """Where a line's text starts after a tool's ``==pid==`` prefix and spaces."""
    text = without_pid(line)
    return len(line) - len(text.lstrip())


def without_pid(line: str) -> str:
    """``line`` without valgrind's ``==13084==`` prefix, when it has one."""
    return line.lstrip("=0123456789") if line.startswith("==") else line


def opens_tap_block(lines: Sequence[str], index: int) -> bool:
    """Whether the line under ``index`` opens a TAP failure's YAML block (``  ---``)."""
    return index + 1 < len(lines) and lines[index + 1].strip() == "---"


def tap_diagnostics(lines: Sequence[str], start: int) -> list[int]:
    """In a TAP failure's YAML block (``---`` at ``start`` to ``...``), the lines that say what was
    expected, what came and where (``expected: |-`` with the value on the line below it)."""
    found: list[int] = []
    for index in range(start + 1, min(start + 1 + _TAP_BLOCK, len(lines))):
        stripped = lines[index].strip()
        if stripped == "...":
            break
        if stripped.startswith(_TAP_KEYS):
            found.append(index)
            if stripped.endswith(("|-", "|", ">-", ">")):
                found += _scalar_lines(lines, index)
    return found


def _scalar_lines(lines: Sequence[str], key: int) -> list[int]:
    """A block scalar's first lines that say something, below its ``key: |-`` line: Node's
    ``error: |-`` over "Expected values to be strictly equal:", a blank line, and ``null !== 0``."""
    depth = len(lines[key]) - len(lines[key].lstrip())
    found: list[int] = []
    for index in range(key + 1, min(key + 1 + _TAP_BLOCK, len(lines))):
        line = lines[index]
        if not line.strip():
            continue
        if len(line) - len(line.lstrip()) <= depth or len(found) == _SCALAR_LINES:
            break
        found.append(index)
    return found


def says_why(line: str) -> bool:
    """Whether ``line``, under a failing test's line, can be its message: not blank, not a rule,
    not another test's result (Robot Framework's ``| FAIL |`` then ``pluralize('wish') returned
    'wishs', expected 'wishes'``)."""
    stripped = line.strip()
    return bool(stripped) and not _RULE.match(stripped) and not is_test_line(line)


def sanitizer_legend(lines: Sequence[str]) -> range:
    """The lines of AddressSanitizer's shadow-memory dump and legend (from ``Shadow bytes around
    the buggy address:`` to the line before ``==N==ABORTING``): the same in every report, they
    would take the room of the frames that say where the memory was allocated and freed."""
    start = next((i for i, line in enumerate(lines) if line.startswith(SHADOW)), -1)
    if start < 0:
        return range(0)
    stop = next((i for i in range(start, len(lines)) if _ABORTING.match(lines[i])), len(lines))
    return range(start, stop)
