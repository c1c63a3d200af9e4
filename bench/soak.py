"""Soak: the reliability scenarios at a length CI cannot afford, with their figures.

Run: ``.venv/bin/python bench/soak.py [--cycles 100] [--load-rounds 5]`` (about 2 minutes for the
defaults on 2 cores). It runs the same checks as ``tests/reliability``: ``--cycles`` crash/restart
cycles of one downstream behind a real ``ctxhub serve`` (each checked: error result, other
servers answering, tools back, one process per server, none left after), then ``--load-rounds``
rounds of 200 concurrent calls over three downstream servers (every answer matched to its
request). Prints a markdown table; exits non-zero on the first failed check.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import anyio  # noqa: E402

from tests.conftest import hub_client  # noqa: E402
from tests.reliability.test_crash_cycles import crash_config, run_crash_cycles  # noqa: E402
from tests.reliability.test_load import CALLS, check, fan_out, load_config  # noqa: E402


async def soak(cycles: int, rounds: int) -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="ctxhub-soak-") as directory:
        crash_dir, load_dir = Path(directory) / "crash", Path(directory) / "load"
        crash_dir.mkdir()
        load_dir.mkdir()
        figures = await run_crash_cycles(crash_config(crash_dir), cycles)
        per_cycle = figures["seconds"] / cycles
        rows.append(
            (
                "crash/restart cycles",
                f"{cycles} cycles, {len(figures['pids'])} distinct processes, 0 left",
                f"{figures['seconds']:.1f} s ({per_cycle:.2f} s per cycle)",
            )
        )
        async with hub_client(load_config(load_dir)) as session:
            await session.list_tools()
            started = time.monotonic()
            for _ in range(rounds):
                check(await fan_out([session], CALLS), CALLS)
            seconds = time.monotonic() - started
        rows.append(
            (
                "concurrent calls over stdio",
                f"{rounds} × {CALLS} calls, 0 lost, 0 mismatched",
                f"{seconds:.1f} s ({rounds * CALLS / seconds:.0f} calls/s)",
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--load-rounds", type=int, default=5)
    arguments = parser.parse_args()
    rows = anyio.run(soak, arguments.cycles, arguments.load_rounds)
    print("| scenario | result | time |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
