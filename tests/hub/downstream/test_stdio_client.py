"""The downstream stdio transport's pure parts: line splitting and salvaging unreadable lines."""

from __future__ import annotations

import time

import mcp.types as types
import pytest

from hub.downstream.stdio_client import LineSplitter, oversized, read_line
from hub.serve.stdio import triage


def test_lines_are_split_in_linear_time_across_chunks() -> None:
    splitter = LineSplitter()
    line = (
        b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"' + b"x" * 20_000_000 + b'"}]}}'
    )
    started = time.thread_time()  # CPU time: the work done, not the wait for a core under a parallel run
    out: list[object] = []
    for start in range(0, len(line), 65536):
        out.extend(splitter.feed(line[start : start + 65536]))
    out.extend(splitter.feed(b"\nnext"))
    assert time.thread_time() - started < 2  # the SDK's reader took ~10 s for this
    assert out == [line] and splitter.rest() == b"next"


def test_a_line_over_the_limit_is_dropped_and_answered_with_an_error_for_its_id() -> None:
    splitter = LineSplitter(limit=1000)
    pieces = splitter.feed(b'{"jsonrpc":"2.0","id":7,"result":{"x":"' + b"y" * 5000)
    pieces += splitter.feed(b'"}}\n{"jsonrpc":"2.0","method":"ping"}\n')
    assert len(pieces) == 2
    answer = oversized(pieces[0])  # type: ignore[arg-type]
    assert isinstance(answer.message, types.JSONRPCError)  # type: ignore[union-attr]
    assert answer.message.id == 7 and "over the hub's" in answer.message.error.message  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            b'{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"a\\ud800b"}]}}',
            "repaired",
            id="lone-surrogate",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":4,"result":{"structuredContent":' + b"[" * 300 + b"]" * 300 + b"}}",
            "error",
            id="too-deep",
        ),
        pytest.param(b'{"jsonrpc":"2.0","id":5,"result":"not an object"}', "error", id="wrong-shape"),
        pytest.param(b"not json", "dropped", id="garbage"),
        pytest.param(
            b'{"jsonrpc":"2.0","method":"x","params":' + b"[" * 300 + b"]" * 300 + b"}", "dropped", id="note"
        ),
    ],
)
def test_unreadable_answers_are_repaired_or_turned_into_errors(line: bytes, expected: str) -> None:
    message = read_line(line)
    match expected:
        case "repaired":
            assert isinstance(message.message, types.JSONRPCResponse)  # type: ignore[union-attr]
            assert "\ufffd" in str(message.message.result)  # type: ignore[union-attr]
        case "error":
            assert isinstance(message.message, types.JSONRPCError)  # type: ignore[union-attr]
            assert "could not be read" in message.message.error.message  # type: ignore[union-attr]
        case "dropped":
            assert isinstance(message, Exception)


def test_the_served_side_answers_a_parse_error_with_the_id_it_can_read() -> None:
    error = read_line(b'{"jsonrpc":"2.0","id":9,"method":"ping","params":')
    assert isinstance(error, Exception)
    repaired, answer = triage(error)
    assert repaired is None and answer is not None
    assert isinstance(answer.message, types.JSONRPCError)
    assert answer.message.id == 9 and answer.message.error.code == -32700
