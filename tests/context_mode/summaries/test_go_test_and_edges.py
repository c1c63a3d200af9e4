"""``go test -json`` streams summarise to their failing tests; logs keep their identity and totals lines."""

from __future__ import annotations

import json

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.edges import edge_lines
from context_mode.summaries.packing import size
from context_mode.types import ContentKind

PACKAGE = "github.com/spf13/pflag"


def _event(action: str, test: str = "", output: str = "") -> str:
    event: dict[str, object] = {"Time": "2026-12-01T09:00:34.35Z", "Action": action, "Package": PACKAGE}
    if test:
        event["Test"] = test
    if output:
        event["Output"] = output
    return json.dumps(event, separators=(",", ":"))


def _go_test_stream() -> str:
    events = [_event("start")]
    for n in range(300):
        name = f"TestPasses{n}"
        events += [_event("run", name), _event("output", name, f"=== RUN   {name}\n")]
        events += [_event("output", name, f"--- PASS: {name} (0.00s)\n"), _event("pass", name)]
        if n == 100:
            events += [_event("run", "TestCount"), _event("output", "TestCount", "=== RUN   TestCount\n")]
            events += [
                _event("output", "TestCount", f"    count_test.go:52: expected {i}, got {i * 2}\n")
                for i in range(9)
            ]
            events += [_event("output", "TestCount", "    count_test.go:52: expected 4, got 5\n")]
            events += [
                _event("output", "TestCount", "--- FAIL: TestCount (0.00s)\n"),
                _event("fail", "TestCount"),
            ]
        if n == 200:
            message = "    duration_slice_test.go:185: expected ds[0] to be 1 but got: 3\n"
            events += [_event("output", "TestDSCalledTwice", message), _event("fail", "TestDSCalledTwice")]
    events += [_event("output", output="FAIL\n"), _event("output", output=f"FAIL\t{PACKAGE}\t0.012s\n")]
    events.append(_event("fail"))
    return "\n".join(events) + "\n"


def test_a_go_test_json_stream_shows_each_failing_tests_messages_and_the_package_result() -> None:
    text = _go_test_stream()
    assert detect_kind(text) == ContentKind.LOG
    extract = summarize(text, ContentKind.LOG, budget=1500)
    assert size(extract.text) <= 1500
    assert "expected ds[0] to be 1 but got: 3" in extract.text
    assert "expected 4, got 5" in extract.text  # TestCount's last mismatch, after nine others
    assert f"FAIL\\t{PACKAGE}\\t0.012s" in extract.text
    assert "TestPasses" not in extract.text
    assert "2 failed tests" in extract.outline
    lines = set(text.splitlines())
    assert all(line in lines or line.startswith("…") for line in extract.text.split("\n"))


def test_a_passing_go_test_json_run_shows_its_slowest_and_skipped_tests_and_counts() -> None:
    # pkg/errors' passing run: stage 1 was its first event and its ok line, 537 bytes of 30 kB;
    # where the time went (TestFormatGeneric, 0.29 s) and what was skipped were left out (failed before).
    events = [_event("start")]
    for n in range(120):
        name = f"TestQuick{n}"
        events += [_event("run", name), _event("output", name, f"=== RUN   {name}\n")]
        result = json.loads(_event("skip" if n == 70 else "pass", name))
        result["Elapsed"] = 0.29 if n == 40 else 0.05 if n == 90 else 0
        events.append(json.dumps(result, separators=(",", ":")))
    events += [_event("output", output=f"ok  \t{PACKAGE}\t0.296s\n"), _event("pass")]
    text = "\n".join(events) + "\n"
    extract = summarize(text, ContentKind.LOG, budget=1500)
    assert '"Test":"TestQuick40","Elapsed":0.29}' in extract.text
    assert '"Test":"TestQuick90","Elapsed":0.05}' in extract.text
    assert '"Action":"skip","Package":"github.com/spf13/pflag","Test":"TestQuick70"' in extract.text
    assert "TestQuick41" not in extract.text
    assert "0 failed tests, 119 passed, 1 skipped" in extract.outline


def test_a_log_keeps_its_command_line_and_its_totals_among_many_errors() -> None:
    lines = ["$ npm run build --workspace=@acme/web v2.3.1"]
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    lines += [f"10:00 ERROR {words[i % 10]} {words[i // 10 % 10]} failed: {i}" for i in range(400)]
    lines += ["2024-05-01 10:10:00 INFO shutting down", "Done: 400 errors, 3 warnings in 41.2s"]
    extract = summarize("\n".join(lines), ContentKind.LOG, budget=900)
    assert lines[0] in extract.text
    assert lines[-1] in extract.text


def test_edges_see_through_ci_timestamps_and_colours() -> None:
    stamp = "2026-11-30T10:15:02.1234567Z "
    lines = [
        f"{stamp}\x1b[36m$ pytest -q\x1b[0m",
        *(f"{stamp}line {i}" for i in range(30)),
        f"{stamp}3 failed, 9 passed",
    ]
    head, tail = edge_lines(lines)
    assert head == [0]
    assert tail[-1] == len(lines) - 1


def test_a_ci_log_with_timestamps_and_colours_still_shows_its_failing_tests_as_sent() -> None:
    stamp = "2026-11-30T10:15:02.1234567Z "
    lines = [f"{stamp}\x1b[32mtests/test_a.py::test_ok_{i} PASSED\x1b[0m" for i in range(300)]
    lines.insert(150, f"{stamp}\x1b[31mtests/test_b.py::test_parse_int_list FAILED\x1b[0m")
    lines += [
        f"{stamp}E       assert [1, 2] == [1, 2, 3]",
        f"{stamp}\x1b[31m==== 1 failed, 300 passed in 2.1s ====\x1b[0m",
    ]
    text = "\n".join(lines)
    assert detect_kind(text) == ContentKind.LOG
    extract = summarize(text, ContentKind.LOG, budget=800)
    assert lines[150] in extract.text.split("\n")
    assert "1 failed test" in extract.outline


def test_cargo_tests_count_of_the_tests_it_runs_is_a_banner() -> None:
    # cargo test: "running 188 tests" said how many tests the binary held; stage 1 showed the
    # failure and "test result:" but not the count (failed before).
    from context_mode.summaries.edges import banner_lines

    lines = ["   Compiling nom v7.1.1", "    Finished test [unoptimized] target(s) in 9.1s", ""]
    lines += ["running 188 tests", *[f"test tests::case_{n} ... ok" for n in range(188)], ""]
    lines += ["test result: ok. 188 passed; 0 failed; 0 ignored; finished in 0.02s", "", "running 0 tests"]
    found = banner_lines("\n".join(lines))
    assert [lines[i] for i in found] == ["running 188 tests", "running 0 tests"]
