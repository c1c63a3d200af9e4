"""Plain ``diff``'s own formats read as a unified diff: the normal format and the context format.

``diff a b`` and ``diff -r old new`` write the normal format (``5c5,6``, ``< old``, ``---``,
``> new``), ``diff -c`` / ``diff -rc`` the context format (``*** a<TAB>date`` / ``--- b<TAB>date``,
``***************``, ``*** 5,10 ****`` over the old lines, ``--- 5,11 ----`` over the new, each
marked ``-``, ``+``, ``!`` or two spaces). ``as_unified(lines)`` gives, line for line, the lines a
unified diff would have in their places, so what reads unified diffs (detection, the diff
summary, the store's diff chunks) reads these too, while what is shown stays the lines as written:

- a hunk's command or ``*** 5,10 ****`` line is its ``@@ -a,o +c,n @@`` header, counted so that
  the hunk spans exactly its lines (``---`` between the two sides, and ``--- 5,11 ----``, are
  context lines, a context hunk's unchanged lines are context on each side);
- ``< x`` and ``- x`` are ``-x``, ``> x`` and ``+ x`` are ``+x``, ``! x`` is ``-x`` over the old
  lines and ``+x`` over the new;
- ``diff -r a/x b/x`` (the line naming the files ``-r`` compares) is ``diff --git a/a/x b/b/x``,
  a context diff's file lines are ``--- a/x`` and ``+++ b/x``; ``***************`` is blank.

It is None when the lines hold no such hunk, or hold a unified one (``@@ -1 +1 @@``): a unified
diff's lines, a blockquote's ``> `` or a line reading ``1a2`` in prose stay as they are. Linear in
the lines; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# ``5c5,6``, ``1a2``, ``3,4d2``: what the normal format does to which lines
_COMMAND = re.compile(r"(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?\s*\Z")
_OLD_RANGE = re.compile(r"\*\*\* (\d+)(?:,(\d+))? \*\*\*\*\s*\Z")  # a context hunk's old side
_NEW_RANGE = re.compile(r"--- (\d+)(?:,(\d+))? ----\s*\Z")  # and its new side
_SEPARATOR = re.compile(r"\*{15}\s*\Z")  # ``***************`` above each context hunk
_UNIFIED = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
# The line ``diff -r`` writes above each pair of files it compares (``diff -rc a/x b/x``)
_COMPARED = re.compile(r"diff(?: -{1,2}[\w=-]+)* (\S+) (\S+)\s*\Z")
_OLD_SIDE = {"- ": "-", "! ": "-", "  ": " "}  # a context hunk's marks over its old lines
_NEW_SIDE = {"+ ": "+", "! ": "+", "  ": " "}  # and over its new lines
_PREFIX = 400


def as_unified(lines: Sequence[str]) -> list[str] | None:
    """The lines a unified diff would have in the places of ``lines`` (see the module doc), or None
    when they are no normal or context diff."""
    heads = [line[:_PREFIX] for line in lines]
    hunk = any(
        (_COMMAND.match(line) and heads[index + 1][:1] in ("<", ">"))
        or (_SEPARATOR.match(line) and _OLD_RANGE.match(heads[index + 1]))
        for index, line in enumerate(heads[:-1])
    )
    if not hunk or any(_UNIFIED.match(line) for line in heads):
        return None
    view = list(lines)
    index = 0
    while index < len(heads):
        line = heads[index]
        if _COMMAND.match(line) and index + 1 < len(heads) and heads[index + 1][:1] in ("<", ">"):
            index = _normal_hunk(lines, heads, view, index)
            continue
        if _OLD_RANGE.match(line):
            index = _context_hunk(lines, heads, view, index)
            continue
        compared = _COMPARED.match(line)
        if compared:
            view[index] = f"diff --git a/{compared.group(1)} b/{compared.group(2)}"
        elif _SEPARATOR.match(line):
            view[index] = ""
        elif (
            line.startswith("*** ")
            and index + 1 < len(heads)
            and heads[index + 1].startswith("--- ")
            and not _NEW_RANGE.match(heads[index + 1])
        ):
            view[index] = "--- " + lines[index][4:]  # a context diff's two files
            view[index + 1] = "+++ " + lines[index + 1][4:]
            index += 1
        elif line[:1] in ("<", ">") and line[1:2] in ("", " "):
            view[index] = ("-" if line[0] == "<" else "+") + lines[index][2:]  # its command cut off
        index += 1
    return view


def _normal_hunk(lines: Sequence[str], heads: Sequence[str], view: list[str], start: int) -> int:
    """Write the normal-format hunk whose command is at ``start`` into ``view``; the index past it."""
    command = _COMMAND.match(heads[start])
    assert command is not None
    old = new = 0
    index = start + 1
    while index < len(heads):
        line = heads[index]
        mark = line[:1]
        if mark in ("<", ">") and line[1:2] in ("", " "):
            view[index] = ("-" if mark == "<" else "+") + lines[index][2:]
            old += mark == "<"
            new += mark == ">"
        elif line.rstrip() == "---":
            view[index] = " "
            old += 1
            new += 1
        elif not line.startswith("\\"):  # ``\ No newline at end of file`` belongs to the hunk
            break
        index += 1
    view[start] = f"@@ -{command.group(1)},{old} +{command.group(4)},{new} @@"
    return index


def _context_hunk(lines: Sequence[str], heads: Sequence[str], view: list[str], start: int) -> int:
    """Write the context-format hunk whose old side opens at ``start`` into ``view``; the index
    past it."""
    opened = _OLD_RANGE.match(heads[start])
    assert opened is not None
    old = new = 0
    new_start = opened.group(1)
    sides = _OLD_SIDE
    index = start + 1
    while index < len(heads):
        line = heads[index]
        ranged = _NEW_RANGE.match(line)
        if ranged and sides is _OLD_SIDE:
            sides = _NEW_SIDE
            new_start = ranged.group(1)
            view[index] = " "
            old += 1
            new += 1
        elif line[:2] in sides or line == "":
            mark = sides.get(line[:2], " ")
            view[index] = mark + lines[index][2:]
            old += mark != "+"
            new += mark != "-"
        elif not line.startswith("\\"):
            break
        index += 1
    view[start] = f"@@ -{opened.group(1)},{old} +{new_start},{new} @@"
    return index
