"""Drive ``ctxhub serve`` over stdio with a real MCP client and measure what each corpus item costs.

Contract: ``measure(corpus, items, intent=False)`` starts one ``bench/corpus_server.py`` per
namespace of the records' tools behind one hub (its own store in a temporary directory, the
dedupe cache off), then per item:

1. calls the record's exposed tool (``<namespace>__<tool>``) with the record's ``args`` through
   the hub: the hub tags the tool from its downstream name and routes the payload exactly as for
   any downstream; the reply is stage 1, its ``_meta["ctxhub/route"]`` gives mode, reason, ref;
2. for every fact, ONE ``doc_search {"query": fact.query, "ref": ref}`` through the hub. A fact
   counts as reached when its answer is in stage 1 or, if not, in that one search's reply; the
   same searches give the search-only figure (one search per fact, stage 1 ignored);
3. the baselines at stage 1's byte size N: the first N bytes of the payload (head) and the first
   N/2 plus the last N/2 bytes (head + tail);
4. with ``intent=True`` and a hub whose listed tool has an ``intent`` input property: one more call
   per fact with ``intent`` set to the fact's query, counting the facts in that reply.

Returns ``ItemResult``s (and ``intent_supported``: None when not asked). Failing calls raise
``EconomyError`` naming the item and the tool.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import anyio
import yaml
from mcp import ClientSession, MCPError
from mcp.client.stdio import StdioServerParameters, stdio_client

from bench.corpus_server import split_tool

REPO = Path(__file__).resolve().parents[1]
CORPUS_SERVER = REPO / "bench" / "corpus_server.py"
CALL_TIMEOUT = 120.0
META_ROUTE = "ctxhub/route"


class EconomyError(RuntimeError):
    """A call of the benchmark through the hub failed (the message names the item and the tool)."""


@dataclass(frozen=True, slots=True)
class FactResult:
    answer: str
    query: str
    in_stage1: bool
    searched: bool  # not in stage 1, so the agent spends its one search on it
    in_search: bool  # searched and found in that search's reply
    search_bytes: int  # bytes of that search's reply (0 when not searched)
    search_found: bool  # found by the one search whether or not stage 1 had it (search-only)
    search_reply_bytes: int  # bytes of the one search's reply, whether or not stage 1 had it
    in_head: bool
    in_head_tail: bool
    response: str
    in_intent: bool | None = None  # None: no intent call made


@dataclass(frozen=True, slots=True)
class ItemResult:
    id: str
    kind: str
    set: str
    raw_bytes: int
    stage1_bytes: int
    mode: str
    reason: str
    stage1: str
    facts: tuple[FactResult, ...]
    intent_bytes: int = 0

    @property
    def in_stage1(self) -> int:
        return sum(fact.in_stage1 for fact in self.facts)

    @property
    def reached(self) -> int:
        return sum(fact.in_stage1 or fact.in_search for fact in self.facts)

    @property
    def search_bytes(self) -> int:
        return sum(fact.search_bytes for fact in self.facts)

    @property
    def searches(self) -> int:
        return sum(fact.searched for fact in self.facts)

    # kept for callers of the earlier in-process benchmark
    @property
    def routed_kind(self) -> str:
        return self.reason


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def baselines(payload: bytes, size: int, answer: str) -> tuple[bool, bool]:
    """Whether ``answer`` is in the first ``size`` bytes, and in the first size/2 + last size/2."""
    head = payload[:size].decode("utf-8", "ignore")
    half = size // 2
    tail = payload[len(payload) - (size - half) :] if size - half else b""
    in_tail = answer in tail.decode("utf-8", "ignore")
    return answer in head, answer in payload[:half].decode("utf-8", "ignore") or in_tail


def hub_config(
    directory: Path,
    corpus: Path,
    items: Sequence[dict[str, Any]],
    select: Path,
    routing: dict[str, Any] | None = None,
) -> Path:
    """A hub config with one corpus server per namespace, its store in ``directory``."""
    namespaces = sorted({split_tool(str(item["tool"]))[0] for item in items})
    servers = {
        namespace: {
            "command": sys.executable,
            "args": [
                str(CORPUS_SERVER),
                "--corpus",
                str(corpus),
                "--namespace",
                namespace,
                "--select",
                str(select),
            ],
            "timeout": CALL_TIMEOUT,
        }
        for namespace in namespaces
    }
    config = {
        "servers": servers,
        "cache": {"enabled": False},
        # every tool listed with its schema (the intent column reads it), however many the corpus has
        "tool_surface": {"mode": "all"},
        "store": {"path": str(directory / "store")},
        **({"routing": routing} if routing else {}),
    }
    path = directory / "config.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


@contextlib.asynccontextmanager
async def hub_session(config: Path, errlog: Any) -> AsyncIterator[ClientSession]:
    """``ctxhub serve --config CONFIG`` as a child process with an initialised client session."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hub.cli", "serve", "--config", str(config)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=str(REPO),
    )
    async with (
        stdio_client(params, errlog=errlog) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def _call(session: ClientSession, item: str, tool: str, arguments: dict[str, Any]) -> Any:
    result = await session.call_tool(tool, arguments, read_timeout_seconds=CALL_TIMEOUT)
    if result.is_error:
        raise EconomyError(f"{item}: {tool} failed through the hub: {text_of(result)[:500]}")
    return result


async def measure_item(
    session: ClientSession, corpus: Path, item: dict[str, Any], select: Path
) -> tuple[ItemResult, str]:
    """One item through the hub (steps 1–3 of the module doc); also its exposed tool name."""
    namespace, tool = split_tool(str(item["tool"]))
    exposed = f"{namespace}__{tool}"
    arguments = dict(item.get("args") or {})
    payload = (corpus / str(item["file"])).read_bytes()
    select.write_text(str(item["id"]), encoding="utf-8")  # noqa: ASYNC240 (a tiny local file)
    result = await _call(session, item["id"], exposed, arguments)
    stage1 = text_of(result)
    route = dict((result.meta or {}).get(META_ROUTE) or {})
    mode, ref = str(route.get("mode", "?")), route.get("ref")
    size = len(stage1.encode("utf-8"))
    facts = []
    for fact in item["facts"]:
        answer, query = str(fact["answer"]), str(fact["query"])
        in_stage1 = answer in stage1
        response = ""
        if ref:
            reply = await _call(session, item["id"], "doc_search", {"query": query, "ref": ref})
            response = text_of(reply)
        found = answer in response if ref else in_stage1  # DIRECT: stage 1 is the whole payload
        reply_bytes = len(response.encode("utf-8"))
        head, head_tail = baselines(payload, size, answer)
        facts.append(
            FactResult(
                answer=answer,
                query=query,
                in_stage1=in_stage1,
                searched=not in_stage1 and bool(ref),
                in_search=not in_stage1 and found,
                search_bytes=0 if in_stage1 else reply_bytes,
                search_found=found,
                search_reply_bytes=reply_bytes,
                in_head=head,
                in_head_tail=head_tail,
                response=response,
            )
        )
    measured = ItemResult(
        id=str(item["id"]),
        kind=str(item["kind"]),
        set=str(item.get("set", "")),
        raw_bytes=len(payload),
        stage1_bytes=size,
        mode=mode,
        reason=str(route.get("reason", "")),
        stage1=stage1,
        facts=tuple(facts),
    )
    return measured, exposed


def has_intent(tool: Any) -> bool:
    schema = getattr(tool, "input_schema", None) or {}
    return "intent" in (schema.get("properties") or {})


async def measure_intent(
    session: ClientSession, item: dict[str, Any], measured: ItemResult, exposed: str, select: Path
) -> ItemResult:
    """Step 4: one call per fact with the fact's query as ``intent``."""
    select.write_text(str(item["id"]), encoding="utf-8")  # noqa: ASYNC240 (a tiny local file)
    facts, spent = [], 0
    for fact in measured.facts:
        arguments = {**dict(item.get("args") or {}), "intent": fact.query}
        reply = text_of(await _call(session, measured.id, exposed, arguments))
        spent += len(reply.encode("utf-8"))
        facts.append(replace(fact, in_intent=fact.answer in reply))
    return replace(measured, facts=tuple(facts), intent_bytes=spent)


async def measure(
    corpus: Path,
    items: Sequence[dict[str, Any]],
    *,
    intent: bool = False,
    routing: dict[str, Any] | None = None,
) -> tuple[list[ItemResult], bool | None]:
    """Every item through one hub (see the module doc); ``(results, intent supported or None)``.

    ``routing`` overrides keys of the hub's ``routing`` config section (e.g. ``summary_budget``)."""
    missing = [str(item["file"]) for item in items if not (corpus / str(item["file"])).is_file()]  # noqa: ASYNC240
    if missing:
        raise EconomyError(
            f"{len(missing)} payload file(s) missing in {corpus}, e.g. {missing[:3]} "
            "(check it with: python bench/corpus/build.py verify --dir DIR)"
        )
    with tempfile.TemporaryDirectory(prefix="ctxhub-economy-") as scratch:
        directory = Path(scratch)
        select = directory / "selected"
        select.write_text("", encoding="utf-8")  # noqa: ASYNC240
        config = hub_config(directory, corpus.resolve(), items, select, routing)  # noqa: ASYNC240
        errlog_path = directory / "hub.log"
        with errlog_path.open("w", encoding="utf-8") as errlog:  # noqa: ASYNC230 (a local file)
            try:
                async with hub_session(config, errlog) as session:
                    return await _measure_all(session, corpus, items, select, intent)
            except Exception as exc:  # the SDK's task groups wrap what failed in exception groups
                leaf = _first_leaf(exc)
                if not isinstance(leaf, OSError | EconomyError | TimeoutError | MCPError):
                    raise
                errlog.flush()
                tail = errlog_path.read_text(encoding="utf-8", errors="replace")[-2000:]
                raise EconomyError(f"{leaf}\n--- hub stderr (tail) ---\n{tail}") from exc


def _first_leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


async def _measure_all(
    session: ClientSession, corpus: Path, items: Sequence[dict[str, Any]], select: Path, intent: bool
) -> tuple[list[ItemResult], bool | None]:
    results, exposed = [], []
    for item in items:
        with anyio.fail_after(CALL_TIMEOUT * (2 + len(item["facts"]))):
            measured, name = await measure_item(session, corpus, item, select)
        results.append(measured)
        exposed.append(name)
    if not intent:
        return results, None
    listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    if not all(has_intent(listed.get(name)) for name in exposed):
        return results, False
    for index, item in enumerate(items):
        results[index] = await measure_intent(session, item, results[index], exposed[index], select)
    return results, True
