"""config.yaml parsing: shapes accepted, expansion, and errors that name the key path and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.types import OutputStyle
from hub.config import DEFAULT_CONFIG, load_config, parse_config
from hub.errors import ConfigError


def test_the_bundled_default_config_is_valid_and_runs_three_servers() -> None:
    config = load_config(DEFAULT_CONFIG)
    assert sorted(config.active_servers()) == ["git", "time", "workspace"]
    assert config.routing.direct_max_bytes == 2048
    assert config.cache.ttl == 300


def test_a_claude_code_mcp_json_block_pastes_in_unchanged() -> None:
    block = {
        "mcpServers": {
            "github": {"type": "http", "url": "https://example.invalid/mcp", "headers": {"X": "1"}},
            "legacy": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
            "files": {"command": "npx", "args": ["-y", "server"], "env": {"A": "b"}},
        }
    }
    config = parse_config(block)
    assert config.servers["github"].kind == "http"
    assert config.servers["legacy"].kind == "sse"
    assert config.servers["files"].kind == "stdio"


def test_variables_expand_with_defaults() -> None:
    raw = {"servers": {"a": {"command": "${TOOL}", "args": ["${MISSING:-fallback}", "x${TOOL}y"]}}}
    config = parse_config(raw, environ={"TOOL": "run"})
    assert config.servers["a"].command == "run"
    assert config.servers["a"].args == ["fallback", "xruny"]


def test_an_unset_variable_names_the_key_path_and_the_fix() -> None:
    with pytest.raises(
        ConfigError, match=r"servers\.a\.env\.TOKEN: \$\{GH_TOKEN\} is not set \(export GH_TOKEN"
    ):
        parse_config({"servers": {"a": {"command": "x", "env": {"TOKEN": "${GH_TOKEN}"}}}}, environ={})


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(
            {"servers": {"a": {"command": "x", "timout": 3}}},
            r"cfg\.yaml: servers\.a\.timout: unknown key \(remove it or use one of: args, budget, command",
            id="misspelt-server-key",
        ),
        pytest.param(
            {"servers": {"a": {"command": "x", "timeout": "soon"}}},
            r"servers\.a\.timeout: 'soon' is not valid",
            id="bad-number",
        ),
        pytest.param(
            {"servers": {"a": {"command": "x", "timeout": -1}}},
            r"servers\.a\.timeout: -1 is not valid",
            id="negative-timeout",
        ),
        pytest.param(
            {"servers": {"a": {"args": ["x"]}}},
            r"servers\.a: .*give either 'command'",
            id="neither-command-nor-url",
        ),
        pytest.param(
            {"servers": {"a": {"command": "x", "tools": {"get_*": {"mode": "loud"}}}}},
            r"servers\.a\.tools\.get_\*\.mode: 'LOUD' is not valid",
            id="bad-mode",
        ),
        pytest.param(
            {"routing": {"summary_bytes": 3}},
            r"routing\.summary_bytes: unknown key .*summary_budget",
            id="unknown-routing-key",
        ),
        pytest.param(
            {"servers": {"a__b": {"command": "x"}}}, r"must not contain '__'", id="separator-in-name"
        ),
        pytest.param(
            {"servers": {"a": {"url": "http://h/mcp", "type": "stdio"}}},
            r"needs transport 'http' or 'sse'",
            id="url-with-stdio",
        ),
        pytest.param(["not", "a", "mapping"], r"the top level must be a mapping", id="top-level-list"),
    ],
)
def test_bad_config_is_rejected_with_file_key_and_fix(raw: object, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        parse_config(raw, source="cfg.yaml")


def test_tool_modes_are_case_insensitive() -> None:
    config = parse_config({"servers": {"a": {"command": "x", "tools": {"*log*": {"mode": "summary"}}}}})
    assert config.servers["a"].tools["*log*"].mode is OutputStyle.SUMMARY


def test_missing_file_and_bad_yaml_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("servers: [unclosed\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_config(bad)
