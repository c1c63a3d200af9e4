"""Summary of plain text: its head, its tail and its most distinctive lines (the head and tail
are the first and last lines with a letter or digit: a dump's closing brackets say nothing).

A line is distinctive when its words are rare in the payload (summed inverse document
frequency, normalised so long lines do not win by length alone) and its shape (numbers aside)
occurs once. Lines mentioning a search term come first after the head. This is also the
fallback of the other summarisers when a payload is not of their kind. A YAML document
(``shapes.is_yaml``) is summarised by its keys and list items instead (``yaml_doc``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from context_mode.shapes import is_commented_config, is_properties, is_query_plan, is_xml, is_yaml
from context_mode.summaries.config_file import summarize_config
from context_mode.summaries.edges import exchange_lines
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.manual import is_manual, summarize_manual
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.properties import summarize_properties
from context_mode.summaries.query_plan import summarize_query_plan
from context_mode.summaries.xml_doc import summarize_xml
from context_mode.summaries.yaml_doc import summarize_yaml
from context_mode.types import ContentKind

_WORD = re.compile(r"[A-Za-z_][\w-]{2,}")
_SHAPE = re.compile(r"\d+")
_PREFIX = 400
# Scoring every line of a huge payload is linear but pointless; rank at most this many.
_MAX_SCORED = 20_000
_TERM_PRIORITY = 60.0
_COUNTED_CHARS = 65_536  # a longer line's words are extrapolated from this many chars
_SAYS = re.compile(r"[^\W_]")  # a letter or a digit: a line of brackets and dots says nothing
_END_REACH = 40  # lines from each end looked through for the first and last that say something


def summarize_text(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Head, tail and distinctive lines of ``text`` within ``budget`` bytes (YAML: ``yaml_doc``)."""
    lines = split_lines(text)
    if is_yaml(lines):
        return summarize_yaml(text, budget=budget, terms=terms)
    if is_manual(lines):
        return summarize_manual(lines, budget=budget, terms=terms)
    if is_query_plan(lines):
        return summarize_query_plan(lines, budget=budget, terms=terms)
    if is_commented_config(lines):
        return summarize_config(lines, budget=budget, terms=terms)
    if is_properties(lines):
        return summarize_properties(lines, budget=budget, terms=terms)
    if is_xml(lines):
        return summarize_xml(lines, budget=budget, terms=terms)
    picks = distinctive_picks(lines, terms)
    body = pack(lines, picks, budget)
    words = sum(_word_count(line) for line in lines[:_MAX_SCORED])
    # Head and tail picks rank high too: only term matches count as highlights.
    matched = sum(1 for pick in picks if pick.priority >= _TERM_PRIORITY) if terms else 0
    return Extract(
        text=body,
        kind=ContentKind.TEXT,
        outline=f"text: {len(lines)} lines, {len(text)} chars, ~{words} words"
        + (f", {matched} lines matching terms" if matched else ""),
        highlights=matched,
    )


def _word_count(line: str) -> int:
    """Words in ``line``; past ``_COUNTED_CHARS``, extrapolated (the outline says "~N words")."""
    if len(line) <= _COUNTED_CHARS:
        return len(line.split())
    return round(len(line[:_COUNTED_CHARS].split()) * len(line) / _COUNTED_CHARS)


def distinctive_picks(lines: Sequence[str], terms: Sequence[str]) -> list[Pick]:
    """Picks for head, tail, term matches and rare lines of ``lines``."""
    total = len(lines)
    picks: list[Pick] = []
    # The first and last lines that say something: a dump's closing ``]`` and ``}`` say nothing of
    # its last record (a profiler's last sample, its time and top frame), the lines above do.
    head = [i for i in range(min(total, _END_REACH)) if _SAYS.search(lines[i][:_PREFIX])]
    tail = [
        i for i in range(total - 1, max(total - 1 - _END_REACH, -1), -1) if _SAYS.search(lines[i][:_PREFIX])
    ]
    for index, priority in zip(head, (90, 70, 50, 40, 30), strict=False):
        picks.append(Pick(index, index + 1, priority))
    for index, priority in zip(tail, (80, 55, 45, 35, 25), strict=False):
        picks.append(Pick(index, index + 1, priority))
    # ``curl -v``'s request and response, above its body
    picks.extend(Pick(index, index + 1, 85) for index in exchange_lines(lines))
    matches = term_matcher(terms)
    step = max(total // _MAX_SCORED, 1)
    sample = range(0, total, step)
    document_frequency: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    for index in sample:
        line = lines[index][:_PREFIX]
        document_frequency.update(set(_WORD.findall(line.lower())))
        shapes[_SHAPE.sub("#", line)] += 1
    scored = max(len(sample), 1)
    for index in sample:
        line = lines[index][:_PREFIX]
        if not line.strip():
            continue
        if matches(line):
            picks.append(Pick(index, index + 1, _TERM_PRIORITY - index / (total + 1), 160))
            continue
        words = set(_WORD.findall(line.lower()))
        if not words:
            continue
        # fsum is exact, so the score does not depend on the set's (hash-seeded) iteration order.
        rarity = math.fsum(math.log(scored / document_frequency[w]) for w in words) / math.sqrt(
            len(words) + 2
        )
        unique = 3.0 if shapes[_SHAPE.sub("#", line)] == 1 else 0.0
        picks.append(Pick(index, index + 1, min(rarity + unique, 29.0), 160))
    return [pick for pick in picks if 0 <= pick.start < total and lines[pick.start].strip()]
