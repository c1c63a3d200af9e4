"""A JSON-lines log record is cut to its level, message and codes, every piece verbatim.

On a real PostgreSQL ``jsonlog`` (``tests/data/postgres-jsonlog-errors.json``) the summary cut
each error line by its start and end: timestamp, pid, session ids … application name, backend
type. Every message was lost.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.json_line import clip_record
from context_mode.summaries.packing import is_marker, strip_annotation
from tests.verbatim import clipped_from, pieces_of

DATA = Path(__file__).resolve().parents[2] / "data"


def test_a_postgres_error_record_keeps_its_severity_message_and_detail() -> None:
    line = next(
        line
        for line in (DATA / "postgres-jsonlog-errors.json").read_text(encoding="utf-8").splitlines()
        if '"state_code":"23505"' in line
    )
    cut = clip_record(line, 240)
    assert cut is not None and len(cut) <= 240
    assert '"error_severity":"ERROR"' in cut
    assert '"message":"duplicate key value violates unique constraint \\"customers_email_key\\""' in cut
    assert '"detail":"Key (email)=(user42@example.com) already exists."' in cut
    assert '"pid"' not in cut and '"session_id"' not in cut
    assert pieces_of(cut, line)


def test_a_record_keeps_the_address_its_message_is_about() -> None:
    # Failed before: Caddy's "admin endpoint started" kept its logger and time, not where it listens.
    from tests.corpora import bench_stage1

    shown = bench_stage1("log-caddy-262-reverse-proxy-debug-json.log")
    assert '"msg":"admin endpoint started","address":"127.0.0.1:20609"' in shown


def test_every_error_of_a_postgres_jsonlog_is_in_stage_1_by_its_message() -> None:
    text = (DATA / "postgres-jsonlog-errors.json").read_text(encoding="utf-8")
    decision = route(text, tool="get_service_log", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    body = decision.extract.text
    messages = [
        record["message"]
        for record in map(json.loads, text.splitlines())
        if record["error_severity"] in ("ERROR", "FATAL")
    ]
    assert len(messages) == 10
    shown = [message for message in messages if json.dumps(message) in body]
    assert len(shown) >= 9, shown  # was 0: each line showed its envelope around a "…"


def test_separators_are_kept_as_the_line_spells_them() -> None:
    line = json.dumps(
        {"time": "2026-12-02T10:00:00Z", "pid": 7, "level": "error", "msg": "disk full", "host": "a" * 300}
    )
    cut = clip_record(line, 120)
    assert cut == '{"time": "2026-12-02T10:00:00Z"…"level": "error", "msg": "disk full"…}'


def test_what_is_not_a_record_with_a_message_is_left_to_the_callers_cut() -> None:
    assert clip_record("plain text " * 40, 80) is None
    assert clip_record(json.dumps({"a": 1, "b": "x" * 300}), 80) is None  # no message member
    assert clip_record('{"msg": "unterminated ' + "x" * 300, 80) is None
    assert clip_record("[1, 2, 3]", 80) is None


_VALUES = st.one_of(
    st.text(max_size=120),
    st.integers(),
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=5),
    st.dictionaries(st.text(max_size=8), st.text(max_size=20), max_size=3),
)
_KEYS = st.one_of(
    st.sampled_from(["msg", "message", "level", "time", "pid", "detail", "code", "exc_info", "stack"]),
    st.text(max_size=12),
)


@given(st.dictionaries(_KEYS, _VALUES, min_size=2, max_size=12), st.integers(20, 300), st.booleans())
def test_a_cut_record_is_within_its_width_and_pieces_of_the_line_in_order(
    record: dict[str, object], width: int, compact: bool
) -> None:
    line = json.dumps(record, separators=(",", ":") if compact else None, ensure_ascii=compact)
    cut = clip_record(line, width)
    if cut is not None:
        assert len(cut) <= width
        assert pieces_of(cut, line), (cut, line)


@pytest.mark.parametrize("prefix", ["registry-1  | ", "[pod/registry-5f7c9d/verdaccio] "])
def test_a_compose_service_column_hides_no_level_and_no_message(prefix: str) -> None:
    # ``docker compose logs`` puts "registry-1  | " before each line: the JSON records' error fields
    # were no longer read (7 errors became 1) and each record was cut by its start and end.
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind

    plain = (DATA / "verdaccio-jsonlines.log").read_text(encoding="utf-8")
    prefixed = "".join(f"{prefix}{line}" for line in plain.splitlines(keepends=True))
    alone = summarize(plain, ContentKind.LOG, budget=3000)
    composed = summarize(prefixed, ContentKind.LOG, budget=3000)
    assert composed.outline == alone.outline
    assert "7 errors" in composed.outline
    lines = composed.text.splitlines()
    assert any(
        line.startswith(prefix + '{"level":25,')
        and '"msg":"404, user: ci-bot(127.0.0.1), req: \'GET /qs\'' in line
        for line in lines
    )
    source = set(prefixed.splitlines())
    assert all(is_marker(line) or clipped_from(strip_annotation(line), source) for line in lines)


def test_a_records_traceback_is_cut_in_its_middle_so_what_was_raised_shows() -> None:
    # python-json-logger's logger.exception(): the traceback is one escaped string whose end says
    # what was raised ("KeyError: 'EUR'"); cut at its end, the record showed only its first frame.
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "python-json-logger-exception.log").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if '"levelname": "ERROR"' in line)
    cut = clip_record(line, 240)
    assert cut is not None and len(cut) <= 240
    assert '"message": "conversion failed", "exc_info": "Traceback (most recent call last):' in cut
    assert cut.endswith("KeyError: 'EUR'\"…}")
    assert pieces_of(cut, line)
