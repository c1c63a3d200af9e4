"""A configuration file documented in its comments shows the settings in force, not its comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.shapes import is_commented_config, is_config_setting
from context_mode.types import ContentKind

DATA = Path(__file__).parents[2] / "data"


@pytest.mark.parametrize(
    ("name", "settings"),
    [("postgresql-15-initdb-postgresql.conf", 13), ("vsftpd-3.0.3-debian.conf", 13)],
)
def test_a_commented_config_files_settings_in_force_all_show(name: str, settings: int) -> None:
    # Failed before: postgresql.conf was "markdown: 815 lines, 107 headings (107 h1)", its comments
    # headings, its stage 1 the opening prose and banners and none of its 13 settings; vsftpd.conf
    # "source: 1 file, 155 lines, 0 definitions".
    text = (DATA / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TEXT
    decision = route(text, tool="run_command", arguments={"command": f"cat {name}"})
    assert isinstance(decision, Summary)
    assert f", {settings} settings in force, " in decision.extract.outline
    in_force = [line for line in text.splitlines() if is_config_setting(line)]
    assert len(in_force) == settings
    body = decision.extract.text.splitlines()
    assert all(line in body for line in in_force)


def test_postgresqls_sections_and_defaults_fill_the_room_after_its_settings() -> None:
    text = (DATA / "postgresql-15-initdb-postgresql.conf").read_text(encoding="utf-8")
    body = route(text, tool="run_command", arguments={}).extract.text.splitlines()  # type: ignore[union-attr]
    assert "# CONNECTIONS AND AUTHENTICATION" in body
    assert any(line.startswith("#port = 5432") for line in body)


def test_prose_markdown_and_lisp_comments_are_no_config_file() -> None:
    markdown = ["# Title", "", "Some text about the tool.", "## Usage", "Run it with care.", "# Notes"] * 5
    lisp = [";; Compiling file /tmp/a.lisp ...", ";; Wrote file /tmp/a.fas", "0 errors, 0 warnings"] * 5
    assert not is_commented_config(markdown)
    assert not is_commented_config(lisp)
    assert not is_commented_config(["#!/bin/sh", "# x = 1", "# y = 2", "# z = 3", "a=1", "b=2", "c=3"])


def test_a_search_in_a_config_file_finds_the_setting_asked_for() -> None:
    # Failed before: its comments wrapped under a setting made that setting a heading, and the
    # chunk under ``#listen_addresses`` outranked the one holding ``#port = 5432``.
    from tests.searching import search

    text = (DATA / "postgresql-15-initdb-postgresql.conf").read_text(encoding="utf-8")
    for query in ("which port does the server listen on", "port number"):
        assert "#port = 5432" in search(text, ContentKind.TEXT, {"query": query}), query


def test_source_code_thick_with_comments_is_no_config_file() -> None:
    # Ruby's set.rb (RDoc comments) and Nim's parseopt (``##`` docs): code among their comments
    from tests.corpora import BENCH_CORPUS

    for name in (
        "source-cqn-fs-read-text-ruby-312-stdlib-set-rb.txt",
        "source-capv-fs-read-text-nim-1610-stdlib-parseopt-nim.txt",
    ):
        text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
        assert not is_commented_config(text.splitlines()), name
