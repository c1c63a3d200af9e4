"""Routing end to end through ``ctxhub serve``: summaries with refs and spill files, the dedupe pointer,
doc_search/doc_window on the stored payload, directives, and Direct results left untouched."""

from __future__ import annotations

import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from tests.conftest import fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

FAILING = "tests/test_orders.py::OrderTotalsTest::test_discount_rounding"


def ci_log(size: int = 40_000) -> str:
    """A pytest -v log with one failure in the middle of the listing and the summary at the end."""
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.7, pytest-8.3.2",
        "collected 812 items",
        "",
    ]
    number = 0
    while sum(len(line) + 1 for line in lines) < size - 2500:
        name = FAILING if number == 300 else f"tests/test_catalog.py::CatalogTest::test_item_{number:04d}"
        lines.append(f"{name} {'FAILED' if number == 300 else 'PASSED'}{' ' * 20}[{number % 100:3d}%]")
        number += 1
    lines += [
        "",
        "=================================== FAILURES ===================================",
        "__________________ OrderTotalsTest.test_discount_rounding ___________________",
        "",
        "self = <tests.test_orders.OrderTotalsTest testMethod=test_discount_rounding>",
        "",
        "    def test_discount_rounding(self):",
        ">       self.assertEqual(apply_discount(Decimal('19.99'), 15), Decimal('16.99'))",
        "E       AssertionError: Decimal('16.9915') != Decimal('16.99')",
        "",
        "tests/test_orders.py:88: AssertionError",
        "=========================== short test summary info ============================",
        f"FAILED {FAILING} - AssertionError: Decimal('16.9915') != Decimal('16.99')",
        f"================== 1 failed, {number - 1} passed in 12.04s ===================",
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``session`` lives across the module's tests


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ClientSession]:
    """One hub for the module's tests (each reads its own files, so none sees another's repeats)."""
    tmp_path = tmp_path_factory.mktemp("routing")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "ci.log").write_text(ci_log(), encoding="utf-8")
    (workspace / "ci-again.log").write_text(ci_log(39_000), encoding="utf-8")  # other content, other ref
    (workspace / "small.txt").write_text("just a few words\n", encoding="utf-8")
    servers: dict[str, Any] = {
        "ws": {"command": sys.executable, "args": ["-m", "tools.workspace_server", "--root", str(workspace)]},
        "fx": fixture_server(
            "fx", env={"FIXTURE_MARKER_DIR": str(tmp_path)}, tools={"big": {"mode": "DIRECTIVE"}}
        ),
    }
    async with hub_client(write_config(tmp_path, servers)) as session:
        yield session


async def test_a_big_log_comes_back_as_a_summary_with_a_ref_and_a_spill_file(session: ClientSession) -> None:
    with anyio.fail_after(60):
        result = await session.call_tool("ws__read_log", {"path": "ci.log"})
        route = result.meta["ctxhub/route"]
        summary = text_of(result)
        found = text_of(
            await session.call_tool("doc_search", {"query": "discount rounding failed", "ref": route["ref"]})
        )
        window = text_of(await session.call_tool("doc_window", {"ref": route["ref"], "start": 0}))
    assert route["mode"] == "summary" and route["original_bytes"] >= 38_000
    # the stage-1 budget grows with distinct salient content, from summary_budget to summary_budget_max
    assert 1500 <= route["budget"] <= 6000
    assert len(summary.encode()) <= route["budget"] and route["returned_bytes"] == len(summary.encode())
    assert "AssertionError: Decimal('16.9915') != Decimal('16.99')" in summary
    assert FAILING in summary
    assert "1 failed" in summary
    assert route["ref"] in summary and route["spill_path"] in summary
    spill = Path(route["spill_path"])
    assert spill.read_text(encoding="utf-8") == ci_log()
    assert stat.S_IMODE(spill.stat().st_mode) == 0o600
    assert FAILING in found
    assert "test session starts" in window


async def test_the_same_read_again_returns_a_short_pointer(session: ClientSession) -> None:
    with anyio.fail_after(60):
        first = await session.call_tool("ws__read_log", {"path": "ci-again.log"})
        again = await session.call_tool("ws__read_log", {"path": "ci-again.log"})
        other = await session.call_tool("ws__read_log", {"path": "ci-again.log", "tail": 50})
    ref = first.meta["ctxhub/route"]["ref"]
    assert again.meta["ctxhub/route"]["cache_hit"] is True
    assert again.meta["ctxhub/route"]["ref"] == ref
    assert len(text_of(again).encode()) <= 300
    assert ref in text_of(again) and "doc_window" in text_of(again)
    assert other.meta["ctxhub/route"]["cache_hit"] is False


async def test_a_write_clears_the_cached_reads_of_its_server(session: ClientSession) -> None:
    with anyio.fail_after(60):
        await session.call_tool("fx__echo", {"text": "x" * 500})
        hit = await session.call_tool("fx__echo", {"text": "x" * 500})
        await session.call_tool("fx__write_note", {"text": "changed"})
        fresh = await session.call_tool("fx__echo", {"text": "x" * 500})
    assert hit.meta["ctxhub/route"]["cache_hit"] is True
    assert fresh.meta["ctxhub/route"]["cache_hit"] is False
    assert text_of(fresh) == "x" * 500


async def test_small_results_pass_through_untouched(session: ClientSession) -> None:
    with anyio.fail_after(60):
        text = await session.call_tool("ws__read_file", {"path": "small.txt"})
        added = await session.call_tool("fx__add", {"a": 20, "b": 22})
    assert text_of(text) == "just a few words\n"
    assert text.meta["ctxhub/route"]["mode"] == "direct"
    assert added.structured_content == {"result": 42}


async def test_a_directive_tool_returns_no_payload_lines_and_the_next_calls(session: ClientSession) -> None:
    with anyio.fail_after(60):
        result = await session.call_tool("fx__big", {"kb": 60, "kind": "log"})
    body = text_of(result)
    route = result.meta["ctxhub/route"]
    assert route["mode"] == "directive"
    assert "PASSED" not in body and "AssertionError" not in body
    assert f'doc_search(query="<what you need>", ref="{route["ref"]}")' in body
    assert len(body.encode()) < 800


async def test_a_summary_slower_than_its_deadline_is_answered_with_a_directive(tmp_path: Path) -> None:
    # A summariser slow on some payload (Tomcat's web.xml held kind detection for minutes) held its
    # call's reply for as long. With routing.summary_seconds at a microsecond, a 200 kB log's
    # summary is given up: the reply is a Directive to the stored payload, which reads in full.
    servers: dict[str, Any] = {"fx": fixture_server("fx")}
    config = write_config(tmp_path, servers, routing={"summary_seconds": 1e-6})
    async with hub_client(config) as hub:
        with anyio.fail_after(60):
            result = await hub.call_tool("fx__big", {"kb": 200})
            route = result.meta["ctxhub/route"]
            window = text_of(await hub.call_tool("doc_window", {"ref": route["ref"], "start": 0}))
    reply = text_of(result)
    assert route["mode"] == "directive", route
    assert "not summarised within 1e-06 s (routing.summary_seconds)" in reply
    assert route["ref"] in reply and result.is_error is not True
    assert "test session starts" in window
