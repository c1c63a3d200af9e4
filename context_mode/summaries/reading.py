"""The last text's reading, kept for the next summary of the same text.

The router summarises a payload more than once: at the least budget, then at the budget its
highlights earn, and smaller again when its outline is long. What a summariser reads from a text
before it spends a budget (its lines, their classification, the picks and their priorities) does
not depend on the budget. ``LastReading`` keeps the last one, keyed by the text's identity (the
router passes the same ``str`` object, so a lookup costs nothing) and the call's search terms; a
different text replaces it. The slot is replaced whole, so two threads summarising at once at
worst read a text twice. A summariser keeps one ``LastReading`` and must treat what it returns
as read-only. Memory: each slot keeps its last payload and reading alive until the next payload
of its kind (a parsed 1 MB JSON document is some megabytes), never more than one.
``tests/context_mode/summaries/test_reading.py`` checks that a summary from a kept reading is
the summary a fresh reading gives, on every corpus payload.

``Labelled`` is such a reading for a summariser that shows a counting label (``== … ==``) above
its picked lines (the SQL-script and symbol-table readings): ``extract`` packs it for a budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack_labelled
from context_mode.types import ContentKind

T = TypeVar("T")


class LastReading(Generic[T]):
    """A one-slot memo of ``read()`` for (the same text object, the same terms).

    ``text`` is usually the payload; a summariser whose reading is about a value made from it
    (a parsed JSON document) keys by that value instead."""

    def __init__(self) -> None:
        self._slot: tuple[object, tuple[str, ...], T] | None = None

    def get(self, text: object, terms: Sequence[str], read: Callable[[], T]) -> T:
        key = tuple(terms)
        slot = self._slot
        if slot is not None and slot[0] is text and slot[1] == key:
            return slot[2]
        value = read()
        self._slot = (text, key, value)
        return value


@dataclass(frozen=True, slots=True)
class Labelled:
    """A counting label above picked lines: a summary whatever the budget, packed by ``extract``."""

    lines: Sequence[str]
    label: str  # ``== … ==``: what the reading counted
    picks: Sequence[Pick]
    outline: str  # after the kind's name
    highlights: int

    def extract(self, kind: ContentKind, budget: int, *, width: int, gaps: str = "short") -> Extract:
        """The label and the picked lines in ``budget`` bytes, as an ``Extract`` of ``kind``."""
        return Extract(
            text=pack_labelled(self.label, self.lines, self.picks, budget, width=width, gaps=gaps),
            kind=kind,
            outline=f"{kind.value}: {self.outline}",
            highlights=self.highlights,
        )
