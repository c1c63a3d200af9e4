"""A log's recoveries: after an outage, the line saying what failed works again is shown."""

from __future__ import annotations

from pathlib import Path

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.log_recoveries import recovery_lines
from context_mode.types import OutputStyle

CORPUS = Path(__file__).resolve().parents[3] / "bench" / "corpus"


def test_a_journals_recovery_after_an_outage_is_in_its_summary() -> None:
    # HAProxy said app-b "is DOWN" (Connection refused), then "is UP" among hundreds of requests:
    # the summary showed the outage and not its end.
    text = (CORPUS / "log-journalctl-haproxy-memcached.log").read_text(encoding="utf-8")
    decision = route(
        text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="logs__journalctl", arguments={}
    )
    assert isinstance(decision, Summary)
    assert "Server be_pypi/app-b is UP, reason: Layer7 check passed, code: 200" in decision.extract.text


def test_recoveries_are_the_lines_past_the_outage_saying_what_works_again() -> None:
    lines = [
        "db: connection re-established",  # before the outage: no recovery of it
        "Server be_pypi/app-b is DOWN, reason: Layer4 connection problem",
        "requests 2.32.3 is up to date",
        "Server be_pypi/app-b is UP, reason: Layer7 check passed, code: 200",
        "Reconnected to redis://127.0.0.1:6379",
        "replica back online after 12s",
    ]
    assert recovery_lines("\n".join(lines), 1) == [3, 4, 5]
