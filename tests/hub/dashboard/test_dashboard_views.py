"""The dashboard's pure parts (which payload lines stage 1 kept, output escaping) and its start-up errors."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from hub.dashboard import StoreDirSource, serve_dashboard
from hub.dashboard.markup import escape_output, json_island
from hub.dashboard.pages import kept_runs
from hub.dashboard.views import kept_lines
from hub.errors import ConfigError

PAYLOAD = [
    "collected 100 items",
    "tests/test_a.py::test_one PASSED",
    "}",
    "E   AssertionError: assert 41 == 42",
    "E   AssertionError: assert 41 == 42",
    "a very long line that stage 1 cut somewhere in the middle of it, and then more",
    "FAILED tests/test_x.py::test_y - AssertionError",
]


@pytest.mark.parametrize(
    ("stage1", "kept"),
    [
        pytest.param("[ctxhub summary]\ncollected 100 items\n… 5 lines …", {0}, id="a-whole-line"),
        pytest.param("E   AssertionError: assert 41 == 42 [×2]", {3, 4}, id="collapsed-repeats"),
        pytest.param("a very long line that stage 1 cut …", {5}, id="a-cut-line"),
        pytest.param(
            "}\n  FAILED tests/test_x.py::test_y - AssertionError  ", {6}, id="short-lines-never-count"
        ),
        pytest.param("nothing in common", set(), id="none"),
    ],
)
def test_payload_lines_that_stage1_shows_are_the_kept_ones(stage1: str, kept: set[int]) -> None:
    assert kept_lines(stage1, PAYLOAD) == kept


def test_kept_line_numbers_become_runs_for_the_jump_links() -> None:
    assert kept_runs([3, 4, 5, 9, 11, 12]) == [(3, 5), (9, 9), (11, 12)]
    assert kept_runs([]) == []


def test_output_text_is_escaped_and_loses_ansi_colours() -> None:
    text = "\x1b[31mFAILED\x1b[0m <script>alert('x')</script> & \"q\""
    assert (
        escape_output(text) == "FAILED &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;q&quot;"
    )


def test_chart_data_cannot_close_its_script_element() -> None:
    island = json_island("chart-data", {"tools": [{"tool": "</script><script>alert(1)</script>"}]})
    assert island.count("</script>") == 1 and "\\u003c/script\\u003e" in island


def test_a_busy_port_is_a_config_error_naming_the_option(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        source = StoreDirSource(tmp_path, label="store", memory=None, max_bytes=2**20)
        with pytest.raises(ConfigError, match="pass another --port"):
            serve_dashboard([source], port=port)
