"""Summary of a query plan as ``EXPLAIN`` prints it (PostgreSQL's text, MySQL's tree format).

``shapes.is_query_plan(lines)`` recognises one: plan nodes with their estimates
(``->  Hash Join  (cost=76.10..5125.96 rows=14308 width=79)``, ``(actual time=… rows=… loops=…)``).
``summarize_query_plan(lines, budget=, terms=)`` keeps, verbatim (a long line its start, its
indentation, and its end, where the measured time and rows are), highest first: the root node and
the run's totals (``Planning Time``, ``Execution Time``, psql's ``(44 rows)``); a node whose
measured rows are ten times its estimate or a tenth of it (a misestimate: why the plan is what it
is), a sort or hash that spilled to disk (``Sort Method: external merge  Disk: …``, with its
node); the nodes where the time goes, with their conditions and filters and the ``SubPlan`` line
above their branch; every other node, in order, with ``SubPlan`` / ``InitPlan`` / ``CTE`` lines;
then the conditions and filters that say how a node reads (``Filter:``, ``Index Cond:``, ``Hash
Cond:``, ``Rows Removed by Filter:``), then the rest (``Buffers:``, ``Output:``, the JIT's lines)
as room allows. Lines naming one of ``terms`` rank above all but the root.

Where the time goes: a node's own time is its measured time times its loops less its children's
(the nodes under a ``SubPlan`` line are children of the node it is listed under); the
``_HOT_NODES`` nodes whose own time is at least ``_HOT_SHARE`` of the run's are shown wherever
they are in the tree (a correlated subquery's ``Seq Scan`` run 90 times, its ``Filter`` and its
``Rows Removed by Filter: 307011``). The outline counts the nodes per operation, says the times
(the JIT's too: compiling expressions can be much of a short run's time) and names the node with
the most time of its own (summed over its loops: a parallel node's over its processes). Linear in
the plan.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence, Set

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
_HOT = 78.0  # a node with much time of its own, and its conditions: after a misestimate or a spill
_HOT_DETAIL = 2.0  # below each hot node: its conditions, after every hot node itself
_HOT_SHARE = 0.1
_HOT_NODES = 3
_TIMED = re.compile(r"\(actual time=[\d.]+\.\.([\d.]+) rows=[\d.]+ loops=(\d+)\)")
_ARROW = "->"
_JIT_TOTAL = re.compile(r"\s*Timing: .*\bTotal ([\d.]+ ms)")
_JIT_LINES = 5  # a JIT block's lines: Functions, Options, Timing


def summarize_query_plan(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The plan's nodes, totals and misestimates within ``budget`` bytes (see module doc)."""
    matches = term_matcher(terms)
    # Each line read once for what it is: a node (its match), a ``SubPlan`` / ``InitPlan`` line.
    plan_nodes = {i: node for i, line in enumerate(lines) if (node := PLAN_NODE.match(line[:_NODE_READ]))}
    parts = {i for i, line in enumerate(lines) if _PART_LINE.match(line)}
    own = _own_times(lines, plan_nodes, parts)
    total = _whole_run(lines, own)
    hot = [
        index
        for index, spent in sorted(own.items(), key=lambda item: -item[1])[:_HOT_NODES]
        if total and spent >= total * _HOT_SHARE
    ]
    hot_details = _details(lines, hot, plan_nodes, parts)
    picks: list[Pick] = []
    operations: Counter[str] = Counter()
    root = True
    node_at: int | None = None  # the last node seen
    execution = planning = ""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        rank = index * _ORDER
        node = plan_nodes.get(index)
        if node:
            node_at = index
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
            if node_at is not None:  # the sort or hash that spilled, with it
                picks.append(Pick(node_at, node_at + 1, _MISS - rank))
        elif index in parts:
            priority = _PART - rank
        elif _CONDITION_LINE.match(line):
            priority = _CONDITION - rank
        else:
            priority = _OTHER - rank
        if index in hot_details:
            priority = max(priority, hot_details[index])
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
    compiled = _jit_total(lines)
    if compiled:
        outline += f", JIT {compiled}"  # compiling the query's expressions: part of its execution
    if hot:
        name = lines[hot[0]].strip().removeprefix(_ARROW).strip().split("  (", 1)[0]
        loops = _TIMED.search(lines[hot[0]])
        over = f" over {loops[2]} loops" if loops is not None and loops[2] != "1" else ""
        spent = own[hot[0]]
        amount = f"{spent:.0f}" if spent >= 10 else f"{spent:.2g}"  # a fast plan's fraction of a ms
        outline += f", most time of its own in {name} (≈{amount} ms{over})"
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=nodes)


def _own_times(lines: Sequence[str], nodes: Mapping[int, re.Match[str]], parts: Set[int]) -> dict[int, float]:
    """Each timed node's own time in ms (its line's index to it): its last row's time times its
    loops, less its children's so; a node listed under a ``SubPlan`` / ``InitPlan`` / ``CTE`` line
    (``parts``) is a child of the node above that line."""
    spent: dict[int, float] = {}
    children: dict[int, float] = {}
    stack: list[tuple[int, int]] = []  # (indentation, the node's index) down the current branch
    for index in sorted({*parts, *nodes}):
        indent = _indent(lines[index][:_NODE_READ])
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else None
        if index in parts:
            # The nodes under ``SubPlan 1`` belong to the node it is listed under.
            stack.append((indent, parent if parent is not None else -1))
            continue
        timed = _TIMED.search(lines[index])
        if timed is not None:
            inclusive = float(timed[1]) * int(timed[2])
            spent[index] = inclusive
            if parent is not None and parent >= 0:
                children[parent] = children.get(parent, 0.0) + inclusive
        stack.append((indent, index))
    return {index: max(0.0, inclusive - children.get(index, 0.0)) for index, inclusive in spent.items()}


def _whole_run(lines: Sequence[str], own: dict[int, float]) -> float:
    """The run's time in ms: its ``Execution Time``, or its nodes' own times together."""
    for line in reversed(lines):
        found = _EXECUTION.search(line)
        if found:
            return float(found[1].removesuffix(" ms"))
    return sum(own.values())


def _details(
    lines: Sequence[str], hot: Sequence[int], nodes: Mapping[int, re.Match[str]], parts: Set[int]
) -> dict[int, float]:
    """The hot nodes' lines (their index to their priority, the node with most time first), the
    conditions and filters below each, up to its next node, and the ``SubPlan`` line its branch
    is under."""
    found: dict[int, float] = {}
    for place, index in enumerate(hot):
        priority = _HOT - place * _ORDER
        found[index] = priority
        indent = _indent(lines[index])
        for above in range(index - 1, -1, -1):  # up its branch to the SubPlan it is in, if any
            if _indent(lines[above][:_NODE_READ]) >= indent:
                continue
            if above in parts:
                found[above] = priority - _HOT_DETAIL
                break
            if above in nodes:
                indent = _indent(lines[above][:_NODE_READ])
        for below in range(index + 1, len(lines)):
            if below in nodes or below in parts:
                break
            if _CONDITION_LINE.match(lines[below][:_NODE_READ]):
                found[below] = priority - _HOT_DETAIL
    return found


def _jit_total(lines: Sequence[str]) -> str:
    """The run's JIT time (``Total 565.127 ms`` on the ``Timing:`` line of the plan's own ``JIT:``
    block, not a worker's, deeper), or ""."""
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip() == "JIT:" and _indent(lines[index]) <= 1:
            for below in lines[index + 1 : index + _JIT_LINES]:
                found = _JIT_TOTAL.match(below)
                if found:
                    return found[1]
            return ""
    return ""


def _indent(line: str) -> int:
    """Where a line starts: a node's at its arrow, as its ``SubPlan`` line's children are."""
    return len(line) - len(line.lstrip())


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
