"""Summary of code-search output (grep -n, rg -n, git grep -n [-W], rg's heading mode).

Lines are parsed as ``path:line:text`` (a match), ``path-line-text`` (context) or
``path=line=text`` (git grep's function line); rg's heading mode (a path line, then
``line:text`` lines) works too, and Desktop Commander's ``📄 path:line - text`` (read as a
match). Match lines are ranked: definitions (``def``, ``class``,
``function``, a module-level assignment), more so when the defined name holds a search term;
``raise``/``throw`` and error lines; whole-word term matches; files with many matches. Imports,
comments and prose files (.md, .rst, .txt) rank lower, and every further line from one file a
little lower, so the extract spreads over files. The same text matched in several places is
shown once with a count (``[×4]``). A match line that opens a statement (it ends in ``(``, ``[``
or a backslash: ``raise ParserError(``) is shown with the context lines that finish it, up to
``_CONTINUATION``; the same opening line over other lines (another message) fills the room the
other matches leave. Other context lines are shown only when they raise or throw. The
last lines that are no match nor context (a totals line, rg's ``--stats``) are always shown, and
for Desktop Commander's, the few above the first (its session's count of results). The
outline counts matches and files and names the files with most matches.

For speed (a listing can hold 100k lines), ASCII text is split by one regex pass (``_parse_fast``;
lines it does not settle go through the per-line ``_parse_line``), a line's score is worked out
once per distinct text, and the analysis of the last text is kept for the router's second call
with a smaller budget. ``tests/context_mode/summaries/test_whole_text_passes.py`` checks the pass and the
scores against the per-line reference (``_parse``, ``_score``).
"""

from __future__ import annotations

import bisect
import math
import operator
import re
from collections import Counter
from collections.abc import Sequence
from functools import reduce
from itertools import compress, repeat
from typing import NamedTuple

from context_mode.ansi import strip_ansi
from context_mode.shapes import as_grep, is_found_in_files
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

_PREFIX = 400
_HEAD_LINES = 8  # lines above the first match that may say what was searched
_SAMPLE = 8000  # characters looked at to tell Desktop Commander's found lines
_WIDTH = 180
_DASH = re.compile(r"(?P<sep>[-=])(?P<line>\d+)(?P=sep)")
_HEADING_LINE = re.compile(r"(?P<line>\d+)(?P<sep>[:-])")
_PATHISH = re.compile(r"[^\s:]*[./][^\s:]*\Z")
# A line that ``_parse_line`` takes for a match (in ASCII text), in a text.
_MATCH_LINE = re.compile(r"^[^: \n]+:[0-9]+:", re.MULTILINE)
# A line that ``_parse_line`` takes for an rg heading (pathish, no surrounding blanks), in a text.
_HEADING_PATH = re.compile(r"^[^\s:]*[./][^\s:]*$", re.MULTILINE)
_DEFINITION = re.compile(
    r"^\s*(?:export\s+|pub(?:\(\w+\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+)*"
    r"(?:def|class|function\*?|func|fn|interface|struct|enum|trait|type|module|impl|macro|object)\s+"
    r"(?P<name>[\w$.]+)"
)
_ASSIGNMENT = re.compile(
    r"^(?:(?:export\s+)?(?:const|let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=]{1,80})?=[^=]"
)
_RAISE_WORDS = ("raise", "throw", "panic", "abort")
_IMPORT_WORDS = ("import", "include", "using", "require")
_MAX_PICKS = 5000
_END_LINES = 8  # the last lines looked at for a listing's totals
_CONTINUATION = 4  # context lines below a match that may finish the statement it opens
# A match line ending so opens a statement the lines below finish (a block's ``{`` opens a body:
# other code, which took the room of other matches on dev).
_OPENERS = ("(", "[", "\\")
_REPEATED_UNIT = 1.0  # below every match that earns a place: the room left over
_CALL = re.compile(r"([\w$]+)\(")
_CODE_PUNCTUATION = re.compile(r"[(){}\[\]=<>:;]")
_RAISE = re.compile(r"\b(?:raise|throw|panic!?|abort|raise_any)\b")
_ERRORISH = re.compile(r"error\b|exception\b")  # on the lowercased line
_IMPORT = re.compile(r"^\s*(?:from\s+\S+\s+import\b|import\b|#include\b|using\b|require\()|\brequire\(")
_COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--|;)")
_PROSE_FILE = re.compile(
    r"\.(?:md|rst|txt|adoc|html?)\Z|(?:^|/)(?:docs?|CHANGES|CHANGELOG)(?:/|\Z)", re.IGNORECASE
)
_TEST_FILE = re.compile(r"(?:^|/)tests?/|(?:^|/)test_|_test\.\w+\Z|\.(?:spec|test)\.\w+\Z")


class _Hit(NamedTuple):
    """One parsed line (a NamedTuple: there can be 100k of them, and it is built fastest)."""

    position: int
    path: str
    match: bool  # a match line, not context
    content: str


class _Hits(NamedTuple):
    """The hits of a listing as columns (entry i of each is hit i), in line order."""

    positions: list[int]
    paths: list[str]
    matches: list[bool]
    contents: list[str]


def _columns(hits: Sequence[_Hit]) -> _Hits:
    return _Hits(
        [hit.position for hit in hits],
        [hit.path for hit in hits],
        [hit.match for hit in hits],
        [hit.content for hit in hits],
    )


def summarize_code_search(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The best matching lines of a grep-like listing, spread over its files, within ``budget``."""
    # ``grep --color=always``' lines are read without their colour codes and shown as sent.
    coloured = "\x1b" in text
    read = strip_ansi(text) if coloured else text
    # Desktop Commander's ``📄 /src/a.py:662 - text`` lines are read as ``grep -n``'s, shown as sent.
    found = "📄 " in read and is_found_in_files(read[:_SAMPLE].splitlines())
    if found:  # which of its lines are matches: those holding the call's terms
        read = as_grep(read, [term.lower() for term in _usable(terms)])
    analysis = _analyse(read, tuple(terms))
    if analysis is None:
        fallback = summarize_text(text, budget=budget, terms=terms)
        return Extract(fallback.text, ContentKind.TEXT, "no path:line matches; " + fallback.outline, 0)
    # Each line carries its path and line number, so gaps need no elision markers.
    lines = split_lines(text) if coloured or found else analysis.lines
    picks = analysis.picks + _head(lines, analysis.picks) if found else analysis.picks
    body = pack(lines, picks, budget, width=_WIDTH, notes=analysis.notes, gaps="none")
    return Extract(
        text=body, kind=ContentKind.CODE_SEARCH, outline=analysis.outline, highlights=analysis.matches
    )


class _Analysis(NamedTuple):
    """Everything but the packing, which alone depends on the budget."""

    lines: list[str]
    picks: list[Pick]
    notes: dict[int, str]
    outline: str
    matches: int


# The router summarises a payload twice when its outline is long (the second time with a
# smaller budget): the last analysis is kept for that, keyed by the text's identity.
_last: tuple[str, tuple[str, ...], _Analysis] | None = None


def _analyse(text: str, terms: tuple[str, ...]) -> _Analysis | None:
    global _last
    last = _last
    if last is not None and last[0] is text and last[1] == terms:
        return last[2]
    lines = split_lines(text)
    hits = _parse_fast(text, lines)
    per_file = Counter(compress(hits.paths, hits.matches))
    matches = per_file.total()
    if not matches:
        return None
    usable = _usable(terms)
    lowered_terms = [term.lower() for term in usable]
    words = [re.compile(rf"(?<![\w$]){re.escape(t)}(?![\w$])", re.IGNORECASE) for t in usable]
    weights = {path: _path_weight(path, count) for path, count in per_file.items()}
    scores = _scores(hits, weights, lowered_terms, words)
    # Only the best few thousand can matter for a budget of a few kB. Sorting descending with
    # ``reverse`` keeps equal scores in input order, as sorting by the negated score does.
    order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)[:_MAX_PICKS]
    rank_in_file: Counter[str] = Counter()
    copies = Counter(map(str.strip, hits.contents))
    shown_units: set[str] = set()
    first_copy: dict[str, int] = {}
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    for number in order:
        score = scores[number]
        if score <= 0:
            continue
        position, path, content = hits.positions[number], hits.paths[number], hits.contents[number].strip()
        # A statement the match opens goes on in the context lines below it (``raise ParserError(``
        # over its message): shown with it.
        rest = _continuation(hits, number) if hits.matches[number] else 0
        unit = "\n".join(hits.contents[number + k].strip() for k in range(rest + 1)) if rest else ""
        if first_copy.setdefault(content, position) != position:
            # The same text at another place is shown once, with a count; another statement it
            # opens (the same ``raise ParserError(`` over another message) fills the room left.
            if unit and unit not in shown_units:
                shown_units.add(unit)
                picks.append(Pick(position, position + 1 + rest, _REPEATED_UNIT - len(shown_units) / 1e6))
            continue
        if copies[content] > 1:
            notes[position] = f"×{copies[content]}"
        if unit:
            shown_units.add(unit)
        picks.append(Pick(position, position + 1 + rest, score - 5.0 * rank_in_file[path]))
        rank_in_file[path] += 1
    picks += _ends(lines, hits.positions, max(scores, default=0.0) + 1.0)
    top = ", ".join(f"{path} {count}" for path, count in per_file.most_common(5))
    more = len(per_file) - min(len(per_file), 5)
    outline = f"code search: {matches} matches in {len(per_file)} files; most: {top}" + (
        f", +{more} more files" if more else ""
    )
    analysis = _Analysis(lines, picks, notes, outline, matches)
    _last = (text, terms, analysis)
    return analysis


def _continuation(hits: _Hits, number: int) -> int:
    """How many context lines right below match ``number`` finish the statement it opens: while its
    brackets stay open (or a line ends in a backslash), at most ``_CONTINUATION`` lines of its file."""
    opening = hits.contents[number][:_PREFIX].rstrip()
    if not opening.endswith(_OPENERS):
        return 0  # the line says its part: what follows is other code
    depth, open_end = _depth(opening), opening.endswith("\\")
    taken = 0
    position, path = hits.positions[number], hits.paths[number]
    for after in range(number + 1, min(number + 1 + _CONTINUATION, len(hits.positions))):
        if hits.matches[after] or hits.paths[after] != path or hits.positions[after] != position + 1:
            break
        taken, position = taken + 1, position + 1
        line = hits.contents[after][:_PREFIX]
        depth += _depth(line)
        open_end = line.rstrip().endswith("\\")
        if depth <= 0 and not open_end:
            break
    return taken


def _depth(text: str) -> int:
    """Brackets a line leaves open (closing ones count against), strings not told apart."""
    return sum(map(text.count, "([{")) - sum(map(text.count, ")]}"))


def _ends(lines: Sequence[str], parsed: Sequence[int], score: float) -> list[Pick]:
    """The last lines that are no match nor context (rg's ``--stats``, ``go tool cover -func``'s
    ``total: (statements) 65.8%``): what the listing comes to, shown whatever the budget.
    ``parsed`` are the match and context lines' positions, in order."""
    picks: list[Pick] = []
    for position in range(len(lines) - 1, max(-1, len(lines) - 1 - _END_LINES), -1):
        line = lines[position].strip()
        at = bisect.bisect_left(parsed, position)
        if (at < len(parsed) and parsed[at] == position) or (picks and not line):
            break
        if line and line != "--":
            picks.append(Pick(position, position + 1, score))
    return picks


def _head(lines: Sequence[str], picks: Sequence[Pick]) -> list[Pick]:
    """Desktop Commander's lines above its first found line (``Total results found: 216 (21
    matches)``): what was searched and how much it found, above every other pick."""
    top = max((pick.priority for pick in picks), default=0.0) + 0.5
    first = next((i for i, line in enumerate(lines[: _HEAD_LINES + 1]) if line.startswith("📄 ")), 0)
    return [Pick(i, i + 1, top) for i in range(first) if lines[i].strip()]


def _usable(terms: Sequence[str]) -> list[str]:
    return sorted({t.strip() for t in terms if len(t.strip()) >= 2})[:12]


# One match per line (each ending in a newline) of the cut lines: a ``path:12:`` match's path
# (group 1), else a context line's path before its first ``-12-``/``=12=`` when no ``-`` or
# ``=`` comes before that (group 2), else nothing; then the rest of the line (group 3). Consuming
# whole lines keeps the engine from trying a match at every char; no quantifier here could give
# back a char that helps (each stops at a char it excludes), so possessive ones change nothing.
_ROW = re.compile(r"(?:([^: \n]++):[0-9]++:|([^\n\-=]*+)(?:-\d++-|=\d++=)|)([^\n]*+)\n")


def _parse_fast(text: str, lines: list[str]) -> _Hits:
    """``_parse(lines)`` as columns, the lines split by one regex pass over the text.

    Only for ASCII text, where ``str.isdigit`` is ``[0-9]``, so the pass finds exactly the
    ``path:12:`` lines. A context line is settled when a match of its path came before it; the
    few other lines (separators, rg headings, paths holding ``-``) go through ``_parse_line``
    in order, with the paths matched before each as ``known``.
    """
    if not text.isascii() or not lines:
        return _columns(_parse(lines))
    long = max(map(len, lines)) > _PREFIX
    cut = [line[:_PREFIX] for line in lines] if long else lines
    joined = "\n".join(cut) + "\n"
    if _MATCH_LINE.search(joined) is None and _HEADING_PATH.search(joined) is None:
        return _Hits([], [], [], [])  # no match, so no context line either, and no rg heading
    rows = _ROW.findall(joined)
    if len(rows) != len(lines):  # cannot happen (no line holds a newline); kept as a guard
        return _columns(_parse(lines))
    paths, dashed, rests = zip(*rows, strict=True)
    count = len(rows)
    first = dict(zip(reversed(paths), range(count - 1, -1, -1), strict=True))
    first.pop("", None)
    context = list(map(operator.lt, map(first.get, dashed, repeat(count)), range(count)))
    settled = list(map(operator.or_, map(bool, paths), context))
    positions = list(compress(range(count), settled))
    hit_paths = [
        path or context_path for path, context_path in compress(zip(paths, dashed, strict=True), settled)
    ]
    matches = list(map(bool, compress(paths, settled)))
    if long:
        # A match's text runs to the end of the full line: all but the cut line's first chars.
        contents = [lines[i][len(cut[i]) - len(rests[i]) :] if paths[i] else rests[i] for i in positions]
    else:
        contents = list(compress(rests, settled))
    hits = _Hits(positions, hit_paths, matches, contents)
    slow = list(compress(range(count), map(operator.not_, settled)))
    if slow:
        # A line before the first match and the first rg heading path can be no hit.
        heading = _HEADING_PATH.search(joined)
        start = min(first.values(), default=count)
        if heading is not None:
            start = min(start, joined.count("\n", 0, heading.start()))
        slow = slow[bisect.bisect_left(slow, start) :]
    return _merge(hits, _parse_slow(lines, slow, first)) if slow else hits


def _parse_slow(lines: Sequence[str], slow: Sequence[int], first: dict[str, int]) -> list[_Hit]:
    """The hits among lines ``slow``, each parsed knowing the paths whose first match is before it."""
    extra: list[_Hit] = []
    known: set[str] = set()
    firsts = sorted((index, path) for path, index in first.items())
    taken = 0
    heading = ""
    for index in slow:
        while taken < len(firsts) and firsts[taken][0] < index:
            known.add(firsts[taken][1])
            taken += 1
        heading = _parse_line(index, lines[index], known, heading, extra)
    return extra


def _merge(hits: _Hits, extra: list[_Hit]) -> _Hits:
    """``hits`` with the few ``extra`` hits inserted at their places (positions stay sorted)."""
    for position, path, match, content in extra:
        at = bisect.bisect_left(hits.positions, position)
        hits.positions.insert(at, position)
        hits.paths.insert(at, path)
        hits.matches.insert(at, match)
        hits.contents.insert(at, content)
    return hits


def _parse(lines: Sequence[str]) -> list[_Hit]:
    """Every line's hit, line by line (the reference for ``_parse_fast``)."""
    hits: list[_Hit] = []
    known: set[str] = set()
    heading = ""
    for index, full in enumerate(lines):
        heading = _parse_line(index, full, known, heading, hits)
    return hits


def _parse_line(index: int, full: str, known: set[str], heading: str, hits: list[_Hit]) -> str:
    """Append line ``index``'s hit, if any, to ``hits``; return the rg heading now in force."""
    line = full[:_PREFIX]
    # The usual ``path:12:text`` split by str.partition, far cheaper than a regex per line.
    path, _, rest = line.partition(":")
    number, found, _ = rest.partition(":")
    if found and number.isdigit() and path and " " not in path:
        known.add(path)
        hits.append(_Hit(index, path, True, full[len(path) + len(number) + 2 :]))
        return heading
    dashed = _dashed(line, known)
    if dashed is not None:
        hits.append(_Hit(index, dashed.path, False, dashed.content))
        return heading
    in_heading = _HEADING_LINE.match(line)
    if in_heading is not None and heading:
        hits.append(_Hit(index, heading, in_heading.group("sep") == ":", full[in_heading.end() :]))
    elif _PATHISH.match(line.strip()) and line.strip() == line:
        heading = line
    return heading


def _dashed(line: str, known: set[str]) -> _Hit | None:
    """A ``path-12-text`` or ``path=12=text`` line whose path was already seen in a match."""
    if not known:
        return None
    for candidate in _DASH.finditer(line):
        path = line[: candidate.start()]
        if path in known:
            return _Hit(-1, path, False, line[candidate.end() :])
    return None


def _score(
    hit: _Hit, path_weight: dict[str, float], terms: Sequence[str], words: Sequence[re.Pattern[str]]
) -> float:
    """How much a line is worth showing; ``terms`` are lowercased (the one-line reference of
    ``_scores``)."""
    content = hit.content[:_PREFIX]
    if not hit.match:
        return _context_score(content)
    score = path_weight[hit.path]
    for delta in _deltas(content, terms, words):
        score += delta
    return score


def _scores(
    hits: _Hits, path_weight: dict[str, float], terms: Sequence[str], words: Sequence[re.Pattern[str]]
) -> list[float]:
    """``_score`` of every hit. A line's worth apart from its file's weight depends only on its
    text, so it is found once per distinct text; the deltas are added in the same order, which
    keeps every float bit for bit."""
    contents = hits.contents
    if max(map(len, contents), default=0) > _PREFIX:
        contents = [content[:_PREFIX] for content in contents]
    by_text = {text: _deltas(text, terms, words) for text in set(compress(contents, hits.matches))}
    by_context = {
        text: _context_score(text) for text in set(compress(contents, map(operator.not_, hits.matches)))
    }
    return [
        reduce(operator.add, by_text[content], path_weight[path]) if match else by_context[content]
        for path, match, content in zip(hits.paths, hits.matches, contents, strict=True)
    ]


def _context_score(content: str) -> float:
    """Context lines (git grep -W) only earn a place when they state an error or raise."""
    return 20.0 if _raises(content, content.lower()) else 0.0


def _raises(content: str, lowered: str) -> bool:
    return any(word in lowered for word in _RAISE_WORDS) and _RAISE.search(content) is not None


def _deltas(content: str, terms: Sequence[str], words: Sequence[re.Pattern[str]]) -> tuple[float, ...]:
    """What a match line's text adds to its file's weight, in order. Cheap substring checks gate
    every regex, since a listing can hold 100k lines."""
    lowered = content.lower()
    deltas: list[float] = []
    mentioned = any(term in lowered for term in terms)
    definition = _DEFINITION.match(content)
    assignment = _ASSIGNMENT.match(content) if definition is None else None
    if definition is not None:
        deltas.append(30.0 + (_name_bonus(definition.group("name"), terms) if mentioned else 0.0))
    elif assignment is not None:
        deltas.append(18.0 + (_name_bonus(assignment.group("name"), terms) if mentioned else 0.0))
    elif mentioned and any(_mentions(call, terms) for call in _CALL.findall(content)):
        deltas.append(6.0)  # a call of a function named after the term
    if not _CODE_PUNCTUATION.search(content.rstrip(".,")):
        deltas.append(-8.0)  # prose: a docstring or comment sentence
    if _raises(content, lowered):
        deltas.append(15.0)
    elif ("error" in lowered or "exception" in lowered) and _ERRORISH.search(lowered):
        deltas.append(6.0)
    if mentioned and any(word.search(content) for word in words):
        deltas.append(8.0)
    if any(word in lowered for word in _IMPORT_WORDS) and _IMPORT.search(content):
        deltas.append(-15.0)
    if _COMMENT.match(content):
        deltas.append(-6.0)
    deltas.append(-(min(len(content), 400) / 40.0))
    return tuple(deltas)


def _path_weight(path: str, matches: int) -> float:
    """A file's base score: files with many matches are central; prose and tests less so."""
    weight = 40.0 + 2.0 * math.log2(matches + 1)
    if _PROSE_FILE.search(path):
        return weight - 10.0
    return weight - 4.0 if _TEST_FILE.search(path) else weight


def _name_bonus(name: str, terms: Sequence[str]) -> float:
    """Extra weight for defining a name that is a search term (most) or contains one."""
    short = name.rsplit(".", 1)[-1].lower()
    if short in terms:
        return 35.0
    return 20.0 if _mentions(name, terms) else 0.0


def _mentions(name: str, terms: Sequence[str]) -> bool:
    lowered = name.lower()
    return any(term in lowered for term in terms)
