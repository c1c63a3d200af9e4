"""Session memory: the cost of one ``append`` (and its status) at 1k, 10k and 60k entries.

Run: ``.venv/bin/python bench/memory_append.py [--tree PATH]``. A session log of N notes (every
97th protected by a keyword, every 501st pinned) is written as JSONL, opened (replayed once),
then ``--appends`` more notes are appended and timed; the figure is the median per append.
``--tree`` runs the same against another checkout (e.g. one extracted with ``git archive``) so
before/after come from the same machine and load.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

SIZES = (1_000, 10_000, 60_000)

PROBE = r"""
import json, statistics, sys, tempfile, time
from pathlib import Path
from context_mode.memory import SessionMemory, MemoryPolicy
size, appends = int(sys.argv[1]), int(sys.argv[2])
directory = Path(tempfile.mkdtemp())
with (directory / "s.jsonl").open("w") as log:
    log.write(json.dumps({"op": "open", "ts": 0.0}) + "\n")
    for n in range(1, size + 1):
        protected = n % 97 == 0 or n % 501 == 0
        reason = ("pinned" if n % 501 == 0 else "keyword:must") if protected else None
        text = f"note {n}: checked module_{n}.py"
        pinned = n % 501 == 0
        record = {"op": "note", "id": n, "ts": float(n), "text": text, "pinned": pinned, "reason": reason}
        log.write(json.dumps(record) + "\n")
memory = SessionMemory(directory, MemoryPolicy())
memory.status("s")
times = []
for n in range(appends):
    started = time.perf_counter()
    memory.append("s", f"another note {n}")
    times.append(time.perf_counter() - started)
print(json.dumps(statistics.median(times)))
"""


def measure(tree: Path, size: int, appends: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(size), str(appends)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )
    return float(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, help="another checkout to compare against (before)")
    parser.add_argument("--appends", type=int, default=200)
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    print("| entries | before (median per append) | after | ratio |")
    print("|---|---|---|---|")
    for size in SIZES:
        after = measure(here, size, args.appends)
        before = measure(args.tree, size, args.appends) if args.tree else float("nan")
        print(f"| {size:,} | {before * 1e3:.3f} ms | {after * 1e3:.3f} ms | {before / after:.0f}× |")


if __name__ == "__main__":
    main()
