"""doc_search with several questions in one call, and replies that say what they leave out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from context_mode.store import Store
from context_mode.types import ContentKind
from tools.doc_tools import SEARCH_BUDGET_BYTES, doc_tools
from tools.errors import ToolInputError
from tools.registry import NativeTool

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "excerpts"


@pytest.fixture
def store() -> Iterator[Store]:
    with Store(None) as opened:
        yield opened


@pytest.fixture
def search(store: Store) -> NativeTool:
    return next(tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_search")


def test_queries_answer_each_question_under_its_own_heading(store: Store, search: NativeTool) -> None:
    text = (FIXTURES / "pip-list.txt").read_text(encoding="utf-8")
    ref = store.put(text, source="shell__pip_list", kind=ContentKind.TABLE).ref
    reply = search.run({"queries": ["argon2-cffi-bindings", "asttokens", "no-such-package-zz"], "ref": ref})
    sections = re.split(r"^## \d\. ", reply, flags=re.MULTILINE)[1:]
    assert [section.splitlines()[0] for section in sections] == [
        "argon2-cffi-bindings",
        "asttokens",
        "no-such-package-zz",
    ]
    assert "argon2-cffi-bindings      26.2.0" in sections[0]
    assert "asttokens                 3.0.2" in sections[1]
    assert sections[2].splitlines()[1].startswith('No hits for "no-such-package-zz"')
    assert len(reply.encode()) <= 3 * SEARCH_BUDGET_BYTES


def test_query_and_queries_together_share_one_reply(store: Store, search: NativeTool) -> None:
    text = (FIXTURES / "vertical-rows.txt").read_text(encoding="utf-8")
    ref = store.put(text, source="db__query", kind=ContentKind.TEXT).ref
    reply = search.run({"query": "Grand-Est", "queries": ["Guadeloupe"], "ref": ref})
    assert reply.startswith("## 1. Grand-Est\n")
    assert "\n## 2. Guadeloupe\n" in reply
    assert "code: FR-GES" in reply and "code: FR-GP" in reply


def test_queries_must_be_a_short_list_of_strings(search: NativeTool) -> None:
    with pytest.raises(ToolInputError, match="queries must be strings"):
        search.run({"queries": ["ok", 3]})
    with pytest.raises(ToolInputError, match="at most 8 queries"):
        search.run({"queries": [f"q{i}" for i in range(9)]})
    with pytest.raises(ToolInputError, match="non-empty query"):
        search.run({"queries": [" "]})


def test_hits_left_out_are_counted_with_a_call_that_shows_them(store: Store, search: NativeTool) -> None:
    records = "".join(
        f"2024-05-01 10:{i // 60:02d}:{i % 60:02d} WARN shard {i} replica lagging behind leader by {i} ms "
        + "filler words " * 20
        + "\n"
        for i in range(400)
    )
    ref = store.put(records, source="logs__tail", kind=ContentKind.LOG).ref
    reply = search.run({"query": "replica lagging behind leader", "ref": ref})
    # one ref searched: named in the first line, its chunks by number
    # and more hits than asked for: the limit that shows them
    assert reply.splitlines()[0] == f"5 hits in {ref} (more with limit=10):"
    shown = {line.split(" ")[0] for line in reply.splitlines() if line.startswith("#")}
    (note,) = [line for line in reply.splitlines() if "not shown" in line]
    count, rest = note.split(" more hit", 1)
    assert int(count) == 5 - len(shown)
    call = re.search(r'doc_window\(ref="(r_\w+)", start=(\d+), end=(\d+)\)', rest)
    assert call is not None and call.group(1) == ref
    hidden = f"#{call.group(2)}"
    assert hidden in rest and hidden not in shown
    # the hidden hits' call says there is more to see: no second call below it
    assert not [line for line in reply.splitlines() if line.startswith("More hits: ")]
    assert len(reply.encode()) <= SEARCH_BUDGET_BYTES


def test_more_hits_than_asked_for_all_shown_get_the_next_pages_call(store: Store, search: NativeTool) -> None:
    for n in range(12):
        store.put(f"quokka sighting number {n}\n", source="notes__add", kind=ContentKind.TEXT)
    reply = search.run({"query": "quokka sighting"}).splitlines()
    assert reply[0] == "5 hits (more with limit=10):"
    assert not any("not shown" in line for line in reply)
    assert reply[-2] == 'More hits: doc_search(query="quokka sighting", limit=10)'
