"""Key-value listings (``redis-cli INFO``, ``sysctl -a``) show every section and the keys of each in turns."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.shapes import is_properties
from context_mode.summaries import summarize
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS

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


def test_a_dependency_trees_roots_are_sections_and_unresolved_libraries_come_first() -> None:
    # ``lddtree`` (pax-utils 1.3.7) of chromium, gdalinfo and swipl: each binary unindented over its
    # libraries. Failed before: no root was shown (none is a key), nor any ``=> None`` library
    # (the loader found none: the binary will not start) below chromium's first lines.
    name = "tree-cqn-lddtree-pax-utils-137-chromium-156-gdalinfo-362-swipl-904.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TEXT, budget=2500)
    assert extract.outline == "properties: 218 keys in 3 sections"
    body = extract.text.splitlines()
    assert "/usr/bin/gdalinfo (interpreter => /lib64/ld-linux-x86-64.so.2)" in body
    assert "/usr/lib/swi-prolog/bin/x86_64-linux/swipl (interpreter => /lib64/ld-linux-x86-64.so.2)" in body
    assert "        libarmadillo.so.11 => None" in body
    assert "        libogdi.so.4.1 => None" in body


def test_ldds_not_found_libraries_come_first() -> None:
    found = [f"\tlib{i}.so.1 => /lib/x86_64-linux-gnu/lib{i}.so.1 (0x00007f{i:08x})" for i in range(40)]
    text = "\n".join([*found[:30], "\tlibmissing.so.3 => not found", *found[30:]])
    extract = summarize(text, ContentKind.TEXT, budget=400)
    assert "\tlibmissing.so.3 => not found" in extract.text.splitlines()


def test_a_compiled_requirements_file_shows_its_pins_not_their_via_comments() -> None:
    # ``uv pip compile requirements.in`` (uv 0.13.9, 81 pins, as pip-compile writes them): each
    # pin's ``    # via kombu`` lines were sections, 178 of them, and stage 1 showed those comments
    # and none of the pins, nor uv's ``Resolved 81 packages in 704ms``.
    from context_mode.router import Summary, route
    from tests.corpora import data

    text = data("uv-0.13-pip-compile-fastapi-celery-stack.txt")
    decision = route(text, tool="run_command")
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert lines[0] == "Resolved 81 packages in 704ms"
    assert "alembic==1.20.1" in lines and "celery==5.7.0" in lines
    assert sum("==" in line for line in lines) >= 30
    # (the payload's last lines close the summary as they are, their comments too)
    assert not any(line.lstrip().startswith("# via") or line.startswith("    #   ") for line in lines[:-12])
    assert lines[-12:] == text.rstrip("\n").splitlines()[-12:]
