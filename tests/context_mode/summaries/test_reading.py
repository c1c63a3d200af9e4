"""A summariser's kept reading (``summaries.reading``) gives what reading the text afresh gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.reading import LastReading
from tests.corpora import payload_params


def _copy(text: str) -> str:
    """An equal ``str`` that is another object, so no reading kept for ``text`` applies to it."""
    copy = "".join([text[:1], text[1:]])
    assert copy == text and (copy is not text or len(text) < 2)
    return copy


def test_a_reading_is_kept_for_the_same_text_object_and_terms_only() -> None:
    reads: list[str] = []
    memo: LastReading[int] = LastReading()

    def read(text: str) -> int:
        reads.append(text)
        return len(reads)

    text = "a payload"
    assert memo.get(text, ("x",), lambda: read(text)) == 1
    assert memo.get(text, ("x",), lambda: read(text)) == 1  # kept
    assert memo.get(text, ("y",), lambda: read(text)) == 2  # other terms: read again
    other = _copy(text)
    assert memo.get(other, ("y",), lambda: read(other)) == 3  # an equal text, another object
    assert memo.get(text, ("y",), lambda: read(text)) == 4  # one slot: the last reading only
    assert len(reads) == 4


@pytest.mark.parametrize("path", payload_params(sample=6))
def test_a_summary_from_a_kept_reading_equals_one_read_afresh(path: Path) -> None:
    # The router summarises a payload at the least budget, then at the one its highlights earn:
    # the second summary reuses the first's reading. It must be what a fresh reading gives.
    text = path.read_text(encoding="utf-8")
    kind = detect_kind(text)
    terms = ("error", "version")
    summarize(text, kind, budget=1400, terms=terms)  # read afresh; the reading is kept
    large = summarize(text, kind, budget=5800, terms=terms)  # the same str: its reading is kept
    assert summarize(_copy(text), kind, budget=5800, terms=terms) == large
    assert summarize(text, kind, budget=1400) == summarize(_copy(text), kind, budget=1400)  # no terms
