"""The hub over loopback HTTP: SDK clients (SSE and streamable HTTP) → ``serve_http`` → real downstreams.

Every hub is the real uvicorn server on 127.0.0.1 with a free port; raw ``httpx`` requests probe
the security checks (Host, Origin, token, body size) and the health endpoints. The tests that only
need clients of a hub with the fixture and time servers share one for the module (its two servers
cost ~2.5 s of CPU to start); the tests of shutdown and of other configs start their own.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import IO, Any

import anyio
import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from hub.config import load_config
from hub.errors import ConfigError
from hub.serve.http import readiness, serve_http
from hub.serve.http_security import AccessPolicy, check, is_loopback, normalize_host, require_token_for
from tests.conftest import REPO, announced_url, children_of, fixture_server, text_of, write_config

pytestmark = pytest.mark.anyio

TOKEN = "test-token-0123456789abcdef"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@dataclass
class Hub:
    base: str
    service: Any
    stop: Callable[[], None]
    stopped: anyio.Event


@asynccontextmanager
async def running_hub(
    config: Path, errlog: IO[str], *, token: str | None = None, **options: Any
) -> AsyncIterator[Hub]:
    """``serve_http`` on 127.0.0.1 with a free port, over a fresh in-memory store; stopped on exit."""
    from hub.app import open_hub

    with open_hub(load_config(config), ephemeral=True, errlog=errlog) as service:
        async with anyio.create_task_group() as group:
            stopped = anyio.Event()
            scope = anyio.CancelScope()

            async def serve(*, task_status: Any) -> None:
                with scope:
                    await serve_http(
                        service, "http", "127.0.0.1", 0, token, task_status=task_status, **options
                    )
                stopped.set()

            with anyio.fail_after(10):
                port = await group.start(serve)
            try:
                yield Hub(f"http://127.0.0.1:{port}", service, scope.cancel, stopped)
            finally:
                scope.cancel()


@asynccontextmanager
async def mcp_session(hub: Hub, transport: str, *, token: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    if transport == "sse":
        async with (
            sse_client(f"{hub.base}/sse", headers=headers) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    else:
        async with (
            httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as client,
            streamable_http_client(f"{hub.base}/mcp", http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


@pytest.fixture
def devnull() -> Iterator[IO[str]]:
    with open(os.devnull, "w") as file:
        yield file


async def eventually(condition: Callable[[], bool]) -> None:
    """Poll ``condition`` (the caller bounds the wait with ``fail_after``)."""
    while not condition():  # noqa: ASYNC110 - the condition is a file another process writes
        await anyio.sleep(0.05)


def cancelled_tools(markers: Path) -> str:
    return "".join(path.read_text() for path in markers.glob("cancelled-*"))


@pytest.fixture
def markers(tmp_path: Path) -> Path:
    directory = tmp_path / "markers"
    directory.mkdir()
    return directory


def downstreams_config(directory: Path, markers: Path) -> Path:
    servers = {
        "fx": fixture_server("fx", env={"FIXTURE_MARKER_DIR": str(markers)}),
        "time": {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
    }
    return write_config(directory, servers)


@pytest.fixture
def downstreams(tmp_path: Path, markers: Path) -> Path:
    return downstreams_config(tmp_path, markers)


@dataclass
class Shared:
    """The module's hub (fixture and time servers) and the directory its fixture server marks
    cancelled calls in."""

    hub: Hub
    markers: Path


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``shared`` lives across the module's tests


@pytest.fixture(scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    directory = tmp_path_factory.mktemp("http")
    markers = directory / "markers"
    markers.mkdir()
    with open(os.devnull, "w") as errlog:
        async with running_hub(downstreams_config(directory, markers), errlog) as hub:
            yield Shared(hub, markers)


@pytest.fixture
def no_downstreams(tmp_path: Path) -> Path:
    return write_config(tmp_path, {})


# ---------------------------------------------------------------- MCP clients through the hub


async def test_sse_and_streamable_http_clients_share_one_downstream_pool(shared: Shared) -> None:
    with anyio.fail_after(30):
        async with mcp_session(shared.hub, "sse") as old, mcp_session(shared.hub, "http") as new:
            for session in (old, new):
                names = {tool.name for tool in (await session.list_tools()).tools}
                assert {"fx__echo", "fx__slow", "time__get_current_time", "doc_search"} <= names
            assert text_of(await old.call_tool("fx__echo", {"text": "from sse"})) == "from sse"
            assert text_of(await new.call_tool("fx__echo", {"text": "from http"})) == "from http"
            now = await new.call_tool("time__get_current_time", {"timezone": "UTC"})
            assert not now.is_error and "UTC" in text_of(now)
            pids = {text_of(await session.call_tool("fx__pid", {})) for session in (old, new)}
            assert len(pids) == 1  # one downstream process for every client


async def test_two_clients_call_at_once_without_waiting_for_each_other(shared: Shared) -> None:
    finished: list[str] = []
    with anyio.fail_after(30):
        async with mcp_session(shared.hub, "sse") as old, mcp_session(shared.hub, "http") as new:
            started = anyio.Event()

            async def progress(progress: float, total: float | None, message: str | None) -> None:
                started.set()

            async def slow() -> None:
                result = await old.call_tool(
                    "fx__slow", {"seconds": 1, "steps": 10}, progress_callback=progress
                )
                assert not result.is_error
                finished.append("slow")

            async with anyio.create_task_group() as group:
                group.start_soon(slow)
                await started.wait()
                assert text_of(await new.call_tool("fx__echo", {"text": "meanwhile"})) == "meanwhile"
                finished.append("echo")
    assert finished == ["echo", "slow"]


@pytest.mark.parametrize(
    "transport", [pytest.param("sse", id="sse"), pytest.param("http", id="streamable-http")]
)
async def test_a_client_that_disconnects_mid_call_leaves_the_hub_serving(
    shared: Shared, transport: str
) -> None:
    hub, markers = shared.hub, shared.markers
    cancelled_before = cancelled_tools(markers).count("slow")  # other tests' calls on the shared hub
    with anyio.fail_after(30):
        in_flight = anyio.Event()

        async def progress(progress: float, total: float | None, message: str | None) -> None:
            in_flight.set()

        async def abandoned_call() -> None:
            async with mcp_session(hub, transport) as session:
                await session.call_tool("fx__slow", {"seconds": 60, "steps": 600}, progress_callback=progress)

        async with anyio.create_task_group() as group:
            group.start_soon(abandoned_call)
            await in_flight.wait()
            group.cancel_scope.cancel()  # the client goes away with the call still running

        async with mcp_session(hub, "sse") as old, mcp_session(hub, "http") as new:
            assert text_of(await old.call_tool("fx__echo", {"text": "still here"})) == "still here"
            assert text_of(await new.call_tool("fx__echo", {"text": "me too"})) == "me too"
        if transport == "sse":  # the end of the SSE stream ends the session: its call is cancelled downstream
            await eventually(lambda: cancelled_tools(markers).count("slow") > cancelled_before)
        # A streamable-HTTP session outlives a dropped connection (the spec: a disconnect is not a
        # cancel), so that call runs on until it ends, the session expires or the hub shuts down.


async def test_shutdown_closes_clients_then_stops_downstreams(downstreams: Path, devnull: IO[str]) -> None:
    with anyio.fail_after(30):
        async with running_hub(downstreams, devnull) as hub:
            async with mcp_session(hub, "sse") as session:
                pid = int(text_of(await session.call_tool("fx__pid", {})))
                hub.stop()
                with anyio.fail_after(
                    4
                ):  # well under uvicorn's graceful timeout: streams were ended, not waited for
                    await hub.stopped.wait()
    assert not _alive(pid)


async def test_ctxhub_serve_over_http_stops_cleanly_on_sigterm(downstreams: Path) -> None:
    command = [sys.executable, "-m", "hub.cli", "serve", "--transport", "http", "--port", "0", "--config"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with anyio.fail_after(30):
        async with await anyio.open_process([*command, str(downstreams)], env=env, cwd=REPO) as process:
            assert process.stderr is not None
            base = (await announced_url(process.stderr, b"(SSE)")).removesuffix("/mcp")
            async with httpx.AsyncClient(base_url=base) as raw:
                while (await raw.get("/readyz")).json()["status"] != "ready":  # noqa: ASYNC110 - polls a server
                    await anyio.sleep(0.05)
            downstream_pids = children_of(process.pid)
            assert len(downstream_pids) >= 2
            process.send_signal(signal.SIGTERM)
            assert await process.wait() == 0
    assert not any(_alive(pid) for pid in downstream_pids)


# ---------------------------------------------------------------- security


async def test_a_non_loopback_bind_without_a_token_is_refused(no_downstreams: Path) -> None:
    from hub.app import open_hub

    with open_hub(load_config(no_downstreams), ephemeral=True) as service:
        with pytest.raises(
            ConfigError, match="binding 0.0.0.0 needs a bearer token: pass --token or set CTXHUB_TOKEN"
        ):
            await serve_http(service, "http", "0.0.0.0", 0, None)
        with pytest.raises(ConfigError, match="at least 16 printable"):
            await serve_http(service, "http", "127.0.0.1", 0, "short")
        with pytest.raises(ConfigError, match="'http' or 'sse'"):
            await serve_http(service, "websocket", "127.0.0.1", 0, None)


@pytest.mark.parametrize(
    ("host", "token", "refused"),
    [
        pytest.param("127.0.0.1", None, False, id="ipv4-loopback"),
        pytest.param("localhost", None, False, id="localhost"),
        pytest.param("::1", None, False, id="ipv6-loopback"),
        pytest.param("0.0.0.0", None, True, id="all-interfaces"),
        pytest.param("::", None, True, id="all-ipv6"),
        pytest.param("192.168.1.5", None, True, id="lan-address"),
        pytest.param("hub.example", None, True, id="a-name"),
        pytest.param("0.0.0.0", TOKEN, False, id="all-interfaces-with-token"),
    ],
)
def test_only_loopback_binds_go_without_a_token(host: str, token: str | None, refused: bool) -> None:
    if refused:
        with pytest.raises(ConfigError, match=f"binding {host} needs a bearer token"):
            require_token_for(host, token)
    else:
        require_token_for(host, token)
    assert is_loopback(host) == (host in ("127.0.0.1", "localhost", "::1"))


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        pytest.param({"host": "127.0.0.1:8765"}, None, id="loopback"),
        pytest.param({"host": "[::1]:8765"}, None, id="ipv6-loopback"),
        pytest.param({"host": "LOCALHOST"}, None, id="no-port-any-case"),
        pytest.param({"host": "ctxhub:8765"}, None, id="allowed-service-name"),
        pytest.param({"host": "evil.example:8765"}, 421, id="rebound-host"),
        pytest.param({}, 421, id="no-host"),
        pytest.param({"host": "localhost:1", "origin": "http://localhost:3000"}, None, id="local-origin"),
        pytest.param({"host": "localhost:1", "origin": "https://evil.example"}, 403, id="foreign-origin"),
        pytest.param({"host": "localhost:1", "origin": "null"}, 403, id="null-origin"),
    ],
)
def test_host_and_origin_are_checked_against_the_allow_list(
    headers: dict[str, str], status: int | None
) -> None:
    policy = AccessPolicy.build(token=None, allowed_hosts=["ctxhub"])
    rejection = check(policy, "/mcp", headers)
    assert (rejection.status if rejection else None) == status
    assert normalize_host("[::1]:8765") == "::1"


async def test_requests_without_the_bearer_token_get_401_and_with_it_200(
    no_downstreams: Path, devnull: IO[str]
) -> None:
    with anyio.fail_after(20):
        async with (
            running_hub(no_downstreams, devnull, token=TOKEN) as hub,
            httpx.AsyncClient(base_url=hub.base) as raw,
        ):
            for path, method in (("/mcp", "POST"), ("/sse", "GET"), ("/messages/?session_id=0", "POST")):
                response = await raw.request(method, path, json=INITIALIZE, headers=MCP_HEADERS)
                assert response.status_code == 401, path
                assert response.headers["www-authenticate"].startswith("Bearer")
            wrong = await raw.post(
                "/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "authorization": "Bearer nope"}
            )
            assert wrong.status_code == 401
            right = await raw.post(
                "/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "authorization": f"Bearer {TOKEN}"}
            )
            assert right.status_code == 200 and '"protocolVersion"' in right.text
            assert (await raw.get("/healthz")).status_code == 200  # probes need no token
            anonymous = (await raw.get("/readyz")).json()
            assert anonymous == {"status": "ready", "ready": 0, "total": 0}
            detailed = (await raw.get("/readyz", headers={"authorization": f"Bearer {TOKEN}"})).json()
            assert detailed["servers"] == {}
            for transport in ("sse", "http"):
                async with mcp_session(hub, transport, token=TOKEN) as session:
                    result = await session.call_tool("hub_status", {})
                    assert not result.is_error


async def test_bad_host_and_bad_origin_are_rejected_on_every_endpoint(
    no_downstreams: Path, devnull: IO[str]
) -> None:
    with anyio.fail_after(20):
        async with (
            running_hub(no_downstreams, devnull, allowed_hosts=["ctxhub"]) as hub,
            httpx.AsyncClient(base_url=hub.base) as raw,
        ):
            for path in ("/mcp", "/messages/?session_id=0", "/healthz"):
                method = "GET" if path == "/healthz" else "POST"
                rebound = await raw.request(
                    method, path, json=INITIALIZE, headers={**MCP_HEADERS, "host": "evil.example"}
                )
                assert rebound.status_code == 421, path
                assert "--allow-host evil.example" in rebound.json()["error"]
                foreign = await raw.request(
                    method, path, json=INITIALIZE, headers={**MCP_HEADERS, "origin": "https://evil.example"}
                )
                assert foreign.status_code == 403, path
            sse = await raw.get("/sse", headers={"origin": "http://evil.example:8765"})
            assert sse.status_code == 403
            named = await raw.post("/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "host": "ctxhub:8765"})
            assert named.status_code == 200  # an allowed extra name, e.g. a dev container's service
            local = await raw.post(
                "/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "origin": "http://localhost:5173"}
            )
            assert local.status_code == 200


async def test_an_oversized_body_gets_413_even_when_streamed_without_a_length(
    no_downstreams: Path, devnull: IO[str]
) -> None:
    limit = 64 * 1024
    big = b"x" * (limit + 1)

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(big), 8192):
            yield big[start : start + 8192]

    with anyio.fail_after(20):
        async with (
            running_hub(no_downstreams, devnull, max_body_bytes=limit) as hub,
            httpx.AsyncClient(base_url=hub.base) as raw,
        ):
            declared = await raw.post("/mcp", content=big, headers=MCP_HEADERS)
            assert declared.status_code == 413
            streamed = await raw.post("/mcp", content=chunks(), headers=MCP_HEADERS)
            assert "content-length" not in streamed.request.headers
            assert streamed.status_code == 413
            assert (await raw.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)).status_code == 200


# ---------------------------------------------------------------- health


async def test_readyz_reports_degraded_while_one_downstream_is_down(tmp_path: Path, devnull: IO[str]) -> None:
    config = write_config(
        tmp_path, {"fx": fixture_server("fx"), "broken": {"command": str(tmp_path / "missing")}}
    )
    with anyio.fail_after(20):
        async with running_hub(config, devnull) as hub, httpx.AsyncClient(base_url=hub.base) as raw:
            assert (await raw.get("/healthz")).json() == {"status": "alive"}
            while (response := await raw.get("/readyz")).json()["status"] == "starting":
                assert response.status_code == 503
                await anyio.sleep(0.05)
            assert response.status_code == 200
            assert response.json() == {
                "status": "degraded",
                "ready": 1,
                "total": 2,
                "servers": {"fx": "ready", "broken": "failed"},
            }


@pytest.mark.parametrize(
    ("states", "status"),
    [
        pytest.param([], "ready", id="no-downstreams"),
        pytest.param(["ready", "ready"], "ready", id="all-up"),
        pytest.param(["ready", "starting"], "starting", id="one-starting"),
        pytest.param(["ready", "failed"], "degraded", id="one-failed"),
        pytest.param(["restarting", "ready"], "degraded", id="one-restarting"),
        pytest.param(["failed", "restarting"], "down", id="none-up"),
    ],
)
def test_readiness_is_ready_when_all_are_up_and_degraded_while_some_are(
    states: list[str], status: str
) -> None:
    service = SimpleNamespace(
        pool=SimpleNamespace(downstreams={f"s{n}": SimpleNamespace(state=s) for n, s in enumerate(states)})
    )
    body = readiness(service, detail=False)  # type: ignore[arg-type]
    assert body["status"] == status and "servers" not in body


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][0] != "Z"
