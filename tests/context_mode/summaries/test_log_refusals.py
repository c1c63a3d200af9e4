"""A service's refusals are its errors: what it rejected, blocked, could not do or did not know.

An operator reads a daemon's log for what it turned away and why; such lines hold no "error"
word (exim's ``rejected RCPT``, Privoxy's ``Crunch: Blocked:``, ProFTPD's ``no such user found``),
so they were routine lines, shown only when the head or the tail held them.
"""

from __future__ import annotations

import pytest

from context_mode.summaries.log_lines import scan_log
from tests.corpora import bench_stage1


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "H=(mail.client.example) [192.0.2.7] F=<alice@client.example> rejected RCPT "
            "<nosuchuser@localhost>: Unrouteable address",
            id="exim",
        ),
        pytest.param("13:05:58.977 7f0f874326c0 Crunch: Blocked: http://ad.example/adj", id="privoxy"),
        pytest.param("Info: Can not resolve www.example.org: Name or service not known", id="resolver"),
        pytest.param("proftpd[413] 127.0.0.1: USER admin: no such user found from 127.0.0.1", id="proftpd"),
        pytest.param("auth: Info: passwd-file(bob,127.0.0.1): Password mismatch", id="dovecot"),
        pytest.param("sudo: alice : command not allowed ; TTY=pts/0 ; COMMAND=/bin/sh", id="sudo"),
        pytest.param("could not open file '/etc/app/extra.conf': permission check", id="could-not"),
    ],
)
def test_a_refusal_or_an_inability_is_a_weak_error(line: str) -> None:
    scan = scan_log([line])
    assert scan.errors == [0]
    assert scan.weak == {0}


def test_a_declared_info_level_still_wins_over_refusal_words() -> None:
    scan = scan_log(["2026-12-03 13:10:09 fail2ban.filter [1]: INFO    Ignore 127.0.0.1 by ip, not blocked"])
    assert scan.errors == []


def test_a_debug_logs_refusals_are_in_its_summary() -> None:
    # Both failed before: exim's debug session (817 lines) and Privoxy's (677) showed their
    # ACL checks and access-log lines but not the recipient rejected or the request blocked.
    exim = bench_stage1("log-exim4-496-bh-debug-session.txt")
    assert "rejected RCPT <nosuchuser@localhost>: Unrouteable address" in exim
    privoxy = bench_stage1("log-privoxy-3034-debug-foreground.log")
    assert "Crunch: Blocked: http://ad.doubleclick.net/adj/site/home" in privoxy
