"""Routing ~1 MiB of each corpus kind in process: kind detection and the whole ``route``.

Run: ``.venv/bin/python bench/route_kinds.py [--repeat N]`` (about 20 s).

The in-process counterpart of ``bench/summary_kinds.py`` (which times the same megabytes through
a serving hub): each corpus file is repeated to about 1 MiB, as there, and routed as a
``workspace__read_file`` result of that file, as the hub routes it. Each run gets its own copy
of the text, since summarisers keep the last text's reading for the router's next summary of
the same ``str`` (``context_mode/summaries/reading.py``), which serves one payload, not the
next. Times are CPU time, the best of ``--repeat`` runs, so other work on a shared box moves them
less; run it beside a worktree of another commit (``PYTHONPATH=<worktree>``) to compare code.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This checkout's code, after PYTHONPATH's entries (sys.path[0] is bench/): with
# ``PYTHONPATH=<worktree>`` the worktree's code is measured, not this checkout's twice.
_FIRST_AFTER_PYTHONPATH = 1 + len(
    [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
)
sys.path.insert(_FIRST_AFTER_PYTHONPATH, str(Path(__file__).resolve().parents[1]))

from harness import corpus_files, megabyte  # noqa: E402

from context_mode.kinds import detect_kind  # noqa: E402
from context_mode.router import route  # noqa: E402

TOOL = "workspace__read_file"


def best(work: Callable[[str], object], text: str, repeat: int) -> float:
    """CPU milliseconds of the fastest of ``repeat`` runs, each on a fresh copy of ``text``."""
    times = []
    for _ in range(repeat):
        copy = text[:1] + text[1:]
        started = time.process_time()
        work(copy)
        times.append(time.process_time() - started)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    _, files = corpus_files()
    rows = []
    for source in files:
        text = megabyte(source)
        arguments = {"path": source.name}

        def detect_it(copy: str, arguments: dict[str, str] = arguments) -> object:
            return detect_kind(copy, tool_name=TOOL, arguments=arguments)

        def route_it(copy: str, arguments: dict[str, str] = arguments) -> object:
            return route(copy, tool=TOOL, arguments=arguments)

        kind = detect_kind(text, tool_name=TOOL, arguments=arguments).value
        routed, detected = best(route_it, text, options.repeat), best(detect_it, text, options.repeat)
        rows.append((routed, detected, kind, source.name))
    print("| file (~1 MiB) | kind | detect_kind | route |")
    print("|---|---|---|---|")
    for routed, detect, kind, name in sorted(rows):
        print(f"| {name} | {kind} | {detect:.1f} ms | {routed:.1f} ms |")
    times = sorted(routed for routed, *_ in rows)
    print(f"\nroute: median {times[len(times) // 2]:.1f} ms, worst {times[-1]:.1f} ms over {len(rows)} files")


if __name__ == "__main__":
    main()
