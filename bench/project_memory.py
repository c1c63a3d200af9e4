"""Project memory: the size of the block a new session opens with, for a realistic project history.

Run: ``.venv/bin/python bench/project_memory.py [--sessions 5] [--notes 50] [--budget 600]``

Five sessions (main work, a bugfix, a review, ...) of one project each keep 50 notes through the
``context_*`` tools, as an agent would: a pinned goal, three decisions, two constraints, an API
signature and a file plan, and 42 ordinary findings (module checks, test runs, reads). One decision
is noted again in a later session, and one later decision supersedes an earlier one. Then a sixth
session opens: the figure is the bytes of the text ``context_open`` returns (the greeting and the
"From earlier sessions of this project:" block), against two baselines measured in the same run:
every promoted entry pasted in full, and the whole 250-note history. Timings are medians of
``--repeat`` runs (a fresh hub each time), for orientation only.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from context_mode.memory import MemoryPolicy, Project, SessionMemory
from tools.context_tools import context_tools
from tools.registry import NativeTool

PROJECT = Project("billing", "/src/billing", "git")
TOPICS = ["exporter", "invoice renderer", "tax rules", "CSV writer", "auth middleware"]


def session_notes(number: int, notes: int) -> list[tuple[str, dict[str, object]]]:
    """One session's notes, in the order an agent would save them (text, extra arguments)."""
    topic = TOPICS[number % len(TOPICS)]
    special: dict[int, tuple[str, dict[str, object]]] = {
        0: (
            f"Goal: make the {topic} handle multi-currency invoices without changing its public API.",
            {"pinned": True},
        ),
        6: (f"Decision: the {topic} converts amounts with the rate of the invoice date, not today's.", {}),
        14: (f"Constraint: the {topic} must stay compatible with the v1 CSV columns for old clients.", {}),
        19: (f"def convert_{number}(amount: Decimal, currency: str, on: date) -> Decimal", {}),
        23: (
            f"Plan: edit billing/{topic.replace(' ', '_')}.py, then add tests/test_{number}_currency.py",
            {},
        ),
        31: (f"Decision: cache exchange rates per day in the {topic}; never call the rate API per line.", {}),
        38: ("Never log full card numbers; mask all but the last four digits.", {}),
        44: (f"Decision: the {topic} rounds once per invoice total, half-even, after summing the lines.", {}),
    }
    out: list[tuple[str, dict[str, object]]] = []
    for index in range(notes):
        if index in special:
            out.append(special[index])
        else:
            out.append(
                (
                    f"Step {index}: read billing/{topic.replace(' ', '_')}/part_{index}.py; the parser "
                    f"handles case {index} and tests/test_part_{index}.py passes ({index + 7} checks).",
                    {},
                )
            )
    return out


def tools_for(directory: Path, budget: int) -> dict[str, NativeTool]:
    memory = SessionMemory(directory, MemoryPolicy(project_budget=budget), project=PROJECT)
    return {tool.name: tool for tool in context_tools(memory)}


def build_history(directory: Path, sessions: int, notes: int, budget: int) -> tuple[int, int, int]:
    """Write the history; returns (bytes of all notes, bytes of promoted entries, promoted count)."""
    tools = tools_for(directory, budget)
    everything = promoted = count = 0
    superseded_ref = ""
    for number in range(sessions):
        session = f"session-{number + 1}"
        tools["context_open"].run({"session_id": session})
        for text, extra in session_notes(number, notes):
            arguments: dict[str, object] = {"session_id": session, "text": text, **extra}
            if (
                number == sessions - 1
                and text.startswith("Decision: the")
                and "rounds once" in text
                and superseded_ref
            ):
                arguments["supersedes"] = [superseded_ref]
            reply = tools["context_append"].run(arguments)
            everything += len(text.encode())
            if "In project memory" in reply:
                promoted += len(text.encode())
                count += 1
                if number == 0 and "rounds once" in text:
                    superseded_ref = f"{session}#{reply.split('#', 1)[1].split()[0].rstrip('.')}"
        if number == 2:  # a later session notes an earlier decision again, word for word
            again = "Never log full card numbers; mask all but the last four digits."
            tools["context_append"].run({"session_id": session, "text": again})
    return everything, promoted, count


def measure(sessions: int, notes: int, budget: int, repeat: int) -> None:
    opens: list[float] = []
    recalls: list[float] = []
    text = ""
    sizes = (0, 0, 0)
    pool_bytes = 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="ctxhub-project-bench-") as raw:
            directory = Path(raw)
            sizes = build_history(directory, sessions, notes, budget)
            tools = tools_for(directory, budget)  # a fresh hub: reads the pool and logs from disk
            started = time.perf_counter()
            text = tools["context_open"].run({"session_id": "new-session", "task": "multi-currency rounding"})
            opens.append(time.perf_counter() - started)
            started = time.perf_counter()
            tools["context_recall"].run(
                {"session_id": "new-session", "query": "exchange rate cache", "scope": "project"}
            )
            recalls.append(time.perf_counter() - started)
            pool_bytes = sum(path.stat().st_size for path in (directory / "projects").iterdir())
    everything, promoted, count = sizes
    block = text[text.index("From earlier sessions") :]
    print(text)
    print()
    print(
        f"history: {sessions} sessions x {notes} notes = {everything:,} bytes; "
        f"{count} promoted ({promoted:,} bytes)"
    )
    print(f"context_open of a new session: {len(text.encode()):,} bytes, block {len(block.encode()):,} bytes")
    print(f"  vs every promoted entry in full: {promoted:,} bytes ({len(block.encode()) / promoted:.0%})")
    print(f"  vs the whole history: {everything:,} bytes ({len(block.encode()) / everything:.1%})")
    print(f"pool file: {pool_bytes:,} bytes")
    open_ms, recall_ms = statistics.median(opens) * 1000, statistics.median(recalls) * 1000
    print(f"open {open_ms:.1f} ms, project recall {recall_ms:.1f} ms (median of {repeat})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--notes", type=int, default=50)
    parser.add_argument("--budget", type=int, default=600, help="memory.project_budget in tokens")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    measure(options.sessions, options.notes, options.budget, options.repeat)


if __name__ == "__main__":
    main()
