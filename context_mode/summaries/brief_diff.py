"""Two trees compared file by file (``diff -rq``, ``diff -qr``, ``diff -rs``): what is only on one
side, and which files differ.

``diff -q`` names files, not lines: ``Files a/x and b/x differ``, ``Only in b/src: new.py``,
``Common subdirectories: a/x and b/x``, ``Files a/x and b/x are identical`` (``-s``), ``File a/x
is a directory while file b/x is a regular file``. Taken for a log or text, its first and last
lines were shown and the files added or removed, what a reviewer of two releases looks for
first, were left out among a hundred ``differ`` lines. ``summarize_brief_diff(text, kind=,
budget=, terms=)`` returns None unless nine in ten non-blank lines are such lines (at least
``_MIN_LINES``); else, verbatim and within ``budget`` bytes: the lines naming the call's terms,
the first and last lines, the top-level files that differ (a manifest, the README), every
``Only in`` line (the shallowest first when they do not all fit), then the other ``differ``
lines, the project's own files before vendored and built copies (``diff_paths.is_copied``), the
first of each directory before the rest, shallow before deep. The outline counts the files that
differ and those only on one side, per side. ``Extract.kind`` is ``DIFF``. Linear in the text,
but for the sort of the picks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.summaries.diff_paths import is_copied
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, first_lines, pack, split_lines
from context_mode.types import ContentKind

_DIFFER = re.compile(r"(?:Files|Binary files) (?P<path>\S.*?) and \S.* differ\s*\Z")
_ONLY = re.compile(r"Only in (?P<dir>\S.*?): (?P<name>\S.*?)\s*\Z")
_SAME = re.compile(
    r"(?:Common subdirectories: \S.* and \S.*"
    r"|Files \S.* and \S.* are identical"
    r"|File \S.* is a \S.* while file \S.* is a \S.*)\s*\Z"
)
_MIN_LINES = 5
_SAMPLE_LINES = 40
_SHARE = 0.9
_WIDTH = 240
_TERMS, _ENDS, _TOP, _ONLY_IN, _OWN, _FIRST_IN_DIR, _COPY = 100.0, 90.0, 85.0, 80.0, 50.0, 10.0, 30.0


def summarize_brief_diff(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The files only on one side and those that differ, in ``budget`` bytes; None if ``text``
    is no ``diff -q`` of two trees (see the module doc)."""
    del kind  # read as a diff, whatever it was taken for
    head = first_lines(text, _SAMPLE_LINES)
    if len(head) < _MIN_LINES or sum(map(_is_entry, head)) < _SHARE * len(head):
        return None  # told by its first lines, as most texts are
    lines = split_lines(text)
    filled = [index for index, line in enumerate(lines) if line.strip()]
    wanted = term_matcher(terms)
    picks = [Pick(filled[0], filled[0] + 1, _ENDS), Pick(filled[-1], filled[-1] + 1, _ENDS - 1)]
    sides: Counter[str] = Counter()
    differ = others = 0
    seen_dirs: set[str] = set()
    allowed = len(filled) - int(len(filled) * _SHARE)
    for index in filled:
        line = lines[index]
        only = _ONLY.match(line)
        changed = None if only else _DIFFER.match(line)
        if terms and (only or changed) and wanted(line):
            picks.append(Pick(index, index + 1, _TERMS))
        if only is not None:
            folder = only.group("dir")
            sides[folder.split("/", 1)[0]] += 1
            picks.append(Pick(index, index + 1, _ONLY_IN - folder.count("/") - index / 1e7))
            continue
        if changed is None:
            if _SAME.match(line) is None:
                others += 1
                if others > allowed:
                    return None
            continue
        differ += 1
        path = changed.group("path")
        folder = path.rsplit("/", 1)[0]
        depth = path.count("/")
        priority = _TOP if depth <= 1 else (_COPY if is_copied(path) else _OWN) - depth
        priority -= index / 1e7
        if folder not in seen_dirs:
            seen_dirs.add(folder)
            priority += _FIRST_IN_DIR
        picks.append(Pick(index, index + 1, priority))
    only_in = sum(sides.values())
    if differ + only_in < _MIN_LINES:
        return None
    per_side = ", ".join(f"{count} in {side}" for side, count in sides.most_common())
    outline = f"diff: {differ} file{'' if differ == 1 else 's'} differ, {only_in} only in one tree"
    outline += f" ({per_side})" if per_side else ""
    body = pack(lines, picks, budget, width=_WIDTH)
    return Extract(text=body, kind=ContentKind.DIFF, outline=outline, highlights=only_in + min(differ, 20))


def _is_entry(line: str) -> bool:
    return any(shape.match(line) for shape in (_ONLY, _DIFFER, _SAME))
