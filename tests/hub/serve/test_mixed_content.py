"""Everything a result puts into the model's context is routed: text beside images, resources, structure.

The tests call different tools of one content server, so they share one hub (per module).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from context_mode.policy import RoutingPolicy
from tests.conftest import REPO, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

CONTENT_SERVER = REPO / "tests" / "fixtures" / "content_server.py"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``session`` lives across the module's tests


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ClientSession]:
    directory = tmp_path_factory.mktemp("mixed")
    config = write_config(directory, {"c": {"command": sys.executable, "args": [str(CONTENT_SERVER)]}})
    async with hub_client(config) as session:  # the handshake is bounded in hub_client
        yield session


def _route(result: Any) -> dict[str, Any]:
    return dict((result.meta or {})["ctxhub/route"])


async def test_big_text_beside_a_small_image_is_summarised_and_the_image_passes(
    session: ClientSession,
) -> None:
    with anyio.fail_after(120):
        result = await session.call_tool("c__text_and_image", {"kb": 2500})
        ref = _route(result)["ref"]
        found = text_of(await session.call_tool("doc_search", {"query": "connection reset", "ref": ref}))
    route = _route(result)
    assert route["mode"] in ("summary", "directive")
    assert route["original_bytes"] > 2_400_000
    assert len(text_of(result)) < 5000
    assert [block.type for block in result.content] == ["text", "image"]
    assert route["media_blocks"] == 1 and route["media_bytes"] == route["media_returned_bytes"] > 0
    assert "connection reset by peer" in found


async def test_an_embedded_resource_with_big_text_is_routed(session: ClientSession) -> None:
    with anyio.fail_after(120):
        result = await session.call_tool("c__embedded", {"kb": 3000})
    route = _route(result)
    assert route["mode"] in ("summary", "directive") and route["original_bytes"] > 2_900_000
    assert [block.type for block in result.content] == ["text"]
    assert len(text_of(result)) < 5000 and route["ref"]


async def test_tiny_text_beside_big_structured_content_is_measured_by_both(session: ClientSession) -> None:
    with anyio.fail_after(120):
        result = await session.call_tool("c__tiny_and_structured", {"kb": 2000})
    route = _route(result)
    assert route["original_bytes"] > 1_900_000
    assert route["mode"] in ("summary", "directive")
    assert result.structured_content is None
    # The text block, then the structured content as JSON: a JSON summary of stage 1's size at most.
    assert len(text_of(result).encode()) <= RoutingPolicy().summary_budget_max


async def test_an_image_over_the_per_block_cap_becomes_one_line(session: ClientSession) -> None:
    with anyio.fail_after(120):
        small = await session.call_tool("c__image", {"kb": 100})
        huge = await session.call_tool("c__image", {"kb": 20_000})
    assert [block.type for block in small.content] == ["image"]
    assert [block.type for block in huge.content] == ["text"]
    note = text_of(huge)
    assert note.startswith("[ctxhub: image (image/png, 20.0 MB) not passed into context") and len(note) < 200
    assert _route(huge)["media_bytes"] == 20_000_000 and _route(huge)["media_returned_bytes"] == 0
