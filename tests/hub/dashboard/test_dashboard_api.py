"""The dashboard's JSON endpoints and pages against real stores, after real calls through ``ctxhub serve``.

Calls go from an SDK client through ``ctxhub serve`` (stdio) or ``serve_http`` (loopback HTTP) to
the fixture server; the dashboard then reads the store directory that hub owns (read-only, as
``ctxhub dashboard`` does), or serves itself on the HTTP hub behind its token and Host rules.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from hub.config import load_config
from hub.dashboard import StoreDirSource, build_dashboard_app, sources_for
from tests.conftest import fixture_server, hub_client, write_config

pytestmark = pytest.mark.anyio

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'
TOKEN = "dashboard-token-0123456789"


@asynccontextmanager
async def mcp_over_http(url: str) -> AsyncIterator[Any]:
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def dashboard(config: Path, *more: Any) -> AsyncIterator[httpx.AsyncClient]:
    """``ctxhub dashboard``'s app over the config's stores (and ``more``), read-only, driven in-process."""
    app = build_dashboard_app([*sources_for(load_config(config)), *more])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8766") as client:
        yield client


async def make_calls(session: Any) -> dict[str, Any]:
    """An echo of a hostile text, a big log (summary), its repeat, a failure; the log's ref read back."""
    await session.call_tool("fx__echo", {"text": XSS})
    big = await session.call_tool("fx__big", {"kb": 40})
    await session.call_tool("fx__big", {"kb": 40})
    await session.call_tool("fx__fail", {"message": "the disk is on fire"})
    route = big.meta["ctxhub/route"]
    await session.call_tool("doc_window", {"ref": route["ref"]})  # indexes the ref: the reader sees it
    await session.call_tool("context_append", {"session_id": "s1", "text": "must keep the API stable"})
    return route


async def test_the_endpoints_show_the_calls_just_made_while_the_hub_owns_the_store(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    async with hub_client(config) as session:
        route = await make_calls(session)
        async with dashboard(config) as client:
            calls = (await client.get("/dashboard/api/calls")).json()
            assert [call["tool"] for call in calls["calls"]] == [
                "context_append", "doc_window", "fx__fail", "fx__big", "fx__big", "fx__echo",
            ]  # fmt: skip
            by_tool = {call["tool"]: call for call in calls["calls"]}  # the oldest of each tool
            first_big = by_tool["fx__big"]
            assert first_big["mode"] == "summary" and first_big["ref"] == route["ref"]
            assert first_big["bytes_in"] == route["original_bytes"] > first_big["bytes_out"]
            repeat = calls["calls"][3]
            assert repeat["mode"] == "repeat" and repeat["cache_hit"]
            assert by_tool["fx__fail"]["is_error"] and by_tool["fx__fail"]["server"] == "fx"
            assert "stage1" not in first_big  # the list stays small; the text is in the detail

            detail = (await client.get(f"/dashboard/api/calls/{first_big['seq']}")).json()
            assert detail["call"]["stage1"].startswith("[ctxhub summary of fx__big")
            payload = detail["payload"]
            assert payload["available"] and payload["total_lines"] > 400
            kept = [line["text"] for line in payload["lines"] if line["kept"]]
            assert any("FAILED tests/test_x.py::test_y" in line for line in kept)
            assert 0 < len(kept) < payload["total_lines"] / 4

            overview = (await client.get("/dashboard/api/overview")).json()
            assert overview["totals"]["calls"] == 6
            assert overview["totals"]["bytes_saved"] > 0 and overview["totals"]["tokens_saved"] > 0
            assert overview["series"]["points"] and overview["modes"]["summary"]["calls"] == 1
            assert overview["tools"][0]["tool"] == "fx__big"

            store = (await client.get("/dashboard/api/store")).json()
            assert [ref["ref"] for ref in store["refs"]] == [route["ref"]]
            assert store["refs"][0]["kind"] == "log" and store["refs"][0]["last_call"] is not None
            assert 0 < store["disk_bytes"] and store["max_bytes"] == 512 * 2**20

            found = (await client.get("/dashboard/api/search", params={"q": "AssertionError"})).json()
            assert found["error"] is None and route["ref"] in found["answer"]
            assert (await client.get("/dashboard/api/search")).status_code == 400

            servers = (await client.get("/dashboard/api/servers")).json()
            assert servers["servers"][0]["name"] == "fx" and servers["servers"][0]["state"] == "ready"
            assert "echo" in servers["servers"][0]["tools"]
            assert servers["error_calls"]["fx"][0]["tool"] == "fx__fail"

            memory = (await client.get("/dashboard/api/memory")).json()
            assert [item["session"] for item in memory["sessions"]] == ["s1"]
            assert memory["sessions"][0]["protected"] == 1  # "must" is a protected keyword


async def test_pages_escape_payload_text_and_bad_parameters_are_named(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    async with hub_client(config) as session:
        await make_calls(session)
    other = tmp_path / "store-2"
    other.mkdir()  # a sibling store no hub has written yet
    sibling = StoreDirSource(other, label="store-2", memory=None, max_bytes=2**20)
    async with dashboard(config, sibling) as client:  # after the hub exited: the files it left
        stores = (await client.get("/dashboard/api/stores")).json()["stores"]
        assert [store["label"] for store in stores] == ["store", "store-2"]
        empty = (await client.get("/dashboard/api/store", params={"store": "store-2"})).json()
        assert empty["refs"] == [] and "no store at" in empty["problem"]
        assert (await client.get("/dashboard/api/calls", params={"store": "store-2"})).json()["total"] == 0
        chooser = (await client.get("/dashboard/calls", params={"store": "store-2"})).text
        assert 'id="store-select"' in chooser or "id=store-select" in chooser
        assert "store=store-2" in chooser  # links keep the chosen store
        page = await client.get("/dashboard")
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert "<script>alert" not in page.text and "onerror=alert" not in page.text.replace("&", "")
        echo = (await client.get("/dashboard/api/calls", params={"tool": "fx__echo"})).json()["calls"][0]
        detail = await client.get(f"/dashboard/calls/{echo['seq']}")
        escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
        assert escaped in detail.text
        assert "<script>alert" not in detail.text and "<img src=x" not in detail.text
        bad = await client.get("/dashboard/api/calls", params={"page": "two"})
        assert bad.status_code == 400 and "'page'" in bad.json()["error"]
        assert (await client.get("/dashboard/api/calls/999")).status_code == 404
        unknown = await client.get("/dashboard/api/calls", params={"store": "nope"})
        assert unknown.status_code == 400 and "store" in unknown.json()["error"]
        servers = (await client.get("/dashboard/api/servers")).json()
        assert servers["hub_running"] is False and servers["servers"][0]["name"] == "fx"
        rebound = await client.get("/dashboard", headers={"host": "evil.example"})
        assert rebound.status_code == 421  # DNS rebinding: only loopback Host names


async def test_the_http_hub_serves_the_dashboard_behind_its_token_with_a_cookie(tmp_path: Path) -> None:
    from hub.app import open_hub
    from hub.serve import serve_http

    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    with open(os.devnull, "w") as devnull, open_hub(load_config(config), errlog=devnull) as service:
        async with anyio.create_task_group() as group:
            scope = anyio.CancelScope()

            async def serve(*, task_status: Any) -> None:
                with scope:
                    await serve_http(service, "http", "127.0.0.1", 0, TOKEN, task_status=task_status)

            with anyio.fail_after(30):
                port = await group.start(serve)
            base = f"http://127.0.0.1:{port}"
            try:
                with anyio.fail_after(60):
                    async with mcp_over_http(f"{base}/mcp") as session:
                        await session.call_tool("fx__echo", {"text": XSS})
                        await session.call_tool("fx__big", {"kb": 40})
                async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                    assert (await client.get("/dashboard")).status_code == 401
                    assert (await client.get("/dashboard", params={"token": "wrong" * 5})).status_code == 401
                    login = await client.get("/dashboard/calls", params={"token": TOKEN, "page": "1"})
                    assert login.status_code == 303 and login.headers["location"] == "/dashboard/calls?page=1"
                    cookie = login.headers["set-cookie"]
                    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
                    assert "Path=/dashboard" in cookie
                    page = await client.get("/dashboard/calls")  # the client kept the cookie
                    assert page.status_code == 200 and "fx__big" in page.text
                    assert (await client.get("/mcp")).status_code == 401  # the cookie opens only /dashboard
                    bearer = {"authorization": f"Bearer {TOKEN}"}
                    async with httpx.AsyncClient(base_url=base, headers=bearer, timeout=30) as api:
                        calls = (await api.get("/dashboard/api/calls")).json()["calls"]
                        assert [call["tool"] for call in calls] == ["fx__big", "fx__echo"]
                        assert calls[0]["mode"] == "summary"
                        servers = (await api.get("/dashboard/api/servers")).json()["servers"]
                        assert servers[0]["state"] == "ready"
            finally:
                scope.cancel()
