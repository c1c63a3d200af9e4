"""The hub's own life: stdin EOF, SIGTERM and SIGKILL of a real ``ctxhub serve`` with refs in flight.

Pass criterion: the downstream processes exit (through stdio EOF when the hub is SIGKILLed, within
a few seconds); the store directory reopens cleanly; every ref handed out before the hub stopped
reads back exactly the payload it named, or reports itself evicted, never unknown or wrong;
session-memory notes saved before the stop are all there.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from context_mode.errors import RefEvicted
from context_mode.memory.session import SessionMemory
from context_mode.store.store import Store
from tests.conftest import write_config
from tests.fixtures.fault_server import log_text
from tests.reliability.harness import alive, eventually, fault_server, raw_hub, result_text, servers_under

pytestmark = pytest.mark.anyio

PAYLOADS = 40
NOTES = 10
STORE_BYTES = 18 * 2**20  # store.max_bytes: the directory bound, small enough that early ones are evicted
PAYLOAD_BYTES = STORE_BYTES // 2  # the largest payload the hub accepts (hub.stores)


def sizes() -> list[float]:
    return [0.1 + number * 0.0025 for number in range(PAYLOADS)]


@pytest.mark.parametrize("how", ["stdin-eof", "sigterm", "sigkill"])
async def test_stopping_the_hub_loses_no_ref_and_leaves_no_child(tmp_path: Path, how: str) -> None:
    store_path = tmp_path / "store"
    config = write_config(
        tmp_path,
        {"a": fault_server("a"), "b": fault_server("b")},
        store={"path": str(store_path), "max_bytes": STORE_BYTES},
    )
    handed_out: dict[str, float] = {}
    with anyio.fail_after(60):
        async with raw_hub(config) as hub:
            await hub.request("tools/list")
            children = servers_under(hub.process.pid)
            assert len(children) == 2

            async def payload(number: int, mb: float) -> None:
                result = await hub.call(f"{'ab'[number % 2]}__huge", {"mb": mb})
                ref = result["_meta"]["ctxhub/route"]["ref"]
                assert ref and ref not in handed_out
                handed_out[ref] = mb

            async def note(number: int) -> None:
                arguments = {"session_id": "crash-test", "text": f"note {number}"}
                saved = await hub.call("context_append", arguments)
                assert result_text(saved).startswith("Saved #"), saved

            async with anyio.create_task_group() as group:
                for number, mb in enumerate(sizes()):
                    group.start_soon(payload, number, mb)
                for number in range(NOTES):
                    group.start_soon(note, number)
            await payload(PAYLOADS, 2.0)  # a last, big one: its indexing is surely still running
            stopped = time.monotonic()
            match how:  # right after the last answer: some payloads are still being indexed
                case "stdin-eof":
                    assert hub.process.stdin is not None
                    await hub.process.stdin.aclose()
                case "sigterm":
                    hub.process.send_signal(signal.SIGTERM)
                case "sigkill":
                    hub.process.kill()
            code = await hub.process.wait()
            await eventually(lambda: not any(alive(pid) for pid in children))
            children_gone = time.monotonic() - stopped
    assert code == (-signal.SIGKILL if how == "sigkill" else 0)
    assert children_gone < (5 if how == "sigkill" else 30), children_gone
    assert len(handed_out) == PAYLOADS + 1
    verdicts = check_refs(store_path, handed_out)
    assert verdicts["readable"] + verdicts["evicted"] == PAYLOADS + 1, verdicts
    assert verdicts["readable"] >= 1
    notes = SessionMemory(store_path / "sessions").entries("crash-test")
    assert sorted(entry.text for entry in notes) == sorted(f"note {number}" for number in range(NOTES))


def check_refs(store_path: Path, handed_out: dict[str, float]) -> dict[str, Any]:
    """Reopen the store and read every ref: exactly its payload, or RefEvicted; anything else fails."""
    verdicts = {"readable": 0, "evicted": 0}
    with Store(store_path, max_bytes=PAYLOAD_BYTES) as store:
        for ref, mb in handed_out.items():
            try:
                text = store.text(ref)
            except RefEvicted:
                verdicts["evicted"] += 1
                continue
            assert text == log_text(mb), ref
            doc = store.document(ref)
            if doc.spill_path is not None:
                assert doc.spill_path.read_text() == text
            verdicts["readable"] += 1
        assert store.stats().bytes <= PAYLOAD_BYTES
        live = {doc.ref for doc in store.documents(None)}
    assert live <= set(handed_out)
    assert os.access(store_path, os.W_OK)
    return verdicts
