"""A Go traceback (a panic's, a SIGQUIT dump's) is read by its goroutines: each one's header with
its state, where it was started, and the signal that asked for the dump.

Go prints every goroutine as ``goroutine 25 [IO wait]:``, its frames, then ``created by …``; the
log reading showed frames alone (``fp=… sp=… pc=…`` lines) and the registers at the end, not
which goroutine waits on what.
"""

from __future__ import annotations

from context_mode.summaries.log_errors import add_goroutine_heads
from tests.corpora import bench_stage1


def test_a_goroutine_dump_shows_each_goroutines_header_and_where_it_was_started() -> None:
    # rclone serve http under SIGQUIT (fresh35a, 14 kB, 14 goroutines): stage 1 showed 30 of
    # its frames and its registers, none of the headers nor the signal (failed before).
    stage1 = bench_stage1("trace-cpi-go-sigquit-goroutine-dump-rclone-1601-serve-http-docutils-wheels.txt")
    for line in (
        "SIGQUIT: quit",
        "PC=0xd62761 m=0 sigcode=0",
        "goroutine 1 [semacquire]:",
        "goroutine 25 [IO wait]: [×3]",  # three goroutines wait on the network: one header says so
        "created by go.opencensus.io/stats/view.init.0",
    ):
        assert line in stage1.split("\n")


def test_only_a_goroutines_header_at_the_start_of_its_line_is_one() -> None:
    lines = [
        'level=info msg="worker 3 started in goroutine pool"',
        "goroutine 7 [chan receive, 3 minutes]:",
        "main.worker(0xc000010000)",
        "created by main.start in goroutine 1",
        "  goroutine 8 [running]: (quoted)",
    ]
    added: list[tuple[int, float]] = []
    add_goroutine_heads(
        "\n".join(lines), lines, lambda index, priority, width=0, *, stop=0: added.append((index, priority))
    )
    assert [index for index, _ in added] == [1, 3]
