"""The Summary path's steps for one 1 MB log, timed one by one in process (best of a few runs).

Run: ``.venv/bin/python bench/summary_steps.py [--kb 1024]`` (about 10 s).

The steps a 1 MB ``fixture big`` result goes through in the hub before the reply, as the hub
does them (same functions, no MCP transport): parse the downstream's JSON-RPC line (pydantic),
take its text (``hub.serve.content.split_content``), ``route`` (kind detection, then the summariser),
``Store.reserve`` (secret masking, UTF-8 encoding, the spill file), ``stage1.render`` and the
reply's serialisation. Then, for comparison, ``Store.index`` of the same payload (chunking,
tantivy, commit), which the hub runs in a worker thread after the reply.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import mcp.types as types
from harness import FIXTURE

from context_mode.router import Summary, route
from context_mode.stage1 import render
from context_mode.store.store import Store
from context_mode.types import ContentKind
from hub.serve.content import split_content

sys.path.insert(0, str(FIXTURE.parent))
from fixture_server import big_log  # noqa: E402

REPEATS = 5


def best(action: Callable[[], object]) -> float:
    """Milliseconds of the fastest of ``REPEATS`` runs."""
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def reply(decision: Summary, ref: str, size: int) -> types.CallToolResult:
    stage1 = render(decision, tool="fixture__big", ref=ref, original_bytes=size, spill_path=None)
    return types.CallToolResult(
        content=[types.TextContent(text=stage1)], _meta={"ctxhub/route": {"mode": "summary"}}
    )


def steps(kb: int) -> list[tuple[str, float]]:
    text = big_log(kb)
    result = types.CallToolResult(content=[types.TextContent(text=text)])
    response = types.JSONRPCResponse(
        jsonrpc="2.0", id=7, result=result.model_dump(by_alias=True, mode="json")
    )
    line = response.model_dump_json(by_alias=True, exclude_none=True)
    adapter = types.jsonrpc_message_adapter
    parsed = types.CallToolResult.model_validate(adapter.validate_json(line).result)  # type: ignore[union-attr]
    decision = route(text, tool="big")
    assert isinstance(decision, Summary), decision
    copies = [text[:1] + text[1:] for _ in range(REPEATS)]
    rows = [
        (
            "parse the downstream's JSON-RPC line (pydantic validate_json)",
            best(lambda: adapter.validate_json(line)),
        ),
        (
            "CallToolResult.model_validate of the result",
            best(lambda: types.CallToolResult.model_validate(response.result)),
        ),
        ("split_content", best(lambda: split_content(parsed))),
        # Each run gets its own copy: summarisers keep the last text's reading by identity, which
        # serves the router's second summary of one payload, not the next payload.
        ("route: detect_kind + summarize_log", best(lambda: route(copies.pop(), tool="big"))),
    ]
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        store = Store(Path(directory) / "store", max_bytes=2**30)
        with store:
            refs: list[str] = []
            rows.append(
                (
                    "Store.reserve: mask secrets, encode, spill file",
                    best(
                        lambda: refs.append(
                            store.reserve(text, source="big", kind=ContentKind.LOG, spill_file=True).ref
                        )
                    ),
                )
            )
            rows.append(
                (
                    "render stage 1 + serialise the reply",
                    best(
                        lambda: reply(decision, refs[0], len(text)).model_dump_json(
                            by_alias=True, exclude_none=True
                        )
                    ),
                )
            )
            started = time.perf_counter()
            for ref in refs:
                store.index(ref)
            rows.append(
                (
                    "(after the reply, in a worker) Store.index: chunk, tantivy, commit",
                    (time.perf_counter() - started) * 1000 / len(refs),
                )
            )
    return rows


def report(rows: list[tuple[str, float]]) -> str:
    path = sum(value for name, value in rows if not name.startswith("("))
    lines = ["| step | ms | share of the response path |", "|---|---|---|"]
    for name, value in rows:
        share = "—" if name.startswith("(") else f"{value / path:.0%}"
        lines.append(f"| {name} | {value:.1f} | {share} |")
    lines.append(f"| **response path, total** | **{path:.1f}** | 100% |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=1024)
    options = parser.parse_args()
    print(report(steps(options.kb)))


if __name__ == "__main__":
    main()
