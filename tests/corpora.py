"""The corpora of real tool outputs the tests read, as pytest parameters.

- ``bench/corpus``: shipped in the repository, so a plain clone tests it;
- ``../shared/corpus``: beside the clone when present (``CTXHUB_SHARED_CORPUS`` names another
  place); its parameters are skipped when it is absent.

``data(name)`` reads one real output kept in ``tests/data`` for a test of its own.

A check that is a property of any real output (summaries stay verbatim and within budget, kind
detection does not crash, secret masking finds no false positive) runs on both; accuracy
targets tuned on the shared corpus stay with it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import pytest

from bench.corpus.build import read_yaml

REPO = Path(__file__).resolve().parents[1]
BENCH_CORPUS = REPO / "bench" / "corpus"
SHARED_CORPUS = Path(os.environ.get("CTXHUB_SHARED_CORPUS") or REPO.parent / "shared" / "corpus")
CORPORA = {"bench": BENCH_CORPUS, "shared": SHARED_CORPUS}
TEST_DATA = REPO / "tests" / "data"


def data(name: str) -> str:
    """The real output ``tests/data/name``, as text."""
    return (TEST_DATA / name).read_text(encoding="utf-8")


def is_present(corpus: Path) -> bool:
    return (corpus / "corpus.yaml").is_file()


def _skip(name: str, corpus: Path) -> Any:
    return pytest.mark.skip(reason=f"the {name} corpus is not at {corpus}")


def items_of(corpus: Path) -> list[dict[str, Any]]:
    """The items of ``corpus``'s ``corpus.yaml`` (callers only read them)."""
    return list(_read_items(corpus)) if is_present(corpus) else []


@functools.cache
def _read_items(corpus: Path) -> tuple[dict[str, Any], ...]:
    # A dozen parametrisations ask for the items at collection, in the controller and in every xdist
    # worker: the shipped corpus.yaml (1.4 MB) is parsed once per process, not once per ask (about
    # 0.25 s each with libyaml's loader, read_yaml).
    return tuple(read_yaml(corpus / "corpus.yaml")["items"])


def corpus_params() -> list[Any]:
    """One parameter per corpus: ``(name, directory)``."""
    return [
        pytest.param(name, path, id=name, marks=() if is_present(path) else _skip(name, path))
        for name, path in CORPORA.items()
    ]


def item_params() -> list[Any]:
    """One parameter per item of every corpus: ``(directory, item)``, id ``<corpus>:<item id>``."""
    params = []
    for name, path in CORPORA.items():
        if not is_present(path):
            params.append(pytest.param(path, None, id=f"{name}:absent", marks=_skip(name, path)))
            continue
        params.extend(pytest.param(path, item, id=f"{name}:{item['id']}") for item in items_of(path))
    return params


def payload_params(*, markdown: bool = True, sample: int = 1) -> list[Any]:
    """One parameter per payload file of every corpus (``markdown=False`` leaves out markdown items).

    ``sample=N`` keeps every Nth item of the shipped corpus (its items are in id order, so every
    kind keeps some) and the whole shared corpus: for checks that a fast path equals its
    reference, whose cost is the reference's, not for properties of every output.
    """
    params = []
    for name, path in CORPORA.items():
        if not is_present(path):
            params.append(pytest.param(path / "absent", id=f"{name}:absent", marks=_skip(name, path)))
            continue
        chosen = [
            item
            for item in items_of(path)
            if markdown or (item["kind"] != "markdown" and not str(item["file"]).endswith(".md"))
        ]
        if name == "bench":
            chosen = chosen[::sample]
        params.extend(pytest.param(path / item["file"], id=f"{name}:{item['file']}") for item in chosen)
    return params


def bench_stage1(name: str, tool: str = "run_command") -> str:
    """Stage 1 of ``bench/corpus``'s file ``name`` as ``tool``'s result (a Summary, asserted)."""
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route
    from context_mode.types import OutputStyle

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool=tool)
    assert isinstance(decision, Summary)
    return decision.extract.text


def own_summary(text: str, decision: Any, arguments: dict[str, Any] | None = None) -> str:
    """What the routed kind's summariser picks for ``text`` at ``decision``'s budget, without the
    payload's ending the router shows below it (``summaries.ending``)."""
    from context_mode.router import FRAME_BYTES, query_terms
    from context_mode.summaries import summarize

    room = max(128, decision.budget - FRAME_BYTES)
    return summarize(text, decision.kind, budget=room, terms=query_terms(arguments)).text
