"""A log's errors and what explains them: the picks of each error, its context and its frames.

``add_errors(lines, scan, errors, add, routine)`` adds each error shape's first line (exceptions
and pytest's first ``E`` line highest; of a cluster, its first and last line above its middle,
but an error that names its source line (``_LOCATED``) as high as they;
past the second of one template with one word changed, below the head: ``line_groups.templates``),
then what explains it: PostgreSQL's ``DETAIL:`` / ``HINT:`` lines, a compiler's function line and
code context, the lines above and below (a routine neighbour or a quoted code frame barely
counts), the message announced under a line ending in a colon (up to a blank line or a
backtrace), the paragraph under it after one blank line at most, pytest's ``>`` source line (and
the test's own, the first below the failure's header, with its place, when the failure is raised
deeper down; under ``--tb=short``, the test's ``test_x.py:7: in test_y`` and its source line), and
the step above an indented error; ``pytest_locations(lines)`` are pytest's traceback places.
``add_frames(frames, add)`` collapses each traceback to the frames that matter (Python: innermost
first, library frames lower; JVM, and the others that print the innermost frame first (Node, Ruby,
PHP): the first frame of each class or file, application before library; a trace printed again is
skipped). ``add_goroutine_heads(text,
lines, add)`` adds a Go traceback's outline (a panic's or a SIGQUIT dump's): the signal
(``SIGQUIT: quit``, ``PC=0xd62761 m=0 sigcode=0``), each goroutine's header with its state
(``goroutine 25 [IO wait]:``) and where it was started (``created by
go.opencensus.io/stats/view.init.0``). All only call ``add`` (an
``Adder``: a line's index, its priority, its width); ``routine`` (a ``Routine``) says whether a
line is one of a routine family. ``WIDTH`` and ``CONTEXT_WIDTH`` are the widths lines are cut at.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from context_mode.line_groups import templates
from context_mode.summaries.log_lines import (
    CODE_CONTEXT,
    COMPILER,
    EXCEPTION,
    IN_FUNCTION,
    LIBRARY_FRAME,
    PREFIX,
    PYTEST_E,
    SECTION,
    LogScan,
)

WIDTH = 240
CONTEXT_WIDTH = 160
PANIC = re.compile(r"thread '[^'\n]+'(?: \(\d+\))? panicked at ")  # a Rust thread's panic, a test's

_EXPLAINED = 4  # lines of the paragraph under an error shown as its explanation
_ERRORS_PER_TEMPLATE = 2  # errors of one template (one word changed) shown before the rest
_QUOTED_SOURCE = re.compile(r"\s+\d+ \|")  # a code frame's line that is not the failing one (``>``)
_PYTEST_SOURCE_REACH = 40  # lines above an E block searched for pytest's ">" source line
_TEST_SOURCE_REACH = 400  # lines above that searched for its failure's header (``____ test_x ____``)
_PYTEST_LOCATION = re.compile(r"[^\s:]+:\d+: ")  # ``test_pool.py:20: `` under a traceback's section
_PYTEST_SHORT_PLACE = re.compile(r"[^\s:]+:\d+: in \S+\s*\Z")  # ``--tb=short``'s place of a section
_PYTEST_LOCATION_LINE = re.compile(r"[^\s:]+\.py:\d+: (?:in \S+|\w+)?\s*\Z")  # and alone on its line
_PY_LINE_NUMBER = re.compile(r"\.py:\d")  # what such a line holds, and ``-v``'s ``a.py::test`` does not
_DETAIL = re.compile(r"\b(?:DETAIL|HINT):  ")  # PostgreSQL's (two spaces), as the server logs them
_DETAIL_REACH = 3
_ANNOUNCED = 4  # lines under an error ending in a colon kept as its message
# Where an error's message ends and its frames start (a traceback's header opens no message).
# An error that names the source line it is about (``src/a.c:12:5: error: …``, Maven's javac
# ``[ERROR] /src/Discounts.java:[16,12] cannot find symbol``) is its own news, not the middle of a
# burst: each such diagnostic says a different thing to fix.
_LOCATED = re.compile(r"(?:^|[\s\]])[\w./\\-]*\w\.[A-Za-z]\w{0,7}:\[?\d+[,:\]]")
_BACKTRACE_START = re.compile(r"\s*(?:stack backtrace:|Traceback \(|note: run with |File \"|at \S|#\d+ )")


class Adder(Protocol):
    """Adds a line (up to ``stop``) to a summary's picks at ``priority``, cut at ``width``."""

    def __call__(self, index: int, priority: float, width: int = 0, *, stop: int = 0) -> None: ...


class Routine(Protocol):
    """Whether the line at ``index`` is one of a routine family (not worth its bytes as context)."""

    def __call__(self, index: int) -> bool: ...


def add_errors(
    lines: Sequence[str],
    scan: LogScan,
    errors: Sequence[int],
    add: Adder,
    routine: Routine,
) -> None:
    """Errors by shape, once each: a cluster's first and last lines rank above its middle.

    Shapes that are one template with one word changed (``Failed password for invalid user
    admin``, ``… root``, ``… oracle``: ``line_groups.templates``) are one error said again: the
    first ``_ERRORS_PER_TEMPLATE`` rank as errors, the rest below the head and one-off events.
    """
    seen: set[str] = set()
    tests = set(scan.failing.values())  # each failing test is its own news, named alike or not
    # and so is each Rust test's panic, its message below it (``thread 'tests::a' panicked at …:``)
    tests.update(index for index in errors if PANIC.match(lines[index][:PREFIX]))
    template = templates(dict.fromkeys(scan.shapes[index] for index in errors if index not in tests))
    said: Counter[str] = Counter()
    for order, index in enumerate(errors):
        shape = scan.shapes[index]
        if shape in seen:
            continue
        seen.add(shape)
        if shape in template and index not in tests:
            said[template[shape]] += 1
            if said[template[shape]] > _ERRORS_PER_TEMPLATE:
                add(index, 16.0 - min(said[template[shape]], 40) * 0.15)
                continue
        line = lines[index][:PREFIX]
        starts = order == 0 or errors[order - 1] < index - 3
        ends = order == len(errors) - 1 or errors[order + 1] > index + 3
        decay = min(len(seen), 40) * 0.15
        if PYTEST_E.match(line):
            # The first ``E`` line of a failure states it; the rest of the block is detail.
            base = 84.0 if index and not lines[index - 1].startswith("E ") else 28.0
        elif EXCEPTION.match(line):
            base = 86.0
        elif index in scan.weak:
            base = 66.0 if starts or ends else 60.0
        else:
            base = 80.0 if starts or ends or _LOCATED.search(line) else 72.0
        add(index, base - decay)
        if PYTEST_E.match(line):
            if base > 28.0:
                _add_pytest_source(lines, index, add)
            continue  # the E block is its own context
        for below in range(index + 1, min(index + 1 + _DETAIL_REACH, len(lines))):
            # A database's ``DETAIL:`` / ``HINT:`` lines under its ``ERROR:`` say why and what to do.
            if _DETAIL.search(lines[below][:PREFIX]):
                add(below, base - decay - 6.0, CONTEXT_WIDTH)
        _add_context(lines, index, add, routine)
        _add_parent(lines, index, add)


def _add_pytest_source(lines: Sequence[str], index: int, add: Adder) -> None:
    """pytest's ``>`` line above an ``E`` block: the source line that failed; and when that is a
    library's, deeper down, the test's own ``>`` line, the first below the failure's header, with
    the location under it (``test_pool.py:20: ``): the line of the test that called it."""
    for earlier in range(index - 1, max(index - _PYTEST_SOURCE_REACH, -1), -1):
        if lines[earlier].startswith(">"):
            add(earlier, 64, CONTEXT_WIDTH)
            _add_test_source(lines, earlier, add)
            return
        if SECTION.match(lines[earlier][:PREFIX]):
            # ``--tb=short``: no ``>`` line; the test's own place opens its section
            # (``test_lib.py:7: in test_config_parses``), its source line below it
            first = earlier + 1
            if lines[earlier].startswith("_") and _PYTEST_SHORT_PLACE.match(lines[first][:PREFIX]):
                add(first, 63, CONTEXT_WIDTH)
                if first + 1 < index and lines[first + 1].startswith("    "):
                    add(first + 1, 62, CONTEXT_WIDTH)
            return
        if not lines[earlier].strip():
            return


def _add_test_source(lines: Sequence[str], source: int, add: Adder) -> None:
    """The first ``>`` line below the failure's header (``____ test_x ____``) above ``source``, and
    the location line under it, when it is not ``source`` itself."""
    header = next(
        (
            i
            for i in range(source - 1, max(source - _TEST_SOURCE_REACH, -1), -1)
            if SECTION.match(lines[i][:PREFIX])
        ),
        -1,
    )
    if header < 0 or not lines[header].startswith("_"):
        return
    first = next((i for i in range(header + 1, source) if lines[i].startswith(">")), -1)
    if first < 0:
        return
    add(first, 63, CONTEXT_WIDTH)
    located = next(
        (i for i in range(first + 1, min(first + 6, source)) if _PYTEST_LOCATION.match(lines[i])), -1
    )
    if located >= 0:
        add(located, 62, CONTEXT_WIDTH)


def pytest_locations(lines: Sequence[str]) -> list[int]:
    """The lines of pytest's tracebacks that say where a section is (``test_lib.py:7: ``,
    ``…/json/decoder.py:355: JSONDecodeError``): one shape, each its own place."""
    return [
        index
        for index, line in enumerate(lines)
        if _PY_LINE_NUMBER.search(line, 0, PREFIX) and _PYTEST_LOCATION_LINE.match(line[:PREFIX])
    ]


def _add_context(lines: Sequence[str], index: int, add: Adder, routine: Routine) -> None:
    line = lines[index][:PREFIX]
    if COMPILER.match(line):
        if index and IN_FUNCTION.match(lines[index - 1][:PREFIX]):
            add(index - 1, 46, CONTEXT_WIDTH)
        for offset in (1, 2):
            if index + offset < len(lines) and CODE_CONTEXT.match(lines[index + offset][:PREFIX]):
                add(index + offset, 36 - offset, CONTEXT_WIDTH)
        return
    for offset, priority in ((-1, 40), (-2, 30), (1, 38)):
        neighbour = index + offset
        # a code frame's other lines (Jest's ``  17 |``) are the test's source, not the failure
        quoted = 0 <= neighbour < len(lines) and _QUOTED_SOURCE.match(lines[neighbour][:PREFIX])
        add(neighbour, 10 if routine(neighbour) or quoted else priority, CONTEXT_WIDTH)
    # An error that ends with a colon announces its message below (Rust's ``thread 't' panicked
    # at tests/a.rs:51:5:`` then ``assertion `left == right` failed``, ``  left: …``, `` right: …``):
    # those lines are the failure itself, up to a blank line or a backtrace.
    if line.rstrip().endswith(":") and not _BACKTRACE_START.match(line):
        for order, below in enumerate(range(index + 1, min(index + 1 + _ANNOUNCED, len(lines)))):
            if not lines[below].strip() or _BACKTRACE_START.match(lines[below][:PREFIX]):
                break
            add(below, 70.0 - order, WIDTH)
    # The paragraph that explains it, after one blank line at most (pip's "The conflict is caused
    # by:" and its requirements, npm's "Could not resolve dependency:" and its peers).
    start = index + 1
    if start < len(lines) and not lines[start].strip():
        start += 1
    for order, below in enumerate(range(start, min(start + _EXPLAINED, len(lines)))):
        if not lines[below].strip() or routine(below):
            break
        add(below, 37.0 - order, CONTEXT_WIDTH)


def _add_parent(lines: Sequence[str], index: int, add: Adder) -> None:
    """The nearest earlier unindented line above an indented error: the step that failed."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    if indent == 0:
        return
    for earlier in range(index - 1, max(index - 400, -1), -1):
        line = lines[earlier]
        if line.strip() and not line[0].isspace():
            add(earlier, 56, CONTEXT_WIDTH)
            return


# A Go traceback's outline: the signal (``SIGQUIT: quit``, ``PC=0xd62761 m=0 sigcode=0``), each
# goroutine's header with its state (``goroutine 25 [IO wait]:``) and where it was started.
_GOROUTINE_HEAD = re.compile(r"goroutine \d+ \[[^\]\n]*\]:|SIG[A-Z]+: |PC=0x[0-9a-f]+ ")
_GOROUTINE_MARK = "\ngoroutine "  # a dump holds one at a line's start: one C pass finds it
_CREATED_BY = "created by "
_GOROUTINE_PRIORITY = 64.0  # above a trace's frames, below errors and their context
_CREATED_PRIORITY = 46.0
_GOROUTINES = 200  # headers looked at: a dump of thousands of goroutines shows its first


def add_goroutine_heads(text: str, lines: Sequence[str], add: Adder) -> None:
    """A Go traceback's outline (see the module doc): its headers in order, above frames."""
    if _GOROUTINE_MARK not in text and not text.startswith(_GOROUTINE_MARK[1:]):
        return
    heads = 0
    for index, line in enumerate(lines):
        if line.startswith(_CREATED_BY) and heads:
            add(index, _CREATED_PRIORITY - 0.01 * heads, WIDTH)
        elif line[:1] in ("g", "S", "P") and _GOROUTINE_HEAD.match(line):
            add(index, _GOROUTINE_PRIORITY - 0.01 * heads, WIDTH)
            heads += 1
            if heads >= _GOROUTINES:
                return


def add_frames(frames: Sequence[tuple[int, str, bool]], add: Adder) -> None:
    """Collapse each traceback to the frames that matter."""
    runs: list[list[tuple[int, str, bool]]] = []
    for frame in frames:
        if runs and frame[0] - runs[-1][-1][0] <= 3:
            runs[-1].append(frame)
        else:
            runs.append([frame])
    seen: set[tuple[str, ...]] = set()
    for run in runs[:30]:
        signature = tuple(where for _, where, _ in run[:8])
        if signature in seen:
            continue  # the same trace printed again
        seen.add(signature)
        if not run[0][2]:
            # Python prints the innermost frame last; that one, with its source line, matters most.
            for depth, (index, where, _) in enumerate(reversed(run)):
                library = 12 if LIBRARY_FRAME.search(where) and depth else 0
                stop = index + 2 if depth == 0 else index + 1
                add(index, max(60 - depth * 10 - library, 6), WIDTH, stop=stop)
            continue
        previous = ""
        kept = 0
        for index, where, _ in run:
            if where != previous:
                library = 20 if LIBRARY_FRAME.search(where) else 0
                add(index, max(58 - kept * 5 - library, 5), CONTEXT_WIDTH)
                kept += 1
            previous = where
