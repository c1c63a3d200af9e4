"""Drawn trees (``tree``, ``npm ls``, ``cargo tree``, ``pipdeptree``): folded to a depth that fits.

``summarize_drawn_tree(text, budget=, terms=)`` keeps the root lines (the project and its
path) and the lines below the tree (its totals, ``npm error …``), then items shallowest first,
so the tree is shown to the depth the budget allows and every top-level item comes before any
grandchild; an item that names a problem (``invalid``, ``UNMET``, ``missing``, ``extraneous``,
``npm ERR!``, ``npm error``) or a search term ranks with the top level.
Left-out runs are marked ``… N lines …``. The outline counts items, depth and top-level items.
Lines are verbatim (cut after ``_WIDTH`` characters). Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import is_generated_dir
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.types import ContentKind

_BRANCH = re.compile(r"├|└|\|--|`--|\+--|\\--")
_PROBLEM = re.compile(r"\b(?:invalid|UNMET|missing|extraneous)\b|npm ERR!|^npm error ")
_WIDTH = 160
_DEPTH_STEP = 8.0
_GENERATED_SHARE = 2 * _DEPTH_STEP  # what an item inside a generated directory loses (two levels)
_AFTER = 95.0  # a line below the tree (``npm error code ELSPROBLEMS``, ``42 directories, 300 files``)


def summarize_drawn_tree(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The tree's root and items, shallowest first, within ``budget`` bytes (see module doc)."""
    lines = split_lines(text)
    matches = term_matcher(terms)
    picks: list[Pick] = []
    depths: list[int] = []
    top = problems = 0
    ancestors: list[str] = []  # the names of the items above the line, by depth
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
        priority = 90.0 - _DEPTH_STEP * min(depth, 10) - 0.0001 * index
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
    body = pack(lines, picks, budget, width=_WIDTH)
    deepest = max(depths, default=0) + 1
    outline = f"tree: {len(depths)} items, depth {deepest}, {top} top-level"
    if problems:
        outline += f", {problems} flagged"
    return Extract(text=body, kind=ContentKind.TREE, outline=outline, highlights=top + problems)
