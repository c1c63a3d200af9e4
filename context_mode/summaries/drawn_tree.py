"""Drawn trees (``tree``, ``npm ls``, ``cargo tree``, ``pipdeptree``): folded to a depth that fits.

``summarize_drawn_tree(text, budget=, terms=)`` keeps the root lines (the project and its
path) and the lines below the tree (its totals, ``npm error …``), then items shallowest first,
so the tree is shown to the depth the budget allows and every top-level item comes before any
grandchild; below the top level a directory's items are given in turns (its first ``_TURNS``,
then its last, ``└── test99``, rank with the first items one level deeper), so a big directory
early in the tree does not take the room of those after it; items inside a generated directory
(``node_modules``, ``autom4te.cache``) come after the project's. An item that names a problem
(``invalid``, ``UNMET``, ``missing``, ``extraneous``, ``npm ERR!``, ``npm error``) or a search
term ranks with the top level.
A tree drawn with sizes (``tree -s``/``-h``: ``[134K]  yacc.py``) ranks its ``_BIGGEST``
biggest files with the top level. Left-out runs are marked ``…``. The outline counts
items, depth and top-level items. Lines are verbatim (cut after ``_WIDTH`` characters). Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import byte_size, is_generated_dir
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.types import ContentKind

_BRANCH = re.compile(r"├|└|\|--|`--|\+--|\\--")
_PROBLEM = re.compile(r"\b(?:invalid|UNMET|missing|extraneous)\b|npm ERR!|^npm error ")
_WIDTH = 160
_DEPTH_STEP = 8.0
_GENERATED_SHARE = 1000 * _DEPTH_STEP  # what an item inside a generated directory loses: it comes last
_AFTER = 95.0  # a line below the tree (``npm error code ELSPROBLEMS``, ``42 directories, 300 files``)
# ``tree -s`` / ``-h`` / ``--du``: each item's size in brackets before its name (``[134K]  yacc.py``)
_ITEM_SIZE = re.compile(r"\[\s*(\d+(?:[.,]\d+)?)([KMGTPE]?)\]\s")
# where the size ends after the branch: ``── [     259122]  `` (``tree -s`` pads it to eleven)
_SIZE_REACH = 24
_BIGGEST = 6  # files of a tree drawn with sizes that rank next to its top level, biggest first
_BIGGEST_RANK = 89.0
_TURNS = 2  # a directory's items past its first two rank with the first items one level deeper
_LAST_TURN = 1  # a directory's last item (``└── test99``) ranks as its second
_LAST = "└`\\"  # how a last item's branch starts (``└──``, ```--``, ``\\--``)


def summarize_drawn_tree(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The tree's root and items, shallowest first, within ``budget`` bytes (see module doc)."""
    lines = split_lines(text)
    matches = term_matcher(terms)
    picks: list[Pick] = []
    depths: list[int] = []
    top = problems = 0
    ancestors: list[str] = []  # the names of the items above the line, by depth
    turns: list[int] = []  # the items of the directory above the line so far, by level
    starts: list[int] = []  # where the branches of the items above the line start, by level
    sizes: list[tuple[int, int, float]] = []  # an item's line, depth and size (``tree -s``)
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        branch = _BRANCH.search(line[:400])
        if branch is None:  # a root line: the project, a path; below the tree, its totals or errors
            after = bool(depths)
            picks.append(Pick(index, index + 1, _AFTER if after else 100.0 - 0.01 * index, _WIDTH))
            continue
        depth = branch.start() // 2
        depths.append(depth)
        top += depth == 0
        while starts and starts[-1] >= branch.start():
            starts.pop()
        level = len(starts)
        starts.append(branch.start())
        del turns[level + 1 :]
        turns.extend([-1] * (level + 1 - len(turns)))
        turns[level] += 1
        # a directory's items in turns (its first ones, its last one, then the rest), so no big
        # directory early in the tree takes the room of those after it
        turn = min(turns[level], _LAST_TURN) if line[branch.start()] in _LAST else turns[level]
        priority = 90.0 - _DEPTH_STEP * (level + (turn / _TURNS if level else 0))  # the top level whole
        del ancestors[depth:]
        if any(is_generated_dir(name) for name in ancestors):
            priority -= _GENERATED_SHARE  # inside ``node_modules``, ``autom4te.cache``: after the project's
        ancestors.append(line[branch.end() :].strip().lstrip("─- ").split(" ")[0])
        if _PROBLEM.search(line):
            problems += 1
            priority = max(priority, 92.0)
        if matches(line):
            priority = max(priority, 91.0)
        picks.append(Pick(index, index + 1, priority, _WIDTH))
        if sized := _ITEM_SIZE.search(line, branch.end(), branch.end() + _SIZE_REACH):
            sizes.append((index, depth, byte_size(sized.group(1), sized.group(2))))
    # the biggest files (an item with a deeper one right below it is a directory) rank with the top level
    files = [
        (amount, index)
        for n, (index, depth, amount) in enumerate(sizes)
        if n + 1 == len(sizes) or sizes[n + 1][1] <= depth
    ]
    biggest = {index for _, index in sorted(files, key=lambda found: -found[0])[:_BIGGEST]}
    picks = [
        Pick(p.start, p.stop, max(p.priority, _BIGGEST_RANK), p.width) if p.start in biggest else p
        for p in picks
    ]
    body = pack(lines, picks, budget, width=_WIDTH)
    deepest = max(depths, default=0) + 1
    outline = f"tree: {len(depths)} items, depth {deepest}, {top} top-level"
    if problems:
        outline += f", {problems} flagged"
    return Extract(text=body, kind=ContentKind.TREE, outline=outline, highlights=top + problems)
