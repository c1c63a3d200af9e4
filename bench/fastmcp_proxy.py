"""FastMCP's proxy (PyPI ``fastmcp``) in front of one stdio downstream, served on stdio.

Run with the interpreter of the separate venv that ``bench/harness.py`` builds
(``bench/.venvs/fastmcp``), never with the project's: ``python bench/fastmcp_proxy.py
[--reuse] COMMAND [ARGS...]``.

Default: ``create_proxy(StdioTransport(...))``, FastMCP's documented proxy, which opens a fresh
client session per request (on a kept-alive subprocess). ``--reuse``: the proxy is handed an
already connected ``Client``, so every request reuses one session (FastMCP logs that this may mix
request contexts); the cheapest configuration FastMCP offers.
"""

from __future__ import annotations

import os
import sys

import anyio
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.server import create_proxy


def transport(command: str, args: list[str]) -> StdioTransport:
    return StdioTransport(command=command, args=args, env=dict(os.environ))


async def serve_reusing(command: str, args: list[str]) -> None:
    async with Client(transport(command, args)) as client:
        proxy = create_proxy(client, name="fastmcp-proxy")
        await proxy.run_async(transport="stdio", show_banner=False)


def main(argv: list[str]) -> None:
    reuse = argv[:1] == ["--reuse"]
    command, *args = argv[1:] if reuse else argv
    if reuse:
        anyio.run(serve_reusing, command, args)
        return
    proxy = create_proxy(transport(command, args), name="fastmcp-proxy")
    proxy.run(transport="stdio", show_banner=False)


if __name__ == "__main__":
    main(sys.argv[1:])
