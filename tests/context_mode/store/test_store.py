"""Store basics: reserve/index, reading back, search (identifiers, headings, recency, snippets), errors."""

from __future__ import annotations

import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import context_mode.store.indexing
from context_mode.chunking.split import Chunk
from context_mode.errors import DocumentTooLarge, RefEvicted, RefNotFound, RefPending, StoreClosed
from context_mode.store.store import Store
from context_mode.types import ContentKind


class Clock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ids:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> str:
        self.count += 1
        return f"{self.count:08x}"


@pytest.fixture
def store() -> Iterator[Store]:
    with Store(None, new_id=Ids()) as opened:
        yield opened


@pytest.fixture(scope="module")
def shared() -> Iterator[Store]:
    with Store(None) as opened:
        opened.put(
            "def getUserById(user_id):\n    return users[user_id]\n", source="fs", kind=ContentKind.TEXT
        )
        yield opened


MARKDOWN = """# Installation

Run the installer with pip.

## Linux

Use the apt repository for the kernel module.

## Windows

Use the MSI package.

# Usage

Call ctxhub serve.
"""


def test_reserve_hands_out_a_ref_and_index_makes_it_readable(store: Store) -> None:
    reservation = store.reserve("hello world\n", source="git__log", kind=ContentKind.LOG, title="log")
    assert reservation.ref == "r_00000001"
    assert reservation.spill_path is None
    assert reservation.bytes == 12
    doc = store.index(reservation.ref)
    assert (doc.ref, doc.source, doc.kind, doc.title, doc.bytes, doc.chunk_count) == (
        "r_00000001",
        "git__log",
        ContentKind.LOG,
        "log",
        12,
        1,
    )
    assert store.text(doc.ref) == "hello world\n"
    assert store.index(doc.ref) == doc  # indexing twice is harmless


def test_the_spill_file_is_written_at_reserve_time_and_private(tmp_path: Path) -> None:
    with Store(tmp_path / "store") as store:
        reservation = store.reserve('{"a": 1}', source="api", kind=ContentKind.JSON, spill_file=True)
        assert reservation.spill_path == store.spill_dir / f"{reservation.ref}.json"
        assert reservation.spill_path.read_text() == '{"a": 1}'
        assert stat.S_IMODE(reservation.spill_path.stat().st_mode) == 0o600
        assert stat.S_IMODE(store.spill_dir.stat().st_mode) == 0o700
        assert store.index(reservation.ref).spill_path == reservation.spill_path


@pytest.mark.parametrize(
    ("body", "query"),
    [
        pytest.param("def getUserById(user_id): pass", "user by id", id="camel-by-words"),
        pytest.param("def getUserById(user_id): pass", "getUserById", id="camel-exact"),
        pytest.param("class HTTPResponseParser: ...", "http response", id="acronym-by-words"),
        pytest.param("parseHTTPResponse(raw)", "HTTPResponse", id="identifier-inside-identifier"),
        pytest.param("MAX_RETRY_COUNT = 3", "retry count", id="snake-by-words"),
        pytest.param("the servers were running slowly", "server run", id="stemmed"),
    ],
)
def test_search_finds_identifiers_by_their_words(store: Store, body: str, query: str) -> None:
    target = store.put(body, source="code", kind=ContentKind.TEXT).ref
    store.put("unrelated text about bananas and apples", source="other", kind=ContentKind.TEXT)
    result = store.search(query)
    assert result.hits
    assert result.hits[0].ref == target
    assert result.hits[0].chunk_id == f"{target}#0"


def test_hits_carry_plain_snippets_heading_paths_and_source(store: Store) -> None:
    ref = store.put(MARKDOWN + "filler words here. " * 40, source="docs", kind=ContentKind.MARKDOWN).ref
    hit = store.search("kernel module").hits[0]
    assert (hit.ref, hit.source, hit.heading_path) == (ref, "docs", ("Installation", "Linux"))
    assert "kernel module" in hit.snippet
    assert "<b>" not in hit.snippet and "\n" not in hit.snippet
    assert len(hit.snippet) <= 210


def test_hits_carry_the_matching_lines_verbatim(store: Store) -> None:
    body = (
        "".join(f"routine line {i}\n" for i in range(200)) + "    Error moving temp DB file: Is a directory\n"
    )
    ref = store.put(
        body + "".join(f"more routine {i}\n" for i in range(200)), source="log", kind=ContentKind.LOG
    ).ref
    hit = store.search("moving DB file error", ref=ref).hits[0]
    assert hit.lines[0].text == "Error moving temp DB file: Is a directory"


def test_a_version_in_the_query_finds_that_version_first(store: Store) -> None:
    sections = "".join(
        f"{major}.{minor}.{patch} / 2020-01-0{patch + 1}\n===\n\n* change {major} {minor} {patch}\n\n"
        for major in (3, 4)
        for minor in (0, 18)
        for patch in (0, 2)
    )
    ref = store.put(sections, source="docs", kind=ContentKind.MARKDOWN).ref
    hit = store.search("release 4.18.2", ref=ref).hits[0]
    assert hit.heading_path == ("4.18.2 / 2020-01-03",)


def test_query_words_found_together_rank_above_words_found_apart(store: Store) -> None:
    scattered = "request handling\n" * 3 + "a context object\n" * 3 + "session data\n" * 3 + "tracks access\n"
    together = "commit 1234567\n\n    request context tracks session access\n"
    store.put(scattered * 3, source="apart", kind=ContentKind.TEXT)
    wanted = store.put(together, source="together", kind=ContentKind.TEXT).ref
    assert store.search("request context tracks session access").hits[0].ref == wanted


def test_heading_words_are_searchable(store: Store) -> None:
    store.put(MARKDOWN, source="docs", kind=ContentKind.MARKDOWN)
    hit = store.search("windows").hits[0]
    assert hit.heading_path == ("Installation", "Windows")


def test_the_ref_filter_keeps_hits_in_one_document(store: Store) -> None:
    first = store.put("alpha beta", source="a", kind=ContentKind.TEXT).ref
    second = store.put("alpha gamma", source="b", kind=ContentKind.TEXT).ref
    assert {hit.ref for hit in store.search("alpha").hits} == {first, second}
    assert [hit.ref for hit in store.search("alpha", ref=first).hits] == [first]


def test_equal_scores_rank_the_newest_document_first() -> None:
    clock = Clock()
    with Store(None, clock=clock, dedupe=False) as store:  # identical payloads on purpose
        refs = []
        for moment in (10.0, 30.0, 20.0):
            clock.now = moment
            refs.append(store.put("identical words in every payload", source="t", kind=ContentKind.TEXT).ref)
        assert [hit.ref for hit in store.search("identical words").hits] == [refs[1], refs[2], refs[0]]


@pytest.mark.parametrize(
    "query",
    [
        "foo(",
        '"unclosed',
        "a:b",
        "AND",
        "NOT x",
        "-",
        "*",
        "[1 TO",
        "title:x OR",
        "^2",
        "\\",
        "",
        "   ",
        "r_1#3",
    ],
)
def test_query_syntax_never_reaches_the_caller(shared: Store, query: str) -> None:
    assert shared.search(query).query == query


@settings(max_examples=60, deadline=None)
@given(query=st.text(max_size=40))
def test_any_query_text_is_accepted(shared: Store, query: str) -> None:
    shared.search(query)


def test_no_hit_suggests_the_distinctive_terms_of_the_ref(store: Store) -> None:
    text = "kubernetes deployment replicas\n" * 5 + "the the the and and\n" * 10
    ref = store.put(text, source="k8s", kind=ContentKind.TEXT).ref
    store.put("replicas elsewhere", source="other", kind=ContentKind.TEXT)
    result = store.search("zebra", ref=ref)
    assert result.hits == ()
    assert {"kubernetes", "deployment"} <= set(result.suggestions)
    assert "the" not in result.suggestions
    assert store.search("zebra").suggestions  # without a ref: terms of the recent documents


def test_window_pages_through_a_document_within_the_budget() -> None:
    with Store(None, max_chunk_bytes=256) as store:
        text = "".join(f"line {i:03d} of the payload\n" for i in range(200))
        ref = store.put(text, source="t", kind=ContentKind.LOG).ref
        total = store.document(ref).chunk_count
        parts: list[str] = []
        start: int | None = 0
        while start is not None:
            window = store.window(ref, start, budget_bytes=1000)
            assert window.total == total
            assert sum(len(piece.text.encode()) for piece in window.chunks) <= 1000
            assert [piece.index for piece in window.chunks] == list(range(start, start + len(window.chunks)))
            parts.extend(piece.text for piece in window.chunks)
            start = window.next_start
        assert "".join(parts) == text
        assert [piece.index for piece in store.window(ref, 2, 4).chunks] == [2, 3]
        assert store.window(ref, total + 5).chunks == ()
        assert store.window(ref, total + 5).next_start is None


def test_window_returns_one_chunk_even_when_it_exceeds_the_budget(store: Store) -> None:
    ref = store.put("x" * 3000, source="t", kind=ContentKind.TEXT).ref
    window = store.window(ref, budget_bytes=10)
    assert len(window.chunks) == 1
    assert window.next_start is None


def test_read_chunk_and_outline(store: Store) -> None:
    ref = store.put(MARKDOWN, source="docs", kind=ContentKind.MARKDOWN).ref
    assert store.read_chunk(f"{ref}#1").heading_path == ("Installation", "Linux")
    outline = store.outline(ref)
    assert outline.chunk_count == 4
    assert [(s.heading_path, s.first_chunk) for s in outline.sections] == [
        (("Installation",), 0),
        (("Installation", "Linux"), 1),
        (("Installation", "Windows"), 2),
        (("Usage",), 3),
    ]
    with pytest.raises(RefNotFound, match=rf"{ref}#9 is out of range: {ref} has chunks 0 to 3"):
        store.read_chunk(f"{ref}#9")
    with pytest.raises(RefNotFound, match="is not a chunk id"):
        store.read_chunk("nonsense")


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        pytest.param(
            "r_0badbeef", "r_0badbeef is unknown to this store; use a ref from a recent result", id="unknown"
        ),
        pytest.param("../etc", "'../etc' is not a ref; refs look like r_1a2b3c4d", id="malformed"),
    ],
)
def test_unknown_refs_say_so_with_the_fix(store: Store, ref: str, message: str) -> None:
    with pytest.raises(RefNotFound, match=message.replace(".", r"\.")):
        store.text(ref)


def test_reading_a_pending_ref_indexes_it_first(store: Store) -> None:
    ref = store.reserve("pending words", source="t", kind=ContentKind.TEXT).ref
    assert store.stats().pending == 1
    assert store.text(ref) == "pending words"
    assert store.stats().pending == 0
    assert store.search("pending").hits[0].ref == ref


def test_a_reader_waits_for_the_thread_indexing_the_ref(monkeypatch: pytest.MonkeyPatch) -> None:
    entered, release = threading.Event(), threading.Event()
    real_chunk = context_mode.store.indexing.chunk

    def slow_chunk(text: str, kind: ContentKind, *, max_chunk_bytes: int) -> list[Chunk]:
        entered.set()
        release.wait(10)
        return real_chunk(text, kind, max_chunk_bytes=max_chunk_bytes)

    monkeypatch.setattr(context_mode.store.indexing, "chunk", slow_chunk)
    with Store(None, read_timeout=0.05) as store:
        ref = store.reserve("slow words", source="t", kind=ContentKind.TEXT).ref
        worker = threading.Thread(target=store.index, args=(ref,))
        worker.start()
        assert entered.wait(10)
        with pytest.raises(RefPending, match=f"{ref} is still being indexed after 0.05 s; try again shortly"):
            store.text(ref)
        release.set()
        worker.join(10)
        assert store.text(ref) == "slow words"


def test_a_chunker_failure_costs_only_that_payload(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    real_chunk = context_mode.store.indexing.chunk

    def failing_chunk(text: str, kind: ContentKind, *, max_chunk_bytes: int) -> list[Chunk]:
        if text == "poison":
            raise RuntimeError("bug")
        return real_chunk(text, kind, max_chunk_bytes=max_chunk_bytes)

    monkeypatch.setattr(context_mode.store.indexing, "chunk", failing_chunk)
    bad = store.reserve("poison", source="t", kind=ContentKind.TEXT).ref
    with pytest.raises(RefEvicted, match=f"{bad} was evicted \\(indexing failed: RuntimeError\\)"):
        store.index(bad)
    with pytest.raises(RefEvicted):
        store.text(bad)
    assert store.text(store.put("fine", source="t", kind=ContentKind.TEXT).ref) == "fine"


def test_a_payload_over_the_whole_budget_is_refused() -> None:
    with Store(None, max_bytes=100) as store, pytest.raises(DocumentTooLarge) as raised:
        store.reserve("x" * 101, source="git__log", kind=ContentKind.LOG)
    assert str(raised.value) == (
        "the result of git__log is 101 bytes, more than the whole store budget of 100 bytes; "
        "raise the store's max_bytes or ask the tool for less"
    )


def test_lone_surrogates_are_stored_as_replacement_characters(store: Store) -> None:
    ref = store.put("bad \ud800 char", source="t", kind=ContentKind.TEXT).ref
    assert store.text(ref) == "bad \ufffd char"


def test_an_empty_payload_is_one_empty_chunk(store: Store) -> None:
    doc = store.put("", source="t", kind=ContentKind.JSON)
    assert (doc.chunk_count, doc.bytes) == (1, 0)
    assert store.text(doc.ref) == ""
    assert store.window(doc.ref).chunks[0].text == ""


def test_documents_lists_newest_first_and_stats_add_up() -> None:
    clock = Clock()
    with Store(None, clock=clock, dedupe=False) as store:  # identical payloads on purpose
        refs = []
        for moment in (5.0, 7.0, 6.0):
            clock.now = moment
            refs.append(store.put("abc " * 10, source="t", kind=ContentKind.TEXT).ref)
        assert [doc.ref for doc in store.documents()] == [refs[1], refs[2], refs[0]]
        assert [doc.ref for doc in store.documents(1)] == [refs[1]]
        stats = store.stats()
        assert (stats.bytes, stats.refs, stats.chunks, stats.evictions, stats.pending) == (120, 3, 3, 0, 0)


def test_a_closed_store_refuses_calls_and_removes_its_temporary_spill_dir() -> None:
    store = Store(None)
    ref = store.put("x", source="t", kind=ContentKind.TEXT, spill_file=True).ref
    spill_dir = store.spill_dir
    store.close()
    store.close()
    assert not spill_dir.exists()
    with pytest.raises(StoreClosed, match="the store is closed"):
        store.text(ref)
    with pytest.raises(StoreClosed):
        store.reserve("y", source="t", kind=ContentKind.TEXT)


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=3000))
def test_any_text_reads_back_exactly(shared: Store, text: str) -> None:
    ref = shared.put(text, source="t", kind=ContentKind.TEXT).ref
    assert shared.text(ref) == text


def test_the_same_payload_stored_again_returns_its_ref_and_search_hits_do_not_repeat(tmp_path: Path) -> None:
    text = "ERROR the quokka service timed out\n" * 20
    with Store(tmp_path / "store") as store:
        first = store.put(text, source="ws__read_log", kind=ContentKind.LOG, spill_file=True)
        again = store.reserve(text, source="ws__read_log", kind=ContentKind.LOG, spill_file=True)
        other = store.put(text + "one more line\n", source="ws__read_log", kind=ContentKind.LOG)
        assert again.ref == first.ref and again.spill_path == first.spill_path
        assert other.ref != first.ref
        assert store.stats().refs == 2
        hits = store.search("quokka", limit=10).hits
        assert sorted({hit.ref for hit in hits}) == sorted({first.ref, other.ref})
    with Store(tmp_path / "store") as reopened:  # the digests come back from the index
        assert reopened.put(text, source="t", kind=ContentKind.LOG).ref == first.ref
