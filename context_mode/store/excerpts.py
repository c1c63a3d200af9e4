"""Answer-shaped excerpts: the lines of a chunk's unit that go with a matched passage.

``best_lines`` finds the lines that repeat the query; the answer often sits on a line of the same
unit that does not. ``unit_lines(lines, first, last)`` returns, for the passage on chunk lines
``first .. last`` (0-based in ``text.splitlines()``), the other lines of its unit to show with it,
as ``(number, text)`` pairs, at most ``UNIT_BYTES`` in all:

- a TAP failure the hit heads or is in: tape's ``not ok 36 …`` with its YAML ``operator``,
  ``expected``, ``actual`` and ``at`` lines; Test::More's ``#   Failed test '…'`` with its
  ``#   at t/basic.t line 57.`` and ``got`` / ``expected`` lines;
- a traceback or test failure: the exception / assertion message below the hit (``E   …``,
  ``FooError: …``, ``Caused by: …``, ``panicked at …``, ``--- FAIL``), and pytest's location
  line closing it (``tests/test_a.py:137: AssertionError``); these two in ``failure_units``;
- a JSON record (pretty-printed): the whole enclosing object when small, else its identity fields
  (``id``, ``name``, ``title``, ``url`` …) and its short fields;
- code: the definition below a matched comment, or the enclosing ``def`` / ``class`` / ``fn`` line;
  for a hit on a ``def`` / ``class`` line or its docstring, the body's first statements;
- a diagnostic in rustc's or ruff's layout: its headline and `` --> file:line:col`` line, or in
  miette's (oxlint's ``,-[file:line:col]``) (``failure_units``);
- a line that opens what the next holds (``if x:``, ``Expected:``, a fence, a shell prompt): that
  line (the statement, the value, the example's first line, the command's output);
- a unit head above the hit: a commit header, a diff's ``@@`` hunk header and file line, a
  Markdown heading inside the chunk; for a changed line of a diff hunk, the run of changed lines
  around it (a removed line's replacement);
- a heading (Markdown's, or a snapshot's ``- heading "x"``): the start of its section below it;
- a snapshot element the hit ends inside (``paragraph:`` holding ``strong: default`` and the
  ``code:`` value): its line and its other children;
- prose: the rest of the paragraph (the sentence wrapped around the hit), and for a sentence the
  paragraph leaves unfinished ("the default format is"), the line below the gap it goes on in
  (the value on its own, indented or fenced); a list or tree:
  its nearest lines (but a long run of table rows has no such unit);
- a vertical row (``12. row`` then ``column: value`` lines): the whole row;
- a snapshot's ``term`` (a reference page's option): its ``definition`` below, the lines naming
  the query's other words first, each with the line after it (``The default value is`` over
  ``code: "5"``);
- an accessibility snapshot's table ``row`` (Playwright ``[ref=…]`` trees): the row's
  line (its ref) and its cells' text (after their ref, or their name: ``- cell "reserved" [ref=…]``);
- a table row: the header row (and its rule) when the chunk starts with one.

Lines are verbatim without indentation, cut to ``width``; lines of brackets and commas alone
(``{``, ``},``) are left out. Pure and linear in the chunk.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from context_mode.shapes import COMMIT_START, ROW_MARK, STANZA_CONTINUED, STANZA_FIELD
from context_mode.store.failure_units import diagnostic_head, message_below, tap_failure
from context_mode.store.terms import split_stems
from context_mode.words import worded

UNIT_BYTES = 600
_HELD_CHARS = 400  # of a unit's line, the part looked through for a wanted term
_LIST_LINES = 12  # this many rows of cells are data: their nearest lines are not the hit's unit
_ROW_CELLS = 4

_DEFINITION = re.compile(
    r"^\s*(?:(?:async\s+)?def |class |fn |pub |func |function |interface |type |struct |impl |"
    r"(?:export\s+)?(?:const|let|var) \w+\s*=|(?:public|private|protected|static)\b)"
)
_BLOCK_HEAD = re.compile(r"^\s*(?:async\s+def|def|class)\s+\w")
_DOCSTRING = re.compile(r'^\s*[rRbBuU]?("""|\'\'\')')
_DOCSTRING_LINES = 40  # a docstring this long is looked through for the body below it
_SIGNATURE_LINES = 6  # lines a def's signature may run over
_BODY_LINES = 2  # statements of a body shown with a hit on its head or docstring
_COMMENT = re.compile(r'^\s*(?:#|//|/\*|\*|"""|\'\'\'|--)')
_HEAD = re.compile(rf"^(?:{COMMIT_START}[0-9a-f]{{7,}}|diff --git |@@ |\+\+\+ |#{{1,6}} \S)")
_IDENTITY = re.compile(
    r'^\s*"(?:id|name|title|number|version|tag_name|login|url|html_url|key|code|state|type)"\s*:'
)
_SENTENCE_END = re.compile(r"[.!?:]\)?\s*$")
_SENTENCE_STOP = re.compile(r"[.!?]\)?\s*$")  # a colon announces what follows
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_CONTINUED_REACH = 4  # lines below an unfinished paragraph searched for its continuation
_LOG_LINE = re.compile(r"^\s*(?:\d{2,4}[-/:.T]\d|\[|\d{1,3}(?:\.\d{1,3}){3} |\w{3} [ \d]\d \d\d:|at )")
_SNAPSHOT_ROW = re.compile(r"^\s*- row\b.*\[ref=")
# a snapshot node with text of its own: after its ref, or as its name (``- cell "reserved" [ref=…]``)
_SNAPSHOT_TEXT = re.compile(r'\]: \S|^\s*- text: \S|^\s*- [a-z]+ "[^"\n]+" \[')
_SNAPSHOT_LOOKBACK = 16  # lines above a hit searched for its row
_SNAPSHOT_ITEM = re.compile(r"^\s*- ")
_SNAPSHOT_CONTAINER = re.compile(r"^\s*- [a-z]+(?: \"[^\"\n]*\")? \[ref=[^\]]+\](?: \[[^\]]+\])*:\s*$")
_SNAPSHOT_ELEMENT_LINES = 12  # an element of more lines is a section
_SECTION_HEADING = re.compile(r'^(?:#{1,6} \S|\s*- heading "[^"\n]*" \[)')
_SECTION_LINES = 12  # lines below a heading hit looked at
_SNAPSHOT_ROW_LINES = 40  # lines of one row looked at
_SNAPSHOT_TERM = re.compile(r"^\s*- term\b")
_SNAPSHOT_DEFINITION = re.compile(r"^\s*- definition\b")
_TERM_REACH = 4  # lines above a hit searched for the ``term`` it is in
_DEFINITION_LINES = 30  # lines of a definition looked at
_HUNK_LOOKBACK = 400  # lines above a changed hit searched for its hunk header
_CHANGE_LINES = 6  # changed lines each side of a changed hit shown with it
_PUNCTUATION = " \t{}[](),;"
# A line that opens what its next line holds: a block or a label (``if x:``, ``fn f() {``,
# ``Expected:``), a fenced example in a language, a shell prompt (its output below)…
_OPENER = re.compile(r"(?:[:{(\[]|=>)\s*$")
_FENCE_OPEN = re.compile(r"(?:```|~~~)\s*[\w+-]+\s*$")
_PROMPT = re.compile(r"\$ \w")
# …but not a JSON member's nested value (its record is the unit), a bracket alone or a
# reStructuredText directive or label (``.. _passive_deletes:``: a name, not a heading's start)
_NOT_OPENER = re.compile(r'"[^"]*"\s*:\s*[{\[]\s*$|^\W*$|^\.\. ')
_TABLE_GAP = re.compile(r"\S(?: {2,}|\t|\s*\|\s*|,)\S")


def unit_lines(
    lines: Sequence[str], first: int, last: int, *, width: int = 240, wanted: Collection[str] = ()
) -> list[tuple[int, str]]:
    """The other lines of the unit around lines ``first .. last`` (see module doc), in order.
    In a record (JSON, vertical, a stanza of ``Key: value`` lines), the fields holding one of the
    ``wanted`` terms (the query's others, as space-joined stems of their parts: ``countri car`` for
    ``country_car``) come first: the record named by the hit, the field named by the query."""
    picked: dict[int, None] = {}
    for number in _unit(lines, first, last, wanted):
        if not first <= number <= last and 0 <= number < len(lines) and not is_punctuation(lines[number]):
            picked[number] = None
    out: list[tuple[int, str]] = []
    used = 0
    for number in picked:  # in order of priority
        shown = _shown(lines[number], width)
        used += len(shown.encode("utf-8", "surrogatepass")) + 3
        if used > UNIT_BYTES:
            break
        out.append((number, shown))
    out.sort()
    return out


def _holding(numbers: Sequence[int], lines: Sequence[str], wanted: Collection[str]) -> list[int]:
    """Those of ``numbers`` whose line holds one of the ``wanted`` stem phrases."""
    if not wanted:
        return []

    def holds(line: str) -> bool:
        stems = f" {' '.join(split_stems(line[:_HELD_CHARS]))} "
        return any(f" {term} " in stems for term in wanted)

    return [number for number in numbers if holds(lines[number])]


def _wanted_first(numbers: Sequence[int], lines: Sequence[str], wanted: Collection[str]) -> list[int]:
    """``numbers``, those whose line holds one of the ``wanted`` stem phrases first."""
    return list(dict.fromkeys([*_holding(numbers, lines, wanted), *numbers]))


def is_punctuation(line: str) -> bool:
    """Whether ``line`` is blank or only brackets and commas (a JSON record's ``{`` or ``},``):
    shown as a unit's line it would take room and say nothing."""
    return not line.strip(_PUNCTUATION)


def _unit(lines: Sequence[str], first: int, last: int, wanted: Collection[str]) -> list[int]:
    shaped = [
        *tap_failure(lines, first, last),
        *message_below(lines, first, last),
        *_record(lines, first, last, wanted),
        *_definition(lines, first, last),
        *_body_start(lines, first),
        *_wanted_first(_row_block(lines, first, last), lines, wanted),
        *_snapshot_row(lines, first, last),
        *_term_definition(lines, first, last, wanted),
        *_section_below(lines, first, last),
        *_change_block(lines, first, last),
    ]
    head = [*_opened(lines, last), *_head_above(lines, first)]
    shaped += diagnostic_head(lines, first, last)
    if shaped:
        return [*shaped, *head]
    table = _table_header(lines, first)
    if table:
        return [*table, *head]
    # A snapshot element's own lines stand for its paragraph.
    element = _snapshot_element(lines, first, last)
    if element:
        return [*element, *head]
    near = not _LOG_LINE.match(lines[first]) and not _COMMENT.match(lines[first])
    return [*head, *(_paragraph(lines, first, last, wanted) if near else [])]


def indent(line: str) -> int:
    """How far ``line`` is indented: the whitespace it starts with."""
    return len(line) - len(line.lstrip())


def _record(lines: Sequence[str], first: int, last: int, wanted: Collection[str]) -> list[int]:
    """The enclosing pretty-printed JSON object of the hit, or its identity and short fields."""
    hit = lines[first]
    if not re.match(r'^\s+"[^"]*"\s*:', hit) and not re.match(r"^\s+[\[{\"\d-]", hit):
        return []
    depth = indent(hit)
    opening = next(
        (
            n
            for n in range(first - 1, max(-1, first - 60), -1)
            if indent(lines[n]) < depth and lines[n].rstrip().endswith("{")
        ),
        None,
    )
    if opening is None:
        return []
    base = indent(lines[opening])
    closing = next(
        (
            n
            for n in range(last + 1, min(len(lines), last + 80))
            if indent(lines[n]) <= base and lines[n].strip().startswith("}")
        ),
        len(lines) - 1,
    )
    span = range(opening, closing + 1)
    if sum(len(lines[n]) for n in span) <= UNIT_BYTES:
        return list(span)
    inner = min((indent(lines[n]) for n in span if n != opening and lines[n].strip()), default=base + 2)
    members = [n for n in span if indent(lines[n]) == inner]
    identity = [n for n in members if _IDENTITY.match(lines[n])]
    short = [n for n in members if len(lines[n].strip()) <= 80 and n not in identity]
    return [
        opening,
        *_holding(members, lines, wanted),
        *identity,
        *sorted(short, key=lambda n: abs(n - first)),
    ]


def _definition(lines: Sequence[str], first: int, last: int) -> list[int]:
    if _COMMENT.match(lines[first]):
        for number in range(last + 1, min(len(lines), last + 12)):
            line = lines[number]
            if line.strip() and not _COMMENT.match(line):
                return [number] if _DEFINITION.match(line) or "=" in line or "(" in line else []
        return []
    depth = indent(lines[first])
    for number in range(first - 1, -1, -1):
        line = lines[number]
        if line.strip() and indent(line) < depth and _DEFINITION.match(line):
            return [number]
    return []


def _body_start(lines: Sequence[str], first: int) -> list[int]:
    """For a hit on a ``class`` / ``def`` line or its docstring: the body's first statements.

    What a class declares first (``exit_code = 2``) or a function does first
    (``kwargs.setdefault("prompt", …)``) is often what the docstring's words ask about.
    """
    head = next(
        (
            n
            for n in range(first, max(-1, first - _DOCSTRING_LINES), -1)
            if _BLOCK_HEAD.match(lines[n]) and (n == first or indent(lines[n]) < indent(lines[first]))
        ),
        None,
    )
    if head is None:
        return []
    depth = indent(lines[head])
    end = head  # the signature's last line: it ends with ":"
    while end + 1 < len(lines) and not lines[end].rstrip().endswith(":") and end - head < _SIGNATURE_LINES:
        end += 1
    at = end + 1
    opening = _DOCSTRING.match(lines[at]) if at < len(lines) else None
    if opening is not None:
        quote = opening.group(1)
        closed = lines[at].count(quote) >= 2
        while not closed and at + 1 < len(lines) and at - head < _DOCSTRING_LINES:
            at += 1
            closed = quote in lines[at]
        at += 1
    body = [
        n
        for n in range(at, min(len(lines), at + _DOCSTRING_LINES))
        if lines[n].strip() and not _COMMENT.match(lines[n]) and indent(lines[n]) > depth
    ]
    if first >= (body[0] if body else len(lines)):
        return []  # the hit is in the body already
    return body[:_BODY_LINES]


def _opened(lines: Sequence[str], last: int) -> list[int]:
    """The first line of what the hit's last line opens (``_OPENER``), a diff's or a list's
    marker aside: the statement under ``if hookimpl.trylast:``, the value under ``Expected:``."""
    body = lines[last].rstrip().lstrip("+- \t")
    opens = _OPENER.search(body) or _FENCE_OPEN.match(body) or _PROMPT.match(body)
    if not opens or _NOT_OPENER.match(body):
        return []
    for number in range(last + 1, min(len(lines), last + 3)):
        if lines[number].strip():
            return [number]
    return []


def _head_above(lines: Sequence[str], first: int) -> list[int]:
    """The nearest unit head above the hit; for a diff hunk, its ``@@`` line and its file line."""
    found: list[int] = []
    for number in range(first - 1, -1, -1):
        line = lines[number]
        if found:  # above a hunk header: only its file line
            if line.startswith("+++ "):
                found.append(number)
                break
            if line.startswith(("@@", "diff --git", "commit ")):
                break
            continue
        if _HEAD.match(line):
            found.append(number)
            if not line.startswith("@@"):
                break
    return found


def _change_block(lines: Sequence[str], first: int, last: int) -> list[int]:
    """In a diff hunk, what a changed hit was changed to or from: below a removed line, the
    changed lines down to its replacement (``-"Werkzeug>=3.0.0",`` then ``+"Werkzeug>=3.1",``,
    which "the new value" asks for); above an added line, the removed lines it replaced."""
    changed = [n for n in range(first, last + 1) if _is_change(lines[n])]
    if not changed or not any(
        lines[n].startswith("@@ ") for n in range(first - 1, max(-1, first - _HUNK_LOOKBACK), -1)
    ):
        return []
    found: list[int] = []
    if lines[changed[-1]].startswith("-"):
        added = False  # the removed run's replacement has begun
        for number in range(last + 1, min(len(lines), last + 1 + _CHANGE_LINES)):
            line = lines[number]
            if not _is_change(line) or (added and line.startswith("-")):
                break
            found.append(number)
            added = added or line.startswith("+")
    else:
        first = changed[0]
        for number in range(first - 1, max(-1, first - 1 - _CHANGE_LINES), -1):
            if not _is_change(lines[number]):
                break
            found.append(number)
    return found


def _is_change(line: str) -> bool:
    return line.startswith(("+", "-")) and not line.startswith(("+++ ", "--- "))


def _row_block(lines: Sequence[str], first: int, last: int) -> list[int]:
    """A vertical record (``N. row`` then ``column: value`` lines, as sqlite/mysql print them)."""
    start = next((n for n in range(first, max(-1, first - 40), -1) if ROW_MARK.match(lines[n])), None)
    if start is None:
        return []
    stop = next(
        (n for n in range(last + 1, min(len(lines), last + 40)) if ROW_MARK.match(lines[n])), len(lines)
    )
    return sorted(range(start, stop), key=lambda n: abs(n - first))


def _snapshot_row(lines: Sequence[str], first: int, last: int) -> list[int]:
    """An accessibility snapshot table row around the hit: its line and its cells' text."""
    depth = indent(lines[first])
    start = next(
        (
            n
            for n in range(first, max(-1, first - _SNAPSHOT_LOOKBACK), -1)
            if _SNAPSHOT_ROW.match(lines[n]) and (n == first or indent(lines[n]) < depth)
        ),
        None,
    )
    if start is None:
        return []
    base = indent(lines[start])
    stop = start + 1
    while stop < len(lines) and stop - start < _SNAPSHOT_ROW_LINES and indent(lines[stop]) > base:
        stop += 1
    texts = [n for n in range(start + 1, stop) if _SNAPSHOT_TEXT.search(lines[n])]
    return [start, *sorted(texts, key=lambda n: abs(n - first))]


def _term_definition(lines: Sequence[str], first: int, last: int, wanted: Collection[str]) -> list[int]:
    """For a hit in a snapshot's ``term`` (a reference page's option, ``memory_monitor_period``),
    its ``definition`` below: its first line, the lines holding a ``wanted`` term each with the line
    after it (``text: The default value is`` over ``code: "5"``), then its first lines."""
    above = range(first, max(-1, first - _TERM_REACH), -1)
    term = next((n for n in above if _SNAPSHOT_TERM.match(lines[n])), None)
    if term is None:
        return []
    depth = indent(lines[term])
    if any(indent(lines[n]) <= depth for n in range(term + 1, last + 1)):
        return []  # the hit is below the term, not in it
    start = term + 1
    while start < len(lines) and indent(lines[start]) > depth:
        start += 1
    if start >= len(lines) or indent(lines[start]) != depth or not _SNAPSHOT_DEFINITION.match(lines[start]):
        return []
    body: list[int] = []
    for number in range(start + 1, min(len(lines), start + 1 + _DEFINITION_LINES)):
        if indent(lines[number]) <= depth:
            break
        if lines[number].strip() and not lines[number].lstrip().startswith("- /url:"):
            body.append(number)
    inside = set(body)
    held = [n for found in _holding(body, lines, wanted) for n in (found, found + 1) if n in inside]
    return [start, *held, *body[:2]]


def _snapshot_element(lines: Sequence[str], first: int, last: int) -> list[int]:
    """The small snapshot element a hit ends inside (``paragraph:`` holding ``strong: default``,
    ``text: ":"`` and ``code: "'docs'"``): its line (with its ref), then its other children with
    text, nearest first."""
    hit = lines[last]
    if not _SNAPSHOT_ITEM.match(hit) or ("[ref=" not in hit and "- text:" not in hit):
        return []
    depth = indent(hit)
    parent = next(
        (n for n in range(last - 1, max(-1, last - _SNAPSHOT_LOOKBACK), -1) if indent(lines[n]) < depth),
        None,
    )
    if parent is None or not _SNAPSHOT_CONTAINER.match(lines[parent]):
        return []
    base = indent(lines[parent])
    stop = parent + 1
    while stop < len(lines) and indent(lines[stop]) > base:
        stop += 1
        if stop - parent > _SNAPSHOT_ELEMENT_LINES:
            return []  # a section, not an element: its nearest lines are no unit
    children = [
        n for n in range(parent + 1, stop) if not first <= n <= last and _SNAPSHOT_TEXT.search(lines[n])
    ]
    return [parent, *sorted(children, key=lambda n: abs(n - last))]  # the element's line has its ref


def _section_below(lines: Sequence[str], first: int, last: int) -> list[int]:
    """For a hit on a heading (Markdown's ``## x``, a snapshot's ``- heading "x"``), the start of
    its section: the lines below it up to the next heading, in order (the option a heading names
    is described, and its default given, below it)."""
    heading = lines[last]
    if not _SECTION_HEADING.match(heading):
        return []
    if heading.startswith("#") and last + 1 < len(lines) and lines[last + 1].strip():
        return []  # a comment above code ("# Every standard HTTP code …"), not a heading
    below: list[int] = []
    for number in range(last + 1, min(len(lines), last + 1 + _SECTION_LINES)):
        if _SECTION_HEADING.match(lines[number]):
            break
        if lines[number].strip() and not lines[number].lstrip().startswith("- /url:"):
            below.append(number)
    return below


def _cell_gaps(line: str) -> int:
    """Gaps between a row's cells; two spaces after a sentence's stop ("blocks.  However") are
    sentence spacing, not a cell boundary."""
    return sum(1 for gap in _TABLE_GAP.finditer(line) if line[gap.start()] not in ".!?")


def _table_header(lines: Sequence[str], first: int) -> list[int]:
    cells = _cell_gaps(lines[first]) if first >= 1 else 0
    if not cells:
        return []
    head = lines[0]
    if abs(_cell_gaps(head) - cells) > 1 and not re.match(r"^[-=+| ]{3,}$", lines[min(1, len(lines) - 1)]):
        return []
    rule = [1] if len(lines) > 1 and re.match(r"^[-=+| ]{3,}$", lines[1]) else []
    return [0, *rule]


def _paragraph(lines: Sequence[str], first: int, last: int, wanted: Collection[str] = ()) -> list[int]:
    """The sentence around the hit first, then the rest of its paragraph, nearest lines first."""
    start, stop = first, last
    while start > 0 and lines[start - 1].strip() and not _HEAD.match(lines[start - 1]):
        start -= 1
    while stop + 1 < len(lines) and lines[stop + 1].strip() and not _HEAD.match(lines[stop + 1]):
        stop += 1
    if not is_prose(lines[first]):  # a list or tree: its nearest lines, unless a long run of rows
        if stop - start + 1 > _LIST_LINES and len(_TABLE_GAP.findall(lines[first])) >= _ROW_CELLS - 1:
            return []
        nearest = sorted(range(start, stop + 1), key=lambda n: abs(n - first))
        # a stanza of fields (``Version: 1.2``, sqlite3 -line's ``mean_area = 2499.0``): a record
        fields = sum(1 for n in nearest if STANZA_FIELD.match(lines[n]) or STANZA_CONTINUED.match(lines[n]))
        return _wanted_first(nearest, lines, wanted) if fields * 5 >= len(nearest) * 4 else nearest
    begin = first
    while begin > start and not _SENTENCE_END.search(lines[begin - 1]):
        begin -= 1
    end = last
    while end < stop and not _SENTENCE_END.search(lines[end]):
        end += 1
    sentence = list(range(begin, end + 1))
    if end == stop and not _SENTENCE_STOP.search(lines[end]):
        sentence += _continued(lines, stop)
    rest = sorted(
        (n for n in range(start, stop + 1) if not begin <= n <= end and not _LOG_LINE.match(lines[n])),
        key=lambda n: abs(n - first),
    )
    return [*sentence, *rest]


def _continued(lines: Sequence[str], stop: int) -> list[int]:
    """The line a paragraph's unfinished last sentence goes on in, below a blank line or a code
    fence ("On clock format, the default format is", then the format indented on its own)."""
    for number in range(stop + 1, min(len(lines), stop + 1 + _CONTINUED_REACH)):
        if lines[number].strip() and not _FENCE.match(lines[number]):
            return [number]
    return []


def is_prose(line: str) -> bool:
    """Words in sentences (not a log line, a frame or a data row): mostly letters and spaces."""
    text = line.strip()
    if len(text) < 20 or text[0].isdigit() or text.startswith(("at ", "[", "{", "|")):
        return False
    return worded(text)


def _shown(line: str, width: int) -> str:
    text = line.strip()
    return text if len(text) <= width else text[: width - 1] + "…"
