"""``ctxhub config claude|cursor``: settings blocks with absolute paths, merged keeping other entries."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hub.cli import main
from hub.client_config import settings_block, url_for, write_settings
from hub.errors import ConfigError


def test_the_stdio_block_runs_this_hub_with_absolute_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text("servers: {}\n")
    block = settings_block("claude", "stdio", config_path=Path("config.yaml"))
    entry = block["mcpServers"]["ctxhub"]
    assert entry["type"] == "stdio"
    assert Path(entry["command"]).is_absolute()
    assert entry["args"][-3:] == ["serve", "--config", str(tmp_path / "config.yaml")]
    if entry["command"] == sys.executable:  # not installed: the source tree goes on PYTHONPATH
        assert entry["args"][:2] == ["-m", "hub.cli"]
        assert (Path(entry["env"]["PYTHONPATH"]) / "hub" / "cli.py").is_file()
    cursor = settings_block("cursor", "stdio", config_path=None)["mcpServers"]["ctxhub"]
    assert "type" not in cursor and cursor["args"][-1] == "serve"


@pytest.mark.parametrize(
    ("client", "transport", "expected"),
    [
        pytest.param(
            "claude",
            "sse",
            {
                "type": "sse",
                "url": "http://127.0.0.1:8765/sse",
                "headers": {"Authorization": "Bearer ${CTXHUB_TOKEN}"},
            },
            id="claude-sse",
        ),
        pytest.param(
            "claude",
            "http",
            {
                "type": "http",
                "url": "http://127.0.0.1:8765/mcp",
                "headers": {"Authorization": "Bearer ${CTXHUB_TOKEN}"},
            },
            id="claude-http",
        ),
        pytest.param(
            "cursor",
            "http",
            {"url": "http://127.0.0.1:8765/mcp", "headers": {"Authorization": "Bearer ${env:CTXHUB_TOKEN}"}},
            id="cursor-http",
        ),
    ],
)
def test_http_blocks_name_the_token_variable_never_the_token(
    client: str, transport: str, expected: dict[str, Any]
) -> None:
    block = settings_block(client, transport, config_path=None)  # type: ignore[arg-type]
    assert block == {"mcpServers": {"ctxhub": expected}}


def test_a_wildcard_bind_is_reached_through_loopback_and_ipv6_is_bracketed() -> None:
    assert url_for("http", "0.0.0.0", 9000) == "http://127.0.0.1:9000/mcp"
    assert url_for("sse", "::1", 9000) == "http://[::1]:9000/sse"
    entry = settings_block("claude", "http", config_path=None, host="hub.local", port=1, token_env=None)
    assert entry == {"mcpServers": {"ctxhub": {"type": "http", "url": "http://hub.local:1/mcp"}}}


@pytest.mark.parametrize(
    ("client", "relative"),
    [
        pytest.param("claude", ".mcp.json", id="claude"),
        pytest.param("cursor", ".cursor/mcp.json", id="cursor"),
    ],
)
def test_writing_merges_into_the_clients_file_keeping_other_entries(
    tmp_path: Path, client: str, relative: str
) -> None:
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"mcpServers": {"other": {"command": "x"}, "ctxhub": {"url": "old"}}, "extra": 1})
    )
    block = settings_block(client, "http", config_path=None)  # type: ignore[arg-type]
    assert write_settings(client, block, tmp_path) == path  # type: ignore[arg-type]
    written = json.loads(path.read_text())
    assert written["extra"] == 1
    assert written["mcpServers"]["other"] == {"command": "x"}
    assert written["mcpServers"]["ctxhub"] == block["mcpServers"]["ctxhub"]
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_writing_creates_the_file_and_refuses_one_that_is_not_an_object(tmp_path: Path) -> None:
    block = settings_block("cursor", "sse", config_path=None)
    path = write_settings("cursor", block, tmp_path)
    assert json.loads(path.read_text()) == block
    (tmp_path / ".mcp.json").write_text("[1, 2]")
    with pytest.raises(ConfigError, match="not a JSON object"):
        write_settings("claude", block, tmp_path)
    assert (tmp_path / ".mcp.json").read_text() == "[1, 2]"


def test_the_cli_prints_the_block_or_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["config", "cursor", "--transport", "sse", "--port", "9001"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["mcpServers"]["ctxhub"]["url"] == "http://127.0.0.1:9001/sse"
    assert main(["config", "claude", "--transport", "http", "--write"]) == 0
    assert str(tmp_path / ".mcp.json") in capsys.readouterr().out
    written = json.loads((tmp_path / ".mcp.json").read_text())
    assert written["mcpServers"]["ctxhub"]["type"] == "http"
