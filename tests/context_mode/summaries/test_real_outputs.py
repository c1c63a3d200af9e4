"""Every real output of both corpora (``bench/corpus``, and ``../shared/corpus`` when present) summarises
within budget into verbatim lines of the payload (or valid JSON), and its content alone, without the
tool's name and arguments, is detected as a kind (the summary detects with them).

A property of any real output, so it runs on the shipped corpus in a plain clone; the fact-level
checks tuned on the shared corpus stay in ``test_corpus.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from context_mode.kinds import ContentKind, detect_kind
from tests.context_mode.summaries.test_corpus import assert_fits_and_is_verbatim_or_json, summary_of
from tests.corpora import item_params


@pytest.mark.parametrize(("corpus", "item"), item_params())
def test_a_summary_fits_and_is_verbatim_or_json(corpus: Path, item: dict[str, Any]) -> None:
    text, extract = summary_of(corpus, item)
    assert_fits_and_is_verbatim_or_json(text, extract)
    assert isinstance(detect_kind(text), ContentKind)
