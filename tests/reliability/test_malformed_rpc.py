"""Malformed JSON-RPC sent to a served ``ctxhub serve`` over stdio: an error response, never a crash.

Pass criterion for each line: the answer JSON-RPC prescribes (``-32700`` parse error, ``-32600``
invalid request, ``-32601`` unknown method, ``-32602`` bad params, with the request's id when it
can be read, else ``null``), or the normal answer when the request is valid after all; no answer
only for notifications; every line the hub writes is strict JSON; the hub keeps serving.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from tests.conftest import write_config
from tests.reliability.harness import RawHub, fault_server, raw_hub, result_text

pytestmark = pytest.mark.anyio

PARSE, INVALID, NO_METHOD, BAD_PARAMS = -32700, -32600, -32601, -32602
DEEP = b"[" * 10_000 + b"]" * 10_000


def call(ident: int, arguments: bytes) -> bytes:
    head = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"f__echo","arguments":' % ident
    return head + arguments + b"}}"


# (raw line, expected): ("error", code, id) | ("result", id) | ("silent",)
CASES = [
    pytest.param(b"hello world", ("error", PARSE, None), id="not-json"),
    pytest.param(b'{"jsonrpc": "2.0", "id": 101, "method": ', ("error", PARSE, 101), id="truncated"),
    pytest.param(b"\xff\xfe\x00\x01 binary", ("error", PARSE, None), id="binary"),
    pytest.param(b"[]", ("error", INVALID, None), id="empty-batch"),
    pytest.param(
        b'[{"jsonrpc":"2.0","id":102,"method":"ping"},{"jsonrpc":"2.0","id":103,"method":"ping"}]',
        ("error", INVALID, None),
        id="batch",
    ),
    pytest.param(b"42", ("error", INVALID, None), id="number"),
    pytest.param(b'"a string"', ("error", INVALID, None), id="string"),
    pytest.param(b"null", ("error", INVALID, None), id="null"),
    pytest.param(b'{"id":104,"method":"ping"}', ("error", INVALID, 104), id="no-jsonrpc"),
    pytest.param(b'{"jsonrpc":"1.0","id":105,"method":"ping"}', ("error", INVALID, 105), id="wrong-version"),
    pytest.param(b'{"jsonrpc":"2.0","id":106,"method":5}', ("error", INVALID, 106), id="method-not-string"),
    pytest.param(
        b'{"jsonrpc":"2.0","id":107,"method":"tools/call","params":"x"}',
        ("error", INVALID, 107),
        id="params-string",
    ),
    pytest.param(
        b'{"jsonrpc":"2.0","id":108,"method":"tools/call","params":{"name":5,"arguments":[]}}',
        ("error", BAD_PARAMS, 108),
        id="name-not-string",
    ),
    pytest.param(
        b'{"jsonrpc":"2.0","id":109,"method":"tools/list","params":{"cursor":5}}',
        ("error", BAD_PARAMS, 109),
        id="cursor-not-string",
    ),
    pytest.param(
        b'{"jsonrpc":"2.0","id":110,"method":"nope/nothing"}', ("error", NO_METHOD, 110), id="unknown"
    ),
    pytest.param(b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', ("error", INVALID, None), id="fractional-id"),
    pytest.param(b'{"jsonrpc":"2.0","id":{},"method":"ping"}', ("error", INVALID, None), id="object-id"),
    pytest.param(b'{"jsonrpc":"2.0","id":true,"method":"ping"}', ("error", INVALID, None), id="boolean-id"),
    pytest.param(
        b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
        ("result", 123456789012345678901234567890),
        id="huge-integer-id",
    ),
    pytest.param(b'{"jsonrpc":"2.0","id":-1,"method":"ping"}', ("result", -1), id="negative-id"),
    pytest.param(b'{"jsonrpc":"2.0","id":"","method":"ping"}', ("result", ""), id="empty-string-id"),
    pytest.param(
        b'{"jsonrpc":"2.0","id":"' + b"i" * 100_000 + b'","method":"ping"}',
        ("result", "i" * 100_000),
        id="100k-id",
    ),
    pytest.param(call(111, b'{"text":' + DEEP + b"}"), ("error", PARSE, 111), id="deep-nesting"),
    pytest.param(call(112, b'{"text":"\\ud800 lone"}'), ("result", 112), id="lone-surrogate"),
    pytest.param(call(113, b'{"text":"\xff\xfe bytes"}'), ("result", 113), id="invalid-utf8"),
    pytest.param(call(114, b'{"text":NaN}'), ("result", 114), id="nan-argument"),
    pytest.param(call(115, b'{"text":"' + b"y" * (6 * 2**20) + b'"}'), ("result", 115), id="6-mb-line"),
    pytest.param(
        b'{"jsonrpc":"2.0","id":116,"method":"initialize","params":{}}',
        ("error", BAD_PARAMS, 116),
        id="bad-init",
    ),
    pytest.param(
        b'{"jsonrpc":"2.0","method":"notifications/made_up","params":{}}', ("silent",), id="notification"
    ),
    pytest.param(
        b'{"jsonrpc":"2.0","method":"notifications/initialized","params":7}', ("silent",), id="bad-notify"
    ),
    pytest.param(
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":424242}}',
        ("silent",),
        id="cancel-unknown",
    ),
    pytest.param(b'{"jsonrpc":"2.0","id":999,"result":{}}', ("silent",), id="stray-response"),
    pytest.param(b"", ("silent",), id="blank-line"),
]


@pytest.fixture(scope="module")
async def hub(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[RawHub]:
    directory = tmp_path_factory.mktemp("rpc")
    config = write_config(directory, {"f": fault_server("f")})
    with open(directory / "hub.log", "w") as errlog:
        async with raw_hub(config, errlog) as raw:
            with anyio.fail_after(30):
                await raw.request("tools/list")
            yield raw
            with anyio.fail_after(10):
                assert (await raw.request("ping"))["result"] == {}
            assert raw.process.returncode is None
    assert not raw.invalid


@pytest.mark.parametrize(("line", "expected"), CASES)
async def test_malformed_input_gets_the_prescribed_answer_and_the_hub_serves_on(
    hub: RawHub, line: bytes, expected: tuple[Any, ...]
) -> None:
    before = set(hub.answers)
    with anyio.fail_after(30):
        await hub.send(line + b"\n")
        pong = await hub.request("ping")  # answers to bad lines are written before the next line is read
        assert pong["result"] == {}
        match expected:
            case ("error", code, ident):
                answer = await hub.answer(ident)
                assert answer["error"]["code"] == code, answer
                assert answer["error"]["message"], answer
            case ("result", ident):
                answer = await hub.answer(ident)
                assert "result" in answer, answer
            case ("silent",):
                assert set(hub.answers) == before
        echoed = await hub.call("f__echo", {"text": "still serving"})
    assert result_text(echoed) == "f:still serving"
    assert not hub.invalid


async def test_repaired_requests_get_replacement_characters(hub: RawHub) -> None:
    with anyio.fail_after(10):
        await hub.send(call(201, b'{"text":"a\\ud800b"}') + b"\n")
        answer = await hub.answer(201)
    assert result_text(answer["result"]) == "f:a\ufffdb"
    assert json.dumps(answer)  # strict JSON all the way (checked by the reader too)
