"""Polling: the same read every few seconds, as an agent watching a build does, under each cache mode.

Run: ``.venv/bin/python bench/polling.py [--polls N] [--rounds N]`` (about a minute).

Workloads, each ``polls`` reads through ``ctxhub serve`` with the bundled workspace server:

- a log that grows by a few lines between reads (``read_log``, 600 lines / 30 kB to start);
- a ``git status``-style listing (40 lines) where one line changes between reads (``read_file``);
- the same log, unchanged (a plain repeat).

Bytes the agent receives per call (the text of the reply) with ``cache.mode: verify`` (pointers
and deltas), against the raw calls (the workspace server called directly: the full text every
time), the hub with its cache off (every read routed as a first call) and today's TTL cache
(``cache.mode: trust``), whose stale answers are counted. Latency: a verify repeat of the unchanged
30 kB log (downstream call + hash + pointer) against the same read with the cache off, a
trust-mode repeat (no downstream call) and the server called directly, interleaved.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from harness import (
    PYTHON,
    Figure,
    call,
    connect_all,
    hub_command,
    interleave,
    median,
    ms,
    percentile,
    print_figures,
    write_config,
)

MODES = {"verify": {}, "trust": {"mode": "trust"}, "off": {"enabled": False}}


def log_line(number: int) -> str:
    stamp = f"2026-01-01T00:{number // 60 % 60:02d}:{number % 60:02d}"
    if number % 97 == 13:
        return f"{stamp} ERROR worker-{number % 7} batch {number:05d} failed: connection reset\n"
    if number % 41 == 7:
        return f"{stamp} WARN worker-{number % 7} batch {number:05d} slow (2.{number % 10} s)\n"
    return f"{stamp} INFO worker-{number % 7} batch {number:05d} ok\n"


def status_text(poll: int) -> str:
    lines = ["On branch main", "Changes not staged for commit:"]
    lines += [f"\tmodified:   src/module_{number:02d}.py" for number in range(38)]
    lines[2 + poll % 38] = f"\tdeleted:    src/module_{poll % 38:02d}.py (poll {poll})"
    return "\n".join(lines) + "\n"


Change = Callable[[Path, int], None]


def grow_log(workspace: Path, poll: int) -> None:
    with (workspace / "app.log").open("a", encoding="utf-8") as log:
        log.write("".join(log_line(600 + poll * 3 + extra) for extra in range(3)))


def change_status(workspace: Path, poll: int) -> None:
    (workspace / "status.txt").write_text(status_text(poll), encoding="utf-8")


def unchanged(workspace: Path, poll: int) -> None:
    pass


WORKLOADS: dict[str, tuple[str, dict[str, Any], Change]] = {
    "log +3 lines per poll": ("read_log", {"path": "app.log"}, grow_log),
    "status, 1 line changed per poll": ("read_file", {"path": "status.txt"}, change_status),
    "unchanged log": ("read_log", {"path": "still.log"}, unchanged),
}


def reset(workspace: Path) -> None:
    text = "".join(log_line(number) for number in range(600))
    (workspace / "app.log").write_text(text, encoding="utf-8")
    (workspace / "still.log").write_text(text, encoding="utf-8")
    change_status(workspace, 0)


def reply_bytes(result: Any) -> int:
    return sum(len(block.text.encode()) for block in result.content if getattr(block, "type", "") == "text")


async def polling(directory: Path, polls: int) -> dict[str, dict[str, tuple[float, int]]]:
    """Per workload and side: mean bytes per call after the first, and stale answers."""
    workspace = directory / "ws"
    workspace.mkdir()
    server = {"command": PYTHON, "args": ["-m", "tools.workspace_server", "--root", str(workspace)]}
    commands = {"raw": [PYTHON, "-m", "tools.workspace_server", "--root", str(workspace)]}
    for mode, cache in MODES.items():
        (directory / mode).mkdir()
        commands[mode] = hub_command(write_config(directory / mode, {"ws": server}, cache=cache))
    out: dict[str, dict[str, tuple[float, int]]] = {}
    async with connect_all(commands) as sessions:
        for workload, (tool, arguments, change) in WORKLOADS.items():
            reset(workspace)
            sizes: dict[str, list[int]] = {side: [] for side in sessions}
            stale = dict.fromkeys(sessions, 0)
            for poll in range(polls):
                if poll:
                    change(workspace, poll)
                for side, session in sessions.items():
                    name = tool if side == "raw" else f"ws__{tool}"
                    _, result = await call(session, name, arguments)
                    from_memory = side != "raw" and result.meta["ctxhub/route"]["mode"] == "cache"
                    if poll and from_memory and change is not unchanged:
                        stale[side] += 1  # answered from memory although the file changed
                    if poll:
                        sizes[side].append(reply_bytes(result))
            out[workload] = {side: (sum(values) / len(values), stale[side]) for side, values in sizes.items()}
    return out


async def latency(directory: Path, rounds: int) -> dict[str, list[float]]:
    workspace = directory / "lat"
    workspace.mkdir()
    reset(workspace)
    server = {"command": PYTHON, "args": ["-m", "tools.workspace_server", "--root", str(workspace)]}
    commands = {"direct": [PYTHON, "-m", "tools.workspace_server", "--root", str(workspace)]}
    for mode, cache in MODES.items():
        (directory / f"lat-{mode}").mkdir()
        commands[mode] = hub_command(write_config(directory / f"lat-{mode}", {"ws": server}, cache=cache))
    arguments = {"path": "still.log"}
    async with connect_all(commands) as sessions:
        for side, session in sessions.items():
            await call(session, "read_log" if side == "direct" else "ws__read_log", arguments)

        def timer(side: str) -> Callable[[int], Any]:
            async def timed_call(number: int) -> float:
                name = "read_log" if side == "direct" else "ws__read_log"
                elapsed, result = await call(sessions[side], name, arguments)
                expected = {"verify": "repeat", "trust": "cache", "off": "summary"}.get(side)
                if expected and result.meta["ctxhub/route"]["mode"] != expected:
                    raise RuntimeError(f"{side}: expected {expected}, got {result.meta['ctxhub/route']}")
                return elapsed

            return timed_call

        labels = {"verify": "verify repeat", "trust": "trust repeat", "off": "cache off", "direct": "direct"}
        return await interleave({labels[side]: timer(side) for side in sessions}, rounds=rounds, warmup=10)


Traffic = dict[str, dict[str, tuple[float, int]]]


def figures(traffic: Traffic, samples: dict[str, list[float]]) -> list[Figure]:
    rows = []
    for workload, sides in traffic.items():
        verify, raw, trust, off = sides["verify"][0], sides["raw"][0], sides["trust"], sides["off"][0]
        rows.append(
            Figure(
                f"Polling, {workload}: bytes per call, verify vs raw",
                f"{verify:.0f} B",
                f"{raw:.0f} B",
                verify / raw,
                "< raw",
                verify < raw,
                f"hub with cache off {off:.0f} B; trust (TTL) {trust[0]:.0f} B with {trust[1]} stale answers",
            )
        )
    repeat, plain = samples["verify repeat"], samples["cache off"]
    rows.append(
        Figure(
            "Verify repeat of a 30 kB log vs the same read with the cache off (median)",
            ms(median(repeat)),
            ms(median(plain)),
            median(repeat) / median(plain),
            "≤ a routed call",
            median(repeat) <= median(plain) * 1.1,
            f"p99 {ms(percentile(repeat, 0.99))} vs {ms(percentile(plain, 0.99))}; trust repeat "
            f"{ms(median(samples['trust repeat']))}; server called directly {ms(median(samples['direct']))}",
        )
    )
    return rows


async def run(quick: bool = False, polls: int | None = None, rounds: int | None = None) -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        traffic = await polling(Path(directory), polls or (10 if quick else 20))
        samples = await latency(Path(directory), rounds or (60 if quick else 150))
    lines = ["| workload | raw | cache off | trust (stale) | verify |", "|---|---|---|---|---|"]
    for workload, sides in traffic.items():
        lines.append(
            f"| {workload} | {sides['raw'][0]:.0f} B | {sides['off'][0]:.0f} B | "
            f"{sides['trust'][0]:.0f} B ({sides['trust'][1]}) | {sides['verify'][0]:.0f} B |"
        )
    lines += ["", "| call | median | p99 |", "|---|---|---|"]
    lines += [f"| {name} | {ms(median(v))} | {ms(percentile(v, 0.99))} |" for name, v in samples.items()]
    print("\n".join(lines), end="\n\n", flush=True)
    return figures(traffic, samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--polls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=150)
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.polls, options.rounds))


if __name__ == "__main__":
    sys.exit(main())
