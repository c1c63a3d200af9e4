"""Summary of a Jupyter notebook (``.ipynb``, read as JSON): its errors, its outline, its cells.

``is_notebook(value)`` says whether a parsed JSON value is one: an object with a ``cells`` list and
an ``nbformat``. ``summarize_notebook(value, budget=, terms=)`` shows, one compact JSON piece per
line (each a part of the notebook as written, long strings clipped with ``…``, left-out lines
counted as ``"… +N items"``), highest first:

1. the notebook's format and kernel (``{"nbformat": 4, …, "kernelspec": {…}, "language_info": …}``);
2. each distinct error an output holds (``{"output_type": "error", "ename": "URLError", "evalue":
   …}``) under its cell's first source lines (``{"execution_count": 12, "source": [...]}``), the
   first first: a later ``NameError`` is often the first error's consequence;
3. its last cell, and the markdown cells that are headings (``# …``), shallower first: the outline;
4. each code cell's first source line in order, then the first line of its text output (a
   stream's, a result's ``text/plain``), then the other markdown cells' first lines.

Cells and outputs naming one of ``terms`` rank above all but the head. The outline counts cells
per type, errors per name and images. Linear in the notebook.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_TEXT = 160  # chars of a source or output line shown
_WIDTH = 480  # a piece: a cell with its first lines, an error with its value
_SOURCE_LINES = 2  # a cell's first source lines shown over its error
_HEAD = 100.0
_ERROR = 92.0
_ERROR_AGAIN = 78.0  # an error name seen before with another value
_LAST = 75.0
_HEADING = 72.0
_CODE = 40.0
_OUTPUT = 25.0
_PROSE = 20.0
_MATCH = 50.0
_ORDER = 0.01  # per cell: earlier first among equals


def is_notebook(value: Any) -> bool:
    """Whether a parsed JSON value is a Jupyter notebook: ``cells`` and ``nbformat``."""
    return isinstance(value, dict) and isinstance(value.get("cells"), list) and "nbformat" in value


def summarize_notebook(value: dict[str, Any], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The notebook's errors, outline and cells within ``budget`` bytes (see module doc)."""
    matches = term_matcher(terms)
    lines = [_piece(_head(value))]
    picks = [Pick(0, 1, _HEAD)]
    types: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    names: set[str] = set()  # the error names shown
    images = headings = 0
    cells = [cell for cell in value["cells"] if isinstance(cell, dict)]
    for order, cell in enumerate(cells):
        kind = str(cell.get("cell_type", ""))
        types[kind] += 1
        source = _lines(cell.get("source"))
        at = len(lines)
        lines.append(_piece(_cell_piece(cell, source)))
        rank = order * _ORDER
        said = " ".join(source)
        priority = _PROSE - rank
        if kind == "code":
            priority = _CODE - rank
        elif source and source[0].startswith("#"):
            depth = len(source[0]) - len(source[0].lstrip("#"))
            priority = _HEADING - 4.0 * depth - rank
            headings += 1
        if order == len(cells) - 1:
            priority = max(priority, _LAST)
        if terms and matches(said):
            priority += _MATCH
        picks.append(Pick(at, at + 1, priority))
        for output in cell.get("outputs") or ():
            if not isinstance(output, dict):
                continue
            images += sum(1 for key in _object(output.get("data")) if str(key).startswith("image/"))
            shown = _output_piece(output)
            if shown is None:
                continue
            lines.append(_piece(shown))
            if output.get("output_type") == "error":
                name, said_value = str(output.get("ename", "")), str(output.get("evalue", ""))
                errors[name] += 1
                if (name, said_value) in seen:
                    continue
                worth = _ERROR_AGAIN if name in names else _ERROR
                seen.add((name, said_value))
                names.add(name)
                picks.append(Pick(at, at + 1, worth - rank))  # the cell's source over its error
                picks.append(Pick(len(lines) - 1, len(lines), worth - rank))
                continue
            text = " ".join(_lines(shown.get("text")) or _lines(_object(shown.get("data")).get("text/plain")))
            worth = _OUTPUT - rank + (_MATCH if terms and matches(text) else 0.0)
            picks.append(Pick(len(lines) - 1, len(lines), worth))
    body = pack(lines, picks, budget, width=_WIDTH, gaps="short")
    counted = ", ".join(f"{count} {kind}" for kind, count in types.most_common())
    outline = f"notebook: {len(cells)} cells ({counted})"
    if errors:
        named = ", ".join(f"{name} ×{count}" for name, count in errors.most_common(4))
        named += ", …" if len(errors) > 4 else ""
        outline += f", {errors.total()} error{'' if errors.total() == 1 else 's'} ({named})"
    if images:
        outline += f", {images} images"
    return Extract(body, ContentKind.JSON, outline, len(seen) + headings, ends_shown=True)


def _head(value: dict[str, Any]) -> dict[str, Any]:
    """The notebook's format and what runs it: its kernel and language."""
    head: dict[str, Any] = {key: value[key] for key in ("nbformat", "nbformat_minor") if key in value}
    metadata = _object(value.get("metadata"))
    for key in ("kernelspec", "language_info"):
        inner = metadata.get(key)
        if isinstance(inner, dict):
            head[key] = {
                k: v for k, v in inner.items() if k in ("name", "display_name", "language", "version")
            }
    return head


def _cell_piece(cell: dict[str, Any], source: list[str]) -> dict[str, Any]:
    """A cell as shown: its type (or execution count) and its first source lines."""
    piece: dict[str, Any] = (
        {"execution_count": cell.get("execution_count")}
        if cell.get("cell_type") == "code"
        else {"cell_type": cell.get("cell_type")}
    )
    piece["source"] = _first(source, _SOURCE_LINES)
    return piece


def _output_piece(output: dict[str, Any]) -> dict[str, Any] | None:
    """An output as shown: an error's name and value, a stream's or a result's first text line."""
    kind = output.get("output_type")
    if kind == "error":
        return {
            "output_type": kind,
            "ename": output.get("ename"),
            "evalue": _clip(str(output.get("evalue", ""))),
        }
    if kind == "stream":
        text = _lines(output.get("text"))
        return {"name": output.get("name"), "text": _first(text, 1)} if text else None
    plain = _lines(_object(output.get("data")).get("text/plain"))
    if not plain:
        return None
    return {"output_type": kind, "data": {"text/plain": _first(plain, 1)}}


def _object(value: Any) -> dict[str, Any]:
    """``value`` when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _lines(source: Any) -> list[str]:
    """A cell's source or an output's text as its lines (a list of strings, or one string)."""
    if isinstance(source, list):
        text = "".join(str(part) for part in source)
    elif isinstance(source, str):
        text = source
    else:
        return []
    return [line for line in text.splitlines() if line.strip()]


def _first(lines: list[str], count: int) -> list[str]:
    """The first ``count`` lines, clipped, with the others counted."""
    shown: list[str] = [_clip(line) for line in lines[:count]]
    if len(lines) > count:
        left = len(lines) - count
        shown.append(f"… +{left} item{'' if left == 1 else 's'}")
    return shown


def _clip(text: str) -> str:
    return text if len(text) <= _TEXT else text[: _TEXT - 1] + "…"


def _piece(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)
