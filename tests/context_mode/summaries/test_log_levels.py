"""A log's raised lines: INFO among DEBUG, NOTICE among INFO are what happened in it."""

from __future__ import annotations

from context_mode.line_groups import group_lines
from context_mode.summaries.log_levels import raised_lines
from tests.corpora import bench_stage1


def _raised(lines: list[str]) -> dict[int, int]:
    return raised_lines(lines, group_lines(lines, 400))


def test_the_levels_above_the_bulk_are_raised_by_how_far_above_they_are() -> None:
    lines = [f"2026-12-03 13:10:{n:02d} fail2ban.filter [1]: DEBUG   Processing line {n}" for n in range(30)]
    lines[7] = "2026-12-03 13:10:07 fail2ban.jail [25142]: INFO    Jail 'sshd' started"
    lines[20] = "2026-12-03 13:10:20 fail2ban.actions [25142]: NOTICE  [sshd] Ban 127.0.0.41"
    assert _raised(lines) == {7: 1, 20: 2}


def test_dovecot_and_nginx_spellings_are_levels_and_warnings_are_not_fine_levels() -> None:
    lines = [f"Dec 03 15:02:{n:02d} auth: Debug: client passdb out: OK {n}" for n in range(25)]
    lines[3] = "Dec 03 15:02:03 auth: Info: passwd-file(bob,127.0.0.1): Password mismatch"
    lines[4] = "2026/12/03 15:02:04 [notice] 12#12: signal process started"
    lines[5] = "Dec 03 15:02:05 master: Warning: Killed with signal 15"
    assert _raised(lines) == {3: 1, 4: 2}


def test_a_log_with_few_leveled_lines_or_one_level_raises_nothing() -> None:
    assert _raised(["INFO started", "NOTICE ban", *(f"plain line {n}" for n in range(40))]) == {}
    assert _raised([f"12:00:{n:02d} INFO request {n} served" for n in range(40)]) == {}


def test_a_debug_run_of_a_service_shows_its_notices_and_info_events() -> None:
    # Both failed before: 348 DEBUG lines hid fail2ban's NOTICE bans, unbans (and 197 Debug lines
    # Radicale's INFO "access denied") behind the head and the tail.
    fail2ban = bench_stage1("log-fail2ban-102-foreground-sshd-bans.log")
    assert "NOTICE  [sshd] Unban 127.0.0.41" in fail2ban
    assert "2026-12-03 13:10:26,009 fail2ban.actions" in fail2ban  # the first ban, with its time
    radicale = bench_stage1("log-radicale-390-debug-caldav.log")
    assert "Access to '/bob/cal/x.ics' denied for 'alice'" in radicale


def test_a_raised_line_is_shown_as_wide_as_a_warning() -> None:
    # Failed before: Radicale's NOTICE "MKCALENDAR response status for '/alice/work/' in 0.001
    # seconds plain 92 bytes: 409 Conflict" (190 chars, 90 of them its stamp and thread) was cut
    # to 160 chars, its status in the cut.
    radicale = bench_stage1("log-radicale-390-debug-caldav.log")
    assert "'/alice/work/' in 0.001 seconds plain 92 bytes: 409 Conflict" in radicale
