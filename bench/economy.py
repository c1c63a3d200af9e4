"""Context-economy benchmark: what the agent gets back for each corpus item, and what it can reach.

Usage (from the repo root): ``.venv/bin/python bench/economy.py [CORPUS_DIR] [--show ID_FRAGMENT]``

For every item of the shared corpus (``../shared/corpus``), exactly as the hub does it:

1. ``route`` the payload with the tool's tag (``resolve_style`` of the downstream tool name), a
   default ``RoutingPolicy``, the tool name and the call's arguments;
2. for a Summary or Directive, store the payload in a real in-RAM ``Store`` (``put``, with a spill
   file for logs, as the hub does) and render stage 1 with the real ref;
3. for each fact whose ``answer`` is not in stage 1, run ONE ``doc_search`` (the native tool,
   ``{"query": fact.query, "ref": ref}``) and look for the answer in the text it returns.

It prints a Markdown table per item, per kind and overall: raw bytes, stage-1 bytes, mode, facts
in stage 1, facts reached with stage 1 plus one search, and the bytes of those search responses.
``benchmark(corpus)`` returns the same figures for tests (``tests/context_mode/test_economy_targets.py``).

Targets: stage-1 bytes ≤ 10% of raw, facts reached ≥ 95%, stage 1 + searches well under 20% of raw.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from context_mode.policy import RoutingPolicy, resolve_style  # noqa: E402
from context_mode.router import Direct, route  # noqa: E402
from context_mode.stage1 import render  # noqa: E402
from context_mode.store.store import Store  # noqa: E402
from context_mode.types import ContentKind  # noqa: E402
from tools.doc_tools import doc_tools  # noqa: E402

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


@dataclass(frozen=True, slots=True)
class FactResult:
    answer: str
    query: str
    in_stage1: bool
    searched: bool
    in_search: bool
    search_bytes: int
    response: str


@dataclass(frozen=True, slots=True)
class ItemResult:
    id: str
    kind: str
    raw_bytes: int
    stage1_bytes: int
    mode: str
    routed_kind: str
    stage1: str
    facts: tuple[FactResult, ...]

    @property
    def in_stage1(self) -> int:
        return sum(fact.in_stage1 for fact in self.facts)

    @property
    def reached(self) -> int:
        return sum(fact.in_stage1 or fact.in_search for fact in self.facts)

    @property
    def search_bytes(self) -> int:
        return sum(fact.search_bytes for fact in self.facts)

    @property
    def searches(self) -> int:
        return sum(fact.searched for fact in self.facts)


@dataclass(frozen=True, slots=True)
class Totals:
    """Sums over a group of items."""

    label: str
    items: int
    raw_bytes: int
    stage1_bytes: int
    facts: int
    in_stage1: int
    reached: int
    searches: int
    search_bytes: int

    @property
    def stage1_share(self) -> float:
        return self.stage1_bytes / self.raw_bytes if self.raw_bytes else 0.0

    @property
    def reached_share(self) -> float:
        return self.reached / self.facts if self.facts else 1.0

    @property
    def with_search_share(self) -> float:
        return (self.stage1_bytes + self.search_bytes) / self.raw_bytes if self.raw_bytes else 0.0


def load_items(corpus: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = yaml.safe_load((corpus / "corpus.yaml").read_text(encoding="utf-8"))[
        "items"
    ]
    return items


def measure_item(item: dict[str, Any], text: str, policy: RoutingPolicy | None = None) -> ItemResult:
    """Route, store, render and search one corpus item as the hub and the agent would."""
    policy = policy or RoutingPolicy()
    exposed = str(item["tool"])
    tool = exposed.split("__", 1)[1] if "__" in exposed else exposed
    arguments = dict(item.get("args") or {})
    raw = len(text.encode("utf-8"))
    decision = route(
        text,
        style=resolve_style(tool).style,
        policy=policy,
        tool=tool,
        arguments=arguments,
    )
    facts = item["facts"]
    if isinstance(decision, Direct):
        found = tuple(FactResult(f["answer"], f["query"], True, False, False, 0, "") for f in facts)
        return ItemResult(item["id"], item["kind"], raw, raw, "direct", "-", text, found)
    store = Store(None)
    try:
        is_log = decision.kind is ContentKind.LOG or "log" in tool.lower()
        doc = store.put(text, source=exposed, kind=decision.kind, spill_file=is_log)
        stage1 = render(decision, tool=exposed, ref=doc.ref, original_bytes=raw, spill_path=doc.spill_path)
        search = next(t for t in doc_tools(store, ingest_roots=()) if t.name == "doc_search")
        results: list[FactResult] = []
        for fact in facts:
            answer, query = str(fact["answer"]), str(fact["query"])
            if answer in stage1:
                results.append(FactResult(answer, query, True, False, False, 0, ""))
                continue
            response = search.run({"query": query, "ref": doc.ref})
            results.append(
                FactResult(answer, query, False, True, answer in response, len(response.encode()), response)
            )
    finally:
        store.close()
    mode = type(decision).__name__.lower()
    return ItemResult(
        item["id"],
        item["kind"],
        raw,
        len(stage1.encode("utf-8")),
        mode,
        decision.kind.value,
        stage1,
        tuple(results),
    )


def benchmark(corpus: Path = DEFAULT_CORPUS, policy: RoutingPolicy | None = None) -> list[ItemResult]:
    """Every corpus item measured (see the module doc)."""
    return [
        measure_item(item, (corpus / item["file"]).read_text(encoding="utf-8"), policy)
        for item in load_items(corpus)
    ]


def total(label: str, results: Iterable[ItemResult]) -> Totals:
    chosen = list(results)
    return Totals(
        label,
        len(chosen),
        sum(r.raw_bytes for r in chosen),
        sum(r.stage1_bytes for r in chosen),
        sum(len(r.facts) for r in chosen),
        sum(r.in_stage1 for r in chosen),
        sum(r.reached for r in chosen),
        sum(r.searches for r in chosen),
        sum(r.search_bytes for r in chosen),
    )


def _percent(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def table(results: Sequence[ItemResult]) -> str:
    """The Markdown report: one row per item, then per kind, then overall."""
    lines = [
        "| item | kind | mode | raw B | stage-1 B | stage-1 % | facts in stage 1 | reached (+1 search) "
        "| searches | search B | (stage 1 + search) % |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines.extend(
        f"| {r.id} | {r.kind} | {r.mode} | {r.raw_bytes} | {r.stage1_bytes} "
        f"| {_percent(r.stage1_bytes, r.raw_bytes)} | {r.in_stage1}/{len(r.facts)} "
        f"| {r.reached}/{len(r.facts)} | {r.searches} | {r.search_bytes} "
        f"| {_percent(r.stage1_bytes + r.search_bytes, r.raw_bytes)} |"
        for r in results
    )
    groups = [
        total(kind, [r for r in results if r.kind == kind]) for kind in dict.fromkeys(r.kind for r in results)
    ]
    lines += [
        "",
        "| kind | items | raw B | stage-1 B | stage-1 % | facts in stage 1 | reached | search B "
        "| (stage 1 + search) % |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for group in [*groups, total("**overall**", results)]:
        lines.append(
            f"| {group.label} | {group.items} | {group.raw_bytes} | {group.stage1_bytes} "
            f"| {group.stage1_share:.1%} | {group.in_stage1}/{group.facts} "
            f"| {group.reached}/{group.facts} ({group.reached_share:.1%}) | {group.search_bytes} "
            f"| {group.with_search_share:.1%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--show", default="", help="print stage 1 and the searches of items matching this")
    parser.add_argument("--misses", action="store_true", help="print the search responses that missed")
    options = parser.parse_args(argv)
    if not (options.corpus / "corpus.yaml").is_file():
        print(f"no corpus at {options.corpus} (pass the corpus directory as an argument)", file=sys.stderr)
        return 2
    results = benchmark(options.corpus)
    print(table(results))
    for r in results:
        if options.show and options.show in r.id:
            print(f"\n## {r.id} ({r.mode}, {r.routed_kind})\n\n```\n{r.stage1}\n```")
        for fact in r.facts:
            show = (options.show and options.show in r.id) or (
                options.misses and fact.searched and not fact.in_search
            )
            if show and fact.searched:
                mark = "found" if fact.in_search else "MISSED"
                print(f"\n### {r.id}: {fact.query!r} -> {mark} {fact.answer!r}\n\n```\n{fact.response}\n```")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
