"""File listings with a size on every line: what is biggest, and how much there is in all.

Input: one entry per line with its size, as these tools print them:

- ``du`` (``-a``, ``-h``, ``-s``): ``1.3M<TAB>./asyncio`` — directories and files, a directory's
  size holding its contents';
- ``find -printf '%s %p\\n'``, ``wc -c``: ``8766 ./if_ether.h`` (``wc``'s ``12345 total`` too);
- the filesystem MCP server's ``list_directory_with_sizes``: ``[FILE] GFile.html   643.94 KB`` /
  ``[DIR] utils``, then ``Total: 241 files, 0 directories`` and ``Combined size: 9.61 MB``;
- ``ls -l`` (``-a``, ``-R``, ``-h``, ``-s``, ``-g``, ``-o``, ``--time-style``):
  ``-rw-r--r-- 1 u g 113169 Oct 21  2024 backends.py`` (a directory's own size is no size; ``.`` and
  ``..`` are left out), and the listings spelled like it: ``find -ls``, ``restic ls -l``,
  ``rsync --list-only`` (``65,713``: thousands);
- archives and object stores: ``tar tv``'s ``-rw-r--r-- user/group 146 2024-09-24 14:16 pkg/a.yml``
  (Python's ``tarfile -v -l``: ``?rw-r--r--``, no type in a tar header's mode), ``unzip -l``'s
  ``   11257  2024-08-13 00:17   pkg/METADATA`` (its ``20954702   622 files`` the totals),
  ``git ls-tree -r -l``'s ``100644 blob 06416fce…   273<TAB>.coveragerc`` (a directory listed
  without what it holds is no candidate for the biggest), ``rclone lsl``, ``7z l``.

``shapes.is_sized_listing`` tells one. ``summarize_sized_listing`` shows, within
``budget`` bytes, a count line (entries, files, directories; derived), ``ls -lR``'s directory lines
with how many entries each holds (in order, at most ``_SECTION_SHARE`` of the budget, the last one
always), the entries whose mode few others of their type share (an executable script among data
files, a symlink, a world-writable directory; at most ``_ODD_SHARE``), then the entries biggest
first as the payload spells them, directories and files in turns (``du`` lists both: the biggest
directories say where the space goes, the biggest files what takes it; a directory's n-th biggest
entry is worth its size over n, so a directory of many alike files, ``locale-data/*.dat``, leaves
room for the biggest of the rest of the tree), entries naming the call's
terms before the rest, then the listing's last entry and its totals lines. Sizes compare across
units (``4.0K`` < ``1.3M``; a bare number is bytes, or ``du``'s blocks: the same scale throughout
one listing). Linear in the input, but for sorts of the entries.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from context_mode.shapes import SIZED_TOTALS, is_listing_directory, sized_entry
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import clip, size, split_lines
from context_mode.summaries.reading import LastReading
from context_mode.types import ContentKind

_WIDTH = 200
_BIGGEST = "== biggest first =="
_ENDING = "== the last entry and the totals =="
_ROOM_LEFT = 16  # bytes left that no entry line would fit in
_SECTIONS = "== directories =="
_MORE = 28  # room for the ``… 65 more directories`` line
_SECTION_SHARE = 0.3  # of the budget, at most, for ``ls -lR``'s directory lines
# Entries with a mode few others of their type share (``_odd_modes``), at most this share of the
# budget, in a listing of at least ``_ODD_MIN`` entries with modes; a mode within ``_MODE_REACH``
# characters of the line's start (``find -ls`` puts an inode and blocks before it).
_ODD = "== unusual modes =="
_ODD_SHARE = 0.1
_ODD_MIN = 10
_MODE = re.compile(r"(?<!\S)[-dlcbps?][rwxsStT-]{9}(?=[.+@]?\s)")  # ``?``: tarfile's unknown type
_MODE_REACH = 40


@dataclass(frozen=True, slots=True)
class _Entry:
    index: int
    path: str
    bytes: float
    directory: bool
    sized: bool


class _Reading(NamedTuple):
    """A listing's reading, whatever the budget (the router asks two or three)."""

    lines: list[str]
    entries: list[_Entry]
    totals: list[int]
    directories: list[_Entry]
    files: list[_Entry]
    groups: list[list[_Entry]]  # sized directories and files, each in ``_spread`` order
    counted: list[str]  # ``ls -lR``'s directory lines with their entry counts (``_counted``)
    depths: list[int]  # …and how deep each is
    odd: list[int]  # the entries whose mode few others of their type share (``_odd_modes``)


_READINGS: LastReading[_Reading] = LastReading()


def summarize_sized_listing(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The biggest entries of a sized listing and its totals in ``budget`` bytes."""
    lines, entries, totals, directories, files, groups, counted, depths, all_odd = _READINGS.get(
        text, (), lambda: _read(text)
    )
    head = [f"{len(entries)} entries: {len(files)} files, {len(directories)} directories"]
    head += _sections(counted, depths, int(budget * _SECTION_SHARE))
    odd = _fitting(lines, all_odd, int(budget * _ODD_SHARE) - size(_ODD) - 1)
    head += [*([_ODD] if odd else []), *(clip(lines[i], _WIDTH) for i in odd), _BIGGEST]
    tail = sorted({entries[-1].index, *totals}) if entries else totals
    ending = [_ENDING, *(clip(lines[i], _WIDTH) for i in tail)]
    used = sum(size(line) + 1 for line in [*head, *ending])
    chosen: dict[int, float] = {}
    skipped = {*tail, *odd}

    def take(entry: _Entry) -> None:
        nonlocal used
        cost = size(clip(lines[entry.index], _WIDTH)) + 1
        if entry.index not in chosen and entry.index not in skipped and used + cost <= budget:
            chosen[entry.index] = entry.bytes
            used += cost

    wanted = term_matcher(terms)
    for entry in entries:
        if wanted(lines[entry.index]):
            take(entry)
    for turn in range(max((len(group) for group in groups), default=0)):
        if used > budget - _ROOM_LEFT:
            break
        for group in groups:
            if turn < len(group):
                take(group[turn])
    shown = sorted(chosen, key=lambda index: (-chosen[index], index))
    body = [*head, *(clip(lines[i], _WIDTH) for i in shown), *ending]
    outline = f"tree: {len(entries)} entries with sizes, {len(files)} files, {len(directories)} directories"
    return Extract(
        text="\n".join(body), kind=ContentKind.TREE, outline=outline, highlights=min(len(entries) // 10, 20)
    )


def _read(text: str) -> _Reading:
    lines = split_lines(text)
    entries: list[_Entry] = []
    totals: list[int] = []
    listed_dirs: list[int] = []  # ``ls -lR``'s ``lib/vquic:`` lines
    for index, line in enumerate(lines):
        if SIZED_TOTALS.match(line):
            totals.append(index)
        elif (parsed := sized_entry(line)) is not None:
            if parsed[0] not in (".", ".."):  # ls -a's own two
                path, amount, listed_dir = parsed
                entries.append(_Entry(index, path, amount or 0.0, listed_dir, amount is not None))
        elif is_listing_directory(lines, index):
            listed_dirs.append(index)
    # ``du -a`` names each directory after its contents: a path that others are under is one.
    parents = {entry.path.rsplit("/", 1)[0] for entry in entries if "/" in entry.path}
    directories = [e for e in entries if e.directory or e.path.rstrip("/") in parents]
    files = [e for e in entries if not (e.directory or e.path.rstrip("/") in parents)]
    # a directory an archive or ``ls`` lists without what it holds says nothing about space
    groups = [_spread(group) for group in ([e for e in directories if e.sized], files)]
    counted = _counted(lines, listed_dirs, [entry.index for entry in entries])
    depths = [lines[index].count("/") for index in listed_dirs] if counted else []
    return _Reading(
        lines, entries, totals, directories, files, groups, counted, depths, _odd_modes(lines, entries)
    )


def _odd_modes(lines: Sequence[str], entries: Sequence[_Entry]) -> list[int]:
    """The entries whose mode few others of their type share (the one executable script among
    data files, a symlink, a world-writable directory), in listing order; none when the listing
    shows no modes or no mode is usual."""
    modes: dict[int, str] = {}
    for entry in entries:
        found = _MODE.search(lines[entry.index], 0, _MODE_REACH)
        if found is not None:
            modes[entry.index] = found.group()
    if len(modes) < _ODD_MIN:
        return []
    odd: list[int] = []
    for directories in (False, True):
        group = [index for index, mode in modes.items() if (mode[0] == "d") == directories]
        counts = Counter(modes[index] for index in group)
        if len(counts) < 2 or counts.most_common(1)[0][1] * 2 < len(group):
            continue  # no mode is usual: none is odd
        rare = max(2, len(group) // 50)
        odd += [index for index in group if counts[modes[index]] <= rare]
    return sorted(odd)


def _fitting(lines: Sequence[str], indexes: Sequence[int], room: int) -> list[int]:
    """The first of ``indexes`` whose lines (as shown) fit in ``room`` bytes."""
    chosen: list[int] = []
    used = 0
    for index in indexes:
        cost = size(clip(lines[index], _WIDTH)) + 1
        if used + cost > room:
            break
        chosen.append(index)
        used += cost
    return chosen


def _spread(entries: Sequence[_Entry]) -> list[_Entry]:
    """Biggest first, a directory's n-th biggest entry worth its size over n, so no directory of
    many alike files (``locale-data/*.dat``) takes the room of the rest of the tree."""
    ranked: Counter[str] = Counter()  # entries of each directory so far, biggest first
    worth: list[tuple[float, int, _Entry]] = []
    for order, entry in enumerate(sorted(entries, key=lambda e: -e.bytes)):
        parent = entry.path.rstrip("/").rpartition("/")[0]
        ranked[parent] += 1
        worth.append((entry.bytes / ranked[parent], order, entry))
    return [entry for _, _, entry in sorted(worth, key=lambda w: (-w[0], w[1]))]


def _counted(lines: Sequence[str], found: Sequence[int], entries: Sequence[int]) -> list[str]:
    """``ls -lR``'s directory lines (``lib/vquic:`` after a blank line, at ``found``), each
    verbatim with the number of entries under it; none for a listing of one directory."""
    if len(found) < 2:
        return []
    counted: list[str] = []
    for order, index in enumerate(found):
        stop = found[order + 1] if order + 1 < len(found) else len(lines)
        count = bisect.bisect_left(entries, stop) - bisect.bisect_right(entries, index)
        counted.append(
            f"{clip(lines[index].rstrip(), _WIDTH)} {count} {'entry' if count == 1 else 'entries'}"
        )
    return counted


def _sections(counted: Sequence[str], depths: Sequence[int], room: int) -> list[str]:
    """The counted directory lines within ``room`` bytes: shallow directories before deep ones
    (the outline of the tree), the last one always (where the listing ends), in listing order."""
    if not counted:
        return []
    last = len(counted) - 1
    used = size(_SECTIONS) + size(counted[last]) + 2 + _MORE
    chosen = {last}
    for order in sorted(range(last), key=lambda o: (depths[o], o)):
        if used + size(counted[order]) + 1 > room:
            break
        chosen.add(order)
        used += size(counted[order]) + 1
    left = len(counted) - len(chosen)
    shown = [counted[order] for order in sorted(chosen)]
    return [_SECTIONS, *shown[:-1], *([f"… {left} more directories"] if left else []), shown[-1]]
