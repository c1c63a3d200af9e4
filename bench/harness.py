"""What every benchmark here shares: the processes under test, timed calls, statistics and the table.

Contract: the commands (``fixture_command``, ``hub_command``, ``bare_command``, ``fastmcp_command``)
are argv lists for stdio MCP servers; ``connect`` starts one as a child process and yields an
initialised ``ClientSession`` (the same SDK client drives every server, so client costs cancel
out). ``interleave`` runs the same call shape against several servers in rotating order, one
call each per round, so the machine's noise (2 cores, other agents' tests) hits every side alike;
figures are then medians of those samples. ``Figure`` is one row of the table that
``bench/run_all`` prints: ours, the baseline measured in the same run, their ratio, the goal.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
FIXTURE = REPO / "tests" / "fixtures" / "fixture_server.py"
CORPUS = REPO.parent / "shared" / "corpus"
BENCH_CORPUS = BENCH / "corpus"
PYTHON = sys.executable
FASTMCP_VENV = BENCH / ".venvs" / "fastmcp"
FASTMCP_PYTHON = FASTMCP_VENV / "bin" / "python"
CALL_TIMEOUT = 120.0


class Skipped(Exception):
    """A benchmark cannot run here; the message says why (``bench/run_all`` prints "skipped: why")."""


def megabyte(source: Path, size: int = 2**20) -> str:
    """A corpus file repeated to about ``size`` bytes; a JSON file becomes a JSON array of copies,
    so it stays valid JSON."""
    text = source.read_text(encoding="utf-8", errors="replace")
    copies = max(1, size // max(len(text.encode("utf-8")), 1))
    if source.suffix == ".json":
        with contextlib.suppress(ValueError):
            return json.dumps([json.loads(text)] * copies, indent=2, ensure_ascii=False)
    return (text * (copies + 1))[:size]


def corpus_files(*, one_per_kind: bool = False) -> tuple[Path, list[Path]]:
    """The corpus to read and its payload files: ``../shared/corpus`` when beside the clone, else the
    shipped ``bench/corpus``; ``one_per_kind`` keeps the first file of each kind. Raises ``Skipped``
    when neither is there."""
    for corpus in (CORPUS, BENCH_CORPUS):
        index = corpus / "corpus.yaml"
        if not index.is_file():
            continue
        items = yaml.safe_load(index.read_text(encoding="utf-8"))["items"]
        if one_per_kind:
            first: dict[str, Any] = {}
            for item in items:
                first.setdefault(item["kind"], item)
            items = list(first.values())
        files = sorted(corpus / item["file"] for item in items)
        missing = [path.name for path in files if not path.is_file()]
        if missing:
            raise Skipped(f"{corpus} lacks payload files {missing[:3]} (run bench/corpus/build.py verify)")
        return corpus, files
    raise Skipped(f"no corpus at {CORPUS} or {BENCH_CORPUS}")


# --- the processes under test ---------------------------------------------------------------------


def fixture_command(name: str = "fixture") -> list[str]:
    return [PYTHON, str(FIXTURE), "--name", name]


def hub_command(config: Path) -> list[str]:
    return [PYTHON, "-m", "hub.cli", "serve", "--config", str(config)]


def bare_command(downstream: Sequence[str]) -> list[str]:
    return [PYTHON, str(BENCH / "bare_proxy.py"), *downstream]


def fastmcp_command(downstream: Sequence[str], *, reuse: bool = False) -> list[str]:
    return [
        str(FASTMCP_PYTHON),
        str(BENCH / "fastmcp_proxy.py"),
        *(["--reuse"] if reuse else []),
        *downstream,
    ]


def ensure_fastmcp() -> str | None:
    """Make sure FastMCP's venv exists (created on first use); None when ready, else why not."""
    if FASTMCP_PYTHON.exists():
        probe = subprocess.run(
            [str(FASTMCP_PYTHON), "-c", "import fastmcp"], capture_output=True, text=True, check=False
        )
        if probe.returncode == 0:
            return None
    try:
        subprocess.run([sys.executable, "-m", "venv", str(FASTMCP_VENV)], check=True, capture_output=True)
        subprocess.run(
            [str(FASTMCP_VENV / "bin" / "pip"), "install", "--quiet", "fastmcp"],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        return f"could not install fastmcp into {FASTMCP_VENV}: {detail.strip().splitlines()[-1:]}"
    return None


def write_config(directory: Path, servers: dict[str, Any], **sections: Any) -> Path:
    """A hub config.yaml in ``directory`` with its own store there."""
    sections.setdefault("store", {})
    sections["store"].setdefault("path", str(directory / "store"))
    path = directory / "config.yaml"
    path.write_text(yaml.safe_dump({"servers": servers, **sections}), encoding="utf-8")
    return path


def fixture_server(name: str = "fixture", **options: Any) -> dict[str, Any]:
    command = fixture_command(name)
    return {"command": command[0], "args": command[1:], **options}


@contextlib.asynccontextmanager
async def connect(
    command: Sequence[str], *, env: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """Start ``command`` as a stdio MCP server and yield an initialised client session."""
    params = StdioServerParameters(
        command=command[0],
        args=list(command[1:]),
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        cwd=str(REPO),
    )
    with open(os.devnull, "w") as devnull:  # noqa: ASYNC230 (the null device never blocks)
        async with (
            stdio_client(params, errlog=devnull) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.list_tools()  # the client validates structured results against listed schemas
            yield session


@contextlib.asynccontextmanager
async def connect_all(commands: dict[str, Sequence[str]]) -> AsyncIterator[dict[str, ClientSession]]:
    async with contextlib.AsyncExitStack() as stack:
        sessions = {
            name: await stack.enter_async_context(connect(command)) for name, command in commands.items()
        }
        yield sessions


def pid_of(marker: str) -> int:
    """The pid of the one live process whose command line contains ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in cmdline and "python" in cmdline:
            found.append(int(entry.name))
    if len(found) != 1:
        raise RuntimeError(f"expected one process with {marker!r} in its command line, found {found}")
    return found[0]


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS and its parts (RssAnon: heaps; RssFile: mapped files such as tantivy's segments), in MB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"):
            found[key] = int(value.split()[0]) / 1024
    if "VmRSS" not in found:
        raise RuntimeError(f"no VmRSS for pid {pid}")
    return found


def rss_mb(pid: int) -> float:
    return memory_mb(pid)["VmRSS"]


def disk_bytes(directory: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(directory):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


# --- timing ---------------------------------------------------------------------------------------


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> tuple[float, Any]:
    """One tools/call; (milliseconds, result). A failed call is a failed benchmark."""
    started = time.perf_counter()
    result = await session.call_tool(tool, arguments, read_timeout_seconds=CALL_TIMEOUT)
    elapsed = (time.perf_counter() - started) * 1000
    if result.is_error:
        raise RuntimeError(f"{tool} failed during the benchmark: {result.content}")
    return elapsed, result


Call = Callable[[int], Awaitable[float]]


async def interleave(calls: dict[str, Call], *, rounds: int, warmup: int = 20) -> dict[str, list[float]]:
    """Run each call once per round, in an order that rotates every round; samples after warm-up."""
    names = list(calls)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for number in range(warmup + rounds):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            elapsed = await calls[name](number)
            if number >= warmup:
                samples[name].append(elapsed)
    return samples


def percentile(samples: Sequence[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def timed(action: Callable[[], object]) -> float:
    """Seconds ``action()`` took."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


# --- the table ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One row: a figure, our value, the baseline measured in the same run, and the goal."""

    figure: str
    ours: str
    baseline: str
    ratio: float | None
    goal: str
    met: bool | None  # None: reported only, no goal
    note: str = ""


def ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 100 else f"{value:.0f} ms"


def render_table(figures: Sequence[Figure], *, notes: bool = True) -> str:
    lines = ["| figure | ours | baseline | ratio | goal | met? |", "|---|---|---|---|---|---|"]
    for row in figures:
        ratio = "—" if row.ratio is None else f"{row.ratio:.2f}×"
        met = "—" if row.met is None else ("yes" if row.met else "**no**")
        lines.append(f"| {row.figure} | {row.ours} | {row.baseline} | {ratio} | {row.goal} | {met} |")
    noted = [row for row in figures if row.note]
    if notes and noted:
        lines.append("")
        lines.extend(f"- {row.figure}: {row.note}" for row in noted)
    return "\n".join(lines)


def print_figures(figures: Sequence[Figure]) -> None:
    print(render_table(figures))
