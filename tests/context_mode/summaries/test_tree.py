"""The tree summariser on path lists: totals and extensions that are really extensions."""

from __future__ import annotations

from context_mode.summaries.tree import summarize_tree


def test_a_suffix_that_is_no_extension_is_not_counted_as_one() -> None:
    # Found by the summary property test: ".py:10:def handle(request):" was listed as an
    # extension, with its computed count glued to text no payload holds.
    text = "src/app.py\nsrc/util.py\nREADME\nsrc/app.py:10:def handle(request):\n"
    head = summarize_tree(text, budget=400).text.splitlines()
    extensions = next(line for line in head if line.startswith("extensions:"))
    assert ".py ×2" in extensions
    assert "def handle" not in extensions
