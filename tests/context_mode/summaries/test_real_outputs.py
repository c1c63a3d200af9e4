"""Every real output of both corpora (``bench/corpus``, and ``../shared/corpus`` when present) summarises
within budget into verbatim lines of the payload (or valid JSON); the summary detects its kind with the
tool's name and arguments. Content alone, without them, is detected as a kind too, on every fourth item
of the shipped corpus: the same code but the tool's hint, and a third of the cost of the check above.

A property of any real output, so it runs on the shipped corpus in a plain clone; the fact-level
checks tuned on the shared corpus stay in ``test_corpus.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from context_mode.kinds import ContentKind, detect_kind
from tests.context_mode.summaries.test_corpus import assert_fits_and_is_verbatim_or_json, summary_of
from tests.corpora import item_params, payload_params


@pytest.mark.parametrize(("corpus", "item"), item_params())
def test_a_summary_fits_and_is_verbatim_or_json(corpus: Path, item: dict[str, Any]) -> None:
    text, extract = summary_of(corpus, item)
    assert_fits_and_is_verbatim_or_json(text, extract)


@pytest.mark.parametrize("path", payload_params(sample=4))
def test_content_alone_is_detected_as_a_kind(path: Path) -> None:
    assert isinstance(detect_kind(path.read_text(encoding="utf-8")), ContentKind)
