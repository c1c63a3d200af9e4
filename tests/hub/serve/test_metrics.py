"""``/metrics`` on the HTTP transport: Prometheus series after real calls, behind the same token."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import anyio
import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import fixture_server, text_of, write_config
from tests.hub.serve.test_http import TOKEN, mcp_session, running_hub

pytestmark = pytest.mark.anyio


@pytest.fixture
def devnull() -> Iterator[IO[str]]:
    with open(os.devnull, "w") as file:
        yield file


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


async def test_metrics_count_calls_bytes_modes_latency_downstreams_and_store(
    tmp_path: Path, devnull: IO[str]
) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    with anyio.fail_after(30):
        async with (
            running_hub(config, devnull, token=TOKEN) as hub,
            mcp_session(hub, "http", token=TOKEN) as session,
            httpx.AsyncClient(base_url=hub.base) as raw,
        ):
            assert text_of(await session.call_tool("fx__echo", {"text": "hi"})) == "hi"
            big = await session.call_tool("fx__big", {"kb": 40})
            assert "ref r_" in text_of(big)
            await session.call_tool("fx__fail", {"message": "boom"})
            assert (await raw.get("/metrics")).status_code == 401  # same token rule as /mcp
            response = await raw.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = _samples(response.text)
    fx = (("server", "fx"),)
    assert samples[("ctxhub_tool_calls_total", (("mode", "direct"), *fx, ("tool", "echo")))] == 1
    assert samples[("ctxhub_tool_calls_total", (("mode", "summary"), *fx, ("tool", "big")))] == 1
    assert samples[("ctxhub_tool_errors_total", (*fx, ("tool", "fail")))] == 1
    assert samples[("ctxhub_tool_bytes_in_total", (*fx, ("tool", "big")))] > 40_000
    assert samples[("ctxhub_tool_bytes_saved_total", (*fx, ("tool", "big")))] > 30_000
    assert samples[("ctxhub_tool_call_seconds_count", (*fx, ("tool", "big")))] == 1
    assert samples[("ctxhub_downstream_up", fx)] == 1
    assert samples[("ctxhub_downstream_restarts_total", fx)] == 0
    # the big result is in the store, indexed or still waiting for its indexing thread
    assert samples[("ctxhub_store_refs", ())] + samples[("ctxhub_store_pending", ())] >= 1
    assert samples[("ctxhub_store_max_bytes", ())] > 0
