"""``doc_search`` over one payload alone, in a fresh in-memory store: the reply an agent reads."""

from __future__ import annotations

from context_mode.store import Store
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tools.doc_tools import doc_tools


def search(text: str, kind: ContentKind, arguments: dict[str, object]) -> str:
    """The ``doc_search`` reply for ``arguments`` (``query`` or ``queries``) over ``text`` as ``kind``."""
    store = Store(None)
    try:
        doc = store.put(text, source="test", kind=kind)
        tool = next(t for t in doc_tools(store, ingest_roots=()) if t.name == "doc_search")
        return tool.run({**arguments, "ref": doc.ref})
    finally:
        store.close()


def bench_reply(name: str, kind: ContentKind, query: str) -> str:
    """The ``doc_search`` reply for ``query`` over ``bench/corpus``'s file ``name`` as ``kind``."""
    return search((BENCH_CORPUS / name).read_text(encoding="utf-8"), kind, {"query": query})
