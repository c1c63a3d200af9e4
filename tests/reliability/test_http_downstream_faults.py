"""A streamable-HTTP downstream that answers with broken HTTP: a prompt ``isError``, never a hang.

``tests/fixtures/http_fault_server.py`` answers ``initialize`` and ``tools/list`` properly and
each other tool with one kind of broken answer (a body that is not JSON, a result of the wrong
shape, HTTP 500, a wrong content type, an SSE event that is not JSON, an SSE stream that ends
without an answer, an answer to another id). Pass criterion: the call through ``ctxhub serve``
ends with an ``isError`` naming the server and the tool well before the server's 60 s timeout,
and the same server's good tool and another server keep answering. An answer to another id is
the exception: the request is never answered, so it ends at the server's timeout, with the
timeout error.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import anyio.abc
import pytest

from tests.conftest import REPO, announced_url, hub_client, text_of, write_config
from tests.reliability.harness import fault_server, hub_env

pytestmark = pytest.mark.anyio

HTTP_FAULT_SERVER = REPO / "tests" / "fixtures" / "http_fault_server.py"
FAULTS = ("garbage_json", "bad_result", "http_500", "wrong_type", "sse_garbage", "sse_no_answer")
PROMPT = 10.0  # seconds: far below the configured timeout, so an answer by timeout fails the test


@pytest.fixture
async def http_fault_url() -> AsyncIterator[str]:
    command = [sys.executable, str(HTTP_FAULT_SERVER), "--port", "0"]
    async with await anyio.open_process(command, env=hub_env()) as server:
        assert server.stderr is not None
        with anyio.fail_after(20):
            url = await announced_url(server.stderr, b"/mcp")
        try:
            yield url
        finally:
            server.terminate()
            with anyio.CancelScope(shield=True), anyio.fail_after(10):
                await server.wait()


async def test_broken_http_answers_are_prompt_errors_and_the_hub_keeps_serving(
    tmp_path: Path, http_fault_url: str
) -> None:
    config = write_config(
        tmp_path,
        {
            "bad": {"url": http_fault_url, "timeout": 60},
            "quick": {"url": http_fault_url, "timeout": 1},
            "f": fault_server("f"),
        },
    )
    async with hub_client(config) as session:
        for fault in FAULTS:
            with anyio.fail_after(PROMPT):
                result = await session.call_tool(f"bad__{fault}", {})
            text = text_of(result)
            assert result.is_error, (fault, text)
            assert "bad" in text and fault in text, (fault, text)
            with anyio.fail_after(PROMPT):
                good = await session.call_tool("bad__ok", {})
                other = await session.call_tool("f__echo", {"text": "still here"})
            assert text_of(good) == "fine" and not good.is_error, fault
            assert text_of(other) == "f:still here", fault
        with anyio.fail_after(PROMPT):
            result = await session.call_tool("quick__other_id", {})
            good = await session.call_tool("quick__ok", {})
        assert result.is_error and "'quick' did not answer other_id within 1 s" in text_of(result)
        assert text_of(good) == "fine"
