"""A failure a log declares at an info or debug level is still shown, below its raised lines.

A verbose run (``uv pip install -v``, a daemon at debug verbosity) writes what went wrong but was
handled at its routine level (``DEBUG Failed to reflink … Operation not supported (os error 95),
falling back to copy``): no error, but the first place a practitioner greps (``fail``) for why a
step was slow or a feature was off. The declared level still wins over the words (the line is no
error and adds no room); the first line of each such shape ranks below the raised lines.
"""

from __future__ import annotations

from context_mode.summaries.log_lines import scan_log
from tests.corpora import bench_stage1


def test_a_failure_said_at_debug_level_is_muted_not_an_error() -> None:
    scan = scan_log(
        [
            "DEBUG Selecting: idna==3.11 [compatible] (idna-3.11-py3-none-any.whl)",
            "DEBUG Failed to reflink `cache/idna/cli.py` to `.venv/idna/cli.py`: Operation not supported",
            "2026-12-03 13:10:09 fail2ban.filter [1]: INFO    Ignore 127.0.0.1 by ip, not blocked",
        ]
    )
    assert scan.errors == []
    assert scan.muted == [1, 2]


def test_a_verbose_installs_handled_failure_is_in_its_summary() -> None:
    # Failed before: uv's 268 lines showed its resolution and installed packages, not why it
    # copied files instead of cloning them.
    uv = bench_stage1("log-uv-0139-pip-install-verbose-flask-stack.log")
    assert "Operation not supported (os error 95), falling back" in uv
