"""Context-economy benchmark: what the agent gets back for each corpus item, and what it can reach.

Usage (from the repo root)::

    .venv/bin/python bench/economy.py [--corpus DIR] [--items] [--intent] [--show ID] [--misses]

The corpus is ``bench/corpus`` unless ``--corpus`` names another (``../shared/corpus`` works too).
Every item goes through a real ``ctxhub serve`` over stdio, driven by the MCP SDK's client, with
``bench/corpus_server.py`` as the downstream that returns the payload (``bench/economy_run.py``
has the details): stage 1 is the hub's reply; for each fact not in it, ONE ``doc_search`` with
the fact's query restricted to the reply's ref.

It prints, per kind and per set (dev / holdout) and overall: items, raw bytes, stage-1 bytes and
their share of raw, the largest stage 1 of one item, facts in stage 1, facts within stage 1 + one
search, bytes per search reply, search only (one search per fact, no stage 1), and the head-only
and head + tail truncations at stage 1's size as baselines. ``--intent`` also passes each fact's
query as ``intent`` when the hub's tools take one (else it says it skipped). ``benchmark(corpus)``
returns the per-item results for tests; ``total`` sums them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus.build import read_yaml  # noqa: E402
from bench.economy_run import EconomyError, FactResult, ItemResult, measure  # noqa: E402

DEFAULT_CORPUS = Path(__file__).resolve().parent / "corpus"
SHARED_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
SETS = ("dev", "holdout")

__all__ = ["DEFAULT_CORPUS", "EconomyError", "FactResult", "ItemResult", "Totals", "benchmark", "total"]


@dataclass(frozen=True, slots=True)
class Totals:
    """Sums over a group of items."""

    label: str
    items: int
    raw_bytes: int
    stage1_bytes: int
    max_stage1_bytes: int
    facts: int
    in_stage1: int
    reached: int
    searches: int  # searches spent on facts missing from stage 1
    search_bytes: int  # bytes of those searches
    queries: int  # every search made (one per fact, for the search-only figure)
    query_bytes: int
    search_only: int
    head: int
    head_tail: int
    intent: int | None = None

    @property
    def stage1_share(self) -> float:
        return self.stage1_bytes / self.raw_bytes if self.raw_bytes else 0.0

    @property
    def reached_share(self) -> float:
        return self.reached / self.facts if self.facts else 1.0

    @property
    def with_search_share(self) -> float:
        return (self.stage1_bytes + self.search_bytes) / self.raw_bytes if self.raw_bytes else 0.0

    @property
    def bytes_per_search(self) -> float:
        return self.query_bytes / self.queries if self.queries else 0.0


def load_items(corpus: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = read_yaml(corpus / "corpus.yaml")["items"]
    return items


def benchmark(
    corpus: Path = DEFAULT_CORPUS,
    *,
    intent: bool = False,
    only: str = "",
    routing: dict[str, Any] | None = None,
) -> list[ItemResult]:
    """Every corpus item (whose id contains ``only``) measured through the hub (see the module doc);
    ``routing`` overrides keys of the hub's ``routing`` config."""
    return run(corpus, intent=intent, only=only, routing=routing)[0]


def run(
    corpus: Path, *, intent: bool = False, only: str = "", routing: dict[str, Any] | None = None
) -> tuple[list[ItemResult], bool | None]:
    """``benchmark``, plus whether the hub took ``intent`` (None when not asked)."""
    items = [item for item in load_items(corpus) if only in str(item["id"])]
    results, supported = anyio.run(lambda: measure(corpus, items, intent=intent, routing=routing))
    return results, supported


def total(label: str, results: Iterable[ItemResult]) -> Totals:
    chosen = list(results)
    facts = [fact for r in chosen for fact in r.facts]
    intents = [fact.in_intent for fact in facts if fact.in_intent is not None]
    return Totals(
        label=label,
        items=len(chosen),
        raw_bytes=sum(r.raw_bytes for r in chosen),
        stage1_bytes=sum(r.stage1_bytes for r in chosen),
        max_stage1_bytes=max((r.stage1_bytes for r in chosen), default=0),
        facts=len(facts),
        in_stage1=sum(f.in_stage1 for f in facts),
        reached=sum(f.in_stage1 or f.in_search for f in facts),
        searches=sum(f.searched for f in facts),
        search_bytes=sum(f.search_bytes for f in facts),
        queries=sum(bool(f.response) for f in facts),
        query_bytes=sum(f.search_reply_bytes for f in facts),
        search_only=sum(f.search_found for f in facts),
        head=sum(f.in_head for f in facts),
        head_tail=sum(f.in_head_tail for f in facts),
        intent=sum(intents) if intents else None,
    )


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "-"


def _row(group: Totals, *first: str) -> str:
    intent = "" if group.intent is None else f" {_share(group.intent, group.facts)} |"
    return (
        f"| {' | '.join(first)} | {group.items} | {group.raw_bytes:,} | {group.stage1_bytes:,} "
        f"({group.stage1_share:.1%}) | {group.max_stage1_bytes:,} | {_share(group.in_stage1, group.facts)} "
        f"| {_share(group.reached, group.facts)} | {group.bytes_per_search:,.0f} "
        f"| {_share(group.search_only, group.facts)} | {_share(group.head, group.facts)} "
        f"| {_share(group.head_tail, group.facts)} |{intent}"
    )


def _sets(results: Sequence[ItemResult]) -> list[str]:
    present = dict.fromkeys(r.set for r in results)
    return [s for s in SETS if s in present] + [s for s in present if s not in SETS]


def table(results: Sequence[ItemResult]) -> str:
    """Per kind and set, per set, and overall (Markdown)."""
    intent = any(f.in_intent is not None for r in results for f in r.facts)
    lines = [
        "| kind | set | items | raw B | stage-1 B (% of raw) | max stage-1 B | facts in stage 1 "
        "| stage 1 + 1 search | B per search | search only | head at stage-1 B | head+tail at stage-1 B |"
        + (" intent |" if intent else ""),
        "| --- | --- |" + " ---: |" * (10 + intent),
    ]
    kinds = sorted(dict.fromkeys(r.kind for r in results))
    for kind in kinds:
        for name in _sets(results):
            chosen = [r for r in results if r.kind == kind and r.set == name]
            if chosen:
                lines.append(_row(total(kind, chosen), kind, name))
    lines.extend(
        _row(total(name, [r for r in results if r.set == name]), "**all**", f"**{name}**")
        for name in _sets(results)
    )
    lines.append(_row(total("overall", results), "**all**", "**all**"))
    return "\n".join(lines)


def side_by_side(results: Sequence[ItemResult]) -> str:
    """Per kind, dev next to holdout: stage-1 share, facts in stage 1, and within one search."""
    sets = _sets(results)
    head = "| kind |" + "".join(
        f" {s} items | {s} stage-1 % | {s} in stage 1 | {s} +1 search |" for s in sets
    )
    lines = [head, "| --- |" + " ---: |" * (4 * len(sets))]
    for kind in [*sorted(dict.fromkeys(r.kind for r in results)), None]:
        cells = []
        for name in sets:
            chosen = [r for r in results if r.set == name and (kind is None or r.kind == kind)]
            if not chosen:
                cells.append(" - | - | - | - |")
                continue
            group = total(name, chosen)
            cells.append(
                f" {group.items} | {group.stage1_share:.1%} | {_share(group.in_stage1, group.facts)} "
                f"| {_share(group.reached, group.facts)} |"
            )
        lines.append(f"| {kind or '**all**'} |" + "".join(cells))
    return "\n".join(lines)


def item_table(results: Sequence[ItemResult]) -> str:
    lines = [
        "| item | kind | set | mode | raw B | stage-1 B | in stage 1 | +1 search | search only | head "
        "| head+tail |",
        "| --- | --- | --- | --- |" + " ---: |" * 7,
    ]
    for r in results:
        n = len(r.facts)
        lines.append(
            f"| {r.id} | {r.kind} | {r.set} | {r.mode} | {r.raw_bytes:,} | {r.stage1_bytes:,} "
            f"| {r.in_stage1}/{n} | {r.reached}/{n} | {sum(f.search_found for f in r.facts)}/{n} "
            f"| {sum(f.in_head for f in r.facts)}/{n} | {sum(f.in_head_tail for f in r.facts)}/{n} |"
        )
    return "\n".join(lines)


def details(results: Sequence[ItemResult], show: str, misses: bool) -> Iterable[str]:
    for r in results:
        if show and show in r.id:
            yield f"\n## {r.id} ({r.mode}: {r.reason})\n\n```\n{r.stage1}\n```"
        for fact in r.facts:
            wanted = (show and show in r.id) or (misses and fact.searched and not fact.in_search)
            if wanted and fact.response:
                mark = "found" if fact.search_found else "MISSED"
                yield f"\n### {r.id}: {fact.query!r} -> {mark} {fact.answer!r}\n\n```\n{fact.response}\n```"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus directory (corpus.yaml)")
    parser.add_argument("--only", default="", help="only the items whose id contains this")
    parser.add_argument("--items", action="store_true", help="also print one row per item")
    parser.add_argument("--intent", action="store_true", help="also pass each fact's query as intent")
    parser.add_argument(
        "--routing",
        type=json.loads,
        default=None,
        help="hub routing overrides, e.g. '{\"summary_budget\": 2000}'",
    )
    parser.add_argument("--show", default="", help="print stage 1 and the searches of items matching this")
    parser.add_argument("--misses", action="store_true", help="print the search replies that missed")
    options = parser.parse_args(argv)
    if not (options.corpus / "corpus.yaml").is_file():
        print(f"no corpus at {options.corpus} (pass --corpus DIR holding corpus.yaml)", file=sys.stderr)
        return 2
    try:
        results, supported = run(
            options.corpus, intent=options.intent, only=options.only, routing=options.routing
        )
    except EconomyError as exc:
        print(f"economy benchmark failed: {exc}", file=sys.stderr)
        return 1
    print(f"corpus: {options.corpus} ({len(results)} items)\n")
    if supported:
        print("intent: one extra call per fact with the fact's query as intent (last column)\n")
    print(table(results))
    print()
    print(side_by_side(results))
    if options.items:
        print()
        print(item_table(results))
    if supported is False:
        print("\nintent: skipped: hub has no intent argument")
    for block in details(results, options.show, options.misses):
        print(block)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
