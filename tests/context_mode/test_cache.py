"""The dedupe cache: keys, TTL with an injected clock, read-only rules, invalidation after writes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from context_mode.cache import CachedResult, Changed, ResultCache, Unchanged, call_key, is_read_only
from context_mode.delta import apply_lines, digest
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
        pytest.param("get_and_bump", False, None, None, False, id="read-only-hint-false-beats-the-name"),
        pytest.param("get_and_bump", False, None, True, True, id="config-override-beats-the-hint"),
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


def test_the_same_call_in_two_sessions_has_two_keys() -> None:
    assert call_key("t", {"a": 1}, session="c1") != call_key("t", {"a": 1}, session="c2")


def test_a_read_looked_up_before_a_write_is_neither_compared_nor_kept() -> None:
    cache = ResultCache(ttl=300, clock=Clock())
    before = cache.lookup("k", "git")
    cache.invalidate("git")  # a write was sent meanwhile
    assert cache.compare(before, digest="d", text="x", max_delta_bytes=4096) is None
    assert cache.settle(before, entry(), text="x") is False
    assert cache.get("k") is None
    after = cache.lookup("k", "git")
    assert cache.settle(after, entry(), text="x") is True


def test_a_previous_entry_whose_ref_was_evicted_makes_a_first_call() -> None:
    cache = ResultCache(ttl=300, clock=Clock())
    cache.put("k", entry())
    assert cache.lookup("k", "git", holds=lambda ref: False).previous is None
    assert cache.lookup("k", "git").previous is None  # and it is gone for good


def test_an_unchanged_result_is_unchanged_and_a_small_change_is_a_delta() -> None:
    cache = ResultCache(ttl=300, clock=Clock())
    text = "".join(f"line {number}\n" for number in range(100))
    cache.put("k", replace(entry(), digest=digest(text)), text=text)
    same = cache.compare(cache.lookup("k", "git"), digest=digest(text), text=text, max_delta_bytes=4096)
    grown = text + "line 100\n"
    changed = cache.compare(cache.lookup("k", "git"), digest=digest(grown), text=grown, max_delta_bytes=4096)
    assert isinstance(same, Unchanged)
    assert isinstance(changed, Changed) and apply_lines(text, changed.delta.text) == grown


def test_texts_beyond_the_budget_are_dropped_and_then_compared_by_hash_only() -> None:
    cache = ResultCache(ttl=300, clock=Clock(), max_text_chars=1000)
    cache.put("a", entry(), text="a" * 600)
    cache.put("b", entry(), text="b" * 600)
    assert cache.text("a") is None and cache.text("b") == "b" * 600
    assert cache.get("a") is not None
