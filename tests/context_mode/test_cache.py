"""The dedupe cache: keys, TTL with an injected clock, read-only rules, invalidation after writes."""

from __future__ import annotations

import pytest

from context_mode.cache import CachedResult, ResultCache, call_key, is_read_only
from context_mode.toolnames import READ_WORDS, is_log_tool, tool_words

GLOBS = READ_WORDS


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def entry(namespace: str = "git", created: float = 1000.0) -> CachedResult:
    return CachedResult(
        tool="git__git_log",
        namespace=namespace,
        ref="r_1",
        stage1="s",
        mode="summary",
        original_bytes=10,
        created=created,
    )


def test_argument_order_does_not_change_the_key_but_values_do() -> None:
    assert call_key("t", {"a": 1, "b": [1, 2]}) == call_key("t", {"b": [1, 2], "a": 1})
    assert call_key("t", {"a": 1}) != call_key("t", {"a": 1.5})
    assert call_key("t", {"a": 1}) != call_key("t", {"a": True})
    assert call_key("t", {"a": 1}) != call_key("u", {"a": 1})
    assert call_key("t", None) == call_key("t", {})


def test_a_hit_at_299_seconds_and_a_miss_at_300() -> None:
    clock = Clock()
    cache = ResultCache(ttl=300, clock=clock)
    cache.put("k", entry())
    clock.now += 299
    assert cache.get("k") is not None
    clock.now += 1
    assert cache.get("k") is None
    assert (cache.hits, cache.misses) == (1, 1)


def test_the_cache_is_bounded() -> None:
    cache = ResultCache(ttl=300, maxsize=3, clock=Clock())
    for index in range(10):
        cache.put(str(index), entry())
    assert len(cache) == 3


def test_a_write_to_a_server_forgets_its_cached_reads_only() -> None:
    cache = ResultCache(ttl=300, clock=Clock())
    cache.put("a", entry("git"))
    cache.put("b", entry("time"))
    assert cache.forget_namespace("git") == 1
    assert cache.get("a") is None and cache.get("b") is not None


@pytest.mark.parametrize(
    ("tool", "read_only", "destructive", "override", "expected"),
    [
        pytest.param("git_log", None, None, None, True, id="name-glob"),
        pytest.param("get_current_time", None, None, None, True, id="get-glob"),
        pytest.param("write_note", None, None, None, False, id="write-is-not-cached"),
        pytest.param("run", True, None, None, True, id="read-only-hint"),
        pytest.param("read_and_delete", None, True, None, False, id="destructive-never"),
        pytest.param("list_things", True, True, True, False, id="destructive-beats-override"),
        pytest.param("get_x", None, None, False, False, id="config-override-off"),
        pytest.param("commit", None, None, True, True, id="config-override-on"),
        pytest.param("getUserLogs", None, None, None, True, id="camel-case-words"),
        pytest.param("git_show", None, None, None, True, id="word-after-namespace"),
        pytest.param("test_tool_with_logging", None, None, None, False, id="logging-is-not-log"),
        pytest.param("login", None, None, None, False, id="login-is-not-log"),
        pytest.param("target_deploy", None, None, None, False, id="target-is-not-get"),
        pytest.param("catalog_update", None, None, None, False, id="catalog-is-not-log"),
        pytest.param("get_or_create_user", None, None, None, False, id="mutating-word-wins"),
        pytest.param("run_search", None, None, None, False, id="run-is-mutating"),
        pytest.param("run_search", True, None, None, True, id="hint-beats-mutating-word"),
        pytest.param("db_readonly_view", None, None, None, True, id="whole-name-glob"),
    ],
)
def test_only_read_only_tools_are_cached(
    tool: str, read_only: bool | None, destructive: bool | None, override: bool | None, expected: bool
) -> None:
    assert (
        is_read_only(
            tool, read_only_hint=read_only, destructive_hint=destructive, globs=GLOBS, override=override
        )
        is expected
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("git__read_file", ["git", "read", "file"]),
        ("getUserLogs", ["get", "user", "logs"]),
        ("HTTPServerStatus", ["http", "server", "status"]),
        ("list-k8s.pods", ["list", "k", "8", "s", "pods"]),
        ("", []),
    ],
)
def test_tool_words(name: str, words: list[str]) -> None:
    assert tool_words(name) == words


def test_log_tools_are_named_by_whole_words() -> None:
    assert [
        n
        for n in ("read_log", "getBuildLogs", "logcat", "login", "catalog", "with_logging")
        if is_log_tool(n)
    ] == [
        "read_log",
        "getBuildLogs",
        "logcat",
    ]


def test_a_user_glob_still_matches_the_whole_name() -> None:
    assert is_read_only("db_readonly_x", read_only_hint=None, destructive_hint=None, globs=["*readonly*"])
