"""Output-style tags: config beats the tool's _meta hint, which beats name defaults."""

from __future__ import annotations

from context_mode.policy import resolve_style
from context_mode.types import OutputStyle


def test_config_globs_win_over_meta_and_name() -> None:
    choice = resolve_style(
        "read_log", config_modes={"read_*": OutputStyle.DIRECT}, meta={"ctxhub/context_mode": "DIRECTIVE"}
    )
    assert (choice.style, choice.source) == (OutputStyle.DIRECT, "config")


def test_a_meta_hint_wins_over_the_name() -> None:
    choice = resolve_style("tail_log", meta={"vendor/outputStyle": "directive"})
    assert (choice.style, choice.source) == (OutputStyle.DIRECTIVE, "meta")


def test_log_tools_default_to_summary() -> None:
    assert resolve_style("get_job_log").style is OutputStyle.SUMMARY


def test_everything_else_is_auto() -> None:
    assert resolve_style("echo", meta={"vendor/x": 1, "outputStyle": "nonsense"}).style is OutputStyle.AUTO
