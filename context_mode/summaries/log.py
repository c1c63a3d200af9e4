"""Summary of logs and CI output: what failed, where, and how the run ended.

Each line is classified once (bounded regexes on a bounded prefix, so the pass is linear):
errors (strong markers such as ``error:``, ``SEVERE``, exceptions, ``make: ***``; or weak ones,
a bare "failed"), warnings, failing-test ids (pytest, unittest, go, jest, cargo), summary and
exit-status lines, traceback frames (Python, Java/JVM ``at ...``, Node, Ruby ``app.rb:44:in `m'``,
PHP ``#0 /app/Db.php(42):``, C compiler ``file:line:col:``); the line a run of Python frames ends
with is its exception whatever its class is called (``StopIteration``: ``raised_after_frames``),
and a compiler's quote of the source (``   37 |     X(ERROR);``) is none.
A declared level (``INFO``, ``level=debug``) outranks words in the message; Redis's ``#``
level character makes a warning of a line without error words.

Picks then go to ``packing.pack``, highest priority first: the final summary, failing tests,
exception and error lines (the first of each shape; of a cluster, its first and last line; the
paragraph under an error that explains it, after one blank line at most; past the second of one
template with one word changed, below the head: ``line_groups.templates``), the last line (how the
process ended: below the first errors of each shape, above their context), the rest of the tail,
compiler notes, tracebacks collapsed to the frames that matter (Python: innermost; JVM: the first
frame of each class, application before JDK; pytest's ``>`` source line above an ``E`` block,
the test's own too, each traceback section's place unfolded; the source pytest lists there is no
error; a thread dump by its threads: ``summaries.thread_dumps``),
warnings (past the second of one template, below an error's context), context, the head, and last
rare lines (a shape, numbers aside, seen once is usually an event); the room they leave goes to the
first line of each shape not shown yet, in order (a data race's frames). In a log written at debug
verbosity, the first line of each shape declaring a level above the bulk's (INFO among DEBUG, NOTICE
among INFO: ``summaries.log_levels``) ranks above the head's third line, as wide as a warning (its
stamp and thread take half the width), each shape adding a quarter of an error's room. A failure
declared at an info or debug level (``DEBUG Failed to reflink …, falling back``: the scan's muted
lines) is no error and adds no room; the first of each shape ranks just below the raised lines. A
shown line whose shape recurs carries a fold count ``[×37]``. The first line when it names the
command, project or version, and the last lines that carry totals (``summaries.edges``) rank with
the final summary (unless one of a routine family: a request or a disconnection said throughout is
no total); a service's lines near the top that say where it listens rank with its errors' context; a
report's summary section (valgrind's ``HEAP SUMMARY:`` and ``LEAK SUMMARY:``), its heading and the
lines indented below it, ranks with a failing test's name; a coverage table's totals row ranks with
the final summary, its least covered files below errors (``summaries.coverage``); RSpec's and
GoogleTest's failure blocks give their message and location, Mocha's blocks their suite, title
and message, a JUnit XML report's failing test cases their failure (``summaries.test_failures``);
a Terraform plan's action on each resource (a destroy or a replacement first) ranks with the
failing tests, each attribute it changes (``~ image = "a" -> "b"``) with errors' context. The
errors' picks, their context and the tracebacks' frames come from ``summaries.log_errors``; the
blocks under a line (a report's section, a TAP block, a failing test's message, a sanitizer's
legend) are found by ``summaries.log_blocks``. A ``go test -json`` stream is read as events instead
(``summaries.go_test_json``), a MySQL or MariaDB slow query log by its entries
(``summaries.slow_queries``); a passing test's line (``=== RUN``, ``… PASSED``, ``✓``:
``levels.PASSING``) ranks below everything but the run's verdict and totals, being no failure's
context; a web-server access log (or an application server's request lines)
also gets its error responses, one per method and status (``summaries.access_log``). The changed
lines of a unified-diff hunk the log holds (a deployment tool's ``--diff``, a test's expected
against actual) rank above one-off events, below raised lines. After a weak
error (an outage's "is DOWN"), the line saying what failed works again ranks below the errors, above
their context (``summaries.log_recoveries``). Weak errors in a family of routine lines
(``-- Performing Test X - Failed`` among dozens of ``- Success``) are demoted. The room asked for
grows with the distinct errors, failures and warnings, and with the kinds of line (one salient
item per ``_SHAPES_PER_HIGHLIGHT`` shapes): a long clean log says more than a short one.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from context_mode.diagnostics import clean_lines, without_service_prefix
from context_mode.levels import PASSING
from context_mode.line_groups import LineGroups
from context_mode.shapes import is_slow_query_log
from context_mode.summaries.access_log import REQUEST_MARKS, access_picks
from context_mode.summaries.coverage import coverage_picks
from context_mode.summaries.definitions import pattern_lines
from context_mode.summaries.edges import address_lines, banner_lines, edge_lines, exchange_lines
from context_mode.summaries.extract import Extract, term_lines
from context_mode.summaries.go_test_json import go_test_picks
from context_mode.summaries.log_blocks import (
    SHADOW,
    opens_tap_block,
    sanitizer_legend,
    says_why,
    section_lines,
    tap_diagnostics,
    without_pid,
)
from context_mode.summaries.log_errors import (
    CONTEXT_WIDTH,
    WIDTH,
    Adder,
    Routine,
    add_errors,
    add_frames,
    add_goroutine_heads,
    pytest_locations,
)
from context_mode.summaries.log_levels import raised_lines
from context_mode.summaries.log_lines import (
    PREFIX,
    PYTEST_LOCATION,
    ROUTINE,
    SECTION,
    LogScan,
    count_runs,
    raised_after_frames,
    routine_errors,
    scan_log,
    shape_counts,
)
from context_mode.summaries.log_marks import holds
from context_mode.summaries.log_recoveries import add_recoveries
from context_mode.summaries.log_sizes import largest_sized
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.reading import LastReading
from context_mode.summaries.slow_queries import summarize_slow_queries
from context_mode.summaries.test_failures import (
    JUnitFailures,
    MochaFailures,
    RSpecFailures,
    gtest_picks,
    junit_picks,
    mocha_picks,
    rspec_picks,
)
from context_mode.summaries.thread_dumps import thread_picks
from context_mode.types import ContentKind

# Lines that mention a search term compete for a ~1.5 KB budget: the first few hundred are plenty.
_MAX_TERM_PICKS = 500
_SHAPES_PER_HIGHLIGHT = 20  # kinds of line (shapes) that count as one salient item
_SAYS = re.compile(r"[^\W_]{2}")  # a line with a word or a number in it
_FILL = 0.5  # below every other pick: the room they leave
_FILL_LINES = 400  # lines offered to fill it: the first of each shape not shown (``_fill``)
_FOLD = 3  # a shape seen this often is shown once
_COUNTED_WARNINGS = 20  # distinct warnings that add to a summary's room (each half an error)
_WARNINGS_PER_FAMILY = 2  # warnings of one family (their first words) shown before the rest
# A line whose shape starts (this many chars) like ROUTINE others is routine: as context or tail
# it is not worth its bytes (the "Client closed connection id=…" of a server log).
_SHAPE_FAMILY = 48
# Literals a line-by-line pass looks for first: a log without them skips the pass (one search of
# the text, not a Python step a line). Those read cleaned lines are skipped only without colour
# codes too (a code's removal can join a literal).
_FAILURE_ERROR = "Failure/Error:"  # RSpec's failure blocks
_GTEST_MARK = ": Failure"  # GoogleTest's ``path:line: Failure``
_JUNIT_MARK = "<testcase"  # a JUnit XML report's test cases
_MOCHA_MARK = " failing\n"  # Mocha's ``  9 failing`` over its failure blocks
_COVERAGE_MARK = "Stmts"  # a coverage table's header
_LEGEND_PRIORITY = 3.0
# A passing test's line (``levels.PASSING``: ``=== RUN``, ``… PASSED``) is no failure's context nor
# head: it ranks below the rest, unless as a run's verdict or totals (above ``_PASSING_KEPT``).
_SUITE_REACH = 12  # lines of a TAP YAML block looked through for its ``type: 'suite'``
_PASSING_PRIORITY = 2.0
_PASSING_KEPT = 60.0
# ``head`` / ``tail`` of several files: each one's header
_FILE_BANNER = re.compile(r"^==> [^\n]+ <==[ \t]*$", re.MULTILINE)
# A raised line (``log_levels``: INFO among DEBUG, NOTICE among INFO), first of its shape: above
# the head's third line and one-off events, below warnings; two levels above the bulk, higher.
_RAISED = 36.0
# A failure a line declares at an info or debug level, first of its shape: below raised lines.
_MUTED = 32.0
_MUTED_SHAPES = 20
_RAISED_SHARE = 4  # distinct raised lines per highlight (of room): an event is a quarter of an error
_PYTEST_FAILURES = "= FAILURES ="  # pytest's section of failures, its tracebacks below
_PYTEST_SOURCE_INDENT = "    "  # a traceback's source lines (its ``E`` and ``>`` lines open the line)
_PYTEST_SECTION = re.compile(r"={3,} .+ ={3,}\s*\Z")  # ``==== short test summary info ====``
_UNFOLDED_FAILURES = 5  # TAP failures shown each before the rest fold into ``[×N]``
_SLOW_SAMPLE = 16384  # characters of the start read to tell a slow query log
_JEST_HEADER = re.compile(r"\s+● \S")  # a failure's header in Jest's report: its message below a blank line
# A line that is its prefix alone says nothing: Valgrind's ``==17820== ``, Maven's ``[INFO] ``.
_BARE_PREFIX = re.compile(r"\s*(?:(?:==|--)\d+(?:==|--)|\[(?:INFO|WARNING|ERROR|DEBUG)\])\s*\Z")
# ``strace -c``'s table header (its rows are sorted by time); literal-led, so the search is fast.
_SYSCALL_HEADER = re.compile(r"% time +seconds +usecs/call +calls")
_SYSCALL_LEAD = "% time "  # what each match starts with
_SYSCALL_ROWS = 5
# A Terraform / OpenTofu plan's action on each resource (``  # aws_instance.web will be created``,
# ``… must be replaced``, ``… will be destroyed``): what the plan does, a destroy or a replacement
# first; then each attribute it changes (``      ~ image = "shop/api:2.3.1" -> "shop/api:2.4.0"``).
_PLAN_ACTION = re.compile(
    r"^\s*# \S.*? (?P<action>will be (?:created|updated in-place|destroyed|read during apply|replaced)"
    r"|must be replaced|is tainted, so must be replaced|has moved to \S+)",
    re.MULTILINE,
)
_PLAN_CHANGE = re.compile(r"^\s+~ \S+ += .+ -> .+$", re.MULTILINE)
_PLAN_CHANGE_PRIORITY = 70.0
_PLAN_MARKS = ("Terraform will perform the following actions", "OpenTofu will perform the following actions")
_PLAN_PRIORITY = {"will be destroyed": 91.0, "must be replaced": 91.0, "will be updated in-place": 90.0}
# A report's summary heading in capitals, alone on its line after a tool's prefix (valgrind's
# ``==13084== LEAK SUMMARY:``): the indented lines below it are the run's totals.
_SUMMARY_END = re.compile(r"SUMMARY:[ \t]*$", re.MULTILINE)
_SUMMARY_LEAD = "SUMMARY:"
_SUMMARY_HEADING = re.compile(r"(?:[A-Z]+ ){0,3}SUMMARY:")
_SUMMARY_ROWS = 6
# A unified-diff hunk inside a log (a deployment tool's ``--diff``): its changed lines rank above
# one-off events and the head's third line, below raised lines; each few add room.
_HUNK_LEAD = "@@ -"
_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_CHANGED = 34.0
_CHANGED_LINES = 60
_CHANGES_SHARE = 4
_FAILING_VERDICT = re.compile(r"\bFAIL(?:ED|URES?)?\b|\b[1-9]\d* (?:failed|failures?|failing)\b")


class _Plan(NamedTuple):
    """What a log's summary shows before a budget is spent: picks, fold counts, outline."""

    lines: list[str]
    picks: list[Pick]
    width: int
    notes: dict[int, str]
    outline: str
    highlights: int


_READINGS: LastReading[_Plan] = LastReading()


def summarize_log(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The log's failures, errors, tracebacks, final summary and tail, within ``budget`` bytes."""
    head = text[:_SLOW_SAMPLE]
    if "# Query_time: " in head and is_slow_query_log(split_lines(head)):
        return summarize_slow_queries(text, budget=budget, terms=terms)
    plan = _READINGS.get(text, terms, lambda: _plan(text, terms))
    body = pack(plan.lines, plan.picks, budget, width=plan.width, notes=plan.notes, ends=True)
    return Extract(text=body, kind=ContentKind.LOG, outline=plan.outline, highlights=plan.highlights)


def _plan(text: str, terms: Sequence[str]) -> _Plan:
    lines = split_lines(text)
    go_test = go_test_picks(lines)
    if go_test is not None:
        outline = f"log: go test -json, {go_test.events} events, {_plural(go_test.failing, 'failed test')}"
        outline += f", {go_test.passed} passed" + (f", {go_test.skipped} skipped" if go_test.skipped else "")
        return _Plan(lines, go_test.picks, WIDTH * 2, {}, outline, go_test.messages)
    # CI colours, timestamps and a compose service column hide markers; lines stay as sent.
    cleaned = clean_lines(lines, text)
    unprefixed = without_service_prefix(cleaned)
    scan = scan_log(unprefixed)
    counts = shape_counts(scan)
    routine = routine_errors(scan)
    errors = [i for i in scan.errors if i not in routine]
    pytest = _PYTEST_FAILURES in text
    if pytest:
        # pytest's tracebacks list their functions' source, four spaces in: a docstring's
        # "Raises: ValueError: if …" or a ``raise`` is code, not an error the run reported
        listed = _pytest_failures(lines)
        errors = [i for i in errors if not (i in listed and lines[i].startswith(_PYTEST_SOURCE_INDENT))]
    # A traceback's exception, named as no error is (``StopIteration`` below the frames); one the
    # scan read as an error keeps its verdict (a routine one stays out)
    read = set(scan.errors)
    errors = sorted([*errors, *(i for i in raised_after_frames(unprefixed, scan.frames) if i not in read)])
    frames = {index for index, _, _ in scan.frames}
    # Each test binary's failing verdict (cargo's "test result: FAILED. 75 passed; 13 failed") is
    # its own news, though they share a shape: neither folded nor counted as repeats.
    verdicts = _distinct_verdicts(cleaned, scan.summaries)
    # So is each RSpec failure's message and location (``# ./spec/a_spec.rb:79:in `block …'``).
    rspec = rspec_picks(lines) if holds(text, _FAILURE_ERROR) else RSpecFailures([])
    verdicts.update(pick.start for pick in rspec.picks)
    # And each of Mocha's failure blocks (``  1) Cart``, ``  2) Cart``: one shape) and its message.
    mocha = mocha_picks(text, lines) if holds(text, _MOCHA_MARK) else MochaFailures([], set())
    verdicts.update(pick.start for pick in mocha.picks)
    # And each failing test case of a JUnit XML report, named alike or not.
    junit = junit_picks(lines) if holds(text, _JUNIT_MARK) else JUnitFailures([], 0)
    verdicts.update(pick.start for pick in junit.picks)
    # tape names its assertions alike ("not ok 7 should be deeply equivalent", "not ok 80 …"):
    # the first failures with a TAP block are each their own news, and so is what the block
    # says, where a shape's lines would otherwise fold into one.
    tap_failures = [i for i in sorted(scan.failing.values()) if opens_tap_block(lines, i)]
    for index in tap_failures[:_UNFOLDED_FAILURES]:
        verdicts.add(index)
        verdicts.update(tap_diagnostics(lines, index + 1))
    # And pytest's traceback locations (``test_lib.py:7: `` under a test's ``>`` line): each says
    # where a failure is, as a frame's line number does.
    if pytest:
        verdicts.update(pytest_locations(lines))
    # And a thread dump's threads (gdb's, a JVM's, Python's): each one's header and frames (one
    # shape, each thread's news).
    threads = thread_picks(text, lines)
    verdicts.update(index for pick in threads for index in range(pick.start, pick.stop))
    raised = raised_lines(unprefixed, scan.groups)
    # Failing-test lines that name no test of their own: Mocha's block headers (its suites), and
    # Jest's ``✕ rejects zero qty`` under ``--verbose`` where its ``● Cart › rejects zero qty``
    # header names the same test with its suites.
    skipped = mocha.headers | _named_again(scan.failing) | _node_suites(text, lines, scan.failing)
    # RSpec lists its failed examples again at the end (``rspec ./spec/a_spec.rb:42 # …``): those
    # are its failed tests, its numbered blocks (a pending example's too) no tests of their own.
    if any(lines[index].startswith("rspec ./") for index in scan.failing.values()):
        skipped |= {index for index in scan.failing.values() if not lines[index].startswith("rspec ./")}
    picks = _fold(
        # (with a JUnit report's failing test cases and their failures' lines)
        [
            *_picks(text, lines, cleaned, scan, errors, counts, terms, rspec, mocha, skipped, raised),
            *junit.picks,
            *threads,
        ],
        scan.shapes,
        counts,
        frames | verdicts,
    )
    access = access_picks(lines, cleaned) if _may_hold(text, *REQUEST_MARKS) else None
    if access is not None:  # its error responses share one shape with the 200s: never folded
        picks.extend(access.picks)
    changes = _hunk_changes(lines) if _HUNK_LEAD in text else []
    picks.extend(changes)
    shown = {i for pick in picks for i in range(pick.start, pick.stop)}
    fill = _fill(unprefixed, scan, shown)
    picks.extend(fill)
    shown.update(pick.start for pick in fill)  # a filler line whose shape recurs is folded too
    notes = {
        i: f"×{counts[scan.shapes[i]]}"
        for i in shown
        if counts[scan.shapes[i]] > 1 and i not in frames and i not in verdicts
    }
    error_events = count_runs(errors)
    # (Mocha's block headers name suites; a JUnit report's failing cases are no test lines)
    failed_tests = sum(index not in skipped for index in scan.failing.values()) + junit.failed
    parts = [
        f"log: {len(lines)} lines",
        _plural(failed_tests, "failed test"),
        _plural(error_events, "error"),
        _plural(len(scan.warnings), "warning"),
    ]
    if scan.exit_status:
        parts.append(f"exit status {scan.exit_status}")
    if access is not None:
        parts.append(access.outline)
    # Room goes by what is distinct: fourteen different errors in one burst need more than one.
    distinct = len({scan.shapes[index] for index in errors})
    # Distinct warnings count too, at half: a build's deprecations and a service's notices are
    # what an agent reads after its errors.
    warned = len({scan.shapes[index] for index in scan.warnings})
    highlights = max(error_events, distinct) + len(scan.failing) + (access.highlights if access else 0)
    highlights += min(warned, _COUNTED_WARNINGS) // 2
    highlights += min(len({scan.shapes[index] for index in raised}), _COUNTED_WARNINGS) // _RAISED_SHARE
    highlights += min(len(changes), _COUNTED_WARNINGS) // _CHANGES_SHARE
    # A run's totals line ("11 upgraded, 297 newly installed", "added 1317 packages") stands out
    # in a log with no error: it is what the run came to.
    # So do its warnings (Redis's "# WARNING Memory overcommit must be enabled!").
    highlights = highlights or (1 if scan.summaries or scan.warnings else 0)
    # A long log of many kinds of lines says more than a short one, errors or not.
    highlights += min(len(counts) // _SHAPES_PER_HIGHLIGHT, _COUNTED_WARNINGS)
    return _Plan(lines, picks, WIDTH, notes, ", ".join(parts), highlights)


def _hunk_changes(lines: Sequence[str]) -> list[Pick]:
    """The changed lines of the unified-diff hunks a log holds (``ansible-playbook --diff``'s
    ``-pm.max_children = 5`` / ``+pm.max_children = 12`` under ``@@ -124,7 +124,7 @@``): what the
    run changed or would change. At most ``_CHANGED_LINES``, earlier first."""
    found: list[Pick] = []
    in_hunk = False
    for index, line in enumerate(lines):
        if line.startswith(_HUNK_LEAD) and _HUNK.match(line):
            in_hunk = True
        elif not in_hunk or not line or line[0] not in " +-\\":
            in_hunk = False
        elif line[0] in "+-" and not line.startswith(("+++ ", "--- ")) and _SAYS.search(line):
            found.append(Pick(index, index + 1, _CHANGED - len(found) / 1000))
            if len(found) >= _CHANGED_LINES:
                break
    return found


def _fill(cleaned: Sequence[str], scan: LogScan, shown: set[int]) -> list[Pick]:
    """The room the picks leave (a short run's few marked lines: a data race's frames) goes to
    the first line of each shape not shown yet, in order; a shape shown once stands for its
    others (``[×37]``), and a line that is blank but for a stamp or a pid says nothing. Only
    each line group's first line is looked at: a shape's first line is one of them."""
    shapes = scan.shapes
    said = {shapes[index] for index in shown}
    found: list[Pick] = []
    for index in sorted(scan.groups.firsts.values()):
        if len(found) >= _FILL_LINES:
            break
        if shapes[index] in said or not _SAYS.search(without_pid(cleaned[index])[:200]):
            continue
        said.add(shapes[index])
        found.append(Pick(index, index + 1, _FILL - index / (len(cleaned) + 1)))
    return found


def _may_hold(text: str, *marks: str) -> bool:
    """Whether the cleaned lines of ``text`` may hold one of ``marks``."""
    return "\x1b" in text or holds(text, *marks)


def _lines_hold(text: str, cleaned: Sequence[str], groups: LineGroups, literal: str) -> bool:
    """Whether a line of ``cleaned`` may hold ``literal`` (no digit in it): asked of the groups'
    distinct keys when they are the cleaned lines whole, else ``_may_hold``."""
    if groups.whole and groups.lines is cleaned:
        return bool(groups.holding(literal))
    return _may_hold(text, literal)


def _fold(picks: list[Pick], shapes: Sequence[str], counts: Counter[str], frames: set[int]) -> list[Pick]:
    """One line per repeated shape: its best pick stays (and will carry ``[×N]``), the rest go.

    A traceback frame is not folded: frames of one shape differ in their line numbers, which
    say where each failure is (``tests/help.test.js:188:22`` against ``:75:22``)."""
    kept: list[Pick] = []
    seen: set[str] = set()
    for pick in sorted(picks, key=lambda p: (-p.priority, p.start)):
        shape = shapes[pick.start]
        if pick.stop - pick.start == 1 and counts[shape] >= _FOLD and pick.start not in frames:
            if shape in seen:
                continue
            seen.add(shape)
        kept.append(pick)
    return kept


def _pytest_failures(lines: Sequence[str]) -> range:
    """The lines of pytest's ``= FAILURES =`` section (its tracebacks), up to the next section
    (``= Hypothesis Statistics =``, ``= short test summary info =``); empty when it has none."""
    start = next((i for i, line in enumerate(lines) if _PYTEST_FAILURES in line[:PREFIX]), len(lines))
    after = (i for i in range(start + 1, len(lines)) if _PYTEST_SECTION.match(lines[i][:PREFIX]))
    return range(start, next(after, len(lines)))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _picks(
    text: str,
    lines: Sequence[str],
    cleaned: Sequence[str],  # ``lines`` without CI colours and timestamps, for matching
    scan: LogScan,
    errors: Sequence[int],
    counts: Counter[str],
    terms: Sequence[str],
    rspec: RSpecFailures,
    mocha: MochaFailures,
    skipped: set[int],
    raised: dict[int, int],
) -> list[Pick]:
    total = len(lines)
    picks: list[Pick] = []

    legend = sanitizer_legend(lines) if holds(text, SHADOW) else range(0)

    def add(index: int, priority: float, width: int = 0, *, stop: int = 0) -> None:
        # A line that is blank but for its CI timestamp (``2026-12-02T15:49:07.9042210Z ``) says nothing.
        # Nor does a prefix with nothing after it (``_BARE_PREFIX``).
        if 0 <= index < total and cleaned[index].strip() and not _BARE_PREFIX.match(cleaned[index]):
            if index in legend:
                priority = min(priority, _LEGEND_PRIORITY)
            # (seen without its CI stamp: a job's ``2026-12-02T15:49:07Z === RUN   TestX``)
            if priority < _PASSING_KEPT and PASSING.match(cleaned[index]):
                priority = min(priority, _PASSING_PRIORITY)  # a passing test's line: no failure's context
            picks.append(Pick(index, min(max(stop, index + 1), total), priority, width))

    families: Counter[str] = Counter()
    for shape, count in counts.items():
        families[shape[:_SHAPE_FAMILY]] += count

    def routine(index: int) -> bool:
        return 0 <= index < total and families[scan.shapes[index][:_SHAPE_FAMILY]] >= ROUTINE

    for index in scan.summaries:  # the last one is the run's verdict, whatever follows it
        add(index, 100 if index >= total - 5 else 97 if index == scan.summaries[-1] else 88)
    head, tail = edge_lines(lines)  # the command / project / version, and the totals
    for index in head:
        add(index, 94, CONTEXT_WIDTH)
    for index in tail:  # one said throughout (``disconnection: session time …``): as the last's neighbour
        add(index, 62 if routine(index) else 99)
    for index in address_lines(lines):  # where a service listens, which version starts
        add(index, 74, CONTEXT_WIDTH)
    for index in exchange_lines(lines) if "< HTTP/" in text else ():  # curl -v's request and response
        add(index, 95, CONTEXT_WIDTH)
    # a test runner's own banner, wherever the run starts
    for index in banner_lines(scan.groups.text, scan.groups):
        add(index, 90, CONTEXT_WIDTH)
    # which file each part is (``tail -n +1 a.log b.log``' ``==> a.log <==``)
    for index in pattern_lines(scan.groups.text, _FILE_BANNER, lead="==> "):
        add(index, 90, CONTEXT_WIDTH)
    # a coverage table's totals and least covered files
    for pick in coverage_picks(cleaned) if _lines_hold(text, cleaned, scan.groups, _COVERAGE_MARK) else ():
        add(pick.start, pick.priority)
    # a build's or an install's biggest sizes (a bundle's heaviest module, the largest download)
    for order, index in enumerate(largest_sized(scan.groups.text)):
        add(index, 30 - order * 0.5, CONTEXT_WIDTH)
    # a Terraform plan: each resource's action, then each attribute it changes
    planned = any(mark in text for mark in _PLAN_MARKS)
    for index in pattern_lines(scan.groups.text, _PLAN_ACTION) if planned else ():
        action = _PLAN_ACTION.match(scan.groups.lines[index])
        add(index, _PLAN_PRIORITY.get(action.group("action") if action else "", 89.0), CONTEXT_WIDTH)
    for order, index in enumerate(pattern_lines(scan.groups.text, _PLAN_CHANGE) if planned else ()):
        add(index, _PLAN_CHANGE_PRIORITY - min(order, 40) * 0.1, CONTEXT_WIDTH)
    # strace -c: its costliest syscalls
    for index in pattern_lines(scan.groups.text, _SYSCALL_HEADER, lead=_SYSCALL_LEAD):
        for row in range(index, min(index + _SYSCALL_ROWS + 2, total)):
            add(row, 93 - (row - index) * 0.5, CONTEXT_WIDTH)
    # a report's summary section (valgrind's ``HEAP SUMMARY:``, ``LEAK SUMMARY:``): its totals below it
    for index in pattern_lines(scan.groups.text, _SUMMARY_END, lead=_SUMMARY_LEAD):
        if not _SUMMARY_HEADING.fullmatch(without_pid(lines[index]).strip()):
            continue
        for row in section_lines(lines, index, _SUMMARY_ROWS):
            add(row, 93 - (row - index) * 0.5, CONTEXT_WIDTH)
    # (RSpec names each failure twice, its block's "N) example" and its rerun line at the end:
    # ``skipped`` holds the blocks' lines then, the block's message, ``rspec.picks``, what it adds.)
    failing = [index for index in scan.failing.values() if index not in skipped]
    # Mocha lists its failing tests by title above its failure blocks, which name them again with
    # their suites and messages: the list ranks below the blocks.
    listed = 92 if not mocha.picks else 60
    for order, index in enumerate(failing):
        add(index, listed - min(order, 20) * 0.2)
        if mocha.picks:
            continue  # (a listed title's next line is the next title: the blocks hold the messages)
        message = index + 1  # the line under a failing test's own, when it is no test's: its message
        if message < total and not lines[message].strip() and _JEST_HEADER.match(lines[index]):
            message += 1  # (under Jest's ``  ● Cart › total``, past a blank line)
        if opens_tap_block(lines, index):
            for below in tap_diagnostics(lines, message):  # TAP's YAML block: expected, actual, at
                add(below, 91.9 - min(order, 20) * 0.2, CONTEXT_WIDTH)
        elif message < total and says_why(lines[message]):
            add(message, 91.9 - min(order, 20) * 0.2, CONTEXT_WIDTH)
    for pick in [*rspec.picks, *(gtest_picks(lines) if holds(text, _GTEST_MARK) else ())]:
        add(pick.start, pick.priority)
    for pick in mocha.picks:
        add(pick.start, pick.priority, stop=pick.stop)
    add_errors(lines, scan, errors, add, routine)
    add_recoveries(scan, errors, add)  # where an outage ends
    for index in scan.notes:
        add(index, 66 if index - 1 in errors or index - 3 in errors else 40)
    # The last line says how the process ended ("database system is shut down", "shutdown
    # complete"): below the first errors of each shape, above their context and the middle of a
    # run of errors, unless it is one of many alike. Blank lines at the end are no last line.
    last = total - 1
    while last > 0 and not lines[last].strip():
        last -= 1
    for offset, priority in enumerate((75, 62, 55, 44, 42, 40, 22, 21, 20, 19)):
        index = last - offset
        add(index, 14 - offset if routine(index) else priority)
    add_frames(scan.frames, add)
    add_goroutine_heads(text, lines, add)
    seen_warnings: set[str] = set()
    warning_families: Counter[str] = Counter()
    for index in scan.warnings:
        if scan.shapes[index] not in seen_warnings and len(seen_warnings) < 50:
            seen_warnings.add(scan.shapes[index])
            family = scan.shapes[index][:_SHAPE_FAMILY]
            warning_families[family] += 1
            # The third warning of one template ("Location '…/requests/' is ignored", then
            # '…/urllib3/', …) says less than the lines that explain an error.
            repeated = 20.0 if warning_families[family] > _WARNINGS_PER_FAMILY else 0.0
            add(index, 50 - len(seen_warnings) * 0.2 - repeated, WIDTH)
    for index, priority in enumerate((34, 33, 22, 12, 11)):
        add(index, priority)
    raised_seen: set[str] = set()
    for index, above in raised.items():  # INFO among DEBUG, NOTICE among INFO: what happened
        if scan.shapes[index] not in raised_seen:
            raised_seen.add(scan.shapes[index])
            add(index, _RAISED + 6 * (above - 1), WIDTH)
    muted_seen: set[str] = set()
    for index in scan.muted:  # a failure said at debug level (``DEBUG Failed to reflink …``)
        if scan.shapes[index] not in muted_seen and len(muted_seen) < _MUTED_SHAPES:
            muted_seen.add(scan.shapes[index])
            add(index, _MUTED - len(muted_seen) * 0.2, WIDTH)
    _add_lines(cleaned, scan, counts, terms, add, routine)
    return picks


def _named_again(failing: dict[str, int]) -> set[int]:
    """The lines of failing tests that a Jest failure header names again with its suites (``✕
    total`` and ``● Cart › total``)."""
    leaves = {test.rsplit(" › ", 1)[1] for test in failing if " › " in test}
    return {index for test, index in failing.items() if test in leaves} if leaves else set()


def _node_suites(text: str, lines: Sequence[str], failing: dict[str, int]) -> set[int]:
    """The failing-test lines of node:test that close a suite, no test of its own: the spec
    reporter's ``✖ cart totals (6.5ms)`` under its ``▶ cart totals``, TAP's ``not ok 1 - cart
    totals`` over a YAML block saying ``type: 'suite'``."""
    if not holds(text, "▶ ", "type: 'suite'"):
        return set()
    opened = {line.strip()[2:] for line in lines if line.lstrip().startswith("▶ ")}
    found: set[int] = set()
    for test, index in failing.items():
        if test in opened:
            found.add(index)
        elif opens_tap_block(lines, index):
            block = itertools.takewhile(
                lambda line: line.strip() != "...", lines[index + 2 : index + _SUITE_REACH]
            )
            if any(line.strip() == "type: 'suite'" for line in block):
                found.add(index)
    return found


def _distinct_verdicts(cleaned: Sequence[str], summaries: Sequence[int]) -> set[int]:
    """The summary lines that report failures and say something their like do not (cargo's
    "test result: FAILED. 75 passed; 13 failed" and "… 7 passed; 1 failed"); of verdicts worded
    alike (GoogleTest's "1 FAILED TEST" after each binary), none: they fold as usual."""
    texts = Counter(cleaned[i].strip() for i in summaries)
    return {
        i
        for i in summaries
        if texts[cleaned[i].strip()] == 1 and _FAILING_VERDICT.search(cleaned[i][:PREFIX])
    }


def _add_lines(
    lines: Sequence[str],
    scan: LogScan,
    counts: Counter[str],
    terms: Sequence[str],
    add: Adder,
    routine: Routine,
) -> None:
    """pytest locations, section rules, one-off events and term matches, in line order.

    Locations and rules are found once per key (see ``log_lines.LineGroups``), one-off events
    by their shape's count, term matches by searching the joined text: only the lines found are
    visited, in the order a line-by-line pass would add them.
    """
    groups = scan.groups
    located = {key for key, i in groups.samples.items() if PYTEST_LOCATION.match(lines[i][:PREFIX])}
    sections = {key for key, i in groups.samples.items() if SECTION.match(lines[i][:PREFIX])}
    rare = {key for key, i in groups.samples.items() if counts[scan.shapes[i]] <= 2}
    found = set(groups.members(located | sections | rare))
    matched = set(term_lines(groups.text, terms, _MAX_TERM_PICKS))
    summaries = set(scan.summaries)
    for index in sorted(found | matched):
        if index in found:
            key = groups.keys[index]
            stripped = lines[index][:PREFIX]
            count = counts[scan.shapes[index]]
            if key in located:
                add(index, 78)
            elif key in sections and index not in summaries:
                add(index, 26)
            elif count <= 2 and len(stripped.strip()) > 12 and not routine(index):
                # A one-off event (a shape seen once or twice, not one of a routine family).
                add(index, 20 - count + min(len(stripped), 80) / 40, CONTEXT_WIDTH)
        if index in matched:
            add(index, 58, CONTEXT_WIDTH)
