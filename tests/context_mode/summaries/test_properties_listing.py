"""Key-value listings (``redis-cli INFO``, ``sysctl -a``) show every section and the keys of each in turns."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.shapes import is_properties
from context_mode.summaries import summarize
from context_mode.types import ContentKind

INFO = (Path(__file__).parents[2] / "data" / "redis-info-everything.txt").read_text(encoding="utf-8")


def test_redis_info_shows_every_section_with_its_first_keys() -> None:
    # Before: Markdown (its ``# Server`` lines as headings), 749 bytes of headings and one line
    # each, and nothing of most sections' keys.
    assert detect_kind(INFO, tool_name="info") is ContentKind.TEXT
    extract = summarize(INFO, ContentKind.TEXT, budget=1500)
    assert extract.outline == "properties: 215 keys in 13 sections"
    body = extract.text.splitlines()
    sections = [line.rstrip("\r") for line in INFO.splitlines() if line.startswith("# ")]
    assert all(section in body for section in sections)
    for first in ("redis_version:7.0.15", "connected_clients:1", "used_memory:1447624", "role:master"):
        assert first in body
    assert all(line in INFO for line in body if line != "…")


def test_grep_matches_urls_and_logs_are_no_key_value_listing() -> None:
    grep = [f"src/app/module{i}.py:{i * 3}:    value = compute({i})" for i in range(30)]
    urls = [f"https://example.org/page/{i}" for i in range(30)]
    log = [f"2026-12-02 10:00:{i:02d} INFO worker={i} started" for i in range(30)]
    assert not is_properties(grep)
    assert not is_properties(urls)
    assert not is_properties(log)
    assert is_properties([f"vm.setting_{i} = {i}" for i in range(30)])
