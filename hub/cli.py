"""``ctxhub``: serve the hub, check downstreams, list and call tools, inspect routing and the store.

Contract: logs go to stderr (level from ``--log-level`` or ``CTXHUB_LOG_LEVEL``), results to
stdout. A ``HubError`` prints one line ``ctxhub: <message>`` and exits 2; ``check`` exits 1
when a downstream fails to start.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from context_mode.errors import ContextModeError
from hub.config import HubConfig, load_config
from hub.errors import HubError, UsageError

log = logging.getLogger("ctxhub")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    level = (args.log_level or os.environ.get("CTXHUB_LOG_LEVEL") or "WARNING").upper()
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # the reader went away (`ctxhub route big.log | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again
        return 141 - 128  # like a shell's SIGPIPE status, without the traceback
    except HubError as exc:
        print(f"ctxhub: {exc}", file=sys.stderr)
        return 2
    except ContextModeError as exc:  # e.g. a store error outside a tool call: one line, no traceback
        print(f"ctxhub: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxhub", description="A context-mode MCP hub.")
    parser.add_argument("--version", action="version", version=f"ctxhub {_version()}")
    parser.add_argument(
        "--log-level", help="DEBUG, INFO, WARNING (default) or ERROR; or set CTXHUB_LOG_LEVEL"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    def with_config(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sub.add_argument(
            "--config",
            help="the config file (default: $CTXHUB_CONFIG, ./ctxhub.yaml, ./.ctxhub/config.yaml, "
            "$XDG_CONFIG_HOME/ctxhub/config.yaml, else the bundled default)",
        )
        return sub

    serve = with_config(command("serve", _serve, "Serve the hub to an MCP client (stdio by default)."))
    serve.add_argument(
        "--transport",
        choices=("stdio", "sse", "http"),
        default="stdio",
        help="stdio (default: the client starts the hub), or serve over HTTP: "
        "http (streamable HTTP at /mcp; legacy SSE at /sse too) or sse",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind for http/sse (default 127.0.0.1; others need --token)",
    )
    serve.add_argument(
        "--port", type=int, default=8765, help="port to bind for http/sse (default 8765; 0: any)"
    )
    serve.add_argument("--token", help="bearer token clients must send (or set CTXHUB_TOKEN)")
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host name clients may use, e.g. a container's service name "
        "(repeatable, comma lists too; or set CTXHUB_ALLOWED_HOSTS)",
    )
    client = with_config(command("config", _client_config, "Print or write a client's MCP settings block."))
    client.add_argument("client", choices=("claude", "cursor"))
    client.add_argument(
        "--transport",
        choices=("stdio", "sse", "http"),
        default="stdio",
        help="how the client reaches the hub: stdio (it starts the hub; default), "
        "http or sse (a running hub)",
    )
    client.add_argument(
        "--host", default="127.0.0.1", help="the hub's address for http/sse (default 127.0.0.1)"
    )
    client.add_argument("--port", type=int, default=8765, help="the hub's port for http/sse (default 8765)")
    client.add_argument(
        "--token-env",
        default="CTXHUB_TOKEN",
        help="variable holding the bearer token, referenced in the headers ('' for none)",
    )
    client.add_argument(
        "--write",
        action="store_true",
        help="merge into ./.mcp.json (claude) or ./.cursor/mcp.json (cursor), not print",
    )
    with_config(command("check", _check, "Start every downstream and print a status table."))
    with_config(command("tools", _tools, "List the tool names the hub exposes."))
    call = with_config(command("call", _call, "Run one tool call through the hub and print the result."))
    call.add_argument("tool")
    call.add_argument("--args", default="{}", help="the arguments as a JSON object")
    route = with_config(command("route", _route, "Show the routing decision and stage-1 text for a file."))
    route.add_argument("file")
    route.add_argument("--tool", default="", help="the tool name the output came from (hints its kind)")
    route.add_argument("--args", default="{}", help="the call's arguments as JSON (query terms)")
    route.add_argument("--mode", default="AUTO", help="the tool's tag: AUTO, DIRECT, SUMMARY or DIRECTIVE")
    search = with_config(command("search", _search, "Search the store (BM25)."))
    search.add_argument("query")
    search.add_argument("--ref")
    search.add_argument("--limit", type=int, default=5)
    show = with_config(command("show", _show, "Print a stored result or one chunk of it (REF or REF#N)."))
    show.add_argument("ref")
    with_config(command("stats", _stats, "Store size, refs, chunks, evictions and savings."))
    board = with_config(command("dashboard", _dashboard, "Serve the dashboard on 127.0.0.1 (read-only)."))
    board.add_argument("--port", type=int, default=8766)
    board.add_argument("--store", type=Path, help="one store directory (default: default store + siblings)")
    board.add_argument("--token", help="require this token (?token= once in the browser; or CTXHUB_TOKEN)")
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ctxhub")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _dashboard(args: argparse.Namespace) -> int:
    from hub.dashboard import serve_dashboard, sources_for
    from hub.serve import require_token_for

    token = args.token or os.environ.get("CTXHUB_TOKEN") or None
    require_token_for("127.0.0.1", token)
    serve_dashboard(sources_for(_config(args), args.store), port=args.port, token=token)
    return 0


def _config(args: argparse.Namespace) -> HubConfig:
    return load_config(args.config)


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"--args is not valid JSON ({exc.msg} at column {exc.colno}); "
            'pass an object such as \'{"timezone": "UTC"}\''
        ) from exc
    if not isinstance(value, dict):
        raise UsageError('--args must be a JSON object such as \'{"timezone": "UTC"}\'')
    return value


def _serve(args: argparse.Namespace) -> int:
    from hub.runtime import freeze_startup_objects, limit_arenas

    limit_arenas()  # before any thread starts: a long-running hub's heap stays flat (hub/runtime.py)
    config = _config(args)
    from hub.downstream import spawn_servers, warm_servers

    # The stdio downstreams start now and import their SDKs while the hub imports its own.
    with spawn_servers(config, errlog=sys.stderr, warm=warm_servers(config)) as children:
        from hub.app import open_hub

        if args.transport != "stdio":
            from hub.serve import serve_http

            token = args.token or os.environ.get("CTXHUB_TOKEN")
            with open_hub(config, children=children) as service:
                service.config_path = _watched(config)
                freeze_startup_objects()  # no full collections inside the response path
                serve = functools.partial(serve_http, allowed_hosts=args.allow_host)
                anyio.run(serve, service, args.transport, args.host, args.port, token)
            return 0
        from hub.serve import serve_stdio

        with open_hub(config, children=children) as service:
            service.config_path = _watched(config)
            freeze_startup_objects()  # no full collections inside the response path
            anyio.run(serve_stdio, service)
    return 0


def _watched(config: HubConfig) -> Path | None:
    """The config file a serving hub reloads on edits (not the packaged default)."""
    from hub.config import DEFAULT_CONFIG

    path = Path(config.source)
    return path if path.is_file() and path.resolve() != DEFAULT_CONFIG.resolve() else None


def _client_config(args: argparse.Namespace) -> int:
    from hub.client_config import settings_block, write_settings
    from hub.config import DEFAULT_CONFIG, default_config_path

    found = default_config_path()
    config = Path(args.config) if args.config else (None if found == DEFAULT_CONFIG else found)
    block = settings_block(
        args.client,
        args.transport,
        config_path=config,
        host=args.host,
        port=args.port,
        token_env=args.token_env or None,
    )
    if args.write:
        print(f"wrote {write_settings(args.client, block, Path.cwd())}")
    else:
        print(json.dumps(block, indent=2))
    return 0


def _check(args: argparse.Namespace) -> int:
    config = _config(args)
    from hub.app import open_hub
    from hub.serve import list_bytes

    async def run() -> int:
        with open_hub(config, ephemeral=True, errlog=_quiet_errlog()) as service:
            async with service.running():
                longest = max((d.config.timeout for d in service.pool.downstreams.values()), default=1.0)
                await service.pool.wait_settled(longest + 1)
                rows = [("server", "transport", "status", "tools", "list bytes", "start-up")]
                failed = 0
                for downstream in service.pool.downstreams.values():
                    ok = downstream.state == "ready"
                    failed += not ok
                    status = "ok" if ok else f"FAILED: {downstream.last_error or downstream.state}"
                    startup = f"{downstream.startup_seconds:.2f} s" if downstream.startup_seconds else "-"
                    rows.append(
                        (
                            downstream.name,
                            downstream.transport,
                            status,
                            str(len(downstream.tools)),
                            str(downstream.tool_list_bytes),
                            startup,
                        )
                    )
                _print_table(rows)
                exposed, listed = service.list_tools(), service.listed_tools()
                lazy = (
                    " (lazy surface: hub_find_tools / hub_call reach the rest)"
                    if len(listed) < len(exposed)
                    else ""
                )
                print(
                    f"{len(exposed)} tools exposed ({len(service.native)} native), {len(listed)} listed in "
                    f"{list_bytes(listed)} B of tools/list{lazy}; config {config.source}"
                )
                from hub.reload import preview

                changes = preview(config)
                if changes is not None:
                    print(f"a hub serving from {config.store_path()} would reload this file: {changes}")
                return 1 if failed else 0

    return anyio.run(run)


def _tools(args: argparse.Namespace) -> int:
    config = _config(args)
    from hub.app import open_hub
    from hub.serve import META_MODE

    async def run() -> None:
        with open_hub(config, ephemeral=True, errlog=_quiet_errlog()) as service:
            async with service.running():
                await service.pool.wait_settled(10.0)
                rows = [("tool", "mode", "description")]
                for tool in service.list_tools():
                    description = (tool.description or "").strip().splitlines()
                    first = description[0][:70] if description else ""
                    rows.append((tool.name, str((tool.meta or {}).get(META_MODE, "")), first))
                _print_table(rows)

    anyio.run(run)
    return 0


def _call(args: argparse.Namespace) -> int:
    config = _config(args)
    arguments = _arguments(args.args)
    from mcp import types

    from hub.app import open_hub

    async def run() -> int:
        with open_hub(config, errlog=_quiet_errlog()) as service:
            async with service.running():
                await service.pool.wait_settled(10.0)
                result = await service.call(args.tool, arguments)
                for block in result.content:
                    if isinstance(block, types.TextContent):
                        print(block.text)
                    else:
                        print(f"[{block.type} content]")
                route = (result.meta or {}).get("ctxhub/route")
                if route:
                    log.info("route: %s", json.dumps(route))
                return 1 if result.is_error else 0

    return anyio.run(run)


def _route(args: argparse.Namespace) -> int:
    from context_mode.router import Direct, Directive, Summary, route
    from context_mode.stage1 import render_directive, render_summary
    from context_mode.types import OutputStyle
    from hub.policy_config import base_policy

    config = load_config(args.config) if args.config else load_config()
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror}); pass a readable file") from exc
    try:
        style = OutputStyle(args.mode.upper())
    except ValueError:
        raise UsageError(f"--mode {args.mode!r} is not one of AUTO, DIRECT, SUMMARY, DIRECTIVE") from None
    decision = route(
        text,
        style=style,
        policy=base_policy(config),
        tool=args.tool,
        arguments=_arguments(args.args),
    )
    size = len(text.encode("utf-8", "surrogatepass"))
    print(f"decision: {type(decision).__name__}")
    print(f"reason:   {decision.reason}")
    match decision:
        case Direct():
            stage1 = text
        case Summary():
            stage1 = render_summary(
                decision, tool=args.tool or path.name, ref="r_<ref>", original_bytes=size, spill_path=None
            )
        case Directive():
            stage1 = render_directive(
                decision, tool=args.tool or path.name, ref="r_<ref>", original_bytes=size, spill_path=None
            )
    returned = len(stage1.encode("utf-8", "surrogatepass"))
    print(f"bytes:    {size} in, {returned} out ({returned / max(size, 1):.1%})")
    print("-" * 72)
    print(stage1)
    return 0


def _stores_for_reading(args: argparse.Namespace) -> list[Any]:
    """The configured store, or the default one and its siblings (``store-2``…), read-only."""
    from hub.stores import open_for_reading

    return open_for_reading(_config(args))


def _search(args: argparse.Namespace) -> int:
    from hub.stores import find_ref
    from tools.doc_tools import doc_tools
    from tools.errors import ToolError

    stores = _stores_for_reading(args)
    try:
        chosen = [find_ref(stores, args.ref)] if args.ref else stores
        for store in chosen:
            if len(chosen) > 1:
                print(f"== {store.path}")
            search = next(tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_search")
            try:
                print(search.run({"query": args.query, "ref": args.ref, "limit": args.limit}))
            except ToolError as exc:
                raise UsageError(str(exc)) from exc
    finally:
        for store in stores:
            store.close()
    return 0


def _show(args: argparse.Namespace) -> int:
    from context_mode.errors import StoreError
    from hub.stores import find_ref

    stores = _stores_for_reading(args)
    try:
        ref, _, chunk = args.ref.partition("#")
        store = find_ref(stores, ref)
        if store is not stores[0]:
            print(f"ctxhub: {ref} is in the store {store.path}", file=sys.stderr)
        try:
            print(store.read_chunk(args.ref).text if chunk else store.text(ref))
        except StoreError as exc:
            raise UsageError(str(exc)) from exc
    finally:
        for store in stores:
            store.close()
    return 0


def _stats(args: argparse.Namespace) -> int:
    stores = _stores_for_reading(args)
    try:
        for number, store in enumerate(stores):
            if len(stores) > 1:
                print(f"{chr(10) if number else ''}== {store.path}")
            _print_store_stats(store)
    finally:
        for store in stores:
            store.close()
    return 0


def _print_store_stats(store: Any) -> None:
    from context_mode.feedback import FILE_NAME as FEEDBACK_FILE

    stats = dataclasses.asdict(store.stats())
    _print_table([("store", "value"), *((key, str(value)) for key, value in stats.items())])
    saved = Path(store.path) / "stats.json"
    tools = json.loads(saved.read_text(encoding="utf-8")).get("tools", {}) if saved.is_file() else {}
    if tools:
        header = ("tool", "calls", "bytes in", "bytes out", "saved", "pruned", "context saved", "cache hits")
        rows = [(*header, "modes")]
        for name, entry in tools.items():
            modes = " ".join(f"{mode}:{count}" for mode, count in sorted(entry["modes"].items()))
            rows.append(
                (
                    name,
                    str(entry["calls"]),
                    str(entry["bytes_in"]),
                    str(entry["bytes_out"]),
                    str(entry["bytes_saved"]),
                    str(entry.get("pruned_bytes", 0)),
                    str(entry.get("context_saved", entry["bytes_saved"])),
                    str(entry["cache_hits"]),
                    modes,
                )
            )
        print()
        _print_table(rows)
    budgets = _budget_rows(tools, Path(store.path) / FEEDBACK_FILE)
    if len(budgets) > 1:
        print()
        _print_table(budgets)


def _budget_rows(tools: dict[str, Any], feedback_file: Path) -> list[tuple[str, ...]]:
    """Per tool: the stage-1 budget its last result used, where it came from, and the feedback counts."""
    from context_mode.feedback import FeedbackBook

    feedback = FeedbackBook(feedback_file).entries() if feedback_file.is_file() else {}
    rows: list[tuple[str, ...]] = [("tool", "budget", "source", "lost_info", "too_long", "last note")]
    for name in sorted(set(feedback) | {name for name, entry in tools.items() if entry.get("budget")}):
        entry = feedback.get(name)
        used = tools.get(name, {})
        budget = used.get("budget") or (entry.budget if entry else None)
        source = used.get("budget_source") or ("feedback" if entry else "config")
        rows.append(
            (
                name,
                f"{budget} B" if budget else "-",
                source,
                str(entry.lost_info if entry else 0),
                str(entry.too_long if entry else 0),
                (entry.note[:40] if entry else "") or "-",
            )
        )
    return rows


def _print_table(rows: Sequence[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if index == 0:
            print("  ".join("-" * width for width in widths))


def _quiet_errlog() -> Any:
    # Children's stderr goes to ours only when the user asked for logs; `check` output stays readable.
    level = logging.getLogger().getEffectiveLevel()
    return sys.stderr if level <= logging.INFO else open(os.devnull, "w")  # noqa: SIM115


if __name__ == "__main__":
    sys.exit(main())
