"""A report's summary section is its totals: the heading in capitals and the lines below it.

valgrind's memcheck prints ``HEAP SUMMARY:`` (what was allocated and freed) after the program's
own output and ``LEAK SUMMARY:`` (what leaked, by kind) at the end, each a heading over indented
counts; the program's output above them took the room, and the heap's totals were not shown.
"""

from __future__ import annotations

from tests.corpora import bench_stage1


def test_valgrinds_heap_and_leak_summaries_are_shown_whole() -> None:
    stage1 = bench_stage1("trace-valgrind-leak-check-ssh-g.txt")
    for line in (
        "==13084== HEAP SUMMARY:",
        "==13084==   total heap usage: 7,707 allocs, 7,583 frees, 783,758 bytes allocated",
        "==13084== LEAK SUMMARY:",
        "==13084==    definitely lost: 352 bytes in 1 blocks",
        "==13084==         suppressed: 0 bytes in 0 blocks",
    ):
        assert line in stage1
