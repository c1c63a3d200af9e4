"""Direct-mode overhead: the latency a forwarding hop adds to one small call, hub against the baselines.

Run: ``.venv/bin/python bench/overhead.py [--rounds N]`` (about 30 s). Prints the median and p99
of a forwarded call against a direct call to the same server, measured in the same run.

Five stdio servers are started side by side and driven by one SDK client, interleaved call by
call: the fixture server called directly, the bare pass-through proxy (``bench/bare_proxy.py``,
the floor of any hub on this SDK), ctxhub, and FastMCP's proxy (its default fresh session per
request, and a connected client reused for every request), each in front of its own fixture.
The call is ``echo`` with a different short text every time, so ctxhub routes it Direct and its
dedupe cache never answers. Added latency is the median (or p99) of a proxy minus that of the
direct call.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import anyio
from harness import (
    Figure,
    bare_command,
    call,
    connect_all,
    ensure_fastmcp,
    fastmcp_command,
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

BARE_GOAL = 1.15
FASTMCP_GOAL = 0.2


async def measure(rounds: int) -> tuple[dict[str, list[float]], str | None]:
    missing = ensure_fastmcp()
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        config = write_config(Path(directory), {"fixture": fixture_server()})
        downstream = fixture_command()
        commands = {
            "direct": downstream,
            "bare proxy": bare_command(downstream),
            "ctxhub": hub_command(config),
        }
        if missing is None:
            commands["fastmcp proxy"] = fastmcp_command(downstream)
            commands["fastmcp proxy, reused session"] = fastmcp_command(downstream, reuse=True)
        async with connect_all(commands) as sessions:

            def echo(name: str):  # noqa: ANN202
                tool = "fixture__echo" if name == "ctxhub" else "echo"
                session = sessions[name]

                async def one(number: int) -> float:
                    return (
                        await call(session, tool, {"text": f"ping {number:07d} from the overhead bench"})
                    )[0]

                return one

            samples = await interleave({name: echo(name) for name in sessions}, rounds=rounds, warmup=50)
    return samples, missing


def figures(samples: dict[str, list[float]], missing: str | None) -> list[Figure]:
    direct = samples["direct"]

    def added(name: str, fraction: float | None = None) -> float:
        if fraction is None:
            return median(samples[name]) - median(direct)
        return percentile(samples[name], fraction) - percentile(direct, fraction)

    hub, bare = added("ctxhub"), added("bare proxy")
    rows = [
        Figure(
            "Direct call, added latency vs bare proxy (median)",
            ms(hub),
            ms(bare),
            hub / bare,
            f"≤ {BARE_GOAL}×",
            hub / bare <= BARE_GOAL,
            f"echo of ~40 B; direct call itself {ms(median(direct))} median; {len(direct)} calls per server",
        ),
        Figure(
            "Direct call, added latency vs bare proxy (p99)",
            ms(added("ctxhub", 0.99)),
            ms(added("bare proxy", 0.99)),
            added("ctxhub", 0.99) / added("bare proxy", 0.99),
            "reported",
            None,
        ),
    ]
    if missing is not None:
        rows.append(
            Figure(
                "Direct call, added latency vs FastMCP proxy", ms(hub), "n/a", None, "≤ 0.2×", None, missing
            )
        )
        return rows
    for label, name, goal in (
        ("FastMCP proxy (default)", "fastmcp proxy", True),
        ("FastMCP proxy, reused session", "fastmcp proxy, reused session", False),
    ):
        theirs = added(name)
        rows.append(
            Figure(
                f"Direct call, added latency vs {label} (median)",
                ms(hub),
                ms(theirs),
                hub / theirs,
                f"≤ {FASTMCP_GOAL}×" if goal else "reported",
                hub / theirs <= FASTMCP_GOAL if goal else None,
                "fastmcp (PyPI) in bench/.venvs/fastmcp; create_proxy(StdioTransport) opens a client session "
                "per request"
                if goal
                else "create_proxy(connected Client): one session for every request",
            )
        )
    return rows


def report(samples: dict[str, list[float]]) -> str:
    direct = samples["direct"]
    lines = ["| server | median | p99 | added median | added p99 |", "|---|---|---|---|---|"]
    for name, values in samples.items():
        added = "—" if name == "direct" else ms(median(values) - median(direct))
        added99 = "—" if name == "direct" else ms(percentile(values, 0.99) - percentile(direct, 0.99))
        lines.append(
            f"| {name} | {ms(median(values))} | {ms(percentile(values, 0.99))} | {added} | {added99} |"
        )
    return "\n".join(lines)


async def run(quick: bool = False, rounds: int | None = None) -> list[Figure]:
    samples, missing = await measure(rounds or (300 if quick else 1000))
    print(report(samples), end="\n\n", flush=True)
    return figures(samples, missing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.rounds))


if __name__ == "__main__":
    main()
