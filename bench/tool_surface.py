"""Tool-list bytes of the ``all`` and ``lazy`` surfaces for 20, 60 and 150 downstream tools.

Usage: ``.venv/bin/python bench/tool_surface.py``. Tools are GitHub-server-like definitions (the
shape of ``tests/fixtures/many_tools_server.py``: a description, two string parameters) plus the
hub's own native tools; prints bytes of ``tools/list`` JSON for each surface, their ratio, and the
time of one ``hub_find_tools`` search (BM25 over the tools, in process).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import mcp.types as types

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.config import ToolSurfaceConfig  # noqa: E402
from hub.serve.surface import ToolSurface, list_bytes  # noqa: E402
from tests.fixtures.many_tools_server import RESOURCES, VERBS  # noqa: E402
from tools.doc_tools import doc_tools  # noqa: E402
from tools.registry import NativeTool  # noqa: E402


def downstream_tools(count: int) -> list[types.Tool]:
    tools = []
    for n in range(count):
        resource, what = list(RESOURCES.items())[n % len(RESOURCES)]
        verb, phrase = list(VERBS.items())[(n // len(RESOURCES)) % len(VERBS)]
        tools.append(
            types.Tool(
                name=f"gh{n // 64}__{verb}_{resource}",
                description=f"{phrase} {what}.",
                input_schema={
                    "type": "object",
                    "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}},
                },
            )
        )
    return tools


def native_tools() -> list[types.Tool]:
    natives: list[NativeTool] = doc_tools(None, ingest_roots=())
    return [types.Tool(name=t.name, description=t.description, input_schema=t.input_schema) for t in natives]


def main() -> int:
    native = native_tools()
    print("| downstream tools | all: listed / bytes | lazy: listed / bytes | lazy / all | find p50 |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for count in (20, 60, 150):
        tools = downstream_tools(count)
        everything = ToolSurface(ToolSurfaceConfig(mode="all")).listed(tools, native)
        surface = ToolSurface(ToolSurfaceConfig(mode="lazy"))
        lazy = surface.listed(tools, native)
        timings = []
        for _ in range(50):
            started = time.perf_counter()
            surface.find([*tools, *native], {"query": "show the status of a CI run"})
            timings.append(time.perf_counter() - started)
        all_bytes, lazy_bytes = list_bytes(everything), list_bytes(lazy)
        print(
            f"| {count} | {len(everything)} / {all_bytes} | {len(lazy)} / {lazy_bytes} "
            f"| {lazy_bytes / all_bytes:.2f} | {statistics.median(timings) * 1000:.2f} ms |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
