"""The LLM summariser against a real OpenAI-style HTTP server on 127.0.0.1: answers, fallbacks, breaker."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from context_mode.memory.session import MemoryPolicy, SessionMemory
from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN
from hub.llm import LLMSummarizer

PROMPT_OVERHEAD_TOKENS = 17  # what a chat template adds; calibration must cancel it


@dataclass
class Endpoint:
    """What the fake endpoint answers, and what it saw."""

    url: str = ""
    mode: str = "ok"  # ok | slow | error | empty | no-usage
    answer: str = "Loader moves to hub/config.py; unknown keys are rejected."
    release: threading.Event = field(default_factory=threading.Event)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


def handler_for(endpoint: Endpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            endpoint.requests.append(body)
            endpoint.headers.append(dict(self.headers))
            if endpoint.mode == "slow":
                endpoint.release.wait(timeout=10)
            if endpoint.mode == "error":
                self.respond(500, {"error": {"message": "boom"}})
                return
            prompt_chars = sum(len(message["content"]) for message in body["messages"])
            usage = {"prompt_tokens": PROMPT_OVERHEAD_TOKENS + prompt_chars // 4, "completion_tokens": 1}
            content = "" if endpoint.mode == "empty" else endpoint.answer
            reply: dict[str, Any] = {
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]
            }
            if endpoint.mode != "no-usage":
                reply["usage"] = usage
            self.respond(200, reply)

        def respond(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up (timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    state = Endpoint()
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(state))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_summary_comes_from_the_chat_completions_endpoint(endpoint: Endpoint) -> None:
    with LLMSummarizer(endpoint.url, "tiny", api_key="sk-test", timeout=5) as llm:
        assert llm.summarize("long notes " * 50, max_tokens=120) == endpoint.answer
    (request,) = endpoint.requests
    assert request["model"] == "tiny"
    assert request["max_tokens"] == 120
    assert request["messages"][-1] == {"role": "user", "content": "long notes " * 50}
    assert "120 tokens" in request["messages"][0]["content"]
    assert endpoint.headers[0]["Authorization"] == "Bearer sk-test"


def test_compaction_uses_the_endpoint_answer(endpoint: Endpoint, tmp_path: Path) -> None:
    with LLMSummarizer(endpoint.url, "tiny", timeout=5) as llm:
        memory = SessionMemory(tmp_path, MemoryPolicy(compact_keep=1), summarizer=llm)
        for number in range(6):
            memory.append("s", f"Step {number}: read the loader section {number} and noted its defaults.")
        result = memory.compact("s")
    assert result.method == "llm"
    assert result.summary is not None and result.summary.text == endpoint.answer


def test_a_timeout_falls_back_to_the_extractive_summary_and_opens_the_breaker(
    endpoint: Endpoint, tmp_path: Path
) -> None:
    endpoint.mode = "slow"
    clock = Clock()
    with LLMSummarizer(endpoint.url, "tiny", timeout=0.3, clock=clock) as llm:
        memory = SessionMemory(tmp_path, MemoryPolicy(compact_keep=1), summarizer=llm)
        for number in range(6):
            memory.append("s", f"Step {number}: read the loader section {number} and noted its defaults.")
        result = memory.compact("s")
        assert result.method == "extractive"
        assert result.summary is not None and "loader section" in result.summary.text
        assert len(endpoint.requests) == 1
        assert llm.breaker_open


def test_while_the_breaker_is_open_no_request_is_sent(endpoint: Endpoint) -> None:
    endpoint.mode = "error"
    clock = Clock()
    with LLMSummarizer(endpoint.url, "tiny", timeout=5, clock=clock, breaker_seconds=30) as llm:
        assert llm.summarize("notes", max_tokens=50) is None
        assert len(endpoint.requests) == 1
        endpoint.mode = "ok"
        clock.now += 29.9
        assert llm.summarize("notes", max_tokens=50) is None
        assert len(endpoint.requests) == 1  # skipped: still backing off
        clock.now += 0.2
        assert llm.summarize("notes", max_tokens=50) == endpoint.answer
        assert len(endpoint.requests) == 2
        assert not llm.breaker_open


def test_an_empty_answer_falls_back_without_opening_the_breaker(endpoint: Endpoint) -> None:
    endpoint.mode = "empty"
    with LLMSummarizer(endpoint.url, "tiny", timeout=5) as llm:
        assert llm.summarize("notes", max_tokens=50) is None
        assert not llm.breaker_open


def test_an_unreachable_endpoint_falls_back_and_opens_the_breaker() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again below: nothing listens there
    with LLMSummarizer(f"http://127.0.0.1:{port}/v1", "tiny", timeout=2) as llm:
        assert llm.summarize("notes", max_tokens=50) is None
        assert llm.breaker_open


def test_calibration_is_the_prompt_token_slope_and_is_cached(endpoint: Endpoint) -> None:
    with LLMSummarizer(endpoint.url, "tiny", timeout=5) as llm:
        value = llm.calibrate()
        assert value == pytest.approx(4.0 * 0.9, rel=0.02)  # the server counts 4 chars per token
        assert [request["max_tokens"] for request in endpoint.requests] == [1, 1]
        assert llm.calibrate() == value
        assert len(endpoint.requests) == 2


def test_calibration_without_usage_returns_the_default_and_retries_later(endpoint: Endpoint) -> None:
    endpoint.mode = "no-usage"
    with LLMSummarizer(endpoint.url, "tiny", timeout=5) as llm:
        assert llm.calibrate() == DEFAULT_CHARS_PER_TOKEN
        endpoint.mode = "ok"
        assert llm.calibrate() == pytest.approx(3.6, rel=0.02)
