"""``bench/economy.py`` measures corpus items through a real ``ctxhub serve`` and a real corpus MCP server.

These are checks of the measurement, not accuracy targets for ``bench/corpus`` (those come with
the issues that change stage 1 and search); ``tests/context_mode/test_economy_targets.py`` keeps
the shared corpus's targets.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml

from bench.corpus.build import build
from bench.economy import ItemResult, load_items, main, run, total
from bench.economy_run import measure
from tests.conftest import REPO, text_of
from tests.corpora import BENCH_CORPUS

pytestmark = pytest.mark.timeout(600)


@functools.cache
def _results() -> tuple[ItemResult, ...]:
    """The smallest item of each kind in each set, through one real hub: the measurement's checks.

    ``bench/economy.py`` runs every item for the figures (here they made the suite's longest
    test, 70 s); ``tests/context_mode/summaries/test_real_outputs.py`` summarises every item in
    process, within its budget."""
    sample: dict[tuple[str, str], dict[str, Any]] = {}
    for item in sorted(load_items(BENCH_CORPUS), key=lambda item: int(item["bytes"])):
        sample.setdefault((str(item["kind"]), str(item.get("set", ""))), item)
    results, _ = anyio.run(lambda: measure(BENCH_CORPUS, list(sample.values())))
    return tuple(results)


def test_an_item_of_every_kind_and_set_comes_back_smaller_with_a_ref_to_search() -> None:
    assert {(r.kind, r.set) for r in _results()} >= {("log", "dev"), ("snapshot", "holdout")}
    for result in _results():
        if result.mode == "direct":  # a file the agent asked to read passes whole up to the hard cap
            assert result.reason.startswith("a single-file read") and result.stage1_bytes == result.raw_bytes
            continue
        assert result.mode in {"summary", "directive"}, result.id
        assert result.stage1_bytes < result.raw_bytes, result.id
        assert all(fact.response for fact in result.facts), result.id  # one doc_search reply per fact


def test_the_figures_add_up_per_set_and_overall() -> None:
    results = _results()
    overall = total("overall", results)
    per_set = [total(name, [r for r in results if r.set == name]) for name in ("dev", "holdout")]
    assert sum(group.items for group in per_set) == overall.items == len(results)
    assert sum(group.facts for group in per_set) == overall.facts
    assert sum(group.reached for group in per_set) == overall.reached
    assert overall.in_stage1 <= overall.reached <= overall.facts
    assert overall.searches == overall.facts - overall.in_stage1
    assert overall.queries == overall.facts
    assert overall.max_stage1_bytes == max(r.stage1_bytes for r in results)


PAYLOAD_A = (
    "".join(f'- generic "row {n}" [ref=e{n}]\n' for n in range(400)) + '- button "Deploy now" [ref=e9001]\n'
)
PAYLOAD_B = (
    "".join(f'- generic "cell {n}" [ref=f{n}]\n' for n in range(400)) + '- link "Release notes" [ref=f9002]\n'
)


def _record(ident: str, answer: str, query: str) -> dict[str, Any]:
    return {
        "id": ident,
        "kind": "snapshot",
        "set": "dev",
        "file": f"{ident}.txt",
        "tool": "browser_snapshot",
        "args": {},
        "source": "generated for a test",
        "project": "test",
        "command": "-",
        "description": "a snapshot",
        "facts": [
            {"question": "q", "answer": answer, "query": query},
            {
                "question": "q",
                "answer": "[ref=e0]" if ident.endswith("a") else "[ref=f0]",
                "query": "first row",
            },
            {"question": "q", "answer": "not anywhere", "query": "missing thing"},
        ],
    }


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    (tmp_path / "snapshot-test-a.txt").write_text(PAYLOAD_A, encoding="utf-8")
    (tmp_path / "snapshot-test-b.txt").write_text(PAYLOAD_B, encoding="utf-8")
    records = [
        _record("snapshot-test-a", '"Deploy now" [ref=e9001]', "deploy button"),
        _record("snapshot-test-b", '"Release notes" [ref=f9002]', "release notes link"),
    ]
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "t.yaml").write_text(yaml.safe_dump({"items": records}), encoding="utf-8")
    build(tmp_path)
    return tmp_path


def test_records_sharing_a_tool_and_arguments_each_get_their_own_payload(small_corpus: Path) -> None:
    results, supported = run(small_corpus)
    assert supported is None
    by_id = {r.id: r for r in results}
    assert by_id["snapshot-test-a"].raw_bytes == len(PAYLOAD_A.encode())
    assert by_id["snapshot-test-b"].raw_bytes == len(PAYLOAD_B.encode())
    for result in results:
        deep, first, absent = result.facts
        assert deep.search_found and "[ref=" in deep.response, result.id
        assert first.in_head and first.in_head_tail  # the first line is in any head of stage 1's size
        assert not (absent.in_stage1 or absent.search_found or absent.in_head or absent.in_head_tail)
        assert not deep.in_head  # the last line is past stage 1's size from the top…
        assert deep.in_head_tail  # …and inside its tail


def test_with_intent_each_fact_gets_one_more_call_carrying_its_query(small_corpus: Path) -> None:
    results, supported = run(small_corpus, intent=True, only="test-a")
    assert supported is True  # the hub's tools list an ``intent`` property (routing.intent_argument)
    (result,) = results
    assert all(isinstance(fact.in_intent, bool) for fact in result.facts)
    assert result.intent_bytes > 0
    assert total("a", results).intent is not None


def test_intent_is_skipped_when_the_hub_tools_take_no_intent(
    small_corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--corpus", str(small_corpus), "--intent", "--only", "test-a"]
    assert main([*arguments, "--routing", '{"intent_argument": ""}']) == 0
    out = capsys.readouterr().out
    assert "intent: skipped: hub has no intent argument" in out
    assert "| **all** | **dev** | 1 |" in out


def test_a_missing_corpus_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--corpus", str(tmp_path)]) == 2
    assert f"no corpus at {tmp_path}" in capsys.readouterr().err


@pytest.mark.anyio
async def test_the_corpus_server_answers_by_arguments_and_refuses_an_ambiguous_call(
    small_corpus: Path,
) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(
        command=sys.executable,
        args=[
            str(REPO / "bench" / "corpus_server.py"),
            "--corpus",
            str(small_corpus),
            "--namespace",
            "corpus",
        ],
    )
    with anyio.fail_after(60), open("/dev/null", "w") as devnull:  # noqa: ASYNC230
        async with (
            stdio_client(server, errlog=devnull) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert [tool.name for tool in (await session.list_tools()).tools] == ["browser_snapshot"]
            result = await session.call_tool("browser_snapshot", {})
            assert result.is_error
            assert "2 records of 'browser_snapshot' match" in text_of(result)
