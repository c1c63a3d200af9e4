"""Run every corpus item through detect_kind + summarize and report sizes, kinds and kept facts.

Usage (from the repo root): ``PYTHONPATH=. python bench/summaries_tuning.py [--budget 1500]
[--show ID_FRAGMENT] [CORPUS_DIR]``

Per item it prints raw bytes, extract bytes, the corpus kind and the detected kind, and which
facts have their ``answer`` verbatim in the extract (``--show`` also prints the extract). A fact
also survives in the product if one follow-up search finds it; this script measures only the
first response's body, so it is the lower bound the summarisers are tuned on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from context_mode.kinds import detect_kind
from context_mode.router import query_terms
from context_mode.summaries import summarize

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--show", default="", help="print the extract of items whose id contains this")
    options = parser.parse_args(argv)
    index = options.corpus / "corpus.yaml"
    if not index.is_file():
        print(f"no corpus at {index} (pass the corpus directory as an argument)", file=sys.stderr)
        return 2
    items: list[dict[str, Any]] = yaml.safe_load(index.read_text(encoding="utf-8"))["items"]
    raw_total = extract_total = facts_total = kept_total = 0
    print(f"{'item':40} {'raw':>8} {'extract':>8} {'kind':>9} {'detected':>9}  facts")
    for item in items:
        text = (options.corpus / item["file"]).read_text(encoding="utf-8")
        kind = detect_kind(text, tool_name=item["tool"], arguments=item["args"])
        extract = summarize(text, kind, budget=options.budget, terms=query_terms(item["args"]))
        raw = len(text.encode())
        size = len(extract.text.encode())
        kept = [fact for fact in item["facts"] if fact["answer"] in extract.text]
        flag = "" if kind.value == item["kind"] else "  <-- kind mismatch"
        print(
            f"{item['id']:40} {raw:>8} {size:>8} {item['kind']:>9} {kind.value:>9}  "
            f"{len(kept)}/{len(item['facts'])}{flag}"
        )
        for fact in item["facts"]:
            print(f"    {'+' if fact in kept else '-'} {fact['answer']}")
        if options.show and options.show in item["id"]:
            print(f"    outline: {extract.outline}")
            print("    " + extract.text.replace("\n", "\n    "))
        raw_total += raw
        extract_total += size
        facts_total += len(item["facts"])
        kept_total += len(kept)
    share = extract_total / raw_total if raw_total else 0.0
    print(
        f"\ntotal: {raw_total} raw bytes -> {extract_total} extract bytes ({share:.1%}); "
        f"facts in the extract: {kept_total}/{facts_total}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
