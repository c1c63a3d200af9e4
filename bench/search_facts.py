"""Search-only fact reach on ``bench/corpus``: one ``doc_search`` per fact, no stage 1.

Usage: ``.venv/bin/python bench/search_facts.py [--set dev|holdout] [--corpus DIR] [--misses]``

Each item's payload goes into an in-RAM ``Store(None)`` (as ``bench/economy.measure_item``), the
native ``doc_search`` runs with ``{"query": fact.query, "ref": ref}``, and a fact is reached when
its ``answer`` is verbatim in the reply. Prints hit rate and mean reply bytes per kind and overall.
Tune on ``dev`` only; ``holdout`` is for the final figure.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus.build import read_yaml  # noqa: E402
from context_mode.policy import RoutingPolicy, resolve_style  # noqa: E402
from context_mode.router import Decision, Direct, route  # noqa: E402
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


@contextmanager
def stored_item(item: dict[str, Any], text: str) -> Iterator[StoredItem]:
    """Route ``text`` with the item's tool and arguments, store it (closed on exit)."""
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
    store = Store(None)
    try:
        is_log = kind is ContentKind.LOG or "log" in tool.lower()
        doc = store.put(text, source=exposed, kind=kind, spill_file=is_log)
        yield StoredItem(exposed, decision, store, doc)
    finally:
        store.close()


def measure(item: dict[str, Any], text: str) -> list[tuple[bool, int, str, str, str]]:
    with stored_item(item, text) as stored:
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
    options = parser.parse_args()
    per_kind: dict[str, list[tuple[bool, int]]] = defaultdict(list)
    for item in items(options.corpus, options.set):
        if options.only and options.only not in item["id"]:
            continue
        text = (options.corpus / item["file"]).read_text(encoding="utf-8")
        for hit, size, query, answer, response in measure(item, text):
            per_kind[item["kind"]].append((hit, size))
            if options.misses and (not hit or options.only):
                print(
                    f"\n### {item['id']}: {query!r} -> {'found' if hit else 'MISSED'} {answer!r}\n{response}"
                )
    print(f"\nset={options.set}\n| kind | facts | hit | mean B |\n| --- | ---: | ---: | ---: |")
    every = [row for rows in per_kind.values() for row in rows]
    for label, rows in [*sorted(per_kind.items()), ("**all**", every)]:
        hits = sum(h for h, _ in rows)
        print(
            f"| {label} | {len(rows)} | {hits}/{len(rows)} ({hits / len(rows):.0%}) "
            f"| {sum(s for _, s in rows) / len(rows):.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
