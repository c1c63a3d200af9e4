"""Profilers' and benchmarks' reports: their totals, then their costliest entries, whatever kind
they were taken for.

Eight report formats are read, from their own lines (the tool's name does not matter):

- ``perf report --stdio``: ``#`` comment lines with the totals (``# Samples: 4K of event
  'cpu-clock'``, ``# Event count (approx.): …``), the column header (``# Overhead  Command  Shared
  Object  Symbol``, or ``# Children      Self  …`` when callers were recorded), then one entry per
  symbol (``     4.13%  node  node  [.] v8::…::ReduceTop``), each maybe followed by its call graph
  (indented ``|``, ``---`` and ``--0.84%--`` lines).
- line_profiler (``kernprof -lv``, ``python -m line_profiler``): ``Timer unit: 1e-06 s``, then per
  profiled function ``Total time: 0.053 s``, ``File: …``, ``Function: parse at line 184``, the
  ``Line #  Hits  Time  Per Hit  % Time  Line Contents`` header, a ``=`` rule and the function's
  lines, those that ran with their hits, time and share of the function's time.
- cProfile / pstats: ``560891 function calls (538037 primitive calls) in 0.227 seconds``,
  ``Ordered by: cumulative time``, the ``ncalls  tottime  percall  cumtime  percall
  filename:lineno(function)`` header and a row per function.
- ``go tool pprof -top``: ``File:``, ``Type: cpu``, ``Duration: 22.48s, Total samples = 19.97s``,
  ``Showing nodes accounting for …``, ``Dropped 289 nodes …``, the ``flat  flat%  sum%  cum  cum%``
  header and a row per function, by own (flat) time.
- gprof: ``Flat profile:``, ``Each sample counts as 0.01 seconds.``, a two-line header and a row
  per function by self time; then the call graph (``granularity: …``, ``index % time  self
  children  called  name``), each function's primary line (``[5]  70.7  0.64  0.01  1752376
  UpdateNodes [5]``) between its callers' lines and its callees'.
- pytest-benchmark's tables: per group a title (``---- benchmark 'dumps mime-db': 6 tests ----``),
  the ``Name (time in us)  Min  Max  Mean …`` header and a row per test, the fastest first, each
  column's best marked ``(1.0)``; the run's ``benchmark: 5.3.1 (defaults: …)`` line above.
- collapsed stacks (``py-spy record --format raw``, ``stackcollapse-perf.pl``, flame graphs'
  input): a line per stack, ``root;caller;…;leaf 14``, its frames joined by ``;``, its samples last.
- valgrind's massif through ``ms_print``: ``Command:``, ``Massif arguments:``, the graph (its top
  value ``2.023^``), ``Number of snapshots: 59``, ``Detailed snapshots: [1, 3, …, 54 (peak)]``,
  then per snapshot a row (``n  time(i)  total(B)  useful-heap(B) …``), a detailed one followed by
  its allocation tree (``->63.08% (1,338,000B) 0x13CE18: xcalloc (in …)``, ``| ->`` a level down).

A log of a run reads such a report as a few hundred lines with no error, a table reads it as one
table of mixed rows; what an agent opens a profile for is where the time went. ``summarize_profile(
text, kind=, budget=, terms=)`` returns None unless ``text`` holds one of these reports (looked for
in its first ``_HEAD`` chars); else, verbatim and within ``budget`` bytes: the totals, the column
header once, then for perf the entries in the report's order (by children's and by self share in
turns when both are printed) and, if room is left, each entry's first call-graph line with a share;
for line_profiler each function that ran (its ``Total time`` and ``Function`` lines, the costliest
first) and its lines by ``% Time``, the first of every function before the second of any; for
cProfile the rows in the report's order, by own time (``tottime``) and by calls (of the code's own
functions, not builtins) in turns; for gprof
the flat profile's rows that took time, then the call graph's primary lines, each with the line
above it (its first caller), in the graph's order; for pytest-benchmark each group's title, the
header once, then each group's fastest row, its slowest, the rows best in another column, the rest,
a rank of every group before the next rank of any; for collapsed stacks the most sampled first, each
shown by its start and its end (the leaf frames, where the time went, and the count); for massif
the run's header lines, the graph's top, the peak snapshot's row and its allocation tree level by
level (what is left under the threshold last), the other snapshots by size and the last. Lines
naming the call's terms come first; the text's first line and last line (a command's own line, the
error that stopped the program) are kept when they are not the report's. ``Extract.kind`` is the
kind asked for. A report's reading is kept for the next summary of the same text (``reading``).
Linear in the text, but for sorting the entries.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, in_turns, pack, split_lines
from context_mode.summaries.reading import LastReading
from context_mode.types import ContentKind

_HEAD = 8192  # chars looked at for a report's header
_MIN_ENTRIES = 3  # a perf report's entries, at least
_WIDTH = 200
_HIGHLIGHTS = 20  # salient items at most: the budget grows with them (``router.summary_budget``)

_PERF_COLUMNS = re.compile(r"# (?:Overhead|Children) {2,}\S")
_PERF_TOTALS = re.compile(r"# (?:Samples|Event count)\b")
# An entry: one share (``Overhead``) or two (``Children  Self``), then the command and the symbol.
_PERF_ENTRY = re.compile(r" {0,12}(\d{1,3}\.\d+)%(?: +(\d{1,3}\.\d+)%)? +\S")
_PERF_CALL = re.compile(r"[ |]*--\d{1,3}\.\d+%--\S")  # a call graph's branch with its share

_TIMER_UNIT = "Timer unit: "
_LINE_HEADER = re.compile(r"\s*Line #\s+Hits\s+Time\s+Per Hit\s+% Time\s+Line Contents\s*\Z")
_TOTAL_TIME = re.compile(r"Total time: ([\d.]+(?:e[-+]?\d+)?) s\s*\Z")
_FUNCTION = "Function: "
# A line that ran: its number, hits, time, time per hit and share, then the code.
_LINE_ROW = re.compile(r"\s*\d+\s+\d+\s+[\d.e+-]+\s+[\d.e+-]+\s+(\d{1,3}(?:\.\d+)?)\s")

_CPROFILE_TOTAL = re.compile(r"\s*\d+ function calls (?:\(\d+ primitive calls\) )?in [\d.]+ seconds")
_CPROFILE_ORDER = re.compile(r"\s*Ordered by: ")
_CPROFILE_HEADER = re.compile(r"ncalls +tottime +percall +cumtime +percall +filename:lineno\(function\)")
# A function's row: calls (``7645/2032`` when recursive), own time, per call, cumulative, per call.
_CPROFILE_ROW = re.compile(r"\s*(\d+)(?:/\d+)? +(\d+\.\d+) +\d+\.\d+ +\d+\.\d+ +\d+\.\d+ +\S")
_OWN = re.compile(r":\d+\(")  # a row of the program's own code (``links.py:70(_close_bracket)``), no builtin

# go tool pprof -top: ``Duration: 22.48s, Total samples = 19.97s (88.82%)``, ``Showing nodes accounting
# for …``, ``Dropped 289 nodes (cum <= 0.10s)``, the ``flat  flat%   sum%   cum   cum%`` header, a row
# per function by its own (flat) time: ``1.60s  8.01%  8.01%  6.24s 31.25%  runtime.mallocgc``.
_PPROF_HEADER = re.compile(r"^ *flat +flat% +sum% +cum +cum% *$", re.MULTILINE)
_PPROF_TOTALS = re.compile(r"(?:File|Type|Time|Duration|Showing nodes|Dropped \d+ (?:nodes|edges))\b")
_PPROF_ROW = re.compile(
    r"\s*([\d.]+)(?:[mun]?s|[kMG]?B)? +[\d.]+% +[\d.]+% +([\d.]+)([mun]?s|[kMG]?B)? +[\d.]+% +\S"
)
_PPROF_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "kB": 1e3, "MB": 1e6, "GB": 1e9}

_GPROF_SAMPLE = "Each sample counts as "
_GPROF_HEADER = re.compile(r"\s*% +cumulative +self ")
_GPROF_ROW = re.compile(r"\s*(\d{1,3}\.\d+) +\d+\.\d+ +\d+\.\d+ +(?:\d+ +\d+\.\d+ +\d+\.\d+ +)?\S")
_GPROF_GRAPH = re.compile(r"index +% time +self +children +called +name")
_GPROF_PRIMARY = re.compile(r"\[\d+\] +\d{1,3}\.\d+ +\S")
_GPROF_GRANULARITY = "granularity: "

# pytest-benchmark: a group's title, the run's settings, a row (its name, then figures and ratios)
_BENCHMARK_GROUP = re.compile(r"^-{3,} benchmark(?: '[^'\n]*')?: \d+ tests? -{3,}\s*$", re.MULTILINE)
_BENCHMARK_SETTINGS = re.compile(r"benchmark: \d[\w.]* \(defaults: ")
_BENCHMARK_HEADER = re.compile(r"Name \(time in \w+\) +Min +Max ")
_BENCHMARK_ROW = re.compile(r"\S+ +[\d,.]+ \(\d[\d,.]*\) ")
_BEST = " (1.0)"
_BENCHMARK_WIDTH = 120

# A collapsed stack: frames joined by ``;``, then a space and its samples
_COLLAPSED = re.compile(r"[^\s;][^;\n]*(?:;[^;\n]+)+ (\d+)\s*\Z")
_COLLAPSED_SHARE = 0.8  # of a head's complete lines
_COLLAPSED_WIDTH = 480  # a stack shows its start and, a quarter of this, its end (``packing.clip_ends``)

# valgrind's ms_print (massif): the run's header, the graph's top, the snapshots' rows and the
# detailed snapshots' allocation trees (``->63.08% (1,338,000B) 0x13CE18: xcalloc (in …)``)
_MASSIF_HEADER = ("Command:", "Massif arguments:", "ms_print arguments:", "Number of snapshots:")
_MASSIF_DETAILED = "Detailed snapshots: ["
_MASSIF_PEAK = re.compile(r"(\d+) \(peak\)")
_MASSIF_TOP = re.compile(r" *\d[\d.]*\^")  # the graph's highest value: ``2.023^``
_MASSIF_COLUMNS = re.compile(r" +n +time\(\w+\) +total\(B\) +useful-heap\(B\) ")
_MASSIF_ROW = re.compile(r" *(\d+) +[\d,]+ +([\d,]+) +[\d,]+ +[\d,]+ +[\d,]+ *\Z")
_MASSIF_TREE = re.compile(r"([| ]*)->\d{1,3}\.\d+% \(")
_MASSIF_REST = ", all below ms_print's threshold"
_MASSIF_DEPTH = 3.0  # a tree line's worth falls by this for each level below the top

_TOTALS = 95.0  # the report's totals and the text's own first and last lines
_COLUMNS = 90.0
_TERM = 70.0  # an entry or a line naming the call's terms
_ENTRY = 60.0  # the first entry; each later one a little less
_STEP = 0.01
_FUNCTION_TIME = 65.0  # a function that ran: plus its share of the time profiled
_ROW = 50.0  # a function's costliest line; its k-th costliest ``_ROW_STEP`` × k less
_ROW_STEP = 4.0
_GRAPH = 40.0  # gprof's first primary line of the call graph; each later one a little less
_CALL = 10.0  # a perf entry's first call-graph line with a share, after every entry
_IDLE = 5.0  # a function's ``Total time: 0 s``, a line taking under a per cent


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a report's summary is made of, whatever the budget (kept for the next summary)."""

    lines: list[str]
    picks: list[Pick]
    outline: str  # after the kind's name
    highlights: int
    ends: bool = False  # a long line shows its end too (``packing.clip_ends``)


_READINGS: LastReading[_Plan | None] = LastReading()


@dataclass(frozen=True, slots=True)
class _Function:
    total: int  # the ``Total time`` line
    name: int  # the ``Function:`` line, or -1
    seconds: float
    rows: list[tuple[float, int]]  # (share, line) of each line that ran


def summarize_profile(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The report's totals and costliest entries in ``budget`` bytes; None if ``text`` is no profile."""
    read = _reader(text[:_HEAD])
    if read is None:
        return None
    plan = _READINGS.get(text, terms, lambda: read(text, terms))
    if plan is None:
        return None
    body = pack(plan.lines, plan.picks, budget, width=_WIDTH, gaps="short", ends=plan.ends)
    return Extract(text=body, kind=kind, outline=f"{kind.value}: {plan.outline}", highlights=plan.highlights)


def _reader(head: str) -> Callable[[str, Sequence[str]], _Plan | None] | None:
    """The reading of the report format whose header ``head`` holds, if any."""
    if "# " in head and _PERF_COLUMNS.search(head):
        return _perf
    if _TIMER_UNIT in head and "Line Contents" in head:
        return _line_profile
    if " function calls " in head and _CPROFILE_HEADER.search(head):
        return _cprofile
    if "Flat profile:" in head and _GPROF_SAMPLE in head:
        return _gprof
    if "flat%" in head and _PPROF_HEADER.search(head):
        return _pprof
    if " benchmark" in head and _BENCHMARK_GROUP.search(head):
        return _benchmarks
    if _MASSIF_HEADER[1] in head and _MASSIF_DETAILED in head:
        return _massif
    if ";" in head and _is_collapsed(head):
        return _collapsed
    return None


def _perf(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    columns = next((i for i, line in enumerate(lines) if _PERF_COLUMNS.match(line)), -1)
    if columns < 0:
        return None
    entries: list[tuple[int, float, float]] = []
    calls: dict[int, int] = {}  # an entry's first call-graph line with a share
    for index in range(columns + 1, len(lines)):
        line = lines[index]
        if "%" not in line:
            continue  # a call graph's frame: most of a report's lines
        match = _PERF_ENTRY.match(line)
        if match is not None:
            first = float(match.group(1))
            entries.append((index, first, float(match.group(2) or first)))
        elif entries and entries[-1][0] not in calls and _PERF_CALL.match(line):
            calls[entries[-1][0]] = index
    if len(entries) < _MIN_ENTRIES:
        return None
    wanted = term_matcher(terms)
    picks = [Pick(columns, columns + 1, _COLUMNS)]
    picks += [Pick(i, i + 1, _TOTALS) for i in range(columns) if _PERF_TOTALS.match(lines[i])]
    picks += _own_ends(lines, columns, last=entries[-1][0])
    order = in_turns(
        [i for i, _, _ in entries], [i for i, _, _ in sorted(entries, key=lambda e: (-e[2], e[0]))]
    )
    picks += _ranked(order, lines, wanted, _ENTRY)
    for rank, index in enumerate(calls[i] for i in order if i in calls):
        picks.append(Pick(index, index + 1, _CALL - _STEP * rank))
    samples = next(
        (
            line.removeprefix("# Samples:").strip()
            for line in lines[:columns]
            if line.startswith("# Samples:")
        ),
        "",
    )
    outline = f"perf report, {len(entries)} entries" + (f", {samples}" if samples else "")
    return _Plan(lines, picks, outline, min(len(entries), _HIGHLIGHTS))


def _ranked(
    order: Sequence[int], lines: Sequence[str], wanted: Callable[[str], bool], top: float
) -> list[Pick]:
    """A pick per line of ``order``, worth ``top`` and a little less for each one before it."""
    return [
        Pick(index, index + 1, (_TERM if wanted(lines[index]) else top) - _STEP * rank)
        for rank, index in enumerate(order)
    ]


def _cprofile(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    rows: list[tuple[int, int, float]] = []  # (line, calls, own time)
    picks: list[Pick] = []
    header = -1
    for index, line in enumerate(lines):
        if _CPROFILE_HEADER.search(line):
            header = index
            picks.append(Pick(index, index + 1, _COLUMNS))
        elif _CPROFILE_TOTAL.match(line) or _CPROFILE_ORDER.match(line):
            picks.append(Pick(index, index + 1, _TOTALS))
        elif header >= 0 and (row := _CPROFILE_ROW.match(line)) is not None:
            rows.append((index, int(row.group(1)), float(row.group(2))))
    if len(rows) < _MIN_ENTRIES:
        return None
    order = in_turns(
        [i for i, _, _ in rows],
        [i for i, _, _ in sorted(rows, key=lambda r: (-r[2], r[0]))],
        [i for i, _, _ in sorted(rows, key=lambda r: (-r[1], r[0])) if _OWN.search(lines[i])],
    )
    picks += _ranked(order, lines, term_matcher(terms), _ENTRY)
    picks += _own_ends(lines, min(p.start for p in picks), last=rows[-1][0])
    total = next((lines[p.start].strip() for p in picks if _CPROFILE_TOTAL.match(lines[p.start])), "")
    outline = f"cProfile report, {len(rows)} functions" + (f"; {total[:80]}" if total else "")
    return _Plan(lines, picks, outline, min(len(rows), _HIGHLIGHTS))


def _pprof(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    header = next((i for i, line in enumerate(lines) if _PPROF_HEADER.match(line)), -1)
    if header < 0:
        return None
    picks = [Pick(header, header + 1, _COLUMNS)]
    picks += [Pick(i, i + 1, _TOTALS) for i in range(header) if _PPROF_TOTALS.match(lines[i])]
    rows: list[tuple[int, float]] = []  # (line, cumulative cost)
    for index in range(header + 1, len(lines)):
        row = _PPROF_ROW.match(lines[index])
        if row is not None:
            rows.append((index, float(row.group(2)) * _PPROF_UNITS.get(row.group(3) or "", 1.0)))
    if len(rows) < _MIN_ENTRIES:
        return None
    # by own time (the report's order) and by cumulative time (what a caller spends below it), in turns
    order = in_turns([i for i, _ in rows], [i for i, _ in sorted(rows, key=lambda r: (-r[1], r[0]))])
    picks += _ranked(order, lines, term_matcher(terms), _ENTRY)
    picks += _own_ends(lines, min(p.start for p in picks), last=rows[-1][0])
    outline = f"pprof report, {len(rows)} functions"
    return _Plan(lines, picks, outline, min(len(rows), _HIGHLIGHTS))


def _gprof(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    flat: list[tuple[int, float]] = []
    primaries: list[int] = []
    picks: list[Pick] = []
    graph = -1
    for index, line in enumerate(lines):
        if line.startswith((_GPROF_SAMPLE, _GPROF_GRANULARITY)):
            picks.append(Pick(index, index + 1, _TOTALS))
        elif _GPROF_HEADER.match(line):
            picks.append(Pick(index, index + 2, _COLUMNS))
        elif _GPROF_GRAPH.match(line):
            graph = index
            picks.append(Pick(index, index + 1, _COLUMNS - 1))
        elif graph >= 0:
            if _GPROF_PRIMARY.match(line):
                primaries.append(index)
        elif (row := _GPROF_ROW.match(line)) is not None:
            flat.append((index, float(row.group(1))))
    if len(flat) < _MIN_ENTRIES:
        return None
    wanted = term_matcher(terms)
    timed = [i for i, share in flat if share > 0]
    picks += _ranked(timed, lines, wanted, _ENTRY)
    picks += [Pick(i, i + 1, _IDLE - _STEP * rank) for rank, (i, share) in enumerate(flat) if share <= 0]
    for rank, index in enumerate(primaries):
        top = _TERM if wanted(lines[index]) else _GRAPH
        picks.append(
            Pick(index - 1 if lines[index - 1].startswith(" ") else index, index + 1, top - _STEP * rank)
        )
    outline = f"gprof report, {len(flat)} functions, {len(timed)} took time"
    return _Plan(lines, picks, outline, min(len(timed) + 1, _HIGHLIGHTS))


def _benchmarks(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    picks: list[Pick] = []
    groups: list[list[int]] = []
    header = -1
    for index, line in enumerate(lines):
        if line.startswith("-") and _BENCHMARK_GROUP.match(line):
            groups.append([])
            picks.append(Pick(index, index + 1, _COLUMNS - 1, _BENCHMARK_WIDTH))
        elif _BENCHMARK_SETTINGS.match(line):
            picks.append(Pick(index, index + 1, _TOTALS, _WIDTH))
        elif header < 0 and _BENCHMARK_HEADER.match(line):
            header = index
            picks.append(Pick(index, index + 1, _COLUMNS, _BENCHMARK_WIDTH))
        elif groups and _BENCHMARK_ROW.match(line):
            groups[-1].append(index)
    rows = sum(len(group) for group in groups)
    if rows < _MIN_ENTRIES:
        return None
    wanted = term_matcher(terms)
    for group in groups:
        best = [i for i in group[1:-1] if _BEST in lines[i]]
        order = [*group[:1], *group[1:][-1:], *best, *(i for i in group[1:-1] if i not in best)]
        for rank, index in enumerate(order):
            top = _TERM if wanted(lines[index]) else _ENTRY - _ROW_STEP * rank
            picks.append(Pick(index, index + 1, top, _BENCHMARK_WIDTH))
    last = max(i for group in groups for i in group)
    picks += _own_ends(lines, 0, last=last)  # the run's verdict below the tables
    outline = f"pytest-benchmark report, {len(groups)} groups, {rows} benchmarks"
    return _Plan(lines, picks, outline, min(2 * len(groups) + 1, _HIGHLIGHTS))


def _massif(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    picks: list[Pick] = []
    rows: list[tuple[int, int, int]] = []  # (line, snapshot, total bytes)
    trees: dict[int, list[tuple[int, int]]] = {}  # a detailed snapshot's (line, depth) of its tree
    peak = -1
    columns = False
    for index, line in enumerate(lines):
        if line.startswith(_MASSIF_HEADER):
            picks.append(Pick(index, index + 1, _TOTALS))
        elif line.lstrip().startswith(_MASSIF_DETAILED):
            picks.append(Pick(index, index + 1, _TOTALS))
            found = _MASSIF_PEAK.search(line)
            peak = int(found.group(1)) if found else -1
        elif not rows and _MASSIF_TOP.match(line):
            picks.append(Pick(max(index - 1, 0), index + 1, _COLUMNS))  # the unit's line above it
        elif _MASSIF_COLUMNS.match(line):
            if not columns:
                picks.append(Pick(index, index + 1, _COLUMNS))
                columns = True
        elif (row := _MASSIF_ROW.match(line)) is not None:
            rows.append((index, int(row.group(1)), int(row.group(2).replace(",", ""))))
        elif rows and (branch := _MASSIF_TREE.match(line)) is not None:
            trees.setdefault(rows[-1][1], []).append((index, len(branch.group(1)) // 2))
    if len(rows) < _MIN_ENTRIES:
        return None
    if peak not in {snapshot for _, snapshot, _ in rows}:
        peak = max(rows, key=lambda r: (r[2], -r[0]))[1]
    wanted = term_matcher(terms)
    top = next(i for i, snapshot, _ in rows if snapshot == peak)
    picks.append(Pick(top, top + 1, _TOTALS - 1))
    picks.append(Pick(top + 1, top + 2, _ENTRY + 1))  # the share the heap functions hold
    for rank, (index, depth) in enumerate(sorted(trees.get(peak, []), key=lambda t: (t[1], t[0]))):
        worth = _ENTRY - _MASSIF_DEPTH * depth - _STEP * rank
        if _MASSIF_REST in lines[index]:
            worth = _IDLE - _STEP * rank  # what is left under the threshold, in no function
        elif wanted(lines[index]):
            worth = _TERM
        picks.append(Pick(index, index + 1, worth))
    by_size = sorted(rows, key=lambda r: (-r[2], r[0]))
    picks += _ranked([i for i, _, _ in by_size], lines, wanted, _ROW)
    picks.append(Pick(rows[-1][0], rows[-1][0] + 1, _COLUMNS - 1))  # the last snapshot
    outline = f"massif report, {len(rows)} snapshots, peak {max(r[2] for r in rows):,} B at snapshot {peak}"
    return _Plan(lines, picks, outline, min(len(trees.get(peak, [])) + 2, _HIGHLIGHTS))


def _is_collapsed(head: str) -> bool:
    lines = [line for line in head.split("\n")[:-1] if line.strip()][:50]
    return (
        len(lines) >= _MIN_ENTRIES
        and sum(1 for line in lines if _COLLAPSED.match(line)) >= len(lines) * _COLLAPSED_SHARE
    )


def _collapsed(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    stacks = [(int(m.group(1)), i) for i, line in enumerate(lines) if (m := _COLLAPSED.match(line))]
    if len(stacks) < _MIN_ENTRIES:
        return None
    wanted = term_matcher(terms)
    picks = [
        Pick(i, i + 1, (_TERM if wanted(lines[i]) else _ENTRY) - _STEP * rank, _COLLAPSED_WIDTH)
        for rank, (_, i) in enumerate(sorted(stacks, key=lambda s: (-s[0], s[1])))
    ]
    samples = sum(count for count, _ in stacks)
    outline = f"collapsed stacks, {len(stacks)} stacks, {samples} samples; the most sampled {max(stacks)[0]}"
    return _Plan(lines, picks, outline, min(len(stacks), _HIGHLIGHTS), ends=True)


def _line_profile(text: str, terms: Sequence[str]) -> _Plan | None:
    lines = split_lines(text)
    header = next((i for i, line in enumerate(lines) if _LINE_HEADER.match(line)), -1)
    functions = _functions(lines) if header >= 0 else []
    if not functions:
        return None  # no report: its column header or a function's lines that ran are missing
    wanted = term_matcher(terms)
    timer = next((i for i, line in enumerate(lines) if line.startswith(_TIMER_UNIT)), -1)
    picks = [Pick(header, header + 1, _COLUMNS)]
    if timer >= 0:
        picks.append(Pick(timer, timer + 1, _TOTALS))
    last = max(max([f.total, *(row for _, row in f.rows)]) for f in functions)
    picks += _own_ends(lines, max(timer, 0), last=last)
    profiled = sum(f.seconds for f in functions) or 1.0
    for function in functions:
        share = function.seconds / profiled
        top = _FUNCTION_TIME + 10 * share if function.seconds > 0 else _IDLE
        picks.append(Pick(function.total, function.total + 1, top))
        if function.name >= 0:
            picks.append(Pick(function.name, function.name + 1, top))
        for rank, (percent, index) in enumerate(sorted(function.rows, key=lambda r: (-r[0], r[1]))):
            if wanted(lines[index]):
                priority = _TERM
            elif percent < 1:
                priority = _IDLE
            else:
                priority = _ROW - _ROW_STEP * rank + share
            picks.append(Pick(index, index + 1, priority))
    ran = sum(1 for f in functions if f.seconds > 0)
    outline = f"line_profiler report, {len(functions)} functions, {ran} ran"
    if ran:
        costliest = max(functions, key=lambda f: f.seconds)
        if costliest.name >= 0:
            name = lines[costliest.name][len(_FUNCTION) :].split(" at line ")[0].strip()
            outline += f"; the costliest {name[:60]} {costliest.seconds:g} s"
    return _Plan(lines, picks, outline, min(ran + 1, _HIGHLIGHTS))


def _functions(lines: Sequence[str]) -> list[_Function]:
    found: list[_Function] = []
    for index, line in enumerate(lines):
        total = _TOTAL_TIME.match(line) if line.startswith("Total time: ") else None
        if total is None:
            continue
        name = -1
        for below in range(index + 1, min(index + 4, len(lines))):
            if lines[below].startswith(_FUNCTION):
                name = below
                break
        rows: list[tuple[float, int]] = []
        for below in range(index + 1, len(lines)):
            text = lines[below]
            if text.startswith("Total time: "):
                break
            row = _LINE_ROW.match(text)
            if row is not None:
                rows.append((float(row.group(1)), below))
        found.append(_Function(index, name, float(total.group(1)), rows))
    return found if any(f.rows for f in found) else []


def _own_ends(lines: Sequence[str], first_report_line: int, *, last: int) -> list[Pick]:
    """The text's first line above the report and its last line below it, when they say anything."""
    picks = []
    top = next((i for i in range(first_report_line) if lines[i].strip()), -1)
    if top >= 0 and not lines[top].startswith("#"):
        picks.append(Pick(top, top + 1, _TOTALS))
    bottom = next((i for i in range(len(lines) - 1, last, -1) if lines[i].strip()), -1)
    if bottom > last and not lines[bottom].lstrip().startswith(("#", "|", "-")):
        picks.append(Pick(bottom, bottom + 1, _TOTALS))
    return picks
