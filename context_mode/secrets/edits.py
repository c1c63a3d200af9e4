"""Edits of a text by offsets, applied in one pass: what every masking step produces."""

from __future__ import annotations

from collections.abc import Iterable

Edit = tuple[int, int, str]  # replace text[start:end] with the string


def splice(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits given in text order (an edit overlapping the previous is dropped)."""
    parts: list[str] = []
    position = 0
    for start, end, replacement in edits:
        if start < position:
            continue
        parts.append(text[position:start])
        parts.append(replacement)
        position = end
    if not parts:
        return text
    parts.append(text[position:])
    return "".join(parts)
