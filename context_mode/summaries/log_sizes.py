"""The biggest sizes a build or install log reports: what makes a bundle or a download big.

``largest_sized(joined)`` finds, in a log's newline-joined text, the lines that state a size in
kilo-, mega- or gigabytes (webpack's ``./node_modules/lodash/lodash.js [2543] 533 KiB {792}``,
Vite's ``dist/assets/index-4f1c.js  533.21 kB │ gzip: 98.10 kB``, pip's ``Downloading
torch-2.3.0-….whl (779.1 MB)``, a Docker layer's size), and returns the indexes of the
``LARGEST`` lines holding the biggest ones, biggest first (one line per size: an asset's size said
again for its entry point says nothing new), when at least ``MIN_SIZED`` lines state
one (a log that names one or two sizes shows them by its other rules). A line's size is its
first. Units compare across (``KiB`` < ``MB``); no sizes in bytes alone (a count is no size).
One regex pass over the text for the units, after a check that one is in it at all
(``log_marks.holds``); pure.
"""

from __future__ import annotations

import heapq
import re

from context_mode.summaries.log_marks import holds

LARGEST = 5
MIN_SIZED = 8
_UNITS = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}
_BINARY = {"K": 1024.0, "k": 1024.0, "M": 1024.0**2, "G": 1024.0**3}
_UNIT = re.compile(r"([kKMG])(i?)B\b")
_NUMBER_BEFORE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ?\Z")
_REACH = 16  # characters before a unit looked at for its number


def largest_sized(joined: str) -> list[int]:
    """Indexes of the lines stating the ``LARGEST`` sizes of ``joined``, biggest first (see module doc)."""
    if not holds(joined, "iB", "kB", "MB", "GB"):
        return []
    sized: list[tuple[float, int]] = []
    line = position = 0
    last = -1
    # The units are rare and the numbers before them common: a regex from the unit, then its number.
    for match in _UNIT.finditer(joined):
        start = match.start()
        number = _NUMBER_BEFORE.search(joined, max(0, start - _REACH), start)
        if number is None:
            continue
        line += joined.count("\n", position, start)
        position = start
        if line == last:
            continue  # a line's first size is its size
        last = line
        prefix, binary = match.groups()
        scale = _BINARY[prefix] if binary else _UNITS[prefix]
        sized.append((float(number.group(1)) * scale, -line))
    if len(sized) < MIN_SIZED:
        return []
    # One line per size: an asset's size said again for its entry point says nothing new.
    first_of: dict[float, int] = {}
    for size, negated in sized:
        first_of.setdefault(size, negated)
    return [-negated for _, negated in heapq.nlargest(LARGEST, first_of.items())]
