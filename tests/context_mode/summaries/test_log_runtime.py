"""A verbose run names the runtime it uses near its top; the log's summary shows that line.

Which interpreter or environment a package manager or build tool ran with (uv's ``Using Python
3.11.2 environment at: .venv``) is the first thing a practitioner checks when an install behaves
differently on two machines; it holds no start or version word, so it was one more debug line.
"""

from __future__ import annotations

from context_mode.summaries.edges import address_lines
from tests.corpora import bench_stage1


def test_a_line_saying_which_runtime_version_it_uses_is_an_identity_line() -> None:
    lines = [
        "DEBUG uv 0.13.9 (x86_64-unknown-linux-gnu)",
        "DEBUG Checking for Python interpreter at path `.venv/bin/python`",
        "DEBUG Using Python 3.11.2 environment at: .venv",
        "DEBUG Acquired lock for `.venv`",
        "npm info using npm@11.19.1",  # the name's own version: the head's identity line's matter
    ]
    assert address_lines(lines) == [2]


def test_a_verbose_installs_environment_is_in_its_summary() -> None:
    # Failed before: uv -v showed the Python version it solved for, not the environment it used.
    uv = bench_stage1("log-uv-0139-pip-install-verbose-flask-stack.log")
    assert "DEBUG Using Python 3.11.2 environment at: .venv" in uv
