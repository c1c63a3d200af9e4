"""``git status`` in its long form: the branch, each section with its files, runs folded by directory.

``shapes.is_git_status`` says which outputs these are (the kind is TREE: a list of paths).

``summarize_git_status(text, budget=…)`` shows, verbatim and in order: the lines above the first
section (the branch, how it stands against its upstream), every section header, then the files:
each section's entries by their state (``modified:``, ``deleted:``, ``new file:``, untracked
paths). A run of four or more entries of one state under one top directory shows its first entry
with ``[+N more deleted under examples/]``; the rest of the run comes only when room is left,
after every other entry, and its gap is not marked again. Git's ``(use "git add …")`` hints are
dropped without a marker. The outline counts each section's entries by state. Linear in the lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.shapes import GIT_STATUS_SECTION
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.types import ContentKind

_HINT = re.compile(r"\s+\(use \"git |\s+\(commit or discard |\s+\(fix conflicts")
_ENTRY = re.compile(r"\t(?:(?P<state>[a-z][a-z ]{2,20}):\s+)?(?P<path>\S.*)\Z")
_RUN = 4  # entries of one state under one directory that fold
_SHORT = {
    "Changes to be committed": "staged",
    "Changes not staged for commit": "not staged",
    "Untracked files": "untracked",
    "Unmerged paths": "unmerged",
    "Ignored files": "ignored",
}


def summarize_git_status(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The branch, the sections and their files of a ``git status`` within ``budget`` bytes."""
    lines = split_lines(text)
    matches = term_matcher(terms)
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    filler: set[int] = set()
    counts: dict[str, Counter[str]] = {}
    section = ""
    runs: list[tuple[str, str, str, list[int]]] = []  # (section, state, directory, entry lines)
    for index, line in enumerate(lines):
        header = GIT_STATUS_SECTION.match(line)
        if header:
            section = header.group("name")
            counts.setdefault(section, Counter())
            picks.append(Pick(index, index + 1, 96.0))
            continue
        if not section:
            if line.strip():
                picks.append(Pick(index, index + 1, 98.0 - index * 0.01))
            continue
        if _HINT.match(line):
            filler.add(index)
            continue
        entry = _ENTRY.match(line)
        if entry is None:
            if line.strip():  # "no changes added to commit …": how the status ends
                picks.append(Pick(index, index + 1, 90.0))
            continue
        state = entry.group("state") or ("untracked" if section == "Untracked files" else "")
        counts[section][state] += 1
        path = entry.group("path")
        directory = path.split("/", 1)[0] + "/" if "/" in path.rstrip("/") else ""
        last = runs[-1] if runs else None
        if last and last[:3] == (section, state, directory) and directory:
            last[3].append(index)
        else:
            runs.append((section, state, directory, [index]))
    entries = 0
    for run_section, state, directory, members in runs:
        folds = bool(directory) and len(members) >= _RUN
        for position, index in enumerate(members):
            entries += 1
            priority = 80.0 - min(entries, 400) * 0.01
            if folds and position:  # its first entry's note counts it: its gap needs no marker
                priority = 20.0 - min(entries, 400) * 0.01
                filler.add(index)
            if matches(lines[index]):
                priority += 15.0
            picks.append(Pick(index, index + 1, priority))
        if folds:
            label = state or _SHORT.get(run_section, "")
            notes[members[0]] = f"+{len(members) - 1} more {label} under {directory}".replace("  ", " ")
    body = pack(lines, picks, budget, width=200, notes=notes, filler=filler)
    parts = []
    for name, states in counts.items():
        total = sum(states.values())
        detail = ", ".join(
            f"{count} {state}" for state, count in states.most_common() if state != "untracked"
        )
        parts.append(
            f"{total} {_SHORT.get(name, name)}" + (f" ({detail})" if detail and len(states) > 1 else "")
        )
    outline = "git status: " + ("; ".join(parts) if parts else "clean")
    return Extract(
        text=body, kind=ContentKind.TREE, outline=outline, highlights=sum(len(c) for c in counts.values())
    )
