"""A log's recoveries are in its summary: when what failed works again.

An operator reads an outage for its start and its end; the end (HAProxy's ``is UP`` after its
``is DOWN``) holds no error word, so it was one routine line among hundreds.
"""

from __future__ import annotations

import pytest

from context_mode.summaries.log_recoveries import recovery_lines
from tests.corpora import bench_stage1


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("haproxy[15223]: Server be_pypi/app-b is UP, reason: Layer7 check passed", id="haproxy"),
        pytest.param("[WARN] redis client reconnected to 127.0.0.1:6379 after 3 attempts", id="reconnected"),
        pytest.param("pool main: connection to primary restored", id="restored"),
        pytest.param("upstream api-2 is healthy again", id="healthy"),
    ],
)
def test_a_line_saying_what_failed_works_again_is_a_recovery(line: str) -> None:
    assert recovery_lines(f"starting\n{line}\nstopping") == [1]


def test_routine_lines_are_no_recoveries() -> None:
    lines = ["Server be_pypi/app-b is DOWN, reason: Layer4 connection", "GET /simple/ 200", "backup done"]
    assert recovery_lines("\n".join(lines)) == []


def test_a_journals_recovery_after_an_outage_is_in_its_summary() -> None:
    # Failed before: the journal showed app-b going DOWN and the 503s while no server was up,
    # but not app-b coming back ("is UP, reason: Layer7 check passed, code: 200").
    journal = bench_stage1("log-journalctl-haproxy-memcached.log", tool="logs__journalctl")
    assert "Server be_pypi/app-b is DOWN" in journal
    assert "Layer7 check passed, code: 200" in journal
