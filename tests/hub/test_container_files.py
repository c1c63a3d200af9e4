"""The container image and its docs, checked without a container engine (none runs on the CI machines).

What can be checked here: the image's config (spill into the bind-mounted workspace), the
Dockerfile's command line, user and environment, the compose health check, the banner for a
wildcard bind, that the docs' recipes need nothing from this repository, and that a spill
directory the container user cannot write costs only the spill location.
"""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import pytest

from hub.config import load_config
from hub.serve.http import _announce
from tests.conftest import REPO, fixture_server, hub_client, text_of, write_config

DOCKERFILE = (REPO / "Dockerfile").read_text()


def _instructions(name: str) -> list[str]:
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(f"{name} ")]


def test_the_image_config_spills_into_the_bind_mounted_workspace() -> None:
    env = " ".join(_instructions("ENV"))
    assert "CTXHUB_CONFIG=/etc/ctxhub/config.yaml" in env
    assert "CTXHUB_SPILL_DIR=/workspace/.ctxhub/spill" in env and "CTXHUB_WORKSPACE=/workspace" in env
    copied = [line.split() for line in _instructions("COPY") if line.endswith("/etc/ctxhub/config.yaml")]
    assert copied and (REPO / copied[0][0]).is_file()
    config = load_config(
        REPO / copied[0][0],
        environ={"CTXHUB_SPILL_DIR": "/workspace/.ctxhub/spill", "CTXHUB_WORKSPACE": "/workspace"},
    )
    assert config.store.spill_dir == "/workspace/.ctxhub/spill"
    assert _instructions("VOLUME") == ['["/data"]'] and config.store.path == "/data/store"
    assert _instructions("USER") == ["ctxhub"]
    assert _instructions("CMD") == ['["serve", "--transport", "http", "--host", "0.0.0.0", "--port", "8765"]']


def test_the_last_docker_recipe_needs_no_file_from_this_repository() -> None:
    docs = (REPO / "docs" / "dev-containers.md").read_text()
    recipe = re.findall(r"```bash\n(.*?)```", docs, re.S)[-1]
    assert "docker run" in recipe
    assert ".devcontainer" not in recipe and "ctxhub.yaml" not in recipe


def test_podman_users_get_a_health_check_too() -> None:
    compose = (REPO / ".devcontainer" / "docker-compose.yml").read_text()
    hub_service = compose.split("\n  ctxhub:", 1)[1]
    assert "healthcheck:" in hub_service and "/healthz" in hub_service
    assert (
        "--format docker" in DOCKERFILE
        and "--format docker" in (REPO / "docs" / "dev-containers.md").read_text()
    )


@pytest.mark.parametrize(
    ("host", "bound"),
    [
        pytest.param("0.0.0.0", "listening on 0.0.0.0:8765 (all interfaces)", id="ipv4-any"),
        pytest.param("::", "listening on [::]:8765 (all interfaces)", id="ipv6-any"),
    ],
)
def test_the_banner_says_the_address_really_bound(
    host: str, bound: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _announce(host, 8765, "t")
    line = capsys.readouterr().err
    assert bound in line and "from this machine http://127.0.0.1:8765/mcp" in line
    assert not line.startswith("ctxhub: serving MCP at http://127.0.0.1")


@pytest.mark.anyio
async def test_a_spill_dir_the_hub_cannot_write_costs_only_the_spill_location(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the bind-mounted spill directory should be")
    store = tmp_path / "store"
    config = write_config(
        tmp_path,
        {"fixture": fixture_server("fixture")},
        store={"path": str(store), "spill_dir": str(blocker / "spill")},
    )
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            big = await session.call_tool("fixture__big", {"kb": 40, "kind": "log"})
            status = text_of(await session.call_tool("hub_status", {}))
    assert f"store.spill_dir {blocker / 'spill'} is not usable" in status
    assert f"store at {store}\n" in status and not list(tmp_path.glob("store.damaged-*"))
    assert f"Full text: {store / 'spill'}/r_" in text_of(big)
