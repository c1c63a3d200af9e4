"""Search: ``doc_search`` latency at 100k chunks and the store's indexing throughput, against bare tantivy.

Run: ``.venv/bin/python bench/search.py [--chunks N]`` (about a minute; a temporary directory on disk).

Payloads of 512 KiB are made by mixing runs of consecutive lines from the files of
``../shared/corpus`` (the shipped ``bench/corpus`` when it is absent), so the vocabulary and the
identifiers are real ones. They go into a ``Store`` (1 KiB chunks, as ``bench/store.py``) with
``put`` (reserve, chunk, index, commit per payload) until it holds ``--chunks`` chunks: indexing
MB/s. The baseline indexes the same chunk texts into a bare tantivy index (one stored ``en_stem``
field, one commit per payload). Then 300 queries drawn from the corpus (words, identifiers,
quoted phrases) run against both, interleaved: ``doc_search`` (the native tool's ``run``, in
process: parse, BM25 over text, split identifiers and headings, snippets, formatting) against
parse + search + fetch + snippet on the bare index.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from pathlib import Path

import tantivy
from harness import Figure, corpus_files, median, ms, percentile, print_figures

from context_mode.chunking.split import chunk
from context_mode.store.store import Store
from context_mode.types import ContentKind
from tools.doc_tools import doc_tools

CHUNK_BYTES = 1024
PAYLOAD_BYTES = 512 * 1024
QUERIES = 300
GOAL_MS = 5.0
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,30}")
_IDENTIFIER = re.compile(r"\b(?:[a-z]+[A-Z][A-Za-z0-9]+|[a-z]+_[a-z_0-9]+)\b")


def corpus_lines() -> list[list[str]]:
    files = corpus_files()[1]
    return [path.read_text(encoding="utf-8", errors="replace").splitlines() for path in files]


def payload(rng: random.Random, sources: list[list[str]]) -> str:
    """About PAYLOAD_BYTES of runs of 5–40 consecutive lines from random corpus files."""
    parts: list[str] = []
    size = 0
    while size < PAYLOAD_BYTES:
        lines = rng.choice(sources)
        start = rng.randrange(max(1, len(lines) - 40))
        run = "\n".join(lines[start : start + rng.randrange(5, 40)]) + "\n"
        parts.append(run)
        size += len(run.encode("utf-8"))
    return "".join(parts)


def queries(rng: random.Random, sources: list[list[str]]) -> list[str]:
    text = "\n".join(line for lines in sources for line in lines)
    words = sorted(set(_WORD.findall(text)))
    identifiers = sorted(set(_IDENTIFIER.findall(text)))
    lines = [line for lines in sources for line in lines if len(_WORD.findall(line)) >= 2]
    found: list[str] = []
    for _ in range(QUERIES):
        shape = rng.randrange(4)
        if shape == 0:
            found.append(rng.choice(words))
        elif shape == 1:
            found.append(" ".join(rng.sample(words, 2)))
        elif shape == 2:
            found.append(rng.choice(identifiers))
        else:
            pair = _WORD.findall(rng.choice(lines))
            at = rng.randrange(len(pair) - 1)
            found.append(f'"{pair[at]} {pair[at + 1]}"')
    return found


class BareIndex:
    """The floor: one stored en_stem field, parse + search + fetch + snippet."""

    def __init__(self) -> None:
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("body", stored=True, tokenizer_name="en_stem")
        self.schema = builder.build()
        self.index = tantivy.Index(self.schema, path=None)
        self.writer = self.index.writer(heap_size=32 * 2**20, num_threads=1)

    def put(self, texts: list[str]) -> None:
        for text in texts:
            self.writer.add_document(tantivy.Document(body=text))
        self.writer.commit()
        self.index.reload()

    def search(self, query: str) -> list[str]:
        parsed, _ = self.index.parse_query_lenient(query, ["body"])
        searcher = self.index.searcher()
        snippets = tantivy.SnippetGenerator.create(searcher, parsed, self.schema, "body")
        snippets.set_max_num_chars(200)
        return [
            snippets.snippet_from_doc(searcher.doc(address)).fragment()
            for _, address in searcher.search(parsed, limit=5).hits
        ]


def measure(target_chunks: int) -> dict[str, object]:
    rng = random.Random(11)
    sources = corpus_lines()
    bare = BareIndex()
    ours_seconds = bare_seconds = 0.0
    size = 0
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        store = Store(Path(directory) / "store", max_bytes=2**31, max_chunk_bytes=CHUNK_BYTES)
        with store:
            search_tool = next(
                tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_search"
            )
            while store.stats().chunks < target_chunks:
                text = payload(rng, sources)
                started = time.perf_counter()
                store.put(text, source="bench", kind=ContentKind.LOG)
                ours_seconds += time.perf_counter() - started
                texts = [piece.text for piece in chunk(text, ContentKind.LOG, max_chunk_bytes=CHUNK_BYTES)]
                started = time.perf_counter()
                bare.put(texts)
                bare_seconds += time.perf_counter() - started
                size += len(text.encode("utf-8"))
            chunks = store.stats().chunks
            ours: list[float] = []
            theirs: list[float] = []
            hits = 0
            for query in queries(rng, sources):
                started = time.perf_counter()
                answer = search_tool.run({"query": query, "limit": 5})
                ours.append((time.perf_counter() - started) * 1000)
                hits += not answer.startswith("No hits")
                started = time.perf_counter()
                bare.search(query)
                theirs.append((time.perf_counter() - started) * 1000)
    return {
        "chunks": chunks,
        "megabytes": size / 2**20,
        "ours_mb_s": size / 2**20 / ours_seconds,
        "bare_mb_s": size / 2**20 / bare_seconds,
        "ours": ours,
        "bare": theirs,
        "hits": hits,
    }


def figures(result: dict[str, object]) -> list[Figure]:
    ours, bare = result["ours"], result["bare"]
    assert isinstance(ours, list) and isinstance(bare, list)
    chunks, megabytes = result["chunks"], result["megabytes"]
    ours_rate, bare_rate = float(result["ours_mb_s"]), float(result["bare_mb_s"])  # type: ignore[arg-type]
    return [
        Figure(
            f"doc_search at {chunks:,} chunks (median)",
            ms(median(ours)),
            f"{ms(median(bare))} (bare tantivy)",
            median(ours) / median(bare),
            f"≤ {GOAL_MS:g} ms",
            median(ours) <= GOAL_MS,
            f"p99 {ms(percentile(ours, 0.99))} vs {ms(percentile(bare, 0.99))}; {len(ours)} corpus queries, "
            f"{result['hits']} with hits; 1 KiB chunks; text of {corpus_files()[0]}",
        ),
        Figure(
            "Indexing throughput (Store.put: chunk, index, commit per 512 KB payload)",
            f"{ours_rate:.1f} MB/s",
            f"{bare_rate:.1f} MB/s (bare tantivy)",
            ours_rate / bare_rate,
            "reported",
            None,
            f"{megabytes:.0f} MB of mixed corpus text",
        ),
    ]


def run(quick: bool = False, chunks: int = 100_000) -> list[Figure]:
    return figures(measure(chunks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    options = parser.parse_args()
    print_figures(run(chunks=options.chunks))


if __name__ == "__main__":
    main()
