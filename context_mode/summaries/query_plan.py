"""Summary of a query plan as ``EXPLAIN`` prints it (PostgreSQL's text, MySQL's tree format).

``shapes.is_query_plan(lines)`` recognises one: plan nodes with their estimates
(``->  Hash Join  (cost=76.10..5125.96 rows=14308 width=79)``, ``(actual time=… rows=… loops=…)``).
``summarize_query_plan(lines, budget=, terms=)`` keeps, verbatim (a long line its start, its
indentation, and its end, where the measured time and rows are), highest first: the root node and
the run's totals (``Planning Time``, ``Execution Time``, psql's ``(44 rows)``); a node whose
measured rows are ten times its estimate or a tenth of it (a misestimate: why the plan is what it
is), a sort or hash that spilled to disk (``Sort Method: external merge  Disk: …``); every other
node, in order, with ``SubPlan`` / ``InitPlan`` / ``CTE`` lines; then the conditions and filters
that say how a node reads (``Filter:``, ``Index Cond:``, ``Hash Cond:``, ``Rows Removed by
Filter:``), then the rest (``Buffers:``, ``Output:``, the JIT's lines) as room allows. Lines
naming one of ``terms`` rank above all but the root. The outline counts the nodes per operation
and says the times. Linear in the plan.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.shapes import PLAN_NODE
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_ROOT = 95.0
_TOTALS = 90.0
_MISS = 80.0  # a node misestimated tenfold, a spill to disk
_NODE = 70.0
_PART = 65.0  # SubPlan 1, InitPlan 2, CTE py
_CONDITION = 45.0
_OTHER = 10.0
_MATCH = 50.0
_ORDER = 0.001
_MISESTIMATE = 10.0
_TOTAL = re.compile(r"\s*(?:Planning|Execution|Total runtime)\b.*\d|\s*\(\d+ rows?\)\s*\Z")
_PART_LINE = re.compile(r"\s*(?:SubPlan|InitPlan|CTE) \S")
_CONDITION_LINE = re.compile(
    r"\s*(?:Filter|Index Cond|Hash Cond|Merge Cond|Join Filter|Recheck Cond|One-Time Filter|"
    r"Rows Removed by (?:Filter|Join Filter|Index Recheck)|Heap Fetches|Sort Key|Group Key|Presorted Key):"
)
_SPILLED = re.compile(r"\bDisk: \d|external (?:merge|sort)|Batches: (?:[2-9]|\d\d)")
_ESTIMATE = re.compile(r"\bcost=[\d.]+(?:\.\.[\d.]+)? rows=(\d+)")
_ACTUAL = re.compile(r"\(actual (?:time=[\d.]+\.\.[\d.]+ )?rows=(\d+(?:\.\d+)?)")
_EXECUTION = re.compile(r"(?:Execution Time|Execution time|Total runtime): ([\d.]+ ms)")
_PLANNING = re.compile(r"(?:Planning Time|Planning time): ([\d.]+ ms)")
_WIDTH = 200
_NODE_READ = 600  # of a line, the part read for a node (its estimates are near its start)


def summarize_query_plan(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The plan's nodes, totals and misestimates within ``budget`` bytes (see module doc)."""
    matches = term_matcher(terms)
    picks: list[Pick] = []
    operations: Counter[str] = Counter()
    root = True
    execution = planning = ""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        rank = index * _ORDER
        node = PLAN_NODE.match(line[:_NODE_READ])
        if node:
            operations[node["op"].strip()] += 1
            priority = _ROOT if root else _NODE - rank
            root = False
            if _misestimated(line):
                priority = max(priority, _MISS - rank)
        elif _TOTAL.match(line):
            priority = _TOTALS
            execution = execution or _found(_EXECUTION, line)
            planning = planning or _found(_PLANNING, line)
        elif _SPILLED.search(line):
            priority = _MISS - rank
        elif _PART_LINE.match(line):
            priority = _PART - rank
        elif _CONDITION_LINE.match(line):
            priority = _CONDITION - rank
        else:
            priority = _OTHER - rank
        if terms and matches(line):
            priority = max(priority, _MATCH + _NODE - rank)
        picks.append(Pick(index, index + 1, priority))
    body = pack(lines, picks, budget, width=_WIDTH, gaps="short", ends=True)
    nodes = operations.total()
    named = ", ".join(f"{op} ×{count}" for op, count in operations.most_common(4))
    outline = (
        f"query plan: {nodes} node{'' if nodes == 1 else 's'} ({named}{', …' if len(operations) > 4 else ''})"
    )
    if execution:
        outline += f", execution {execution}"
    if planning:
        outline += f", planning {planning}"
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=nodes)


def _misestimated(line: str) -> bool:
    """Whether a node's measured rows are ``_MISESTIMATE`` times its estimate, or a tenth of it."""
    estimate, actual = _ESTIMATE.search(line), _ACTUAL.search(line)
    if estimate is None or actual is None:
        return False
    planned, measured = max(float(estimate[1]), 1.0), max(float(actual[1]), 1.0)
    return measured >= planned * _MISESTIMATE or planned >= measured * _MISESTIMATE


def _found(pattern: re.Pattern[str], line: str) -> str:
    found = pattern.search(line)
    return found[1] if found else ""
