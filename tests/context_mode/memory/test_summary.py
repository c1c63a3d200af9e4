"""The extractive summary: deterministic, verbatim sentences and code, within budget."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.memory.summary import (
    MENTIONS_PREFIX,
    keep_code_blocks,
    key_terms,
    split_code_blocks,
    summarize_extractive,
)
from context_mode.tokens import estimate_tokens

NOTES = """Goal: move the config loader to src/config/loader.py without changing behaviour.

The weather was nice today. We had coffee. Nothing else happened in the morning.

The function load_config() reads config.yaml and validates every server entry.
```python
def load_config(path):
    return yaml.safe_load(path.read_text())
```
The old helper parse_servers() in hub/legacy.py duplicates the validation and should go.
Another sentence about the morning coffee and the weather today.
"""


def prose_of(text: str) -> str:
    return "\n".join(part for is_code, part in split_code_blocks(text) if not is_code)


def test_text_that_fits_is_returned_unchanged() -> None:
    assert summarize_extractive("  Short note.  ", max_tokens=100) == "Short note."


def test_the_summary_is_deterministic() -> None:
    assert summarize_extractive(NOTES, max_tokens=60) == summarize_extractive(NOTES, max_tokens=60)


def test_code_blocks_are_kept_verbatim_and_in_place() -> None:
    summary = summarize_extractive(NOTES, max_tokens=110)
    block = "```python\ndef load_config(path):\n    return yaml.safe_load(path.read_text())\n```"
    assert block in summary
    assert summary.index("reads config.yaml") < summary.index(block)
    assert block in summarize_extractive(NOTES, max_tokens=10)  # code is kept even over budget


def test_sentences_with_paths_and_identifiers_win_over_chatter() -> None:
    summary = summarize_extractive(NOTES, max_tokens=90)
    assert "src/config/loader.py" in summary
    assert "load_config()" in summary
    assert "coffee" not in summary


def test_paths_from_dropped_sentences_are_listed_as_mentions() -> None:
    text = "\n".join(
        f"Checked module number {n} in pkg/mod_{n}.py and found nothing new there." for n in range(30)
    )
    summary = summarize_extractive(text, max_tokens=120)
    assert MENTIONS_PREFIX in summary
    assert "pkg/mod_29.py" in summary or "pkg/mod_1.py" in summary


def test_sentences_that_repeat_a_kept_one_are_skipped() -> None:
    text = "\n".join(f"Step {n}: inspected the loader section {n} of config.yaml today." for n in range(20))
    summary = summarize_extractive(text, max_tokens=200)
    kept = [line for line in summary.splitlines() if line.startswith("Step")]
    assert len(kept) < 5


def test_missing_code_blocks_are_appended_to_an_abstractive_summary() -> None:
    assert keep_code_blocks(NOTES, "Loader moves.").startswith("Loader moves.\n```python\ndef load_config")
    assert keep_code_blocks("no code here", "Short.") == "Short."


def test_key_terms_put_paths_and_identifiers_first_without_near_duplicates() -> None:
    terms = key_terms("Edit src/app.py: getUserById() calls getuserbyid twice. getUserById getUserById.")
    assert terms[:2] == ("src/app.py", "getUserById()")
    assert "getuserbyid" not in terms


sentence = st.from_regex(r"[A-Z][a-z]{2,8}( [a-z_]{2,10}){3,12}\.", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(sentence, min_size=1, max_size=40), st.integers(min_value=20, max_value=200))
def test_prose_stays_within_budget_and_every_kept_sentence_is_verbatim(
    sentences: list[str], max_tokens: int
) -> None:
    text = " ".join(sentences)
    summary = summarize_extractive(text, max_tokens=max_tokens)
    assert estimate_tokens(summary) <= max(max_tokens, 0) or summary == text.strip()
    body = summary.split("\n" + MENTIONS_PREFIX)[0]
    for kept in re.split(r"(?<=\.)\s+", body.strip()):
        if kept:
            assert kept in text
    assert prose_of(summary) == summary  # no code in, no code out
