"""A stdio MCP server that answers each corpus record's tool call with the record's payload.

Run: ``python bench/corpus_server.py --corpus DIR --namespace NS [--select FILE]``.

The hub sees it as the real downstream the payload came from. Each record's ``tool`` is split
into a namespace and the downstream tool name (``ci__get_job_log`` -> server ``ci``, tool
``get_job_log``; an unprefixed name such as ``browser_snapshot`` gets the namespace
``corpus``). One process serves one namespace, so the hub exposes ``<namespace>__<tool>`` and
tags the tool from its downstream name as for any server. Tools are listed with an input schema
naming the records' argument keys (any value accepted).

Which record answers a call: with ``--select FILE`` the record whose id is in FILE (the
benchmark writes it before each call, so records sharing a tool and arguments, such as four
``browser_snapshot {}`` calls, stay distinct); without it, the one record whose tool and
arguments match. A call the records cannot answer gets an ``isError`` result saying why.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repo root

from bench.corpus.build import read_yaml  # noqa: E402

DEFAULT_NAMESPACE = "corpus"


def split_tool(exposed: str) -> tuple[str, str]:
    """``(namespace, downstream tool)`` of a record's ``tool`` (see the module doc)."""
    if "__" in exposed:
        namespace, tool = exposed.split("__", 1)
        return namespace, tool
    return DEFAULT_NAMESPACE, exposed


def load_records(corpus: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = read_yaml(corpus / "corpus.yaml")["items"]
    return records


def build_server(corpus: Path, namespace: str, select: Path | None) -> Server[Any]:
    records = [r for r in load_records(corpus) if split_tool(str(r["tool"]))[0] == namespace]
    if not records:
        raise SystemExit(f"corpus_server: no record of {corpus / 'corpus.yaml'} has namespace {namespace!r}")
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_tool.setdefault(split_tool(str(record["tool"]))[1], []).append(record)

    def schema(tool: str) -> dict[str, Any]:
        keys = sorted({key for record in by_tool[tool] for key in (record.get("args") or {})})
        return {"type": "object", "properties": {key: {} for key in keys}}

    tools = [
        types.Tool(
            name=tool, description=f"corpus payloads of {namespace}__{tool}", input_schema=schema(tool)
        )
        for tool in by_tool
    ]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    def failure(message: str) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        candidates = by_tool.get(params.name, [])
        if not candidates:
            return failure(f"corpus_server: no tool {params.name!r} in namespace {namespace!r}")
        if select is not None:
            wanted = (await anyio.Path(select).read_text(encoding="utf-8")).strip()
            chosen = [r for r in candidates if r["id"] == wanted]
            if not chosen:
                return failure(f"corpus_server: selected record {wanted!r} is not a {params.name!r} record")
        else:
            arguments = dict(params.arguments or {})
            chosen = [r for r in candidates if dict(r.get("args") or {}) == arguments]
            if len(chosen) != 1:
                return failure(
                    f"corpus_server: {len(chosen)} records of {params.name!r} match these arguments "
                    "(start the server with --select FILE to choose one by id)"
                )
        try:
            text = await anyio.Path(corpus / str(chosen[0]["file"])).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return failure(f"corpus_server: cannot read the payload of {chosen[0]['id']!r}: {exc}")
        return types.CallToolResult(content=[types.TextContent(text=text)])

    return Server(f"corpus-{namespace}", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="directory holding corpus.yaml")
    parser.add_argument("--namespace", default=DEFAULT_NAMESPACE)
    parser.add_argument("--select", type=Path, help="file holding the id of the record to answer with")
    options = parser.parse_args(argv)
    anyio.run(serve, build_server(options.corpus, options.namespace, options.select))


if __name__ == "__main__":
    main()
