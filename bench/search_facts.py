"""Search fact reach on ``bench/corpus`` in process: one ``doc_search`` per fact, alone and after stage 1.

Usage: ``.venv/bin/python bench/search_facts.py [--set dev|holdout] [--corpus DIR] [--shared] [--misses]``

Each item's payload is routed as the hub routes it and goes into an in-RAM ``Store(None)`` of its
own, the native ``doc_search`` runs with ``{"query": fact.query, "ref": ref}``, and a fact is reached
when its ``answer`` is verbatim in the reply. With ``--shared``, every item of the corpus (both
sets) goes into one store first, as a hub's store holds a session's payloads: a word's rarity is
then the whole store's, which ranks chunks as ``bench/economy.py`` through a real hub does (an
item's own store ranks them otherwise, and the two measures can disagree on a change). Prints, per
kind and overall, the facts reached by search alone, by stage 1 (the routed summary) plus one
search, and the mean reply bytes. Tune on ``dev`` only; ``holdout`` is for the final figure.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus.build import read_yaml  # noqa: E402
from context_mode.policy import RoutingPolicy, resolve_style  # noqa: E402
from context_mode.router import Decision, Direct, route  # noqa: E402
from context_mode.stage1 import render  # noqa: E402
from context_mode.store import StoredDoc  # noqa: E402
from context_mode.store.store import Store  # noqa: E402
from context_mode.types import ContentKind  # noqa: E402
from tools.doc_tools import doc_tools  # noqa: E402

DEFAULT_CORPUS = Path(__file__).resolve().parent / "corpus"


def items(corpus: Path, chosen: str) -> list[dict[str, Any]]:
    """The items of one set (``dev`` or ``holdout``) of a corpus in ``parts/*.yaml`` form."""
    found: list[dict[str, Any]] = []
    for part in sorted((corpus / "parts").glob("*.yaml")):
        found.extend(i for i in read_yaml(part)["items"] if i.get("set") == chosen)
    return found


@dataclass(frozen=True, slots=True)
class StoredItem:
    """One corpus item routed as the hub routes it and put in an in-RAM store."""

    exposed: str  # the tool name as the hub exposes it (``ci__get_job_log``)
    decision: Decision
    store: Store
    doc: StoredDoc

    def search_tool(self) -> Any:
        return next(t for t in doc_tools(self.store, ingest_roots=()) if t.name == "doc_search")

    def stage1(self, text: str) -> str:
        """What the agent gets first, as the hub renders it: the payload itself when Direct, else
        the routed summary (with the file a log is spilled to)."""
        if isinstance(self.decision, Direct):
            return text
        return render(
            self.decision,
            tool=self.exposed,
            ref=self.doc.ref,
            original_bytes=len(text.encode()),
            spill_path=self.doc.spill_path,
        )


def put_item(store: Store, item: dict[str, Any], text: str) -> StoredItem:
    """Route ``text`` with the item's tool and arguments and put it in ``store``."""
    exposed = str(item["tool"])
    tool = exposed.split("__", 1)[1] if "__" in exposed else exposed
    decision = route(
        text,
        style=resolve_style(tool).style,
        policy=RoutingPolicy(),
        tool=tool,
        arguments=dict(item.get("args") or {}),
    )
    kind = ContentKind.TEXT if isinstance(decision, Direct) else decision.kind
    is_log = kind is ContentKind.LOG or "log" in tool.lower()
    doc = store.put(text, source=exposed, kind=kind, spill_file=is_log)
    return StoredItem(exposed, decision, store, doc)


@contextmanager
def stored_item(item: dict[str, Any], text: str) -> Iterator[StoredItem]:
    """Route ``text`` with the item's tool and arguments, store it in a store of its own (closed on exit)."""
    store = Store(None)
    try:
        yield put_item(store, item, text)
    finally:
        store.close()


@contextmanager
def shared_store(corpus: Path) -> Iterator[dict[str, StoredItem]]:
    """Every item of the corpus (both sets, in order) in one store, by item id (closed on exit)."""
    store = Store(None, max_bytes=2**40)  # nothing evicted: every item stays findable
    try:
        yield {
            str(item["id"]): put_item(store, item, (corpus / item["file"]).read_text(encoding="utf-8"))
            for chosen in ("dev", "holdout")
            for item in items(corpus, chosen)
        }
    finally:
        store.close()


def measure_stored(item: dict[str, Any], stored: StoredItem) -> list[tuple[bool, int, str, str, str]]:
    """Per fact: whether one search reached its answer, the reply's bytes, query, answer, reply."""
    search = stored.search_tool()
    out = []
    for fact in item["facts"]:
        answer, query = str(fact["answer"]), str(fact["query"])
        response = search.run({"query": query, "ref": stored.doc.ref})
        out.append((answer in response, len(response.encode()), query, answer, response))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", default="dev", choices=("dev", "holdout"))
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--shared",
        action="store_true",
        help="one store holding every item of both sets, as a hub's (built whole, even with --only)",
    )
    options = parser.parse_args()
    per_kind: dict[str, list[tuple[bool, bool, int]]] = defaultdict(list)
    with ExitStack() as stack:
        shared = stack.enter_context(shared_store(options.corpus)) if options.shared else None
        for item in items(options.corpus, options.set):
            if options.only and options.only not in item["id"]:
                continue
            text = (options.corpus / item["file"]).read_text(encoding="utf-8")
            own = nullcontext(shared[str(item["id"])]) if shared is not None else stored_item(item, text)
            with own as stored:
                first = stored.stage1(text)
                for hit, size, query, answer, response in measure_stored(item, stored):
                    per_kind[item["kind"]].append((hit, hit or answer in first, size))
                    if options.misses and (not hit or options.only):
                        print(
                            f"\n### {item['id']}: {query!r} -> {'found' if hit else 'MISSED'} {answer!r}"
                            f"\n{response}"
                        )
    store = "one store for all items" if options.shared else "a store per item"
    print(f"\nset={options.set}, {store}")
    print(
        "| kind | facts | search only | stage 1 + one search | mean B |\n| --- | ---: | ---: | ---: | ---: |"
    )
    every = [row for rows in per_kind.values() for row in rows]
    for label, rows in [*sorted(per_kind.items()), ("**all**", every)]:
        alone = sum(h for h, _, _ in rows)
        with_first = sum(f for _, f, _ in rows)
        print(
            f"| {label} | {len(rows)} | {alone}/{len(rows)} ({alone / len(rows):.0%}) "
            f"| {with_first}/{len(rows)} ({with_first / len(rows):.0%}) "
            f"| {sum(s for _, _, s in rows) / len(rows):.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
