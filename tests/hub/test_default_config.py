"""One default: the packaged config and the repository's config.yaml are the same bytes, and their
read-only rule is the README's whole-word one; the per-tool cache setting says off, verify or trust."""

from __future__ import annotations

import pytest

from context_mode.cache import is_read_only
from hub.config import DEFAULT_CONFIG, load_config, parse_config
from hub.errors import ConfigError
from tests.conftest import REPO

WRITES_WITH_READ_ISH_NAMES = [
    "thread_reply",
    "catalog_purge",
    "budget_increase",
    "unlist_item",
    "blogpost_publish",
]
READS = ["read_file", "git_status", "get_current_time", "search_code", "list_tools", "read_log", "git_diff"]


def test_the_packaged_default_is_the_repository_config_byte_for_byte() -> None:
    assert DEFAULT_CONFIG.read_bytes() == (REPO / "config.yaml").read_bytes()


@pytest.mark.parametrize("tool", WRITES_WITH_READ_ISH_NAMES)
def test_writes_whose_names_hold_read_ish_substrings_are_not_read_only_by_the_packaged_default(
    tool: str,
) -> None:
    globs = load_config(DEFAULT_CONFIG).cache.read_only
    assert not is_read_only(tool, read_only_hint=None, destructive_hint=None, globs=globs)


@pytest.mark.parametrize("tool", READS)
def test_reads_are_read_only_by_the_packaged_default(tool: str) -> None:
    globs = load_config(DEFAULT_CONFIG).cache.read_only
    assert is_read_only(tool, read_only_hint=None, destructive_hint=None, globs=globs)


def test_the_packaged_default_verifies_repeats() -> None:
    cache = load_config(DEFAULT_CONFIG).cache
    assert (cache.mode, cache.delta_max_bytes) == ("verify", 4096)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(True, True, id="true"),
        pytest.param(False, False, id="false"),
        pytest.param("off", False, id="off"),
        pytest.param("verify", "verify", id="verify"),
        pytest.param("trust", "trust", id="trust"),
    ],
)
def test_a_tool_cache_setting_is_a_boolean_or_a_mode(value: object, expected: object) -> None:
    raw = {"servers": {"a": {"command": "x", "tools": {"get_*": {"cache": value}}}}}
    assert parse_config(raw).servers["a"].tools["get_*"].cache == expected


def test_an_unknown_cache_mode_names_the_key_and_the_choices() -> None:
    with pytest.raises(ConfigError, match=r"cache\.mode.*'verify' or 'trust'"):
        parse_config({"cache": {"mode": "sometimes"}})
