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
    assert (
        ", execution 289.654 ms, planning 3.620 ms, JIT 40.656 ms, most time of its own in Parallel "
        in outline
    )
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


def test_the_node_with_most_time_of_its_own_is_shown_with_its_filter_and_its_subplan() -> None:
    # Failed before: the outline named no node; the summary showed the correlated subquery's Seq Scan
    # but neither its ``Filter`` nor its ``Rows Removed by Filter`` (where the 1.27 s went and why),
    # nor the ``SubPlan 1`` it runs in.
    plan = (DATA / "postgres-15-explain-analyze-verbose-correlated-subplan-debian-packages.txt").read_text()
    decision = route(plan, tool="query", arguments={"sql": "EXPLAIN (ANALYZE, BUFFERS, VERBOSE) SELECT …"})
    assert isinstance(decision, Summary)
    outline = decision.extract.outline
    assert (
        "JIT 565.127 ms, most time of its own in Seq Scan on public.deps d (≈1273 ms over 90 loops)"
        in outline
    )
    body = decision.extract.text.splitlines()
    scan = next(line for line in plan.splitlines() if "Seq Scan on public.deps d " in line)
    for line in (scan, "SubPlan 1", "Filter: (d.dep = p.name)", "Rows Removed by Filter: 307011"):
        assert any(shown.strip() == line.strip() for shown in body), line


def test_a_spilled_sort_deep_in_the_plan_is_shown_with_its_node() -> None:
    # Failed before: ``Sort Method: external merge`` was shown, the Sort it belongs to was not.
    spilled = "         ->  Sort  (cost=9.00..9.50 rows=200 width=8) (actual time=0.1..0.2 rows=300 loops=1)"
    plan = [
        " Limit  (cost=10.00..10.10 rows=40 width=8) (actual time=5.0..6.0 rows=40 loops=1)",
        *(
            f"   ->  Seq Scan on t{i}  (cost=0.00..1.00 rows=100 width=8) (actual {_MEASURED})"
            for i in range(30)
        ),
        spilled,
        "               Sort Method: external merge  Disk: 4296kB",
        " Execution Time: 9.100 ms",
    ]
    body = summarize_query_plan(plan, budget=500).text.splitlines()
    assert spilled in body and "               Sort Method: external merge  Disk: 4296kB" in body


def test_without_measured_times_no_node_is_named_for_its_time() -> None:
    plan = [
        " Hash Join  (cost=10.00..20.00 rows=40 width=8)",
        "   ->  Seq Scan on a  (cost=0.00..1.00 rows=100 width=8)",
        "   ->  Hash  (cost=1.00..1.00 rows=100 width=8)",
        "         ->  Seq Scan on b  (cost=0.00..1.00 rows=100 width=8)",
    ]
    assert "most time" not in summarize_query_plan(plan, budget=500).outline


def test_mysqls_tree_plan_names_its_node_with_most_time_of_its_own() -> None:
    # MySQL 8's ``EXPLAIN ANALYZE`` (the example in its manual): every node behind an arrow, no
    # execution time; the lookup run 9 times holds most of the run.
    filtered = "(cost=1.15 rows=9) (actual time=0.0616..0.0693 rows=9 loops=1)"
    looked_up = "(cost=0.261 rows=1) (actual time=0.0126..0.0142 rows=1 loops=9)"
    plan = [
        "-> Nested loop inner join  (cost=4.95 rows=9) (actual time=0.153..0.200 rows=9 loops=1)",
        f"    -> Filter: (t2.c2 is not null)  {filtered}",
        "        -> Table scan on t2  (cost=1.15 rows=9) (actual time=0.0589..0.0657 rows=9 loops=1)",
        f"    -> Index lookup on t1 using idx1 (c1=t2.c2)  {looked_up}",
    ]
    outline = summarize_query_plan(plan, budget=1000).outline
    assert outline.endswith(
        ", most time of its own in Index lookup on t1 using idx1 (c1=t2.c2) (≈0.13 ms over 9 loops)"
    )
