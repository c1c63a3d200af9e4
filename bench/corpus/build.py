"""Build and verify the benchmark corpus: ``parts/*.yaml`` merged into ``corpus.yaml``, then checked.

Run from the repository root (stdlib + pyyaml only, no network)::

    python bench/corpus/build.py build     # merge parts/*.yaml -> corpus.yaml, then verify
    python bench/corpus/build.py verify    # check corpus.yaml against the payload files
    python bench/corpus/build.py verify --dir OTHER_CORPUS --minimal   # record checks only

``build`` reads every ``parts/<group>.yaml`` (written by the capture scripts in ``capture/``),
adds ``bytes``, ``lines`` and ``sha256`` of each payload, sorts the items by id and writes
``corpus.yaml`` in the ``context-mode-corpus/v1`` format of the shared corpus. ``verify`` checks:

- every payload file exists, is UTF-8, and has the recorded size, line count and checksum;
- ids are unique, lowercase ``[a-z0-9-]``, start with ``<kind>-``, and name their file ``<id>.<ext>``;
- each kind is one of ``KINDS``, each set ``dev`` or ``holdout``;
- 3 to 6 facts per item; every answer occurs verbatim in its payload; no query contains its
  answer (case-insensitive);
- the corpus as a whole: at least ``MIN_ITEMS`` items of at least ``MIN_KINDS`` kinds, at least
  ``MIN_HOLDOUT`` of them holdout, a holdout item in every kind with two items or more, and all
  payloads together under ``MAX_TOTAL_BYTES``;
- when ``parts/`` is present, ``corpus.yaml`` is what ``build`` would write from it (not stale).

``--minimal`` keeps the per-item checks and drops the corpus-wide ones and the kind/set
vocabulary (for other corpora, such as ``../shared/corpus``). It prints a summary table per kind
and set; on a failure it lists every problem found and exits with status 1.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
FORMAT = "context-mode-corpus/v1"
KINDS = frozenset(
    "snapshot webpage rows table tree source code gitlog diff test lint build json log trace markdown".split()
)
SETS = ("dev", "holdout")
EXTENSIONS = frozenset({".txt", ".log", ".json", ".md", ".diff", ".yaml", ".csv"})
MIN_ITEMS = 40
MIN_KINDS = 14
MIN_HOLDOUT = 0.30
MIN_FACTS, MAX_FACTS = 3, 6
MAX_TOTAL_BYTES = 80_000_000
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
COMPUTED = ("bytes", "lines", "sha256")
LEADING = ("id", "kind", "set", "file", *COMPUTED)


class CorpusError(Exception):
    """The corpus failed verification; ``problems`` lists every failure found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            f"{len(problems)} problem(s) in the corpus:\n" + "\n".join(f"- {p}" for p in problems)
        )
        self.problems = problems


@dataclass
class Report:
    """What ``verify`` found: the items and every problem (empty when the corpus passes)."""

    items: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)


def measure(path: Path) -> dict[str, Any]:
    """``bytes``, ``lines`` and ``sha256`` of one payload file."""
    data = path.read_bytes()
    return {
        "bytes": len(data),
        "lines": len(data.decode("utf-8").splitlines()),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def read_yaml(path: Path) -> Any:
    """``yaml.safe_load`` of a file with libyaml's loader when PyYAML has it: the same data, some
    ten times faster (the corpus and its parts are a few MB of YAML, read by the suite, the corpus
    server and every bench)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_parts(corpus: Path) -> list[dict[str, Any]]:
    """Every record of ``corpus/parts/*.yaml``, in file order."""
    items: list[dict[str, Any]] = []
    for part in sorted((corpus / "parts").glob("*.yaml")):
        loaded = read_yaml(part) or {}
        records = loaded.get("items") if isinstance(loaded, dict) else None
        if not isinstance(records, list):
            raise CorpusError([f"{part}: expected a mapping with an 'items' list (see corpus_common format)"])
        items.extend(records)
    return items


def merged(corpus: Path) -> dict[str, Any]:
    """The ``corpus.yaml`` document ``build`` writes: parts merged, measured and sorted by id."""
    out = []
    for record in sorted(read_parts(corpus), key=lambda item: str(item.get("id", ""))):
        path = corpus / str(record.get("file", ""))
        sizes = measure(path) if path.is_file() else {}
        item = {key: record[key] for key in LEADING[:4] if key in record}
        item.update(sizes)
        item.update({key: value for key, value in record.items() if key not in item and key not in COMPUTED})
        out.append(item)
    return {"format": FORMAT, "items": out}


def dump(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=110)


def build(corpus: Path = HERE) -> Path:
    """Write ``corpus/corpus.yaml`` from ``corpus/parts``; return its path."""
    target = corpus / "corpus.yaml"
    target.write_text(dump(merged(corpus)), encoding="utf-8")
    return target


def load(corpus: Path) -> list[dict[str, Any]]:
    index = corpus / "corpus.yaml"
    if not index.is_file():
        raise CorpusError([f"no {index} (run: python bench/corpus/build.py build)"])
    document = read_yaml(index)
    if not isinstance(document, dict) or not isinstance(document.get("items"), list):
        raise CorpusError([f"{index}: expected a mapping with an 'items' list"])
    if document.get("format") != FORMAT:
        raise CorpusError([f"{index}: format is {document.get('format')!r}, expected {FORMAT!r}"])
    items: list[dict[str, Any]] = document["items"]
    return items


def check_item(corpus: Path, item: dict[str, Any], *, minimal: bool) -> Iterable[str]:
    """The problems of one record and its payload."""
    ident = str(item.get("id", "<no id>"))
    kind, file = str(item.get("kind", "")), str(item.get("file", ""))
    if not _ID.match(ident):
        yield f"{ident}: id must be lowercase [a-z0-9-] words joined by '-'"
    if not ident.startswith(f"{kind}-") and not minimal:
        yield f"{ident}: id must start with its kind '{kind}-'"
    if not minimal and kind not in KINDS:
        yield f"{ident}: kind {kind!r} is not one of {', '.join(sorted(KINDS))}"
    if not minimal and item.get("set") not in SETS:
        yield f"{ident}: set {item.get('set')!r} must be 'dev' or 'holdout'"
    if Path(file).stem != ident or Path(file).suffix not in EXTENSIONS or "/" in file:
        allowed = ", ".join(sorted(EXTENSIONS))
        yield f"{ident}: file {file!r} must be '{ident}.<ext>' with ext one of {allowed}"
    for key in ("tool", "source", "description"):
        if not item.get(key):
            yield f"{ident}: missing {key!r}"
    if not isinstance(item.get("args", {}), dict):
        yield f"{ident}: args must be a mapping"
    path = corpus / file
    if not path.is_file():
        yield f"{ident}: payload {path} is missing"
        return
    try:
        sizes = measure(path)
    except UnicodeDecodeError as exc:
        yield f"{ident}: payload {path} is not UTF-8 ({exc})"
        return
    for key, value in sizes.items():
        if item.get(key) != value:
            yield f"{ident}: recorded {key} {item.get(key)!r} but the file has {value!r} (run build)"
    text = path.read_text(encoding="utf-8")
    facts = item.get("facts") or []
    if not MIN_FACTS <= len(facts) <= MAX_FACTS:
        yield f"{ident}: {len(facts)} facts, expected {MIN_FACTS} to {MAX_FACTS}"
    for number, fact in enumerate(facts, 1):
        answer, query = str(fact.get("answer", "")), str(fact.get("query", ""))
        if not answer or not query or not fact.get("question"):
            yield f"{ident}: fact {number} needs a question, an answer and a query"
            continue
        if answer not in text:
            yield f"{ident}: fact {number} answer {answer!r} is not verbatim in {file}"
        if answer.lower() in query.lower():
            yield f"{ident}: fact {number} query {query!r} contains its answer {answer!r}"


def check_corpus(items: list[dict[str, Any]]) -> Iterable[str]:
    """The corpus-wide problems: size, breadth, holdout share and spread."""
    ids = Counter(str(item.get("id")) for item in items)
    for ident, count in sorted(ids.items()):
        if count > 1:
            yield f"{ident}: id used {count} times"
    if len(items) < MIN_ITEMS:
        yield f"{len(items)} items, expected at least {MIN_ITEMS}"
    kinds = Counter(str(item.get("kind")) for item in items)
    if len(kinds) < MIN_KINDS:
        yield f"{len(kinds)} kinds ({', '.join(sorted(kinds))}), expected at least {MIN_KINDS}"
    holdout = [item for item in items if item.get("set") == "holdout"]
    if items and len(holdout) / len(items) < MIN_HOLDOUT:
        yield f"{len(holdout)} of {len(items)} items are holdout, expected at least {MIN_HOLDOUT:.0%}"
    held_kinds = {item.get("kind") for item in holdout}
    for kind, count in sorted(kinds.items()):
        if count >= 2 and kind not in held_kinds:
            yield f"kind {kind!r} has {count} items but none in holdout (mark one 'set: holdout')"
    total = sum(int(item.get("bytes") or 0) for item in items)
    if total >= MAX_TOTAL_BYTES:
        yield f"payloads total {total} bytes, expected under {MAX_TOTAL_BYTES}"


def check_fresh(corpus: Path, items: list[dict[str, Any]]) -> Iterable[str]:
    """corpus.yaml must be what build would write from parts/ (when parts/ is shipped)."""
    if not (corpus / "parts").is_dir() or not any((corpus / "parts").glob("*.yaml")):
        return
    expected = merged(corpus)["items"]
    if expected != items:
        have = {str(item.get("id")) for item in items}
        want = {str(item.get("id")) for item in expected}
        detail = f"; missing {sorted(want - have)}" if want - have else ""
        detail += f"; extra {sorted(have - want)}" if have - want else ""
        yield f"corpus.yaml differs from parts/*.yaml{detail} (run: python bench/corpus/build.py build)"


def verify(corpus: Path = HERE, *, minimal: bool = False) -> Report:
    """Check the corpus (see the module doc); ``Report.problems`` is empty when it passes."""
    items = load(corpus)
    report = Report(items)
    for item in items:
        report.problems.extend(check_item(corpus, item, minimal=minimal))
    if not minimal:
        report.problems.extend(check_corpus(items))
        report.problems.extend(check_fresh(corpus, items))
    return report


def summary(items: list[dict[str, Any]]) -> str:
    """A Markdown table per kind: items, dev, holdout, facts, bytes; then the totals."""
    sets = sorted(
        {str(item.get("set")) for item in items},
        key=lambda s: (s not in SETS, SETS.index(s) if s in SETS else 0, s),
    )
    lines = [
        "| kind | items | " + " | ".join(sets) + " | facts | bytes |",
        "| --- | ---: | " + " | ".join("---:" for _ in sets) + " | ---: | ---: |",
    ]

    def row(label: str, chosen: list[dict[str, Any]]) -> str:
        per_set = Counter(str(item.get("set")) for item in chosen)
        facts = sum(len(item.get("facts") or []) for item in chosen)
        size = sum(int(item.get("bytes") or 0) for item in chosen)
        counts = " | ".join(str(per_set[s]) for s in sets)
        return f"| {label} | {len(chosen)} | {counts} | {facts} | {size:,} |"

    kinds = sorted({str(item.get("kind")) for item in items})
    lines.extend(row(kind, [item for item in items if item.get("kind") == kind]) for kind in kinds)
    lines.append(row("**all**", items))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("mode", choices=("build", "verify"), nargs="?", default="verify")
    parser.add_argument(
        "--dir", type=Path, default=HERE, help="the corpus directory (default: beside this file)"
    )
    parser.add_argument("--minimal", action="store_true", help="per-item checks only (other corpora)")
    options = parser.parse_args(argv)
    try:
        if options.mode == "build":
            print(f"wrote {build(options.dir)}")
        report = verify(options.dir, minimal=options.minimal)
    except CorpusError as exc:
        print(f"corpus check failed: {exc}", file=sys.stderr)
        return 1
    except (OSError, yaml.YAMLError) as exc:
        print(f"corpus check failed: cannot read the corpus in {options.dir}: {exc}", file=sys.stderr)
        return 1
    print(summary(report.items))
    if report.problems:
        print(f"\ncorpus check failed: {CorpusError(report.problems)}", file=sys.stderr)
        return 1
    print(f"\ncorpus OK: {len(report.items)} items in {options.dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
