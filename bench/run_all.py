"""Run every benchmark and print one markdown table: figure, ours, baseline, ratio, goal, met?

Run: ``bench/run_all [--quick] [--only NAME,...] [--memory-calls N] [--details]`` (about 3 minutes;
``--quick`` shorter). Progress and each benchmark's own tables go to stderr (stdout with
``--details``); the combined table, then one note per row, goes to stdout. Every ratio is against
a baseline measured in the same run. A benchmark that fails gets a row saying so; the others
still run. A benchmark that needs something absent here (a corpus, a venv it cannot create) gets
a row "skipped: why" and does not count as failed, so a plain clone runs every row. The economy
row measures the shipped ``bench/corpus`` through the hub (``bench/economy.py``).

The memory benchmark makes ``--memory-calls`` calls of 100 KB (default 3,000, so the whole run
fits in about 5 minutes at the hub's current ~25 calls/s for that load) and projects its slope to
the goal's 10,000; ``bench/memory.py --calls 10000`` measures 10,000 (about 7 minutes).
FastMCP's proxy runs from its own venv, ``bench/.venvs/fastmcp`` (created with pip on first use).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from typing import Any

import anyio
import dedupe
import economy
import hub_logic
import memory
import overhead
import polling
import search
import startup
import summarizers
import summary_kinds
import summary_path
from harness import BENCH_CORPUS, Figure, Skipped, render_table

MEMORY_CALLS = 3000


def benchmarks(options: argparse.Namespace) -> dict[str, Callable[[], list[Figure]]]:
    quick = options.quick

    def run_async(function: Callable[..., Any], *args: Any) -> Callable[[], list[Figure]]:
        return lambda: anyio.run(function, *args)

    return {
        "startup": run_async(startup.run, quick),
        "overhead": run_async(overhead.run, quick),
        "hub_logic": run_async(hub_logic.run, quick),
        "dedupe": run_async(dedupe.run, quick),
        "polling": run_async(polling.run, quick),
        "summary": run_async(summary_path.run, quick),
        "summary_kinds": run_async(summary_kinds.run, quick),
        "summarizers": lambda: summarizers.run(quick, verbose=True),
        "search": lambda: search.run(quick),
        "memory": run_async(
            memory.run, quick, options.memory_calls or (800 if quick else MEMORY_CALLS), 4, True
        ),
        "economy": economy_figures,
    }


def economy_figures() -> list[Figure]:
    """The economy of ``bench/corpus`` through the hub, per set, against head+tail truncation."""
    if not (BENCH_CORPUS / "corpus.yaml").is_file():
        raise Skipped(f"no corpus at {BENCH_CORPUS}")
    results = economy.benchmark(BENCH_CORPUS)
    print(economy.table(results))
    rows = []
    for name in ("dev", "holdout"):
        group = economy.total(name, [r for r in results if r.set == name])
        rows.append(
            Figure(
                f"Economy, bench/corpus {name}: facts within stage 1 + one doc_search",
                f"{group.reached}/{group.facts} ({group.reached_share:.0%})",
                f"{group.head_tail}/{group.facts} (head+tail at stage-1 bytes)",
                group.reached / group.head_tail if group.head_tail else None,
                "reported",
                None,
                f"{group.items} items; in stage 1 {group.in_stage1}/{group.facts}; "
                f"search only {group.search_only}/{group.facts}",
            )
        )
    overall = economy.total("overall", results)
    rows.append(
        Figure(
            "Economy, bench/corpus: stage-1 bytes of raw",
            f"{overall.stage1_share:.1%}",
            f"{overall.raw_bytes:,} B raw",
            None,
            "reported",
            None,
            f"largest stage 1 {overall.max_stage1_bytes:,} B; {overall.bytes_per_search:,.0f} B per search",
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds everywhere")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated: startup, overhead, hub_logic, dedupe, polling, summary, summary_kinds, "
        "summarizers, search, memory, economy",
    )
    parser.add_argument(
        "--memory-calls", type=int, help=f"calls of 100 KB (default {MEMORY_CALLS}; 10000 in full)"
    )
    parser.add_argument(
        "--details", action="store_true", help="print each benchmark's own tables on stdout too"
    )
    options = parser.parse_args()
    chosen = benchmarks(options)
    if options.only:
        names = [name.strip() for name in options.only.split(",") if name.strip()]
        unknown = sorted(set(names) - set(chosen))
        if unknown:
            parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(chosen)}")
        chosen = {name: chosen[name] for name in names}
    figures: list[Figure] = []
    started = time.perf_counter()
    details = sys.stdout if options.details else sys.stderr
    for name, function in chosen.items():
        print(f"## {name}", file=details, flush=True)
        began = time.perf_counter()
        try:
            with contextlib.redirect_stdout(details):
                rows = function()
        except Skipped as why:  # something this row needs is absent here: say so, do not fail
            rows = [Figure(name, f"skipped: {why}", "—", None, "—", None)]
        except Exception as exc:  # one failing benchmark must not hide the others' figures
            rows = [Figure(name, "failed", "—", None, "—", False, f"{type(exc).__name__}: {exc}")]
        figures.extend(rows)
        print(render_table(rows, notes=False), file=details)
        print(f"({name}: {time.perf_counter() - began:.0f} s)\n", file=details, flush=True)
    print(render_table(figures))
    met = sum(row.met is True for row in figures)
    missed = sum(row.met is False for row in figures)
    print(
        f"\n{len(figures)} figures in {time.perf_counter() - started:.0f} s; {met} goals met, {missed} not."
    )


if __name__ == "__main__":
    main()
