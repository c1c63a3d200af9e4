"""Are the summarisers linear in their input? Crafted inputs at growing sizes, every kind forced.

Run: ``.venv/bin/python bench/summarizers.py [--max-kb 1024]`` (about 30 s). In-process, no MCP.

Each input is built at 64 KiB, 256 KiB and 1 MiB and routed (``route``, AUTO: detection plus the
detected summariser), then summarised as every ``ContentKind`` in turn (a tag, a tool name or an
error result can force a kind onto any text). Times are the best of a few runs.
16× the size should cost about 16× the time: the exponent ``log(t_1MB / t_64KB) / log(16)`` is 1
for linear work and 2 for quadratic (from 256 KB when the 64 KB run takes under a millisecond).
A case whose next size would take over ``STOP_SECONDS`` by a quadratic extrapolation is not run
bigger and is reported as superlinear.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from collections.abc import Callable

from harness import FIXTURE, Figure

from context_mode.router import route
from context_mode.summaries import summarize
from context_mode.types import ContentKind

sys.path.insert(0, str(FIXTURE.parent))
from fixture_server import big_json, big_log  # noqa: E402

KB = 1024
SIZES = (64 * KB, 256 * KB, 1024 * KB)
STOP_SECONDS = 20.0
REPEATS = {64 * KB: 5, 256 * KB: 3, 1024 * KB: 2}  # best of: more where runs are short
LINEAR_EXPONENT = 1.3  # above this a 4× step costs over 6×: not linear


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _words(size: int, separator: str) -> str:
    rng = random.Random(size)
    vocabulary = (
        "error request timeout getUserById cache_miss retry /srv/app/main.py:42 [x] (y) `z` **w**".split()
    )
    parts: list[str] = []
    total = 0
    while total < size:
        word = rng.choice(vocabulary)
        parts.append(word)
        total += len(word) + 1
    return separator.join(parts)[:size]


def _nested_json(size: int) -> str:
    depth = size // 8
    return '{"a":' * depth + "1" + "}" * depth


# name -> builder(size in bytes) -> text
INPUTS: dict[str, Callable[[int], str]] = {
    "one line of words, no newline": lambda size: _words(size, " "),
    "short lines (~10 B each)": lambda size: "".join(f"k{n % 97}=v{n}\n" for n in range(size // 10))[:size],
    "deeply nested JSON object": _nested_json,
    "deeply nested JSON array": lambda size: "[" * (size // 2) + "]" * (size // 2),
    "JSON array of records": lambda size: big_json(size // KB),
    "pytest log": lambda size: big_log(size // KB),
    "unclosed brackets on one line": lambda size: _repeat("[a](b ", size),
    "one line of spaces then a word": lambda size: " " * (size - 1) + "x",
    "path:line: prefixes on one line": lambda size: _repeat("src/a.py:1:", size),
    "diff-like lines without hunks": lambda size: _repeat("+++ b/x\n--- a/x\n+ line\n- line\n", size),
    "pipes, a table of one column": lambda size: _repeat("| a | b | c |\n", size),
    "markdown headings only": lambda size: _repeat("# h\n## h h\n", size),
}


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def cases() -> list[tuple[str, str | None]]:
    """(input, kind) pairs; kind None means ``route`` (AUTO)."""
    return [(name, kind) for name in INPUTS for kind in (None, *ContentKind)]


def measure(max_bytes: int) -> list[tuple[str, str, list[tuple[int, float]], bool]]:
    """Per case: input name, what ran, (size, seconds) points, whether it was stopped as superlinear."""
    rows = []
    texts = {
        name: {size: build(size) for size in SIZES if size <= max_bytes} for name, build in INPUTS.items()
    }
    for name, kind in cases():
        points: list[tuple[int, float]] = []
        stopped = False
        for size, text in texts[name].items():
            if points:
                last_size, last_seconds = points[-1]
                if last_seconds * (size / last_size) ** 2 > STOP_SECONDS and last_seconds > 0.05:
                    stopped = True
                    break
            if kind is None:
                action = functools.partial(route, text, tool="bench")
            else:
                action = functools.partial(summarize, text, kind, budget=1080)
            seconds = min(timed(action) for _ in range(REPEATS[size]))
            points.append((len(text.encode("utf-8")), seconds))
        label = "route (AUTO)" if kind is None else f"as {kind.value}"
        rows.append((name, label, points, stopped))
    return rows


def exponent(points: list[tuple[int, float]]) -> float | None:
    if len(points) < 2:
        return None
    # From the smallest size that takes at least a millisecond: shorter runs are timer and cache noise.
    timed_points = [(size, seconds) for size, seconds in points if seconds >= 0.001]
    if len(timed_points) < 2 or timed_points[-1][1] <= 0.005:
        return None
    (small, t_small), (big, t_big) = timed_points[0], timed_points[-1]
    return math.log(t_big / t_small) / math.log(big / small)


def figures(rows: list[tuple[str, str, list[tuple[int, float]], bool]]) -> list[Figure]:
    per_mb = [
        (points[-1][1] * 1000 / (points[-1][0] / 2**20), name, label) for name, label, points, _ in rows
    ]
    worst_ms, worst_name, worst_label = max(per_mb)
    exponents = [(exponent(points) or 0.0, name, label) for name, label, points, _ in rows]
    worst_exp, exp_name, exp_label = max(exponents)
    stopped = [f"{name} {label}" for name, label, _, halted in rows if halted]
    routes = [points[-1][1] * 1000 for _, label, points, _ in rows if label == "route (AUTO)"]
    baseline = next(
        points[-1][1] * 1000
        for name, label, points, _ in rows
        if name == "pytest log" and label == "route (AUTO)"
    )
    return [
        Figure(
            "Summarisers: slowest case per MB (crafted inputs × every kind)",
            f"{worst_ms:.0f} ms/MB",
            f"{baseline:.0f} ms (pytest log, AUTO)",
            worst_ms / baseline,
            "reported",
            None,
            f"slowest: {worst_name}, {worst_label}; route (AUTO) over all inputs: "
            f"max {max(routes):.0f} ms/MB",
        ),
        Figure(
            "Summarisers: worst growth exponent (t ∝ size^k, 64 KB → 1 MB)",
            f"k = {worst_exp:.2f}",
            "k = 1 (linear)",
            worst_exp,
            f"k ≤ {LINEAR_EXPONENT}",
            worst_exp <= LINEAR_EXPONENT and not stopped,
            f"worst: {exp_name}, {exp_label}"
            + (f"; stopped as superlinear: {', '.join(stopped)}" if stopped else ""),
        ),
    ]


def report(rows: list[tuple[str, str, list[tuple[int, float]], bool]]) -> str:
    lines = ["| input | summarised | ms at 64 KB / 256 KB / 1 MB | exponent |", "|---|---|---|---|"]
    for name, label, points, stopped in rows:
        times = " / ".join(f"{seconds * 1000:.1f}" for _, seconds in points) + (
            " / stopped" if stopped else ""
        )
        power = exponent(points)
        lines.append(f"| {name} | {label} | {times} | {'—' if power is None else f'{power:.2f}'} |")
    return "\n".join(lines)


def run(quick: bool = False, verbose: bool = False) -> list[Figure]:
    rows = measure(SIZES[-1])
    if verbose:
        print(report(rows), end="\n\n", flush=True)
    return figures(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-kb", type=int, default=1024)
    options = parser.parse_args()
    rows = measure(options.max_kb * KB)
    print(report(rows), end="\n\n")
    from harness import print_figures

    print_figures(figures(rows))


if __name__ == "__main__":
    main()
