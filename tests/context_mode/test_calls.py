"""The call log: bounded appends, numbering across restarts, and a reader tailing another writer."""

from __future__ import annotations

from pathlib import Path

from context_mode.calls import MAX_STAGE1_CHARS, CallLog, CallLogReader, CallRecord


def record(tool: str = "fx__echo", stage1: str = "hello", **fields: object) -> CallRecord:
    values: dict[str, object] = {
        "ts": 1000.0,
        "tool": tool,
        "server": "fx",
        "mode": "direct",
        "reason": "small",
        "bytes_in": 5,
        "bytes_out": 5,
        "latency_ms": 1.5,
        "stage1": stage1,
        **fields,
    }
    return CallRecord(**values)  # type: ignore[arg-type]


def test_appended_calls_are_numbered_and_read_back_newest_first(tmp_path: Path) -> None:
    log = CallLog(tmp_path / "calls.jsonl")
    for n in range(5):
        log.append(record(tool=f"t{n}", stage1=f"text {n}"))
    reader = CallLogReader(tmp_path / "calls.jsonl")
    page = reader.page(offset=1, limit=2)
    assert page.total == 5
    assert [call.tool for call in page.calls] == ["t3", "t2"]
    full = reader.record(page.calls[0].seq)
    assert full is not None and full.stage1 == "text 3"
    assert reader.record(99) is None


def test_numbering_continues_after_a_restart(tmp_path: Path) -> None:
    CallLog(tmp_path / "calls.jsonl").append(record())
    again = CallLog(tmp_path / "calls.jsonl").append(record())
    assert again.seq == 2


def test_the_file_stays_bounded_and_a_reader_follows_the_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    log = CallLog(path, max_records=10)
    reader = CallLogReader(path)
    for n in range(15):
        log.append(record(tool=f"t{n}"))
    assert len(reader.refresh()) == 15
    for n in range(15, 25):
        log.append(record(tool=f"t{n}"))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 20  # rewritten with the newest 10 when it reached 20
    calls = reader.refresh()
    assert [call.tool for call in calls][-1] == "t24"
    assert len(calls) == len(lines)
    assert reader.record(calls[0].seq) is not None


def test_a_torn_last_line_waits_and_a_damaged_line_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    CallLog(path).append(record(tool="first"))
    with path.open("ab") as handle:
        handle.write(b"not json\n")
        handle.write(record(tool="torn", seq=7).to_json().encode()[:20])
    reader = CallLogReader(path)
    assert [call.tool for call in reader.refresh()] == ["first"]
    with path.open("ab") as handle:
        handle.write(record(tool="torn", seq=7).to_json().encode()[20:] + b"\n")
    assert [call.tool for call in reader.refresh()] == ["first", "torn"]


def test_a_long_stage1_text_is_cut_and_an_unwritable_log_never_raises(tmp_path: Path) -> None:
    log = CallLog(tmp_path / "calls.jsonl")
    written = log.append(record(stage1="x" * (MAX_STAGE1_CHARS + 100)))
    assert len(written.stage1) < MAX_STAGE1_CHARS + 100
    assert "cut by the call log" in written.stage1
    missing = CallLog(tmp_path / "no-such-dir" / "calls.jsonl")
    assert missing.append(record()).seq == 1  # logged once, not raised


def test_ten_thousand_calls_page_without_reading_stage1_texts_into_memory(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    log = CallLog(path, max_records=10_000)
    for n in range(10_000):
        log.append(record(tool=f"t{n % 7}", stage1="line\n" * 50))
    reader = CallLogReader(path)
    page = reader.page(offset=9_990, limit=50, keep=lambda call: call.tool == "t3")
    assert page.total == 1429
    assert page.calls == ()
    last = reader.page(limit=1).calls[0]
    assert last.seq == 10_000 and not hasattr(last, "stage1") and last.stage1_chars == 250
