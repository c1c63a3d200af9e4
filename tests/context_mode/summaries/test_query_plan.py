"""A query plan as EXPLAIN prints it is summarised by its nodes, its times and its misestimates."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.shapes import PLAN_NODE, is_query_plan
from context_mode.summaries.query_plan import summarize_query_plan
from context_mode.types import ContentKind

DATA = Path(__file__).parents[2] / "data"
PLAN = (DATA / "postgres-15-explain-analyze-verbose-dpkg.txt").read_text(encoding="utf-8")


def test_explain_analyze_shows_every_node_first_with_the_times() -> None:
    # Failed before: "log: 212 lines, 0 failed tests, 0 errors, 0 warnings": the root, a few
    # details (``Output:``, ``Buckets:``, ``Sort Method:``) and the JIT's lines; 5 of its 32 nodes.
    assert detect_kind(PLAN, tool_name="run_command") is ContentKind.TEXT
    decision = route(PLAN, tool="run_command", arguments={"command": "psql -f q.sql"})
    assert isinstance(decision, Summary)
    outline = decision.extract.outline
    assert outline.startswith("query plan: 32 nodes (")
    assert outline.endswith(", execution 289.654 ms, planning 3.620 ms")
    body = decision.extract.text.splitlines()
    nodes = [line for line in PLAN.splitlines() if PLAN_NODE.match(line)]
    shown = [line for line in body if PLAN_NODE.match(line)]
    assert len(shown) >= 15 and shown[0] == nodes[0]
    # a node is cut in its middle, its indentation and its measured rows kept
    assert all(line in nodes or (line.split("…")[0] and "(actual time=" in line) for line in shown)
    assert " Execution Time: 289.654 ms" in body and " Planning Time: 3.620 ms" in body


_MEASURED = "time=0.1..0.2 rows=100 loops=1"


def test_a_tenfold_misestimate_and_a_spill_come_before_the_other_nodes() -> None:
    plan = [
        "                         QUERY PLAN",
        "------------------------------------------------------------",
        " Sort  (cost=10.00..10.10 rows=40 width=8) (actual time=5.0..6.0 rows=40 loops=1)",
        "   Sort Method: external merge  Disk: 5120kB",
        *(
            f"   ->  Seq Scan on t{i}  (cost=0.00..1.00 rows=100 width=8) (actual {_MEASURED})"
            for i in range(30)
        ),
        "   ->  Index Scan using u_idx on u  (cost=0.29..8.31 rows=1 width=8) (actual time=0.1..9.0 rows=5000"
        " loops=1)",
        " Execution Time: 9.100 ms",
    ]
    assert is_query_plan(plan)
    body = summarize_query_plan(plan, budget=500).text
    assert "rows=5000 loops=1)" in body and "Disk: 5120kB" in body
    assert " Execution Time: 9.100 ms" in body and plan[2] in body
    assert "Seq Scan on t29" not in body


def test_a_log_or_a_table_with_parentheses_is_no_query_plan() -> None:
    assert not is_query_plan(["2026-12-02 INFO started (pid 1)", "Sort (by name)", "Hash (x)"])
    assert not is_query_plan([f"Seq Scan on t{i} (cost estimate)" for i in range(5)])
