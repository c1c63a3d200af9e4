"""A log's running total is in its summary: the last report of a count reported again and again."""

from __future__ import annotations

from context_mode.summaries.log_totals import running_total
from tests.corpora import bench_stage1


def test_the_last_of_several_total_reports_is_the_running_total() -> None:
    lines = [
        "fail2ban.failmanager [1]: DEBUG   Total # of detected failures: 1. Current failures from 1 IPs",
        "fail2ban.filter      [1]: DEBUG   Processing line with time:1796310625.4",
        "fail2ban.failmanager [1]: DEBUG   Total # of detected failures: 2. Current failures from 1 IPs",
        "fail2ban.failmanager [1]: DEBUG   Total # of detected failures: 3. Current failures from 2 IPs",
        "fail2ban.server      [1]: INFO    Exiting Fail2ban",
    ]
    assert running_total("\n".join(lines)) == 3


def test_a_total_reported_once_or_twice_is_no_running_total() -> None:
    assert running_total("compiling\ntotal 12 files\nlinking\nTotal time: 3 s") is None


def test_a_debug_logs_last_total_is_in_its_summary() -> None:
    # Failed before: fail2ban at debug showed its bans, not where its count of failures ended.
    summary = bench_stage1("log-fail2ban-102-foreground-sshd-bans.log")
    assert "Total # of detected failures: 54." in summary
