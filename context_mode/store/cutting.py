"""Cutting a long line of a search reply to the part that matters, verbatim.

``cut(line, spans, width, key)`` returns the line without its indentation; a line longer than
``width`` characters and a third is cut: a JSON string holding a document to its escaped lines
that add the query's terms, each with the line after it (past a heading's underline or a blank
line), a prose line (``excerpts.is_prose``) to its whole sentences that add the query's terms (at
most ``SENTENCES_WIDTH`` widths), else to the ``width`` characters around its heaviest matches
(going on to finish the value or word it would end in: ``"dep:terminal_size"]``, not ``"dep…``), or
to the whole ``{…}`` record the heaviest match is in (``line_records.enclosing_record``). ``…``
marks where it was cut. ``spans`` are the matches as ``(start, end, weight)``; ``key`` names the
term a matched text is. ``window(line, spans, width)`` is where that part starts and ends when no
sentences are cut (a wide table's row, ``store.extremes``). Pure, linear in the line.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from context_mode.shapes import ESCAPED_BREAK
from context_mode.store.excerpts import is_prose
from context_mode.store.line_records import enclosing_record
from context_mode.words import NO_ABBREVIATION

LINE_WIDTH = 240
ELLIPSIS = "…"
_SLACK = 2  # characters at a line's end shown rather than cut: "…" would stand for as many
SENTENCES_WIDTH = 2.0  # a prose line's sentences may take this many line widths
# A sentence ends at ``.``, ``!`` or ``?`` before a space and a capital, a digit or a quote, but
# not at an abbreviation that goes on with the sentence ("special float values (i.e. NaN, inf)").
_SENTENCE_START = re.compile(rf"(?<=[.!?]){NO_ABBREVIATION}[\"')\]]*\s+(?=[A-Z0-9\"'(`\[])")

_ESCAPED_LINES = 4  # escaped line breaks (``shapes.ESCAPED_BREAK``) a long line holds to be cut at them

Span = tuple[int, int, float]


def cut(line: str, spans: Sequence[Span], width: int, key: Callable[[str], str]) -> str:
    """``line`` without its indentation, cut to ``width`` chars around its heaviest matches (``spans``);
    ``key`` names the term a matched text is (two spans of one term are one term)."""
    start = len(line) - len(line.lstrip())
    end = len(line.rstrip())
    if end - start > width + width // 3 and line.count("\\n", start, end) >= _ESCAPED_LINES:
        pieces = _escaped_lines_cut(line, start, end, spans, width, key)
        if pieces is not None:
            return pieces
    if end - start > width + width // 3 and is_prose(line):
        sentences = _sentences_cut(line, start, end, spans, width, key)
        if sentences is not None:
            return sentences
    begin, stop = window(line, spans, width)
    prefix = ELLIPSIS if begin > start else ""
    suffix = ELLIPSIS if stop < end else ""
    return prefix + line[begin:stop] + suffix


def window(line: str, spans: Sequence[Span], width: int) -> tuple[int, int]:
    """Where the part of ``line`` that ``cut`` keeps starts and ends when it cuts no sentences: the
    line without its indentation when short enough, else ``width`` chars around its heaviest
    matches, or the whole ``{…}`` record the heaviest match is in."""
    start = len(line) - len(line.lstrip())
    end = len(line.rstrip())
    if end - start <= width + width // 3:  # cutting a third would save less than the "…" costs to read
        return start, end
    best_from, best_weight = start, -1.0
    margin = width // 6
    for anchor, _, _ in spans:
        begin = max(start, min(anchor - margin, end - width))
        weight = sum(w for s, e, w in spans if s >= begin and e <= begin + width)
        if weight > best_weight:
            best_from, best_weight = begin, weight
    stop = min(end, best_from + width)
    record = enclosing_record(line, spans, width)
    if record is not None:
        best_from, stop = record
    else:
        stop = _value_end(line, stop, end)
    # A cut that would hide a bracket or two (``[`` before the first record) shows them instead.
    if best_from - start <= _SLACK:
        best_from = start
    if end - stop <= _SLACK:
        stop = end
    return best_from, stop


_VALUE_END = re.compile(r"[,;\]})\s]")
VALUE_REACH = 48  # characters a window's end goes on to finish the value or word it cuts


def _value_end(line: str, stop: int, end: int) -> int:
    """Where a window ending at ``stop`` ends once it finishes the value or word it cuts
    (``"wrap_help":["help","dep:terminal_size"]``, not ``…"dep``): the next ``,``, bracket or
    space within ``VALUE_REACH`` characters, else ``stop``."""
    if stop >= end or _VALUE_END.match(line, stop - 1) is not None:
        return stop
    found = _VALUE_END.search(line, stop, min(end, stop + VALUE_REACH))
    if found is None:
        return stop
    return found.start() if found.group().isspace() else found.end()


def _sentences_cut(
    line: str, start: int, end: int, spans: Sequence[Span], width: int, key: Callable[[str], str]
) -> str | None:
    """A long prose line as its sentences that hold the query's terms, each term's best first.

    A paragraph on one line (a fetched page, a snapshot's ``paragraph``) often holds the
    answer in a later sentence than the one that repeats most of the query ("… toasting begins.
    … which with the default block size will be 2040 bytes."): whole sentences, picked for the
    terms they add, read better than one window and reach further; together they take at most
    ``SENTENCES_WIDTH`` line widths. None when no sentence that holds a term fits that (the caller
    then cuts a window).
    """
    bounds = [start, *(m.end() for m in _SENTENCE_START.finditer(line, start, end)), end]
    sentences = [
        (begin, len(line[begin:stop].rstrip()) + begin) for begin, stop in itertools.pairwise(bounds)
    ]
    terms = _terms_of(line, sentences, spans, key)
    sizes = [stop - begin + 3 for begin, stop in sentences]  # with the `` … `` that joins them
    picked = _picked(terms, sizes, SENTENCES_WIDTH * width)
    if not picked:
        return None
    out = [ELLIPSIS if picked[0] > 0 else ""]
    for order, index in enumerate(picked):
        if order:
            out.append(" " if index == picked[order - 1] + 1 else f" {ELLIPSIS} ")
        out.append(line[sentences[index][0] : sentences[index][1]])
    out.append(ELLIPSIS if picked[-1] < len(sentences) - 1 else "")
    return "".join(out)


def _escaped_lines_cut(
    line: str, start: int, end: int, spans: Sequence[Span], width: int, key: Callable[[str], str]
) -> str | None:
    """A JSON string holding a document (``"#\\n# Wrap the builtin…\\n"``) as its lines, the
    payload's escapes kept: those that hold the query's terms, each term's best first, each with
    the line after it (the answer often sits below the line that repeats the query: a comment,
    then its statement), within ``SENTENCES_WIDTH`` line widths; None when none fits."""
    bounds = [start, *(m.end() for m in ESCAPED_BREAK.finditer(line, start, end)), end]
    pieces = [(begin, stop) for begin, stop in itertools.pairwise(bounds) if stop > begin]
    terms = _terms_of(line, pieces, spans, key)
    sizes = [stop - begin for begin, stop in pieces]
    limit = SENTENCES_WIDTH * width
    picked = _picked(terms, [size + 3 for size in sizes], limit)
    if not picked:
        return None
    used = sum(sizes[index] + 3 for index in picked)
    for index in list(picked):
        # The line after, and the lines that say nothing before it (a heading's ``~~~~`` underline,
        # a blank line): the answer sits below them.
        after = index + 1
        while after < len(pieces) and after not in picked and used + sizes[after] <= limit:
            picked.append(after)
            used += sizes[after]
            if not _says_nothing(line[pieces[after][0] : pieces[after][1]]):
                break
            after += 1
    picked.sort()
    out = [ELLIPSIS if picked[0] > 0 else ""]
    for order, index in enumerate(picked):
        begin, stop = pieces[index]
        if not order or index != picked[order - 1] + 1:  # a run's first line, without its indentation
            out.append(f" {ELLIPSIS} " if order else "")
            begin = len(line) - len(line[begin:].lstrip(" \t"))
        out.append(line[begin:stop])
    out.append(ELLIPSIS if picked[-1] < len(pieces) - 1 else "")
    return "".join(out)


_NOTHING = re.compile(r"[\s+\-=~^*#_`'\".:|]*")  # a heading's underline, a rule, a blank line


def _says_nothing(piece: str) -> bool:
    """Whether an escaped line (``+~~~~~~\\n``, ``\\n``) is blank or only a rule's marks."""
    return _NOTHING.fullmatch(ESCAPED_BREAK.sub("", piece).replace("\\t", "")) is not None


def _terms_of(
    line: str, parts: Sequence[tuple[int, int]], spans: Sequence[Span], key: Callable[[str], str]
) -> list[dict[str, float]]:
    """Per part of ``line`` (in order), the terms its spans match, with their weights."""
    terms: list[dict[str, float]] = [{} for _ in parts]
    at = 0
    for span_start, span_end, weight in sorted(spans):
        while at + 1 < len(parts) and span_start >= parts[at + 1][0]:
            at += 1
        terms[at][key(line[span_start:span_end])] = weight
    return terms


def _picked(terms: Sequence[dict[str, float]], sizes: Sequence[int], limit: float) -> list[int]:
    """The parts that add the most terms not yet covered, greedily, within ``limit``; in order."""
    picked: list[int] = []
    covered: set[str] = set()
    used = 0
    while True:
        best, gain = -1, 0.0
        for index, held in enumerate(terms):
            new = sum(weight for key, weight in held.items() if key not in covered)
            if index not in picked and new > gain and used + sizes[index] <= limit:
                best, gain = index, new
        if best < 0:
            break
        picked.append(best)
        covered.update(terms[best])
        used += sizes[best]
    return sorted(picked)
