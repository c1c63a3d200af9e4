"""The floor any Python hub pays: a bare pass-through MCP proxy on the same SDK (low-level Server, stdio).

Run: ``python bench/bare_proxy.py COMMAND [ARGS...]`` serves on stdio and forwards ``tools/list``
and ``tools/call`` verbatim to the one downstream started with COMMAND ARGS. No routing, no
cache, no store, no renaming, no error translation: what is left is the SDK's own cost.
"""

from __future__ import annotations

import os
import sys

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server


async def main(command: str, args: list[str]) -> None:
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
    with open(os.devnull, "w") as devnull:  # noqa: ASYNC230 (the null device never blocks)
        async with stdio_client(params, errlog=devnull) as (read, write), ClientSession(read, write) as down:
            await down.initialize()

            async def list_tools(ctx: ServerRequestContext, params: object) -> types.ListToolsResult:
                return await down.list_tools()

            async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> object:
                return await down.call_tool(params.name, params.arguments or {})

            server = Server("bare-proxy", on_list_tools=list_tools, on_call_tool=call_tool)
            async with stdio_server() as (up_read, up_write):
                await server.run(up_read, up_write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2:])
