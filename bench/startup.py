"""Start-up and exit: ``ctxhub serve`` until its tools are listed, and from its stdin closing to its exit.

Run: ``.venv/bin/python bench/startup.py [--rounds N]`` (about 30 s).

Downstreams: the fixture server, ``mcp-server-time`` and ``mcp-server-git`` (the bundled
config's PyPI servers; git on this repository). A start-up is the time from spawning the process
to the answer of ``tools/list``, initialize included, seen by the same SDK client. Each round
starts every downstream on its own, then all three at once (no hub: the floor on 2 cores), then
``ctxhub serve`` with all three, then with the fixture only (a fresh store each time: a cold
start, where the hub's first ``tools/list`` waits for its downstreams, which start in parallel
with the hub's own imports), then with all three again on a store kept across rounds (a warm
start: ``tools/list`` answers from the last run's ``catalog.json`` while the downstreams start;
round 0 fills it). The ratio is the hub's median over the median of the slowest downstream.

Exit: right after ``tools/list`` the client closes stdin and waits for the process to end (the
SDK's client: SIGTERM after 2 s), for each downstream alone and for the cold and the warm hub. A
warm hub is left while its downstreams may still be starting, as a client that restarts it does.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import anyio
from harness import (
    PYTHON,
    REPO,
    Figure,
    connect,
    fixture_command,
    fixture_server,
    hub_command,
    median,
    print_figures,
    write_config,
)

GOAL = 1.5
PARALLEL = "all three at once, no hub"
COLD, ALONE, WARM = "ctxhub", "ctxhub, fixture only", "ctxhub, warm (tools cached)"


def downstreams() -> dict[str, list[str]]:
    return {
        "fixture": fixture_command(),
        "mcp-server-time": [PYTHON, "-m", "mcp_server_time"],
        "mcp-server-git": [PYTHON, "-m", "mcp_server_git", "--repository", str(REPO)],
    }


async def start_and_exit(command: Sequence[str]) -> tuple[float, float]:
    """Seconds from spawning ``command`` to its ``tools/list`` answer, then from stdin closed to exit."""
    started = time.perf_counter()
    try:
        async with connect(command):  # spawn, initialize, tools/list
            listed = time.perf_counter()
    except Exception as exc:
        raise RuntimeError(f"{' '.join(command)} did not start: {exc!r}") from exc
    return listed - started, time.perf_counter() - listed


async def time_to_tools(command: Sequence[str]) -> float:
    """Seconds from spawning ``command`` to its ``tools/list`` answer."""
    return (await start_and_exit(command))[0]


async def all_at_once(commands: list[list[str]]) -> float:
    """Seconds until every command, all spawned at once, has answered ``tools/list``."""
    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for command in commands:
            group.start_soon(time_to_tools, command)
    return time.perf_counter() - started


async def measure(rounds: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Start-up and exit samples (seconds) by row."""
    servers = downstreams()
    samples: dict[str, list[float]] = {name: [] for name in [*servers, PARALLEL, COLD, ALONE, WARM]}
    exits: dict[str, list[float]] = {name: [] for name in [*servers, COLD, WARM]}
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        entries = {
            "fixture": fixture_server(),
            "time": {"command": PYTHON, "args": ["-m", "mcp_server_time"]},
            "git": {"command": PYTHON, "args": ["-m", "mcp_server_git", "--repository", str(REPO)]},
        }
        warm = Path(directory) / "warm"
        warm.mkdir()
        warm_config = write_config(warm, entries)
        for number in range(rounds + 1):  # round 0 warms the page cache and the tool cache; dropped
            for name, command in servers.items():
                seconds, exit_seconds = await start_and_exit(command)
                if number:
                    samples[name].append(seconds)
                    exits[name].append(exit_seconds)
            seconds = await all_at_once(list(servers.values()))
            if number:
                samples[PARALLEL].append(seconds)
            for label, servers_of_hub in ((COLD, entries), (ALONE, {"fixture": entries["fixture"]})):
                root = Path(directory) / f"round-{number}-{len(servers_of_hub)}"
                root.mkdir()
                seconds, exit_seconds = await start_and_exit(hub_command(write_config(root, servers_of_hub)))
                if number:
                    samples[label].append(seconds)
                    if label in exits:
                        exits[label].append(exit_seconds)
            seconds, exit_seconds = await start_and_exit(hub_command(warm_config))
            if number:
                samples[WARM].append(seconds)
                exits[WARM].append(exit_seconds)
        if not (warm / "store" / "catalog.json").is_file():
            raise RuntimeError(f"the hub wrote no tool cache in {warm / 'store'}: the warm row is not warm")
    return samples, exits


def figures(samples: dict[str, list[float]], exits: dict[str, list[float]]) -> list[Figure]:
    hub, alone, warm = median(samples[COLD]), median(samples[ALONE]), median(samples[WARM])
    own = {name: median(values) for name, values in samples.items() if not name.startswith("ctxhub")}
    parallel = own.pop(PARALLEL)
    slowest = max(own, key=own.__getitem__)
    own_exit = {name: median(values) for name, values in exits.items() if not name.startswith("ctxhub")}
    slowest_exit = max(own_exit, key=own_exit.__getitem__)
    baseline = (slowest_exit, own_exit[slowest_exit])
    return [
        Figure(
            "Start-up: ctxhub serve to tools listed (3 downstreams)",
            f"{hub * 1000:.0f} ms",
            f"{own[slowest] * 1000:.0f} ms ({slowest} alone)",
            hub / own[slowest],
            f"≤ {GOAL}×",
            hub / own[slowest] <= GOAL,
            "downstreams alone: "
            + ", ".join(f"{name} {value * 1000:.0f} ms" for name, value in own.items())
            + f"; medians of {len(samples[COLD])} rounds; a cold start (no tool cache)",
        ),
        Figure(
            "Start-up: ctxhub serve to tools listed, warm (3 downstreams, tools cached)",
            f"{warm * 1000:.0f} ms",
            f"{own[slowest] * 1000:.0f} ms ({slowest} alone)",
            warm / own[slowest],
            f"≤ {GOAL}×",
            warm / own[slowest] <= GOAL,
            "the last run's tool lists (catalog.json in the store) answer tools/list while the "
            "downstreams start; calls wait for their server. What a client feels at every session start",
        ),
        Figure(
            "Start-up: the three downstreams spawned at once by the client, no hub",
            f"{parallel * 1000:.0f} ms",
            f"{own[slowest] * 1000:.0f} ms ({slowest} alone)",
            parallel / own[slowest],
            "reported",
            None,
            "the floor on 2 cores: three Python servers importing the SDK at once; the hub adds its own "
            "start-up to that",
        ),
        Figure(
            "Start-up: ctxhub serve to tools listed (fixture only)",
            f"{alone * 1000:.0f} ms",
            f"{own['fixture'] * 1000:.0f} ms (fixture alone)",
            alone / own["fixture"],
            "reported",
            None,
            "the hub's own start-up cost with one downstream: its imports, the store, then the downstream",
        ),
        exit_figure(
            "warm",
            median(exits[WARM]),
            baseline,
            "downstreams may still be starting: one that has not answered is SIGTERMed at once",
        ),
        exit_figure("cold", median(exits[COLD]), baseline, "every downstream has answered and exits on EOF"),
    ]


def exit_figure(kind: str, seconds: float, baseline: tuple[str, float], note: str) -> Figure:
    """The hub's exit against the slowest downstream's own (each closed right after ``tools/list``)."""
    name, baseline_seconds = baseline
    return Figure(
        f"Exit: ctxhub serve, stdin closed right after tools/list to exited (3 downstreams, {kind})",
        f"{seconds * 1000:.0f} ms",
        f"{baseline_seconds * 1000:.0f} ms ({name} alone)",
        seconds / baseline_seconds,
        "reported",
        None,
        note,
    )


def report(samples: dict[str, list[float]], exits: dict[str, list[float]]) -> str:
    lines = ["| server | median | min | max |", "|---|---|---|---|"]
    rows = [*samples.items(), *((f"{name}: exit", values) for name, values in exits.items())]
    for name, values in rows:
        low, middle, high = (round(value * 1000) for value in (min(values), median(values), max(values)))
        lines.append(f"| {name} | {middle} ms | {low} ms | {high} ms |")
    return "\n".join(lines)


async def run(quick: bool = False, rounds: int | None = None) -> list[Figure]:
    samples, exits = await measure(rounds or (2 if quick else 4))
    print(report(samples, exits), end="\n\n", flush=True)
    return figures(samples, exits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.rounds))


if __name__ == "__main__":
    main()
