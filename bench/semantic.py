"""Semantic signal for ``doc_search`` (issue 17, item 2): a static embedding model blended with BM25.

Usage (from the repo root; needs ``pip install wordllama``, else it says so and exits 0)::

    .venv/bin/python bench/semantic.py facts [--set dev|holdout|both] [--variants off,lines:0.5,...]
        [--parts fresh15a,fresh15b]
    .venv/bin/python bench/semantic.py latency [--chunks 100000] [--variants off,lines:0.5,rerank:0.7]
    .venv/bin/python bench/semantic.py load

The model is wordllama's ``l2_supercat`` (256 dimensions): its 16 MB weights and its tokenizer
ship inside the wheel, and ``load`` below reads them from there with downloads disabled (the
package's own lookup misses its shipped tokenizer and would fetch it from a hub). Vectors are the
mean of the tokens' vectors, normalised; the cosine of two texts is their dot product. Everything
is computed at query time for the hits only; nothing in the product changes: the variants patch
``ChunkIndex.search`` and the ``best_lines`` it calls for the run.

Variants (``off``, ``rerank:A``, ``lines:B``, ``both:A:B``):

- ``rerank:A``: the top 20 BM25 chunks are re-ordered by ``A * bm25 / best + (1 - A) * cosine``
  of query and chunk (the blended score, on the BM25 scale, is the hit's score), then the shown
  hits get their lines as usual.
- ``lines:B``: inside each hit chunk every passage's term weights are scaled by ``B`` and it
  gains a semantic share ``(1 - B) * (sum of the query's term weights) * cosine`` of its line to
  the query; the 2 lines nearest the query (cosine ≥ 0.3) that hold no query term are offered as
  passages worth their semantic share alone. ``choose_lines`` then halves the semantic share for
  each line already shown with it, as it does for any term. This is where paraphrases miss.

``facts`` prints, per variant and set, in process (``bench/economy.py`` does it through a hub):
facts within stage 1 + one ``doc_search`` per fact missing from it, search only (one search
per fact, no stage 1), mean bytes per search reply and mean ms per search; ``--parts`` keeps the
items of those ``parts/<part>.yaml`` files only. Tune on ``dev`` only; ``holdout`` is the final
figure. ``latency`` builds one store of ``--chunks`` 1 KiB chunks as ``bench/search.py`` does
and times the same 300 queries per variant against bare tantivy.
``load`` is import + load + first embedding and the peak RSS, in a fresh interpreter.

Measured (2 cores, shared with another busy worktree, wordllama 0.4.0.post1): no variant reaches
the bar of +4 holdout facts. Best on dev, ``lines:0.7``: dev 123 -> 124/145 (search only 102 ->
106), holdout 84 -> 83/112 (search only 75 -> 76); ``rerank`` gains nothing within stage 1 +
1 search on dev at any alpha. At 100k chunks ``doc_search`` p50 goes from 5.8-6.5 ms to 13 ms
(``lines``) and 24 ms (``rerank``); embedding every chunk at index time instead runs at about
0.6 MB/s, a third of ``Store.put``'s rate. Load is 0.7-1.1 s and +125 MB of RSS. BM25 stays.

Again on the broad corpus (round twenty-one, 2,239 dev and 1,785 holdout facts, at a5f00f5's
search): ``off`` 1961 / 1552 within stage 1 + one search (search only 1724 / 1382); ``lines:0.7``
1962 / 1556 (1719 / 1385); ``lines:0.5`` 1956 / 1560 (1711 / 1392); ``rerank:0.7`` 1928 / 1551
(1626 / 1330). On dev, where a variant is chosen, none gains more than one fact; the holdout's
+4 to +8 for ``lines`` would cost 5-8 times the search time in process. BM25 stays.

On the fresh sets (2026-12-05, wordllama 0.4.0.post1; ``--parts fresh15a,fresh15b,fresh15c,
fresh15d``: 168 dev and 144 holdout facts, queries written to avoid the answer's words), within
stage 1 + one search (search only), dev / holdout: ``off`` 122 / 104 (97 / 85); ``lines:0.7``
124 / 102 (101 / 80); ``lines:0.5`` 124 / 101 (100 / 79); ``rerank:0.7`` 124 / 104 (98 / 85);
``both:0.7:0.5`` 123 / 102 (99 / 80); on dev only, ``lines:0.8`` and ``rerank:0.5`` 124 (99).
Chosen on dev, ``lines:0.7`` loses 2 holdout facts (5 search only); on the whole corpus (2,407
dev and 1,929 holdout facts) ``off`` 2182 / 1698 (1918 / 1508) against ``lines:0.7`` 2176 / 1691
(1902 / 1494). The fresh sets' replies stay at 1.4 KB; a search in process takes 15-21 ms
``off``, 35-70 ms with a variant; at 100k chunks ``doc_search`` p50 goes from 3.1 to 6.6 ms
(p99 9.3 to 14.7 ms), over the 5 ms goal; load 0.7-1.0 s and +127 MB of RSS. ``rerank`` now
scopes its term weights to the search's ref and keeps the passages the search's later steps add
(a payload's edges, answers, keyed rows), so ``rerank:1.0`` gives ``off``'s figures exactly; before,
it lost 2 fresh dev facts. BM25 stays.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from search_facts import items, stored_item  # noqa: E402  (bench/ is on the path when run)

from bench.corpus.build import read_yaml  # noqa: E402
from context_mode.store import index as store_index  # noqa: E402
from context_mode.store.cutting import LINE_WIDTH  # noqa: E402
from context_mode.store.store import Store  # noqa: E402
from context_mode.store.terms import Term, query_terms, with_numeric_dates  # noqa: E402
from context_mode.store.values import LineMatch  # noqa: E402
from context_mode.types import ContentKind  # noqa: E402
from tools.doc_tools import doc_tools  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
DEFAULT_VARIANTS = "off,rerank:0.9,rerank:0.7,rerank:0.5,lines:0.9,lines:0.7,lines:0.5"
RERANK_POOL = 20
LINE_CAP = 240  # characters of a line embedded and shown
MAX_LINES = 200  # lines of one chunk embedded
EXTRA_LINES = 2  # lines without query terms offered per chunk
FLOOR = 0.3  # their least cosine to the query
SEMANTIC_KEY = "~semantic"
EMBEDDED_PAYLOADS = 8

_ORIGINAL_SEARCH = store_index.ChunkIndex.search
_ORIGINAL_BEST_LINES = getattr(store_index, "best_lines")  # noqa: B009 (patched below)
_ORIGINAL_CARD = store_index.ChunkIndex._record_card


# --- the model ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def model() -> Any:
    """wordllama from the weights and tokenizer inside its wheel; never downloads."""
    import wordllama

    # WordLlama.load looks for the shipped tokenizer in ``tokenizer/`` but the wheel has it in
    # ``tokenizers/``; as the cache directory, the package's own folder holds both files.
    loaded = wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    loaded.embed(["warm up"])
    return loaded


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    """The model's tokenizer without padding: tokens are summed per text, not batched as a matrix."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(model().tokenizer.to_str())
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def embed(texts: Sequence[str]) -> Any:
    """Unit vectors (rows) for ``texts``, the mean of their tokens' vectors (wordllama's ``embed``).

    A text with no known token gets a zero vector. Tokens of all texts are gathered at once and
    summed per text with ``np.add.reduceat``: about twice as fast as wordllama's padded batch on lines.
    """
    import numpy as np

    table = model().embedding
    encoded = _tokenizer().encode_batch([text[:4000] for text in texts], add_special_tokens=False)
    counts = np.array([len(found.ids) for found in encoded], dtype=np.int64)
    vectors = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
    present = counts > 0
    if present.any():
        ids = np.concatenate([found.ids for found in encoded if found.ids]).astype(np.int64)
        starts = np.concatenate(([0], np.cumsum(counts[present])[:-1]))
        vectors[present] = np.add.reduceat(table[ids], starts, axis=0)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-9)


@lru_cache(maxsize=64)
def _query_vector(query: str) -> Any:
    return embed([query])[0]


# --- the variants, as patches of the index ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Variant:
    label: str
    rerank: float | None = None  # alpha: the BM25 share of a chunk's score
    lines: float | None = None  # beta: the term share of a passage's worth


def parse_variant(text: str) -> Variant:
    name, *numbers = text.split(":")
    values = [float(number) for number in numbers]
    match name, values:
        case "off", []:
            return Variant(text)
        case "rerank", [alpha]:
            return Variant(text, rerank=alpha)
        case "lines", [beta]:
            return Variant(text, lines=beta)
        case "both", [alpha, beta]:
            return Variant(text, rerank=alpha, lines=beta)
    raise SystemExit(f"unknown variant {text!r} (off, rerank:A, lines:B or both:A:B)")


@contextmanager
def installed(variant: Variant) -> Iterator[None]:
    """``ChunkIndex.search`` and its ``best_lines`` patched for ``variant`` while the block runs."""
    if variant.lines is not None:
        setattr(store_index, "best_lines", _blending(variant.lines))  # noqa: B010
    if variant.rerank is not None:
        store_index.ChunkIndex.search = _reranking(variant.rerank)  # type: ignore[method-assign]
    try:
        yield
    finally:
        setattr(store_index, "best_lines", _ORIGINAL_BEST_LINES)  # noqa: B010
        store_index.ChunkIndex.search = _ORIGINAL_SEARCH  # type: ignore[method-assign]
        store_index.ChunkIndex._record_card = _ORIGINAL_CARD  # type: ignore[method-assign]


def _reranking(alpha: float) -> Callable[..., list[store_index.IndexHit]]:
    def search(
        self: store_index.ChunkIndex,
        text: str,
        *,
        ref: str | None,
        limit: int,
        is_live: Callable[[str], bool],
    ) -> list[store_index.IndexHit]:
        lines_of = getattr(store_index, "best_lines")  # noqa: B009
        # The pool's BM25 order without its lines: they are made below for the hits kept.
        setattr(store_index, "best_lines", lambda *args, **kwargs: ())  # noqa: B010
        store_index.ChunkIndex._record_card = lambda *args: None  # type: ignore[method-assign]
        try:
            pool = _ORIGINAL_SEARCH(self, text, ref=ref, limit=max(limit, RERANK_POOL), is_live=is_live)
        finally:
            setattr(store_index, "best_lines", lines_of)  # noqa: B010
            store_index.ChunkIndex._record_card = _ORIGINAL_CARD  # type: ignore[method-assign]
        if not pool:
            return pool
        vectors = embed([text, *(hit.chunk.text for hit in pool)])
        cosines = vectors[1:] @ vectors[0]
        best = max(hit.score for hit in pool) or 1.0
        blended = [
            replace(hit, score=best * (alpha * hit.score / best + (1 - alpha) * max(float(cosine), 0.0)))
            for hit, cosine in zip(pool, cosines, strict=True)
        ]
        blended.sort(key=lambda hit: -round(hit.score, 4))
        searcher = self._index.searcher()
        # Terms and weights as the search makes them (dates as numbers, weights within ``ref``); the
        # pool's hits keep the passages its later steps added (a payload's edges, answers, rows).
        terms = self._near_terms(searcher, query_terms(with_numeric_dates(text)), ref)
        weights = self._term_weights(searcher, terms, ref)
        kept = []
        for hit in blended[:limit]:
            found = lines_of(hit.chunk.text, terms, weights, heading=" ".join(hit.chunk.heading_path))
            card = self._record_card(hit.chunk, terms, weights)
            kept.append(replace(hit, lines=(*hit.lines, *((card, *found) if card else found))))
        return kept

    return search


def _blending(beta: float) -> Callable[..., tuple[LineMatch, ...]]:
    def best_lines(
        text: str,
        terms: Sequence[Term],
        weights: dict[tuple[str, ...], float],
        *,
        heading: str = "",
        width: int = LINE_WIDTH,
    ) -> tuple[LineMatch, ...]:
        found: tuple[LineMatch, ...] = _ORIGINAL_BEST_LINES(
            text, terms, weights, heading=heading, width=width
        )
        query = " ".join(term.text for term in terms)
        if not query:
            return found
        total = sum(weights.get(term.stems, 1.0) for term in terms) or 1.0
        return blend_lines(_query_vector(query), text, found, total, beta)

    return best_lines


def blend_lines(
    query_vector: Any, text: str, passages: Sequence[LineMatch], total: float, beta: float
) -> tuple[LineMatch, ...]:
    """The chunk's passages with their semantic share, plus its lines nearest the query (module doc)."""
    rows = [(number, line.strip()) for number, line in enumerate(text.splitlines()) if line.strip()]
    rows = rows[:MAX_LINES]
    if len(rows) < 2:
        return tuple(passages)  # one passage, shown whole already
    vectors = embed([line[:LINE_CAP] for _, line in rows])
    cosine = {number: float(value) for (number, _), value in zip(rows, vectors @ query_vector, strict=True)}
    blended = []
    for passage in passages:
        share = (1 - beta) * total * max(cosine.get(passage.number, 0.0), 0.0)
        matched = (*((key, value * beta) for key, value in passage.matched), (SEMANTIC_KEY, share))
        blended.append(replace(passage, matched=matched, score=sum(value for _, value in matched)))
    taken = {passage.number for passage in passages}
    nearest = sorted(
        ((value, number) for number, value in cosine.items() if number not in taken and value >= FLOOR),
        reverse=True,
    )[:EXTRA_LINES]
    lines = dict(rows)
    for value, number in nearest:
        worth = (1 - beta) * total * value
        shown = lines[number] if len(lines[number]) <= LINE_CAP else lines[number][:LINE_CAP] + "…"
        blended.append(LineMatch(number, shown, worth, ((SEMANTIC_KEY, worth),)))
    blended.sort(key=lambda passage: (-passage.score, passage.number, passage.lines))
    return tuple(blended)


# --- facts ----------------------------------------------------------------------------------------


@dataclass
class Figures:
    facts: int = 0
    reached: int = 0
    search_only: int = 0
    search_bytes: int = 0
    search_seconds: float = 0.0


def measure(item: dict[str, Any], text: str, figures: Figures) -> None:
    """Route, store, render stage 1 and search every fact of one item, as the hub and agent would."""
    with stored_item(item, text) as stored:
        doc = stored.doc
        stage1 = stored.stage1(text)
        search = stored.search_tool()
        for fact in item["facts"]:
            answer, query = str(fact["answer"]), str(fact["query"])
            started = time.perf_counter()
            response = search.run({"query": query, "ref": doc.ref})
            figures.search_seconds += time.perf_counter() - started
            found = answer in response
            figures.facts += 1
            figures.search_bytes += len(response.encode("utf-8"))
            figures.search_only += found
            figures.reached += answer in stage1 or found


def part_ids(corpus: Path, parts: Sequence[str]) -> set[str] | None:
    """The ids of the items in ``parts/<part>.yaml`` for each part, or None (every item) for none."""
    if not parts:
        return None
    return {
        str(item["id"]) for part in parts for item in read_yaml(corpus / "parts" / f"{part}.yaml")["items"]
    }


def facts(corpus: Path, sets: Sequence[str], variants: Sequence[Variant], parts: Sequence[str] = ()) -> None:
    kept = part_ids(corpus, parts)
    model()  # loaded before the clock runs
    print("| variant | set | stage 1 + 1 search | search only | B / search | ms / search |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for variant in variants:
        for chosen in sets:
            figures = Figures()
            with installed(variant):
                for item in items(corpus, chosen):
                    if kept is not None and str(item["id"]) not in kept:
                        continue
                    measure(item, (corpus / item["file"]).read_text(encoding="utf-8"), figures)
            print(
                f"| {variant.label} | {chosen} | {figures.reached}/{figures.facts} "
                f"| {figures.search_only}/{figures.facts} | {figures.search_bytes / figures.facts:.0f} "
                f"| {figures.search_seconds * 1000 / figures.facts:.2f} |",
                flush=True,
            )


# --- latency and load -------------------------------------------------------------------------------


def latency(target_chunks: int, variants: Sequence[Variant]) -> None:
    """One store of ``target_chunks`` 1 KiB chunks (as bench/search.py), the same queries per variant."""
    import search as search_bench
    from harness import median, percentile

    from context_mode.chunking.split import chunk

    model()
    rng = random.Random(11)
    sources = search_bench.corpus_lines()
    bare = search_bench.BareIndex()
    with tempfile.TemporaryDirectory(prefix="ctxhub-semantic-") as directory:
        store = Store(Path(directory) / "store", max_bytes=2**31, max_chunk_bytes=search_bench.CHUNK_BYTES)
        with store:
            tool = next(t for t in doc_tools(store, ingest_roots=()) if t.name == "doc_search")
            indexed = embedded = embedding_seconds = 0.0
            payloads = 0
            while store.stats().chunks < target_chunks:
                text = search_bench.payload(rng, sources)
                started = time.perf_counter()
                store.put(text, source="bench", kind=ContentKind.LOG)
                indexed += time.perf_counter() - started
                pieces = [
                    piece.text
                    for piece in chunk(text, ContentKind.LOG, max_chunk_bytes=search_bench.CHUNK_BYTES)
                ]
                bare.put(pieces)
                payloads += 1
                if payloads <= EMBEDDED_PAYLOADS:  # what embedding every chunk at index time would cost
                    started = time.perf_counter()
                    model().embed(pieces)
                    embedding_seconds += time.perf_counter() - started
                    embedded += len(text.encode("utf-8"))
            megabytes = payloads * search_bench.PAYLOAD_BYTES / 2**20
            print(
                f"indexing {megabytes / indexed:.1f} MB/s (Store.put); embedding every chunk "
                f"{embedded / 2**20 / embedding_seconds:.1f} MB/s "
                f"(wordllama's embed, first {EMBEDDED_PAYLOADS} payloads)"
            )
            chunks = store.stats().chunks
            asked = search_bench.queries(rng, sources)
            print(f"{chunks:,} chunks, {len(asked)} queries (bench/search.py's), goal p50 ≤ 5 ms")
            print("| variant | doc_search p50 | p99 | bare tantivy p50 | replies with hits |")
            print("| --- | ---: | ---: | ---: | ---: |")
            for variant in variants:
                ours: list[float] = []
                theirs: list[float] = []
                hits = 0
                with installed(variant):
                    for query in asked:
                        started = time.perf_counter()
                        answer = tool.run({"query": query, "limit": 5})
                        ours.append((time.perf_counter() - started) * 1000)
                        hits += not answer.startswith("No hits")
                        started = time.perf_counter()
                        bare.search(query)
                        theirs.append((time.perf_counter() - started) * 1000)
                print(
                    f"| {variant.label} | {median(ours):.2f} ms | {percentile(ours, 0.99):.2f} ms "
                    f"| {median(theirs):.2f} ms | {hits} |",
                    flush=True,
                )


def load() -> None:
    """Import + load + first embedding, and peak RSS, in a fresh interpreter (nothing cached)."""
    code = (
        "import resource, sys, time\n"
        f"sys.path.insert(0, {str(ROOT / 'bench')!r})\n"
        "import semantic\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "started = time.perf_counter()\n"
        "semantic.model()\n"
        "semantic.embed(['first query'])\n"
        "took = time.perf_counter() - started\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(f'import + load + first embedding {took * 1000:.0f} ms; '\n"
        "      f'peak RSS {before / 1024:.0f} MB with ctxhub imported, {after / 1024:.0f} MB after')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    print(done.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=("facts", "latency", "load"))
    parser.add_argument("--set", default="dev", choices=("dev", "holdout", "both"))
    parser.add_argument("--variants", default="")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--parts", default="", help="facts: only these parts/<part>.yaml (comma-separated)")
    parser.add_argument("--chunks", type=int, default=100_000)
    options = parser.parse_args(argv)
    if importlib.util.find_spec("wordllama") is None:
        print("skipped: wordllama is not installed (pip install wordllama): nothing to measure")
        return 0
    if options.what == "load":
        load()
        return 0
    if options.what == "facts":
        sets = ("dev", "holdout") if options.set == "both" else (options.set,)
        facts(
            options.corpus,
            sets,
            [parse_variant(v) for v in (options.variants or DEFAULT_VARIANTS).split(",")],
            [part for part in options.parts.split(",") if part],
        )
    else:
        chosen = options.variants or "off,lines:0.7,rerank:0.7"
        latency(options.chunks, [parse_variant(v) for v in chosen.split(",")])
    print(f"peak RSS of this run: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
