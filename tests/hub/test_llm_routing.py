"""The opt-in LLM summary strategy through ``ctxhub serve``, against a real HTTP endpoint on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.conftest import fixture_server, hub_client, text_of, write_config
from tests.hub.test_llm import Endpoint, endpoint  # noqa: F401  (the fixture)

pytestmark = pytest.mark.anyio


def config_for(tmp_path: Path, url: str) -> Path:
    settings = {"big": {"mode": "SUMMARY", "summarizer": "llm"}}
    return write_config(
        tmp_path,
        {"fx": fixture_server("fx", tools=settings)},
        summarizer={"llm": {"base_url": url, "model": "tiny", "timeout": 5}},
    )


async def test_a_tool_tagged_for_the_llm_gets_its_summary(tmp_path: Path, endpoint: Endpoint) -> None:  # noqa: F811
    endpoint.answer = "One test failed: tests/test_x.py::test_y (assert 41 == 42); 99 passed."
    with anyio.fail_after(60):
        async with hub_client(config_for(tmp_path, endpoint.url)) as session:
            result = await session.call_tool("fx__big", {"kb": 40, "kind": "log"})
            untagged = await session.call_tool("fx__echo", {"text": "ERROR x\n" * 600})
    route = result.meta["ctxhub/route"]
    assert route["mode"] == "summary" and "LLM summary" in route["reason"]
    assert endpoint.answer in text_of(result) and route["ref"] in text_of(result)
    assert "LLM" not in untagged.meta["ctxhub/route"]["reason"]
    assert any(
        "test_y" in message["content"] for request in endpoint.requests for message in request["messages"]
    )


async def test_a_failing_endpoint_falls_back_to_the_extracts(tmp_path: Path, endpoint: Endpoint) -> None:  # noqa: F811
    endpoint.mode = "error"
    with anyio.fail_after(60):
        async with hub_client(config_for(tmp_path, endpoint.url)) as session:
            result = await session.call_tool("fx__big", {"kb": 40, "kind": "log"})
    assert "FAILED tests/test_x.py::test_y" in text_of(result)
    assert "LLM" not in result.meta["ctxhub/route"]["reason"]
