"""A table's row too wide to show whole, cut around one cell, and its header cut alike.

``wide_row(row, header, span, name)`` keeps each line's first cell (what the row is: its month,
its name) before the ``…``, then the part of the line around the cell at ``span`` under the column
``name``: an aligned table's two lines are cut at the same place (back and on to gaps in both),
so the cell stays under its name; a separated one (``|``, ``│``, CSV, TSV) to whole cells. The
cut keeps what ``cutting.cut`` keeps of a long line. Pure; never raises on ``str``.
"""

from __future__ import annotations

from context_mode.store.cutting import ELLIPSIS, LINE_WIDTH, cut, window
from context_mode.store.line_fields import SEPARATORS, WORD, cell_places, split_cells


def wide_row(row: str, header: str, span: tuple[int, int], name: str) -> tuple[str, str]:
    """A table's row too wide to show whole, and its header line, cut to the cell at ``span``
    under the column ``name``: each keeps its first cell (what the row is: its month, its name)
    before the ``…``, then the part of the line around the cell. An aligned table's two lines are
    cut at the same place, so the cell stays under its name."""
    separator = next((mark for mark in SEPARATORS if mark in header), None)
    row_lead, header_lead = _lead(row, separator), _lead(header, separator)
    if separator is None:
        lead = max(row_lead, header_lead)
        begin, stop = _window(row, lead, span)
        while begin > lead and not (_blank(row, begin - 1) and _blank(header, begin - 1)):
            begin -= 1  # back to a gap between columns in both lines: whole cells, still aligned
        while stop < max(len(row), len(header)) and not (_blank(row, stop) and _blank(header, stop)):
            stop += 1
        return _joined(row, lead, begin, stop), _joined(header, lead, begin, stop)
    names = split_cells(header, separator)
    places = cell_places(header, names)
    place = next((at for cell, at in zip(names, places, strict=True) if cell == name), None)
    if place is None:
        return _cells(row, row_lead, span, separator), cut(header, (), LINE_WIDTH, str)
    return _cells(row, row_lead, span, separator), _cells(header, header_lead, place, separator)


def _window(line: str, lead: int, span: tuple[int, int]) -> tuple[int, int]:
    """Where the part of ``line`` past ``lead`` that ``cutting.cut`` keeps around ``span`` starts and ends."""
    begin, stop = window(line[lead:], [(span[0] - lead, span[1] - lead, 1.0)], LINE_WIDTH - lead)
    return lead + begin, lead + stop


def _lead(line: str, separator: str | None) -> int:
    """Where a row's first cell ends (its first word, or up to its first separator after a cell)."""
    text = line.lstrip(separator or "").lstrip()
    skipped = len(line) - len(text)
    end = text.find(separator) if separator is not None else -1
    if end < 0:
        found = WORD.match(text)
        end = found.end() if found else 0
    return skipped + end


def _blank(line: str, at: int) -> bool:
    """Whether ``line`` has no character at ``at`` but a space (or ends before it)."""
    return at >= len(line) or line[at].isspace()


def _joined(line: str, lead: int, begin: int, stop: int) -> str:
    """``line``'s first ``lead`` characters, ``…``, then its characters from ``begin`` to ``stop``."""
    end = len(line.rstrip())
    shown = line[:lead].rstrip().ljust(lead) + ELLIPSIS + line[begin:stop]
    return shown + ELLIPSIS if stop < end else shown


def _cells(line: str, lead: int, span: tuple[int, int], separator: str) -> str:
    """A separated row (or header) cut to whole cells around the one at ``span``, after its first
    cell and separator: ``EGLL,…1274.25,97``."""
    end = len(line.rstrip())
    begin, stop = _window(line, lead, span)
    if begin <= lead + 1:
        return cut(line, [(*span, 1.0)], LINE_WIDTH, str)
    before = line.find(separator, begin, span[0])
    begin = before + 1 if before >= 0 else begin
    after = line.find(separator, stop) if stop < end else -1
    stop = after if after >= 0 else end
    return line[: lead + 1].strip() + ELLIPSIS + line[begin:stop] + (ELLIPSIS if stop < end else "")
