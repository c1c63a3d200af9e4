"""The hub's own secrets stay in the hub: a downstream sees CTXHUB_TOKEN only when its config passes it."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.conftest import fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio
TOKEN = "Zt3q8vK1-hub-bearer-token-xYw9pL2m"


async def test_downstreams_do_not_inherit_the_hub_token_unless_their_env_passes_it(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {
            "plain": fixture_server("plain"),
            "given": fixture_server("given", env={"CTXHUB_TOKEN": "${CTXHUB_TOKEN}"}),
        },
    )
    hub_env = {"CTXHUB_TOKEN": TOKEN, "CTXHUB_LLM_API_KEY": "sk-hub-secret", "CTXHUB_LOG_LEVEL": "WARNING"}
    with anyio.fail_after(60):
        async with hub_client(config, env=hub_env) as session:

            async def env(server: str, name: str) -> str:
                result = await session.call_tool(f"{server}__env", {"name": name})
                assert not result.is_error, text_of(result)
                return text_of(result)

            assert await env("plain", "CTXHUB_TOKEN") == ""
            assert await env("plain", "CTXHUB_LLM_API_KEY") == ""
            assert await env("plain", "CTXHUB_LOG_LEVEL") == "WARNING"  # not a secret: inherited
            assert await env("plain", "PATH") != ""
            assert await env("given", "CTXHUB_TOKEN") == TOKEN
            assert await env("given", "CTXHUB_LLM_API_KEY") == ""
