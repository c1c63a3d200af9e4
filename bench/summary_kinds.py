"""Summary path for every kind of output: ~1 MB of each corpus kind through the hub, real tools.

Run: ``.venv/bin/python bench/summary_kinds.py [--rounds N]`` (about 1 minute).

``bench/summary_path.py`` times the fixture's synthetic pytest log; this one times what users
send. Each file of ``../shared/corpus`` (without it, the first file of each kind of the shipped
``bench/corpus``) is repeated to about 1 MiB (a JSON file becomes a JSON
array of copies, so it stays valid JSON) and written into a temporary workspace. One hub serves
the bundled workspace server (``tools.workspace_server``) with the dedupe cache off, and a second
copy of the workspace server runs with no hub. Per file, interleaved: ``workspace__read_file``
through the hub (routed to Summary, masked, spilled, indexed after the reply) and ``read_file``
on the bare server (producing and carrying the megabyte with no hub). Calls are spaced by
``--gap`` seconds (default 0.3 s) so each meets an idle hub, as an agent's calls do (the previous
payload's indexing, in worker threads after its reply, would otherwise compete for the GIL and
the 2 cores). The table gives both medians per file; the figures are the worst file and the
median file through the hub.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import anyio
from harness import (
    BENCH_CORPUS,
    PYTHON,
    Figure,
    call,
    connect_all,
    corpus_files,
    interleave,
    median,
    megabyte,
    ms,
    print_figures,
    write_config,
)

GOAL_MS = 40.0
SIZE = 2**20


def build_workspace(root: Path) -> list[str]:
    """Write ~1 MiB of each corpus file into ``root``; return the file names."""
    names = []
    corpus, files = corpus_files()
    if corpus == BENCH_CORPUS:  # dozens of files: the first of each kind keeps the run about a minute
        corpus, files = corpus_files(one_per_kind=True)
    for source in files:
        (root / source.name).write_text(megabyte(source, SIZE), encoding="utf-8")
        names.append(source.name)
    return names


async def measure(rounds: int, gap: float) -> tuple[dict[str, list[float]], dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        root = Path(directory) / "workspace"
        root.mkdir()
        names = build_workspace(root)
        server = [PYTHON, "-m", "tools.workspace_server", "--root", str(root)]
        config = write_config(
            Path(directory), {"ws": {"command": server[0], "args": server[1:]}}, cache={"enabled": False}
        )
        hub = [PYTHON, "-m", "hub.cli", "serve", "--config", str(config)]
        kinds: dict[str, str] = {}
        async with connect_all({"hub": hub, "bare": server}) as sessions:

            def through_hub(name: str):  # noqa: ANN202
                async def one(number: int) -> float:
                    await anyio.sleep(gap)
                    elapsed, result = await call(sessions["hub"], "ws__read_file", {"path": name})
                    route = (result.meta or {}).get("ctxhub/route", {})
                    if route.get("mode") not in {"summary", "directive"}:
                        raise RuntimeError(f"expected a Summary or Directive for {name}, got {route}")
                    kinds[name] = route.get("reason", "")
                    return elapsed

                return one

            def bare(name: str):  # noqa: ANN202
                async def one(number: int) -> float:
                    await anyio.sleep(gap)
                    return (await call(sessions["bare"], "read_file", {"path": name}))[0]

                return one

            calls = {}
            for name in names:
                calls[f"hub {name}"] = through_hub(name)
                calls[f"bare {name}"] = bare(name)
            samples = await interleave(calls, rounds=rounds, warmup=2)
    return samples, kinds


def report(samples: dict[str, list[float]]) -> str:
    lines = ["| file (~1 MiB) | through the hub | bare server | hub's own cost |", "|---|---|---|---|"]
    for key in samples:
        if key.startswith("hub "):
            name = key[4:]
            hub, bare = median(samples[key]), median(samples[f"bare {name}"])
            lines.append(f"| {name} | {ms(hub)} | {ms(bare)} | {ms(hub - bare)} |")
    return "\n".join(lines)


def figures(samples: dict[str, list[float]]) -> list[Figure]:
    per_file = {key[4:]: median(values) for key, values in samples.items() if key.startswith("hub ")}
    bare = {key[5:]: median(values) for key, values in samples.items() if key.startswith("bare ")}
    worst = max(per_file, key=per_file.__getitem__)
    typical = median(list(per_file.values()))
    return [
        Figure(
            "Summary path: ~1 MB of each corpus kind answered, worst file (median)",
            ms(per_file[worst]),
            f"{ms(bare[worst])} (same file, bare server)",
            per_file[worst] / bare[worst],
            f"≤ {GOAL_MS:.0f} ms",
            per_file[worst] <= GOAL_MS,
            f"worst: {worst}; {len(per_file)} corpus files through workspace__read_file",
        ),
        Figure(
            "Summary path: ~1 MB of each corpus kind answered, median file",
            ms(typical),
            f"{ms(median(list(bare.values())))} (bare server, median file)",
            typical / median(list(bare.values())),
            f"≤ {GOAL_MS:.0f} ms",
            typical <= GOAL_MS,
        ),
    ]


async def run(quick: bool = False, rounds: int | None = None, gap: float = 0.3) -> list[Figure]:
    samples, _ = await measure(rounds or (4 if quick else 7), gap)
    print(report(samples), end="\n\n", flush=True)
    return figures(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--gap", type=float, default=0.3, help="seconds between calls (0: back to back)")
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.rounds, options.gap))


if __name__ == "__main__":
    main()
