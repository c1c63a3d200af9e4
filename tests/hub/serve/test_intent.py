"""The ``intent`` argument: offered on every proxied tool, stripped before forwarding, aiming the summary."""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp.types as types
import pytest

from hub.serve.intent import DESCRIPTION, split_intent, with_intent
from tests.conftest import fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio


def _tool(properties: dict[str, object]) -> types.Tool:
    return types.Tool(name="t", input_schema={"type": "object", "properties": properties})


def test_intent_is_added_to_a_tool_without_one_and_stripped_before_forwarding() -> None:
    tool = _tool({"path": {"type": "string"}})
    offered = with_intent(tool, "intent")
    assert offered.input_schema["properties"]["intent"] == {"type": "string", "description": DESCRIPTION}
    assert "intent" not in tool.input_schema["properties"]  # the downstream's own tool is not changed
    forwarded, intent = split_intent({"path": "a.log", "intent": " failing test "}, tool, "intent")
    assert forwarded == {"path": "a.log"} and intent == "failing test"


def test_a_tool_with_its_own_intent_property_is_left_alone() -> None:
    tool = _tool({"intent": {"type": "integer"}})
    assert with_intent(tool, "intent") is tool
    assert split_intent({"intent": 3}, tool, "intent") == ({"intent": 3}, "")


def test_an_empty_intent_argument_name_turns_the_feature_off() -> None:
    tool = _tool({})
    assert with_intent(tool, "") is tool
    assert split_intent({"intent": "x"}, tool, "") == ({"intent": "x"}, "")


async def test_intent_aims_the_summary_of_a_big_result_through_ctxhub_serve(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    with anyio.fail_after(60):
        async with hub_client(config) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert "intent" in tools["fx__big"].input_schema["properties"]
            assert tools["fx__own_intent"].input_schema["properties"]["intent"]["type"] == "string"
            assert "description" not in tools["fx__own_intent"].input_schema["properties"]["intent"]
            plain = text_of(await client.call_tool("fx__big", {"kb": 200}))
            aimed = text_of(await client.call_tool("fx__big", {"kb": 200, "intent": "test_y assertion"}))
            own = text_of(await client.call_tool("fx__own_intent", {"intent": "kept"}))
    assert "== matching the intent ==" not in plain
    assert "== matching the intent ==" in aimed
    matched = aimed.split("== matching the intent ==", 1)[1].split("== summary ==", 1)[0]
    assert "test_y" in matched
    assert own == "own intent: kept"
