"""Where a snapshot's line sits in a table: its row's name, and whether its column is a default.

A reference page's option table (``columnheader "Option"``, ``"Type"``, ``"Default"``,
``"Description"``) states each option's default in its ``Default`` column, as a cell's name
(``cell "14.0"``) or as the first line under an unnamed cell (``code: "'table'"``). ``Table``
follows the snapshot line by line (``see``) and says which lines hold such a value; ``row_name``
is the current row's first line that says something (its first cell, or the link or code inside
it): what the row's other cells are about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CELLS = frozenset(("cell", "columnheader", "rowheader", "gridcell"))
_DEFAULT_COLUMN = re.compile(r"\bdefault\b", re.IGNORECASE)


@dataclass(slots=True)
class Table:
    """The table being read: its column headers, and the current row's cells so far."""

    columns: list[str]
    row_indent: int | None = None  # the current row's indent; None outside a row
    cell_indent: int | None = None  # its cells' indent
    position: int = -1  # the current cell's column
    row_name: int | None = None  # the row's first line that says something
    value_under: int | None = None  # the indent of an unnamed default cell awaiting its text

    def see(self, role: str, label: str, indent: int, index: int) -> bool:
        """Take the next line (``label``: what it says); whether it states a default by its column."""
        if role == "row":
            self.row_indent, self.cell_indent, self.position = indent, None, -1
            self.row_name = self.value_under = None
            return False
        if self.row_indent is None:
            return False
        if indent <= self.row_indent:
            self.row_indent = self.row_name = self.value_under = None
            return False
        if role in _CELLS and self.cell_indent in (None, indent):
            return self._cell(role, label, indent, index)
        if label and self.row_name is None:
            self.row_name = index
        if label and self.value_under is not None and indent > self.value_under:
            self.value_under = None
            return True
        return False

    def _cell(self, role: str, label: str, indent: int, index: int) -> bool:
        self.cell_indent, self.position = indent, self.position + 1
        self.value_under = None
        if role == "columnheader":
            if self.position == 0:
                self.columns = []
            self.columns.append(label)
            return False
        if label and self.row_name is None:
            self.row_name = index
        default = self.position < len(self.columns) and bool(
            _DEFAULT_COLUMN.search(self.columns[self.position])
        )
        if default and not label:
            self.value_under = indent
        return default and bool(label)
