"""Where the time goes: py-spy samples of a hub (or the bare proxy) serving a steady stream of calls.

Run: ``.venv/bin/python bench/profile_hub.py [--target ctxhub|bare] [--scenario direct|summary|dedupe]
[--calls N] [--rate HZ] [--nonblocking] [--keep DIR] [--report RAW]``; needs ``py-spy`` in the venv
(``.venv/bin/pip install py-spy``).

The target serves one fixture downstream over stdio; after a warm-up, py-spy samples every
thread of the target process while the client makes
``--calls`` calls one after another. ``py-spy record --format raw`` pauses the target for each
sample (at the default 250 Hz about 2% of its time); ``--nonblocking`` does not, but tears many
stacks, so inclusive shares come out low. Prints the share of active samples per cost bucket (leaf frame:
JSON and pydantic, schema validation, thread hand-offs, pipe syscalls, event loop, SDK dispatch,
logging, hub code, routing core, store) and the functions with the most samples, self and
inclusive. Samples of idle threads (the loop in epoll, a worker waiting for work) are left out, so shares
are of busy time, not wall time.

Scenarios: ``direct`` is ``echo`` of a short, different text each call (Direct route, no spill);
``summary`` is ``big(kb=1024)`` (Summary route, spilled and indexed in a worker thread);
``dedupe`` is the same ``echo`` of 1 KB every call (cache hits after the first).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import anyio
from harness import (
    BENCH,
    PYTHON,
    call,
    connect,
    fixture_command,
    fixture_server,
    hub_command,
    pid_of,
    write_config,
)

PY_SPY = Path(PYTHON).with_name("py-spy")
_FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>[^:()]*)(?::(?P<line>\d+))?\)$")
# Leaf frames of a thread with nothing to do: the event loop in epoll, a worker waiting for work.
IDLE = (
    ("EpollSelector.select", "selectors.py"),
    ("Condition.wait", "threading.py"),
    ("ThreadedChildWatcher._do_waitpid", "asyncio/unix_events.py"),
)

# Buckets by the leaf frame's file (first match wins); the order puts specific before general.
BUCKETS: list[tuple[str, re.Pattern[str]]] = [
    (
        "JSON / pydantic (de)serialisation",
        re.compile(r"pydantic|json/|mcp_types/|jsonrpc_message|_parse_line"),
    ),
    ("output-schema validation (jsonschema)", re.compile(r"jsonschema|referencing|rpds")),
    ("logging", re.compile(r"logging/")),
    (
        "thread hand-offs (to_thread, wrap_file)",
        re.compile(r"threading\.py|queue\.py|to_thread|_fileio|thread\.py"),
    ),
    ("event loop and anyio machinery", re.compile(r"asyncio/|anyio/|selectors\.py|contextvars|contextlib")),
    ("MCP SDK dispatch and sessions", re.compile(r"mcp/")),
    (
        "routing and summarisers (context_mode)",
        re.compile(r"context_mode/(router|summaries|kinds|codelines|stage1|tokens)"),
    ),
    (
        "store: chunking and indexing (context_mode/store*, tantivy)",
        re.compile(r"context_mode/(store|chunking)|tantivy"),
    ),
    ("other core (cache, stats, policy)", re.compile(r"context_mode/")),
    ("hub code", re.compile(r"hub/")),
    ("stdlib other (hashlib, fnmatch, re, ...)", re.compile(r"python3\.\d+/")),
]


def parse(
    raw: Path,
) -> tuple[collections.Counter[str], collections.Counter[str], collections.Counter[str], int]:
    """Per bucket, per leaf function and per function anywhere in the stack: sample counts; and the total."""
    buckets: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [frame for frame in stack.split(";") if _FRAME.match(frame)]
        if not frames:
            continue
        leaf = frames[-1]
        match = _FRAME.match(leaf)
        assert match is not None
        where = match["file"]
        if (match["function"], where) in IDLE:
            continue
        total += count
        bucket = next(
            (name for name, pattern in BUCKETS if pattern.search(where)), "other (C calls, syscalls)"
        )
        if (
            match["function"].endswith(("Transport.write", "Transport._read_ready"))
            and "unix_events" in where
        ):
            bucket = "pipe syscalls (os.write / os.read)"
        elif match["function"] == "WorkerThread.run":
            bucket = "C calls in worker threads (stdout write/flush, tantivy)"
        buckets[bucket] += count
        leaves[_short(leaf)] += count
        for name in {_short(frame) for frame in frames}:
            inclusive[name] += count
    return buckets, leaves, inclusive, total


def _short(frame: str) -> str:
    match = _FRAME.match(frame)
    if match is None:
        return frame
    path = match["file"]
    for marker in ("site-packages/", "/work/main/", "python3.11/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{match['function']} ({path})"


async def drive(
    target: str, scenario: str, calls: int, rate: int, nonblocking: bool, keep: Path | None
) -> Path:
    directory = Path(tempfile.mkdtemp(prefix="ctxhub-profile-"))
    marker = f"profile-{os.getpid()}-{time.monotonic_ns()}"
    downstream = [*fixture_command(marker)]
    if target == "ctxhub":
        config = write_config(directory, {"fixture": fixture_server(marker)})
        command, prefix, pid_marker = hub_command(config), "fixture__", str(config)
    else:
        command, prefix, pid_marker = (
            [PYTHON, str(BENCH / "bare_proxy.py"), *downstream],
            "",
            "bare_proxy.py " + PYTHON,
        )
    raw = (keep or directory) / f"{target}-{scenario}.txt"
    async with connect(command) as session:
        pid = pid_of(
            pid_marker
            if target == "ctxhub"
            else f"bare_proxy.py {downstream[0]} {downstream[1]} --name {marker}"
        )

        def arguments(number: int) -> tuple[str, dict[str, object]]:
            if scenario == "summary":
                return "big", {"kb": 1024, "nonce": number}
            if scenario == "dedupe":
                return "echo", {"text": "x" * 1024}
            return "echo", {"text": f"ping {number:07d} from the profile bench"}

        for number in range(100 if scenario != "summary" else 5):
            tool, args = arguments(number)
            await call(session, prefix + tool, args)
        spy = await anyio.open_process(
            [
                str(PY_SPY),
                "record",
                "--pid",
                str(pid),
                "--rate",
                str(rate),
                "--format",
                "raw",
                "--output",
                str(raw),
                *(["--nonblocking"] if nonblocking else []),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        await anyio.sleep(0.5)
        started = time.perf_counter()
        for number in range(calls):
            tool, args = arguments(1000 + number)
            await call(session, prefix + tool, args)
        elapsed = time.perf_counter() - started
        spy.send_signal(signal.SIGINT)
        with anyio.fail_after(30):
            await spy.wait()
    print(f"{target} / {scenario}: {calls} calls in {elapsed:.2f} s ({elapsed / calls * 1000:.2f} ms each)")
    if keep is None:
        text = raw.read_text()
        shutil.rmtree(directory, ignore_errors=True)
        raw = Path(tempfile.mkstemp(prefix=f"ctxhub-{target}-{scenario}-", suffix=".txt")[1])
        raw.write_text(text)
    return raw


def report(raw: Path, top: int) -> None:
    buckets, leaves, inclusive, total = parse(raw)
    print(f"{total} active samples ({raw})\n")
    print("| bucket (leaf frame) | share |\n|---|---|")
    for name, count in buckets.most_common():
        print(f"| {name} | {count / total:.1%} |")
    print("\n| self (leaf) | share |\n|---|---|")
    for name, count in leaves.most_common(top):
        print(f"| {name} | {count / total:.1%} |")
    print("\n| inclusive (hub, core, SDK entry points) | share |\n|---|---|")
    interesting = re.compile(
        r"\((hub|context_mode|tools)/|session\.py|jsonrpc_dispatcher|server/stdio|client/stdio|lowlevel"
    )
    shown = 0
    for name, count in inclusive.most_common():
        if interesting.search(name):
            print(f"| {name} | {count / total:.1%} |")
            shown += 1
            if shown >= top:
                break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=("ctxhub", "bare"), default="ctxhub")
    parser.add_argument("--scenario", choices=("direct", "summary", "dedupe"), default="direct")
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rate", type=int, default=250)
    parser.add_argument("--nonblocking", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--keep", type=Path, help="write the raw py-spy output into this directory")
    parser.add_argument("--report", type=Path, help="only summarise this raw py-spy file")
    options = parser.parse_args()
    if options.report:
        report(options.report, options.top)
        return
    if not PY_SPY.exists():
        raise SystemExit(
            f"py-spy is not installed next to {PYTHON}; run: {Path(PYTHON).parent}/pip install py-spy"
        )
    raw = anyio.run(
        drive,
        options.target,
        options.scenario,
        options.calls,
        options.rate,
        options.nonblocking,
        options.keep,
    )
    report(raw, options.top)


if __name__ == "__main__":
    main()
