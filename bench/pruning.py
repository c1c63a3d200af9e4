"""Field-pruning benchmark: what pruning per tool saves on real JSON results, and which facts survive.

Usage (from the repo root): ``.venv/bin/python bench/pruning.py [--corpus DIR ...]``

For every JSON item of the corpora (the shared corpus's ``json-*`` records in ``corpus.yaml`` and
``bench/corpus``'s JSON records in ``parts/*.yaml``, read from ``../shared/corpus`` and
``../main/bench/corpus`` by default), exactly as the hub does it for a tool configured with the
exclude list below (``fields.exclude`` + ``drop_empty: true``):

1. prune the payload (``context_mode.pruning.FieldPruner``);
2. route the raw and the pruned payload with the tool's tag and the default ``RoutingPolicy``
   (``context_mode.router.route``) and render stage 1 (``context_mode.stage1.render``);
3. count the facts (the record's ``facts[].answer``) found verbatim in the Direct reply (the whole
   payload, raw or pruned) and in stage 1 (raw or pruned).

It prints one Markdown table: bytes of the Direct reply and of stage 1, without and with pruning,
and the facts kept by each. The exclude lists drop what a coding agent does not read: GraphQL node
ids, API and avatar URLs, registry envelopes (``_id``, ``_contentLength``), per-file upload details.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from context_mode.policy import RoutingPolicy, resolve_style  # noqa: E402
from context_mode.pruning import FieldPruner  # noqa: E402
from context_mode.router import Direct, route  # noqa: E402
from context_mode.stage1 import render  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The shared corpus and bench/corpus, looked for next to this checkout (or a worktree of it).
DEFAULT_CORPORA = tuple(
    dict.fromkeys(
        path
        for base in (ROOT, *ROOT.parents[:2])
        for path in (base.parent / "shared" / "corpus", base.parent / "main" / "bench" / "corpus")
        if path.is_dir()
    )
) + (ROOT / "bench" / "corpus",)

# The exclude list a user would write for each source (keys of the tool name or item id).
EXCLUDES: dict[str, list[str]] = {
    # node ids, API URLs and avatars; html_url (the link to cite) is kept: [!h]*_url spares it
    "github": ["**.node_id", "**.url", "**.[!h]*_url", "**.hooks_url", "**.gravatar_id"],
    # the registry's envelope (_id, _rev, _contentLength…) and signatures; tarball URLs are facts
    "npm": ["_*", "**._*", "dist.signatures", "**.signatures", "**.npm-signature"],
    # per-file upload details repeated for every release file
    "pypi": ["**.md5_digest", "**.digests.blake2b_256", "**.has_sig", "**.comment_text", "**.downloads"],
    "filesystem": [],
}


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    excludes: list[str]
    raw_bytes: int
    pruned_bytes: int
    stage1_raw: int
    stage1_pruned: int
    mode_raw: str
    mode_pruned: str
    facts: int
    direct_raw_facts: int
    direct_pruned_facts: int
    stage1_raw_facts: int
    stage1_pruned_facts: int


def records(corpora: Sequence[Path]) -> Iterator[tuple[Path, dict[str, Any]]]:
    seen: set[str] = set()
    for corpus in corpora:
        files = [corpus / "corpus.yaml", *sorted((corpus / "parts").glob("*.yaml"))]
        for file in files:
            if not file.is_file():
                continue
            document = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
            for record in document.get("items", []) if isinstance(document, dict) else document:
                payload = corpus / record["file"]
                if record["id"] in seen or not payload.is_file() or not record["file"].endswith(".json"):
                    continue
                seen.add(record["id"])
                yield payload, record


def source_of(record: dict[str, Any]) -> str:
    tool = str(record.get("tool", ""))
    text = f"{record['id']} {tool}"
    return next((name for name in EXCLUDES if name in text), "")


def stage1_of(text: str, tool: str, arguments: dict[str, Any]) -> tuple[str, str]:
    style = resolve_style(tool.rsplit("__", 1)[-1]).style
    decision = route(text, style=style, policy=RoutingPolicy(), tool=tool, arguments=arguments)
    if isinstance(decision, Direct):
        return text, "direct"
    size = len(text.encode("utf-8"))
    rendered = render(decision, tool=tool, ref="r_0123abcd", original_bytes=size, spill_path=None)
    return rendered, type(decision).__name__.lower()


def measure(payload: Path, record: dict[str, Any]) -> Row:
    text = payload.read_text(encoding="utf-8")
    excludes = EXCLUDES.get(source_of(record), [])
    pruned = FieldPruner(exclude=excludes, drop_empty=True).prune_text(text).text
    tool = str(record.get("tool") or record["id"])
    arguments = record.get("args") or {}
    raw_stage1, raw_mode = stage1_of(text, tool, arguments)
    pruned_stage1, pruned_mode = stage1_of(pruned, tool, arguments)
    answers = [str(fact["answer"]) for fact in record.get("facts", [])]

    def kept(reply: str) -> int:
        return sum(answer in reply for answer in answers)

    return Row(
        id=record["id"],
        excludes=excludes,
        raw_bytes=len(text.encode()),
        pruned_bytes=len(pruned.encode()),
        stage1_raw=len(raw_stage1.encode()),
        stage1_pruned=len(pruned_stage1.encode()),
        mode_raw=raw_mode,
        mode_pruned=pruned_mode,
        facts=len(answers),
        direct_raw_facts=kept(text),
        direct_pruned_facts=kept(pruned),
        stage1_raw_facts=kept(raw_stage1),
        stage1_pruned_facts=kept(pruned_stage1),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", type=Path, help="a corpus directory (repeatable)")
    args = parser.parse_args(argv)
    rows = [measure(payload, record) for payload, record in records(args.corpus or DEFAULT_CORPORA)]
    if not rows:
        print("no JSON items found in the corpora", file=sys.stderr)
        return 1
    print(
        "| item | exclude (+ drop_empty) | Direct raw → pruned | stage 1 raw → pruned "
        "| facts in Direct raw / pruned | facts in stage 1 raw / pruned |"
    )
    print("|---|---|---|---|---|---|")
    for row in rows:
        saved = 1 - row.pruned_bytes / row.raw_bytes
        n = row.facts
        print(
            f"| {row.id} | `{', '.join(row.excludes) or '-'}` | {row.raw_bytes:,} → {row.pruned_bytes:,} B "
            f"(−{saved:.0%}) | {row.stage1_raw:,} ({row.mode_raw}) → {row.stage1_pruned:,} B "
            f"({row.mode_pruned}) | {row.direct_raw_facts}/{n} / {row.direct_pruned_facts}/{n} "
            f"| {row.stage1_raw_facts}/{n} / {row.stage1_pruned_facts}/{n} |"
        )
    raw = sum(row.raw_bytes for row in rows)
    pruned = sum(row.pruned_bytes for row in rows)
    n = sum(row.facts for row in rows)

    def total(field: str) -> int:
        return sum(getattr(row, field) for row in rows)

    print(
        f"| **all {len(rows)}** | | {raw:,} → {pruned:,} B (−{1 - pruned / raw:.0%}) "
        f"| {total('stage1_raw'):,} → {total('stage1_pruned'):,} B "
        f"| {total('direct_raw_facts')}/{n} / {total('direct_pruned_facts')}/{n} "
        f"| {total('stage1_raw_facts')}/{n} / {total('stage1_pruned_facts')}/{n} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
