"""Lines of a document that note a change: deprecations, removals, replacements, version changes.

For ``markdown`` (reference pages, manuals, release notes). What an agent checks a reference page
for, beside its defaults, is whether what it is about to use still holds: "X is deprecated",
"has been removed", "Dropped support for Python 2.7", "no longer supports", "use Y instead", "in
favour of Y", "now named Y", "Changed in version 5.0:", "Starting with version 4.0, …", and what
an upgrade breaks ("**Breaking:** Drop support for Node 16", "backwards incompatible").
``change_lines(joined)`` takes the document's newline-joined (prefix-cut) lines, searched once,
and returns the indexes of the lines holding such a note, in order, the first ``MAX_FOUND``.
"New in version" is not one: API pages say it of nearly every entry, nor is "Added support".
"""

from __future__ import annotations

import re

from context_mode.summaries.definitions import MAX_FOUND, pattern_lines

_CHANGE = re.compile(
    r"\bdeprecated\b|\b(?:been|was|were|is|are) removed\b"
    r"|\b(?:drop|remove)(?:s|d|ped)? (?:[^.;\n]{0,40}? )?support\b|\bno longer support(?:s|ed)?\b"
    r"|\buse\b[^.;\n]{1,80}\binstead\b|\bin favou?r of\b|\bnow (?:named|called)\b|\brenamed\b"
    r"|\bchanged in (?:version )?v?\d|\b(?:starting|beginning) (?:with|in|from) (?:version )?v?\d"
    r"|\bbreaking(?:\*\*)?:|\bbreaking changes?\b|\bbackwards?[- ]incompatible\b",  # what an upgrade breaks
    re.IGNORECASE,
)


def change_lines(joined: str) -> list[int]:
    """Lines noting a deprecation, a removal, a replacement or a change in some version."""
    return pattern_lines(joined, _CHANGE, MAX_FOUND)


def change_at(line: str) -> int:
    """Where ``line`` notes a change, -1 if it notes none."""
    found = _CHANGE.search(line)
    return found.start() if found else -1
