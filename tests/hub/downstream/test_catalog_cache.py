"""``hub.downstream.catalog_cache``: the last run's tool lists, keyed by each server's config fingerprint."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest

from hub.config import HubConfig, ServerConfig
from hub.downstream.catalog_cache import FILE_NAME, ToolCache, fingerprint, warm_servers

SERVER = ServerConfig(command="python", args=["-m", "server"], env={"A": "1"})
TOOLS = [
    types.Tool(name="echo", description="Echo.", input_schema={"type": "object"}, _meta={"vendor/x": 1}),
    types.Tool(name="add", input_schema={"type": "object", "properties": {"a": {"type": "integer"}}}),
]


def saved(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_a_remembered_list_comes_back_identical_for_the_same_config(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    ToolCache.load(path).remember("fx", SERVER, TOOLS)
    loaded = ToolCache.load(path).tools_for("fx", SERVER)
    assert loaded == TOOLS
    assert [tool.meta for tool in loaded or []] == [{"vendor/x": 1}, None]


@pytest.mark.parametrize(
    "changed",
    [
        pytest.param({"args": ["-m", "other"]}, id="args"),
        pytest.param({"env": {"A": "2"}}, id="env"),
        pytest.param({"command": "python3"}, id="command"),
        pytest.param({"cwd": "/tmp"}, id="cwd"),
    ],
)
def test_a_changed_server_config_misses_the_cache(tmp_path: Path, changed: dict[str, Any]) -> None:
    path = tmp_path / FILE_NAME
    ToolCache.load(path).remember("fx", SERVER, TOOLS)
    assert ToolCache.load(path).tools_for("fx", SERVER.model_copy(update=changed)) is None


def test_timeouts_and_tool_settings_do_not_change_the_fingerprint() -> None:
    relaxed = SERVER.model_copy(update={"timeout": 5.0, "startup_timeout": 9.0, "restart_delay": 2.0})
    assert fingerprint(relaxed) == fingerprint(SERVER)


def test_the_file_is_rewritten_only_when_a_list_changes(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    cache = ToolCache.load(path)
    cache.remember("fx", SERVER, TOOLS)
    written = path.stat().st_ino  # every write renames a new file over the old one
    cache.remember("fx", SERVER, list(TOOLS))
    assert path.stat().st_ino == written
    cache.remember("fx", SERVER, TOOLS[:1])
    assert path.stat().st_ino != written
    assert [tool["name"] for tool in saved(path)["servers"]["fx"]["tools"]] == ["echo"]
    assert not list(tmp_path.glob(".*.tmp"))


def test_forgetting_a_server_drops_only_its_entry(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    cache = ToolCache.load(path)
    cache.remember("fx", SERVER, TOOLS)
    cache.remember("other", SERVER, TOOLS)
    cache.forget("fx")
    assert set(saved(path)["servers"]) == {"other"}


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("{not json", id="not-json"),
        pytest.param("[1, 2]", id="a-list"),
        pytest.param('{"version": 99, "servers": {}}', id="another-version"),
        pytest.param('{"version": 1, "servers": []}', id="servers-not-a-map"),
        pytest.param("\udcff", id="not-utf8"),
    ],
)
def test_a_corrupt_file_is_ignored_with_a_warning(
    tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    with caplog.at_level(logging.WARNING, logger="ctxhub.catalog_cache"):
        cache = ToolCache.load(path)
    assert cache.tools_for("fx", SERVER) is None
    assert "ignoring the tool cache" in caplog.text and str(path) in caplog.text
    cache.remember("fx", SERVER, TOOLS)  # and the next live list repairs it
    assert ToolCache.load(path).tools_for("fx", SERVER) == TOOLS


@pytest.mark.parametrize(
    "tools",
    [
        pytest.param({"echo": {}}, id="tools-not-a-list"),
        pytest.param([{"description": "no name"}], id="tool-without-name"),
        pytest.param([{"name": "x", "inputSchema": "nope"}], id="bad-schema"),
    ],
)
def test_an_entry_that_does_not_validate_is_ignored_with_a_warning(
    tmp_path: Path, tools: Any, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / FILE_NAME
    entry = {"config": fingerprint(SERVER), "tools": tools}
    path.write_text(json.dumps({"version": 1, "servers": {"fx": entry}}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="ctxhub.catalog_cache"):
        assert ToolCache.load(path).tools_for("fx", SERVER) is None
    assert "ignoring the cached tools of fx" in caplog.text


def test_an_unwritable_cache_is_logged_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = ToolCache.load(tmp_path / "missing-directory" / FILE_NAME)
    with caplog.at_level(logging.WARNING, logger="ctxhub.catalog_cache"):
        cache.remember("fx", SERVER, TOOLS)
        cache.remember("fx", SERVER, TOOLS[:1])
    assert caplog.text.count("could not write the tool cache") == 1


def test_warm_servers_names_the_servers_whose_config_matches(tmp_path: Path) -> None:
    config = HubConfig.model_validate(
        {
            "servers": {
                "fx": SERVER.model_dump(by_alias=True, exclude_none=True),
                "new": {"command": "python", "args": ["-m", "new"]},
            },
            "store": {"path": str(tmp_path)},
        }
    )
    assert warm_servers(config) == set()
    ToolCache.load(tmp_path / FILE_NAME).remember("fx", config.servers["fx"], TOOLS)
    assert warm_servers(config) == {"fx"}
    (tmp_path / FILE_NAME).write_text("{broken", encoding="utf-8")
    assert warm_servers(config) == set()
