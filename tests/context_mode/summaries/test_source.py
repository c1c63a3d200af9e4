"""The source outline on a real multi-file read: module constants before every class's dunders."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.packing import size
from context_mode.types import ContentKind

TEXT = (Path(__file__).parents[2] / "data" / "read-multiple-files-httpx.txt").read_text(encoding="utf-8")


def test_module_constants_outrank_special_methods_and_gaps_are_bare() -> None:
    # Before: DEFAULT_* ranked below every nested def (__eq__, __repr__ of each class), and each
    # gap cost a "… N lines …" line although the [Lnn] notes say where the text was cut.
    assert detect_kind(TEXT) is ContentKind.SOURCE
    extract = summarize(TEXT, ContentKind.SOURCE, budget=2000)
    lines = extract.text.splitlines()
    assert "/home/runner/work/httpx-0.28.1/httpx/_config.py: [251 lines]" in lines
    assert "DEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0) [L246]" in lines
    assert "DEFAULT_MAX_REDIRECTS = 20 [L248]" in lines
    assert "def __repr__" not in extract.text
    assert "    def __init__( [L86]" in lines
    assert all(line == "…" or "lines …" not in line for line in lines)
    assert size(extract.text) <= 2000
