"""Dedupe hit: a repeated read-only call answered from the hub's cache, against Direct calls of the same size.

Run: ``.venv/bin/python bench/dedupe.py [--rounds N]`` (about 15 s).

The fixture's ``echo`` is read-only, so ctxhub caches it (here with ``cache.mode: trust``; the
default ``verify`` mode calls the downstream again, see ``bench/polling.py``). Interleaved, with a
1 KiB text:

- hit: the same ``echo`` text every time through the hub (after one priming call the cache
  answers with a pointer, without the downstream);
- Direct via the hub: ``echo`` of a different 1 KiB text each time (a miss: forwarded, routed
  Direct, spilled for later pointers, cached);
- direct: the same 1 KiB ``echo`` called on the fixture itself, no hub.

The goal: a hit adds at most 1 ms over a Direct call of the same size.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import anyio
from harness import (
    Figure,
    call,
    connect_all,
    fixture_command,
    fixture_server,
    hub_command,
    interleave,
    median,
    ms,
    percentile,
    print_figures,
    write_config,
)

GOAL_ADDED_MS = 1.0
SIZE = 1024


def text(number: int | None) -> str:
    stamp = "same" if number is None else f"{number:08d}"
    return (stamp + " " + "x" * SIZE)[:SIZE]


async def measure(rounds: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        # trust: a repeat is answered from memory, which is what this measures (bench/polling.py: verify)
        config = write_config(Path(directory), {"fixture": fixture_server()}, cache={"mode": "trust"})
        async with connect_all({"direct": fixture_command(), "ctxhub": hub_command(config)}) as sessions:
            hub, direct = sessions["ctxhub"], sessions["direct"]
            _, first = await call(hub, "fixture__echo", {"text": text(None)})
            if first.meta["ctxhub/route"]["mode"] != "direct":
                raise RuntimeError(f"expected a Direct route for echo of {SIZE} B: {first.meta}")

            async def hit(number: int) -> float:
                elapsed, result = await call(hub, "fixture__echo", {"text": text(None)})
                if not result.meta["ctxhub/route"].get("cache_hit"):
                    raise RuntimeError(f"expected a cache hit: {result.meta}")
                return elapsed

            async def miss(number: int) -> float:
                return (await call(hub, "fixture__echo", {"text": text(number)}))[0]

            async def plain(number: int) -> float:
                return (await call(direct, "echo", {"text": text(number)}))[0]

            return await interleave(
                {"ctxhub hit": hit, "ctxhub Direct (miss)": miss, "direct": plain}, rounds=rounds, warmup=30
            )


def figures(samples: dict[str, list[float]]) -> list[Figure]:
    hit, miss, direct = samples["ctxhub hit"], samples["ctxhub Direct (miss)"], samples["direct"]
    rows = []
    for label, baseline in (
        ("a Direct call through the hub", miss),
        ("the downstream called directly", direct),
    ):
        added = median(hit) - median(baseline)
        rows.append(
            Figure(
                f"Dedupe hit, {SIZE} B echo, vs {label} (median)",
                ms(median(hit)),
                ms(median(baseline)),
                median(hit) / median(baseline),
                f"≤ +{GOAL_ADDED_MS:g} ms",
                added <= GOAL_ADDED_MS,
                f"added {added:+.2f} ms; p99 {ms(percentile(hit, 0.99))} vs {ms(percentile(baseline, 0.99))}",
            )
        )
    return rows


def report(samples: dict[str, list[float]]) -> str:
    lines = ["| call | median | p99 |", "|---|---|---|"]
    lines.extend(
        f"| {name} | {ms(median(values))} | {ms(percentile(values, 0.99))} |"
        for name, values in samples.items()
    )
    return "\n".join(lines)


async def run(quick: bool = False, rounds: int | None = None) -> list[Figure]:
    samples = await measure(rounds or (150 if quick else 300))
    print(report(samples), end="\n\n", flush=True)
    return figures(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.rounds))


if __name__ == "__main__":
    main()
