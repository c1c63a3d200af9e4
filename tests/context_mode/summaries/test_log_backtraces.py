"""Thread dumps (gdb's backtraces, a JVM's thread dump) are read by their threads: each thread's
header, where it is and the program's own frame it is in.

``thread apply all bt`` prints every thread as ``Thread 4 (Thread 0x7f… (LWP 30201) "python3"):``
and its frames from the innermost (``#0``) out; ``jstack`` as ``"order-worker" #12 prio=5 …``, its
state and its frames. The log reading folded the headers into one ``[×4]`` line and showed frames
from the middle of the stacks, not where each thread waits.
"""

from __future__ import annotations

from pathlib import Path

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.summaries.thread_dumps import thread_picks
from context_mode.types import ContentKind
from tests.corpora import bench_stage1

DATA = Path(__file__).parents[2] / "data"


def _stage1(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    return decision.extract.text.split("\n")


def test_each_threads_header_and_innermost_frame_are_shown() -> None:
    # gdb 13.1's ``thread apply all bt`` of a Python 3.11 process whose threads wait on a lock, on a
    # queue and in time.sleep (15 kB). Failed before: one header ``Thread 4 (…): [×4]``, the
    # innermost frames of two threads, frames #4 to #9 from the middle of the stacks.
    shown = _stage1("gdb-13.1-thread-apply-all-bt-python311-threads.txt")
    for thread, lwp in ((4, 30201), (3, 30200), (2, 30199), (1, 30157)):
        header = next(line for line in shown if line.startswith(f"Thread {thread} "))
        assert f'(LWP {lwp}) "python3"):' in header and "[×" not in header
        below = shown[shown.index(header) + 1]
        assert below.startswith("#0  ")  # where the thread is: a futex wait, a nanosleep
    assert (
        "#1  0x00007f528e315ada in pysleep (timeout=<optimized out>) at ./Modules/timemodule.c:2159" in shown
    )
    # the first frame that is not the C library's: the lock the thread waits on
    assert any(line.startswith("#6  0x00007f528e2a9370 in PyThread_acquire_lock_timed (") for line in shown)


def test_each_threads_first_frame_of_the_program_is_shown() -> None:
    # PowerDNS 4.7.3 under ``thread apply all bt`` (bench/corpus, 9 kB, 10 threads, ``info threads``
    # above them). Failed before: the table and the last thread's frames, none of the program's
    # functions the other threads are in.
    shown = bench_stage1("trace-cape-gdb-thread-apply-all-bt-pdns-server-473.txt").split("\n")
    assert any(line.startswith('* 1    Thread 0x7f895c057d00 (LWP 8302) "pdns_server"') for line in shown)
    for frame in (
        "#1  0x0000555b84ac902a in UDPNameserver::receive(DNSPacket&, std::__cxx11::basic_string<",
        "#2  0x0000555b849441ae in MultiThreadDistributor<DNSPacket, DNSPacket, PacketHandler>::distribute(",
        "#3  0x0000555b84929556 in carbonDumpThread() ()",
        "#1  0x0000555b84b4119f in TCPNameserver::thread() ()",
    ):
        assert any(line.startswith(frame) for line in shown), frame
    header = 'Thread 6 (Thread 0x7f895911c6c0 (LWP 8313) "pdns/receiver"):'
    assert header in shown


def test_a_crashs_backtrace_shows_its_innermost_frames_and_the_outermost() -> None:
    # gdb 13.1 ``-ex run -ex bt -ex "info locals" -ex "info registers"`` on a C program that
    # dereferences NULL six calls deep.
    shown = _stage1("gdb-13.1-run-bt-segv-recursion.txt")
    assert "Program received signal SIGSEGV, Segmentation fault." in shown
    assert "#0  0x0000555555555183 in depth (n=0x0, d=6) at crash.c:5" in shown
    assert "#1  0x000055555555519f in depth (n=0x0, d=5) at crash.c:5" in shown
    assert "#7  0x0000555555555267 in main (argc=2, argv=0x7fffffffe7e8) at crash.c:7" in shown


def test_only_a_frame_or_a_thread_header_at_the_start_of_its_line_is_one() -> None:
    lines = [
        "[New LWP 30199]",
        'Thread 2 (Thread 0x7f52 (LWP 30199) "python3"):',
        "#0  0x00007f52 in __GI___clock_nanosleep (clock_id=1) at clock_nanosleep.c:48",
        "#1  0x00007f52 in pysleep (timeout=<optimized out>) at ./Modules/timemodule.c:2159",
        "#5  0x00007f52 in run (x=1) at a.c:9",
        "  #0  quoted (a=1) at a.c:1",
        "see Thread 2 (the waiter): above",
    ]
    picks = thread_picks("\n".join(lines), lines)
    assert [pick.start for pick in picks] == [1, 2, 3]
    assert picks[0].priority > picks[1].priority > picks[2].priority


def test_a_jvm_thread_dump_shows_its_deadlock_and_each_threads_own_frame() -> None:
    # jstack 17.0.15 of a program whose two threads lock two monitors in opposite orders, beside a
    # pool of four idle workers (13 kB). Failed before: no "Found one Java-level deadlock:", and
    # the JDK's frames of the pool's workers instead of the program's.
    shown = _stage1("jstack-17.0.15-deadlock-and-pool.txt")
    assert shown[1].startswith("Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1")
    for line in (
        "Found one Java-level deadlock:",
        '  which is held by "billing-worker"',
        '  which is held by "order-worker"',
        "\tat Deadlock.lambda$main$0(Deadlock.java:6)",
        "\tat Deadlock.lambda$main$1(Deadlock.java:7)",
        "\tat Deadlock.lambda$main$2(Deadlock.java:10)",
        "Found 1 deadlock.",
    ):
        assert line in shown, line
    assert any(line.startswith('"order-worker" #12 prio=5 ') for line in shown)
    order_worker = next(i for i, line in enumerate(shown) if line.startswith('"order-worker"'))
    assert shown[order_worker + 1] == "   java.lang.Thread.State: BLOCKED (on object monitor)"
    # the JVM's own threads, and the pool's workers after the first, rank below the program's threads
    text = (DATA / "jstack-17.0.15-deadlock-and-pool.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    rank = {
        lines[pick.start].split('"')[1]: pick.priority
        for pick in thread_picks(text, lines)
        if lines[pick.start].startswith('"') and " os_prio=" in lines[pick.start]
    }
    assert (
        rank["Reference Handler"] < rank["pool-1-thread-2"] < rank["pool-1-thread-1"] < rank["billing-worker"]
    )


def test_a_pytest_timeouts_thread_stacks_and_the_tests_own_line_are_shown() -> None:
    # pytest 9.2 with pytest-timeout 2.4: a test waits on a queue that three threads never finish
    # (5 kB). Failed before: the library's ``>`` line alone, none of the test's own, no thread's
    # stack header and its workers' frames folded ``[×2]``.
    shown = _stage1("pytest-9.2-timeout-2.4-thread-stacks.txt")
    for line in (
        ">           jobs.join()  # never: nobody calls task_done",
        "test_pool.py:20: ",
        ">               waiter.acquire()",
        "E               Failed: Timeout (>2.0s) from pytest-timeout.",
        "~~~~~~~~~~~~~~~~~~~~~ Stack of drainer-2 (139830981818048) ~~~~~~~~~~~~~~~~~~~~~",
        '  File "/tmp/p/pt/test_pool.py", line 8, in drain',
        "    item = jobs.get()",
        '  File "/tmp/p/pt/test_pool.py", line 9, in drain',
        "    with results_lock:",
    ):
        assert line in shown, line


def test_a_faulthandler_dump_shows_every_thread_and_the_programs_frame() -> None:
    # Python 3.11's faulthandler.dump_traceback_later of six threads (a lock's holder and its
    # contender, three consumers of an empty queue). Failed before: one header ``[×6]``.
    text = (DATA / "python-3.11-faulthandler-dump-threads.txt").read_text(encoding="utf-8")
    shown = _stage1("python-3.11-faulthandler-dump-threads.txt")
    headers = [line for line in text.splitlines() if line.startswith("Thread 0x")]
    assert len(headers) == 6 and all(header in shown for header in headers)
    for frame in ("line 8 in contender", "line 6 in holder", "line 11 in consumer", "line 18 in <module>"):
        assert f'  File "/tmp/p/fh.py", {frame}' in shown, frame


def test_pytests_failures_raised_in_the_standard_library_show_each_tests_line_and_place() -> None:
    # pytest 9.2, the long traceback of six tests whose calls fail inside the standard library
    # (json, datetime, decimal, ipaddress, fractions, base64). Failed before: "10 errors" (the
    # library's docstrings, ``Raises: ValueError: if …``, listed in the tracebacks, counted and
    # shown as errors), each test's location folded into one ``test_lib.py:7:  [×5]``.
    text = (DATA / "pytest-9.2-long-tb-stdlib-errors.txt").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("log: 367 lines, 6 failed tests, 6 errors,")
    shown = decision.extract.text.split("\n")
    for place in ("test_lib.py:7: ", "test_lib.py:16: ", "test_lib.py:19: ", "test_lib.py:22: "):
        assert place in shown, place
    assert '>       assert fractions.Fraction("3/0") > 1' in shown
    assert not any("Raises:" in line or "AddressValueError: If" in line for line in shown)


def test_pytests_short_tracebacks_show_each_tests_own_line_with_its_place() -> None:
    # The same six failures under ``--tb=short``: no ``>`` line, each section opens with the test's
    # own place (``test_lib.py:7: in test_config_parses``) over its source line. Failed before: one
    # test's source line of six at this budget, the library's ``raise`` lines instead.
    text = (DATA / "pytest-9.2-short-tb-stdlib-errors.txt").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.LOG, budget=2200).text.split("\n")
    for place, source in (
        ("test_lib.py:7: in test_config_parses", "    assert load_config("),
        (
            "test_lib.py:16: in test_subnet",
            '    assert ipaddress.ip_network("10.0.0.1/24").num_addresses == 256',
        ),
        ("test_lib.py:22: in test_token", "    assert base64.b64decode("),
    ):
        assert place in shown and shown[shown.index(place) + 1].startswith(source), place


def test_the_threads_read_are_counted_by_thread_not_by_the_blank_lines_between_them() -> None:
    # A dump reads its first 200 threads. Failed before: each blank line between two threads
    # counted as one, so a JVM's dump and faulthandler's stopped at their 100th thread.
    jvm = ["Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):", ""]
    python = []
    for i in range(150):
        jvm += [
            f'"worker-{i}" #{i + 20} prio=5 os_prio=0 cpu=0.10ms elapsed=1.00s nid=0x2 waiting on condition',
            "   java.lang.Thread.State: WAITING (parking)",
            f"\tat app.Job{i}.run(Job.java:{i + 1})",
            "",
        ]
        python += [
            f"Thread 0x{i + 1:016x} (most recent call first):",
            f'  File "/app/job{i}.py", line 3 in run',
            "",
        ]
    for lines, header in ((jvm, '"worker-'), (python, "Thread 0x")):
        picks = thread_picks("\n".join(lines), lines)
        assert sum(lines[pick.start].startswith(header) for pick in picks) == 150
