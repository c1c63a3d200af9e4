"""The hub's own work per Direct call, in process: ``HubService.call`` against ``Downstream.call``.

Run: ``.venv/bin/python bench/hub_logic.py [--rounds N] [--profile]`` (about 10 s).

The hub is opened in this process (``open_hub`` and ``service.running()``) in front of the fixture
server; no upstream MCP hop. Interleaved, each round calls ``echo`` with a fresh short text via
``service.call("fixture__echo", ...)`` (resolve, cache key and lookup, forward, route, stats,
route ``_meta``, cache put) and via the same downstream's ``Downstream.call("echo", ...)`` (the
SDK client hop alone). The difference of the medians is what the hub's logic adds to a Direct
call before the upstream transport. ``--profile`` also runs cProfile over the hub's calls and
prints the functions of ``hub/`` and ``context_mode/`` with the most own time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

import anyio
from harness import Figure, fixture_server, median, print_figures, write_config

from hub.app import open_hub
from hub.config import load_config


async def measure(rounds: int, profile: bool) -> tuple[list[float], list[float], pstats.Stats | None]:
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        config = load_config(str(write_config(Path(directory), {"fixture": fixture_server()})))
        with open_hub(config) as service:
            async with service.running():
                await service.pool.wait_settled(30.0)
                downstream = service.pool.downstreams["fixture"]
                hub_ms: list[float] = []
                down_ms: list[float] = []
                profiler = cProfile.Profile() if profile else None
                for number in range(rounds + 50):
                    started = time.perf_counter()
                    await downstream.call("echo", {"text": f"ping {number:07d} down"})
                    down = (time.perf_counter() - started) * 1000
                    if profiler is not None and number >= 50:
                        profiler.enable()
                    started = time.perf_counter()
                    result = await service.call("fixture__echo", {"text": f"ping {number:07d} hub"})
                    through = (time.perf_counter() - started) * 1000
                    if profiler is not None:
                        profiler.disable()
                    if result.is_error:
                        raise RuntimeError(f"fixture__echo failed: {result.content}")
                    if number >= 50:
                        hub_ms.append(through)
                        down_ms.append(down)
    return hub_ms, down_ms, pstats.Stats(profiler) if profiler is not None else None


def figures(hub_ms: list[float], down_ms: list[float]) -> list[Figure]:
    added = (median(hub_ms) - median(down_ms)) * 1000
    return [
        Figure(
            "Hub logic per Direct call, in process (HubService.call − Downstream.call)",
            f"{added:.0f} µs",
            f"{median(down_ms) * 1000:.0f} µs (Downstream.call)",
            median(hub_ms) / median(down_ms),
            "reported",
            None,
            "resolve, cache key and lookup, route, stats, route _meta, cache put; no upstream hop",
        )
    ]


async def run(quick: bool = False, rounds: int | None = None) -> list[Figure]:
    hub_ms, down_ms, _ = await measure(rounds or (800 if quick else 2000), False)
    return figures(hub_ms, down_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--profile", action="store_true")
    options = parser.parse_args()
    hub_ms, down_ms, stats = anyio.run(measure, options.rounds, options.profile)
    print_figures(figures(hub_ms, down_ms))
    if stats is not None:
        print()
        stats.sort_stats("tottime").print_stats(r"hub/|context_mode/|json|hashlib|fnmatch|pydantic", 25)


if __name__ == "__main__":
    main()
