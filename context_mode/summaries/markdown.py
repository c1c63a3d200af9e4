"""Summary of Markdown documents: the heading skeleton, each section's first sentence.

The page is read by ``markdown_structure`` (headings, sections' first text lines, fenced code).
Priority falls with heading level and position, so a tight budget keeps the first and shallowest
headings (a heading repeating an earlier one's name, a changelog's "### Fixed", ranks lower); the
last heading is kept too, to show where the document ends, and on a page of a few hundred lines its
last two lines of text (a footer's copyright, generator or version) below it; a line of its head
saying which release it documents or when it was updated (``Release: 1.4.46``, ``Updated: 2022
September 19``) ranks with its lead. Release notes (three or more headings naming a version, the
first among the page's first five headings) show their newest release's first lines of text with
the outline's first headings: what changed last is what an agent reads them for. A section's first
sentence is the verbatim start of its first text line, cut after the sentence with ``…``; text
wrapped at a width before the sentence ends goes on to its next line, which ranks lower. Headings
and lines that mention a search term rank first. Beside the outline, its stated facts
(``markdown_facts``: the front matter, defaults and change notes, the terms of definition lists,
the first line of each section a thematic break opens, the first few code blocks' first lines), a
pipe table's header, first rows and last row (its other rows fill what room is left, a data page's
table being its content; the rows of a table stating defaults, under a "Default" column or named
"Default", rank as stated defaults; a "table" of no row, or of two at most two fifths of whose
cells are empty, is lines a PDF's converter cut into cells, and fills room as text does), and last, in
order, the first lines of list items (release
notes and changelogs are lists under few headings: their items fill the room the outline leaves),
then each section's next lines, in turns. The outline counts lines, headings per level, code
blocks, defined terms and tables. A page without headings is its head and tail, its list items that
are links (a FAQ's questions) and its stated facts.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from typing import NamedTuple

from context_mode.shapes import HEADING_ANCHOR, is_html
from context_mode.summaries.definitions import count_definition_terms, pattern_lines
from context_mode.summaries.edges import FOOTER_LINES, FOOTER_PAGE, FOOTER_REACH
from context_mode.summaries.extract import Extract, term_lines, term_matcher
from context_mode.summaries.html_page import summarize_html
from context_mode.summaries.link_targets import elided, width_in
from context_mode.summaries.markdown_facts import FIRST_LINE_WIDTH, REPEATED, SENTENCE_END, fact_picks
from context_mode.summaries.markdown_structure import PREFIX, Heading, first_text, heading_name, read_markdown
from context_mode.summaries.packing import Pick, pack, says_something
from context_mode.summaries.reading import LastReading
from context_mode.summaries.text import distinctive_picks
from context_mode.types import ContentKind

_SENTENCE_WIDTH = 200
_TERM_LINE_WIDTH = 240  # a line up to its link to itself (``_before_anchor``), at most
_FACTS_PER_HIGHLIGHT = 8
# A pipe table's rule line under its header: ``| --- | :---: |``, ``---|---`` (two columns or more).
_TABLE_RULE = re.compile(r"^ {0,3}\|? *:?-{3,}:? *\|(?: *:?-{3,}:? *\|?)+ *$", re.MULTILINE)
_TABLE_FIRST_ROWS = 3
_SCRAP_ROWS = 2  # rows of a "table" two fifths of whose cells are empty: lines cut into cells
_TABLE_ROWS_READ = 5000
_TABLE_WIDTH = 200
# A table stating defaults (a "Default" column, or a row named "Default": a directive's quick
# reference): its rows rank as stated defaults do.
_DEFAULT = "default"
_DEFAULT_ROW = 58.0  # as a stated default (``markdown_facts``)
_CELL_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ROWS_PER_HIGHLIGHT = 25  # a table's rows count as salient content, this many as one
_FACT_HIGHLIGHT = 54.0  # rule sections, terms and definitions count; code and quantities do not
# A list item that is a link (its text may wrap onto the next line): a page's table of contents.
_LIST_ITEM = re.compile(r"^ {0,3}(?:[*+-]|\d{1,3}[.)]) +\S", re.M)
_ITEM_FILL = 8.0  # below every other pick: list items fill what room is left
_SECTION_FILL = 6.0  # below list items: a section's next lines, in turns
_FILL_LINES = 12
_FILL_SECTIONS = 200
_LINK_ITEM = re.compile(r"^ {0,3}(?:\d{1,3}[.)]|[-*+]) +\[(?:[^\]\n]+\]\(|[^\]\n]*$)", re.MULTILINE)


class _Plan(NamedTuple):
    """What a page's summary shows before a budget is spent."""

    lines: list[str]
    picks: list[Pick]
    filler: Container[int]  # lines shown with the line above them (setext underlines)
    outline: str
    highlights: int
    fenced: Container[int] = ()  # lines of fenced code blocks: code, shown as written


_PLANS: LastReading[_Plan] = LastReading()
_LEAD = 85.0  # the first sentence above the first heading: as the first section's is
_FOOTER_PRIORITY = 70.0  # a long page's last lines of text (``_footer``)
# A heading naming a release: a version after its first word ("psycopg 2.9.5", "fish 3.6.0"),
# "v4.1.0", or a version with a year ("5.13.2 December 13 2023"); not a section number ("2.1. Boolean").
_RELEASE_NAME = re.compile(r"^\W*(?:v\d+\.\d+|\S.*?\s\d+\.\d+|\d+\.\d+\S*\s.*\b(?:19|20)\d\d\b)")
# A page's head may say which release it documents or when it was last updated (Sphinx's
# ``Release: 1.4.46 | Release Date: January 3, 2023``, man2html's ``Updated: 2022 September 19``).
_STAMP = re.compile(
    r"\W*(?:release|version|updated|last (?:updated|modified|changed)|revised|published)\b[^:\n]{0,20}:\W*\d",
    re.IGNORECASE,
)
_STAMP_REACH = 10  # lines of the page's head looked at
_STAMP_PRIORITY = 84.0  # with the lead: what the page is, and of which release
_NEWEST_RELEASE = 62.0  # the newest release's lines: with the outline's first headings
_RELEASE_LINES = 8


def summarize_markdown(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Heading skeleton with first sentences, within ``budget`` bytes (an HTML page: ``html_page``)."""
    if is_html(text):
        return summarize_html(text, budget=budget, terms=terms)
    plan = _PLANS.get(text, terms, lambda: _without_targets(_without_anchors(_plan(text, terms))))
    # A skeleton shows where the text was cut with a bare "…": counts would double its size.
    body = pack(plan.lines, plan.picks, budget, width=FIRST_LINE_WIDTH, gaps="short", filler=plan.filler)
    return Extract(text=body, kind=ContentKind.MARKDOWN, outline=plan.outline, highlights=plan.highlights)


def _plan(text: str, terms: Sequence[str]) -> _Plan:
    lines, (headings, levels, underlines, code_blocks, fence_lines), joined = read_markdown(text)
    if not levels:
        return _without_headings(lines, joined, fence_lines, terms=terms)
    matches = term_matcher(terms)
    picks: list[Pick] = [Pick(0, 1, 95.0)]
    # Text before the first heading is the page's lead (a fetched page has lost its title): its
    # first sentence says what the page is, as a first section's does.
    heading_lines = {heading.index for heading in headings}
    lead = first_text(lines, 1, headings[0].index, heading_lines, fence_lines)
    if lead >= 0:
        picks.append(Pick(lead, lead + 1, _LEAD, _sentence_width(lines[lead])))
    # A heading that repeats an earlier one's name ("Fixed", "Classes", "Examples") names a part
    # every section has, not the section: the outline is read by the first of them.
    named: set[str] = set()
    for order, heading in enumerate(headings):
        priority = 80.0 - 8.0 * (heading.level - 1) - 0.3 * min(order, 200)
        name = heading_name(lines[heading.index])
        if name and name in named:  # an empty one (a script's bare ``#`` line) names nothing
            priority -= REPEATED
        named.add(name)
        if order == len(headings) - 1:
            priority = max(priority, 75.0)
        if matches(lines[heading.index][:PREFIX]):
            priority += 30.0
        picks.append(Pick(heading.index, heading.index + 1, priority))
        if heading.first_line >= 0 and not _says_nothing(lines, heading.first_line):
            line = lines[heading.first_line]
            boost = 20.0 if matches(line[:PREFIX]) else 0.0
            if order == 0:
                boost += 15.0  # the document's opening sentence says what it is
            width = _sentence_width(line)
            picks.append(Pick(heading.first_line, heading.first_line + 1, priority - 10.0 + boost, width))
            rest = _sentence_rest(lines, heading.first_line, heading_lines, fence_lines)
            if rest >= 0:
                picks.append(Pick(rest, rest + 1, priority - _REST + boost, _sentence_width(lines[rest])))
    picks.extend(_footer(lines, heading_lines, fence_lines))
    picks.extend(_stamps(lines))
    picks.extend(_newest_release(lines, headings, heading_lines, fence_lines))
    picks.extend(
        Pick(index, index + 1, 56.0 - 0.01 * index, 160)
        for index in term_lines(joined, terms)
        if index not in heading_lines and index not in fence_lines
    )
    facts = fact_picks(lines, joined, heading_lines | fence_lines, fence_lines)
    picks.extend(facts)
    tables = _table_picks(lines, joined, fence_lines)
    picks.extend(tables.picks)
    # A changelog or release notes is lists under few headings: what room the outline leaves goes
    # to its items' first lines, in order.
    found = {pick.start for pick in picks}
    picks.extend(
        Pick(index, index + 1, _ITEM_FILL - 0.002 * index, FIRST_LINE_WIDTH)
        for index in pattern_lines(joined, _LIST_ITEM)
        if index not in found and index not in fence_lines
    )
    # Last, room still left goes to each section's next lines, in turns (every section's second
    # line before any section's third): a page whose "headings" are comments (``nginx -T``'s
    # ``# configuration file …``, a slow query log's ``# Query_time: …``) shows its content.
    found = {pick.start for pick in picks}
    picks.extend(_section_fill(lines, headings, found | heading_lines, fence_lines))
    per_level = ", ".join(f"{levels[level]} h{level}" for level in sorted(levels))
    outline = (
        f"markdown: {len(lines)} lines, {levels.total()} headings ({per_level}), "
        f"{code_blocks} code block{'' if code_blocks == 1 else 's'}"
    )
    defined = count_definition_terms(joined)
    if defined:
        outline += f", {defined} defined terms"
    if tables.found:
        outline += f", {tables.found} table{'' if tables.found == 1 else 's'} ({tables.rows} rows)"
    # Stated facts (defaults, sections under rules) want room too, though less than headings.
    highlights = (
        levels.total()
        + sum(pick.priority > _FACT_HIGHLIGHT for pick in facts) // _FACTS_PER_HIGHLIGHT
        + tables.found
        + tables.rows // _ROWS_PER_HIGHLIGHT
    )
    return _Plan(lines, picks, underlines, outline, highlights, fence_lines)


def _without_anchors(plan: _Plan) -> _Plan:
    """``plan`` with each pick shown up to its line's link to itself (``_before_anchor``)."""
    return plan._replace(picks=[_before_anchor(plan.lines, pick) for pick in plan.picks])


def _without_targets(plan: _Plan) -> _Plan:
    """``plan`` showing its lines with their links' targets left out, if the page has many
    (``link_targets``), each pick cut where it was; one cut before its line's link to itself
    (``_before_anchor``) is cut there in the shorter line too, which may show more of it, and
    none shows that link (a cut inside a target keeps its width, which may reach it)."""
    shown = elided(plan.lines, kept=plan.fenced)
    if shown == plan.lines:
        return plan
    picks = []
    for pick in plan.picks:
        if pick.width == 0 or pick.stop != pick.start + 1:
            picks.append(pick)
            continue
        line = plan.lines[pick.start]
        anchor = _anchor_at(line)
        width = width_in(line, pick.width)
        if anchor >= 0:  # never past the line's link to itself, up to it when the cut was there
            before = width_in(line, anchor) + 1
            width = (
                min(before, _TERM_LINE_WIDTH)
                if pick.width == min(anchor + 1, _TERM_LINE_WIDTH)
                else min(width, before)
            )
        picks.append(Pick(pick.start, pick.stop, pick.priority, width, pick.start_only))
    return plan._replace(lines=shown, picks=picks)


def _anchor_at(line: str) -> int:
    """Where ``line``'s closing link to itself starts (Sphinx's ``[¶](#id "Permalink…")``), or -1."""
    if "](#" not in line:
        return -1
    anchor = HEADING_ANCHOR.search(line)
    return anchor.start() if anchor is not None and anchor.end() >= len(line.rstrip()) else -1


def _before_anchor(lines: Sequence[str], pick: Pick) -> Pick:
    """``pick`` shown up to its line's link to itself (a heading's or a defined term's Sphinx
    ``[¶](#id "Permalink to this heading")``), which names nothing: with ``…`` where it was."""
    anchor = _anchor_at(lines[pick.start])
    if pick.stop != pick.start + 1 or anchor < 0:
        return pick
    # The text before it, then ``…``; at the packer's width, a term (a signature) shown whole.
    width = min(anchor + 1, _TERM_LINE_WIDTH)
    return pick if 0 < pick.width <= width else Pick(pick.start, pick.stop, pick.priority, width)


def _newest_release(
    lines: Sequence[str], headings: Sequence[Heading], marked: Container[int], fenced: Container[int]
) -> list[Pick]:
    """Release notes' newest release (the first of three or more headings naming a version, among
    the page's first five): its first ``_RELEASE_LINES`` lines of text, in order."""
    named = [heading.index for heading in headings if _RELEASE_NAME.match(heading_name(lines[heading.index]))]
    if len(named) < 3 or named[0] not in {heading.index for heading in headings[:5]}:
        return []
    shown = [
        index
        for index in range(named[0] + 1, named[1])
        if lines[index].strip() and index not in fenced and index not in marked
    ]
    return [
        Pick(index, index + 1, _NEWEST_RELEASE - 0.01 * order, FIRST_LINE_WIDTH)
        for order, index in enumerate(shown[:_RELEASE_LINES])
    ]


def _stamps(lines: Sequence[str]) -> list[Pick]:
    """The lines of the page's head that say which release it documents or when it was updated."""
    return [
        Pick(index, index + 1, _STAMP_PRIORITY, FIRST_LINE_WIDTH)
        for index in range(1, min(len(lines), _STAMP_REACH))
        if _STAMP.match(lines[index])
    ]


def _footer(lines: Sequence[str], headings: Container[int], fenced: Container[int]) -> list[Pick]:
    """A long page's last lines of text (a footer's copyright, generator, version), below its
    last heading."""
    if len(lines) < FOOTER_PAGE:
        return []
    found: list[Pick] = []
    for index in range(len(lines) - 1, max(len(lines) - FOOTER_REACH, 0), -1):
        if index in headings or index in fenced or not says_something(lines[index]):
            continue
        found.append(Pick(index, index + 1, _FOOTER_PRIORITY - len(found), FIRST_LINE_WIDTH))
        if len(found) == FOOTER_LINES:
            break
    return found


def _section_fill(
    lines: Sequence[str], headings: Sequence[Heading], taken: Container[int], fenced: Container[int]
) -> list[Pick]:
    """Each section's lines after its first, ``_FILL_LINES`` at most, ranked in turns (the first
    ``_FILL_SECTIONS`` sections)."""
    picks: list[Pick] = []
    ends = [heading.index for heading in headings[1:]] + [len(lines)]
    # The first sections only: a budget of a few kB shows few of these lines, and a page of
    # thousands of sections would cost a pick per line.
    for heading, end in zip(headings[:_FILL_SECTIONS], ends[:_FILL_SECTIONS], strict=True):
        start = heading.first_line + 1 if heading.first_line >= 0 else heading.index + 1
        turn = 0
        for index in range(start, end):
            if turn >= _FILL_LINES:
                break
            if index in taken or index in fenced or not lines[index].strip():
                continue
            turn += 1
            picks.append(Pick(index, index + 1, _SECTION_FILL - turn - 0.0001 * index, FIRST_LINE_WIDTH))
    return picks


class _Tables(NamedTuple):
    picks: list[Pick]
    found: int  # tables
    rows: int


# A badge: an image that links somewhere (``[![Build Status](…/x.svg)](…)``), or an image alone.
_BADGE = re.compile(r"\[!\[[^\]\n]*\]\([^)\s]*\)\]\([^)\s]*\)|!\[[^\]\n]*\]\([^)\s]*\)")
_BADGE_TEXT = 0.1  # a line of badges has at most this share of text besides them


def is_badges(line: str) -> bool:
    """Whether ``line`` is badges (``_BADGE``), pipes and spaces, next to no text of its own."""
    if "![" not in line:
        return False
    rest = _BADGE.sub("", line)
    text = sum(1 for char in rest if char.isalnum())
    return rest != line and text <= _BADGE_TEXT * len(line.strip())


def _says_nothing(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` says nothing as a section's first line: badges, a pipe table's
    header of empty cells, or one whose first row (under its rule) is badges."""
    line = lines[index]
    if is_badges(line):
        return True
    if not line.lstrip().startswith("|"):
        return False
    return not any(_cell_names(line)) or index + 2 < len(lines) and is_badges(lines[index + 2])


def _table_picks(lines: Sequence[str], joined: str, fenced: Container[int]) -> _Tables:
    """A pipe table's header and rule with its first rows and its last one (below the outline and
    the stated facts), then the rest of its rows, in order, below everything else: a page that is mostly
    a table (a converted data page) fills what room the outline leaves with its rows."""
    picks: list[Pick] = []
    count = rows = 0
    if "-|" not in joined and "- |" not in joined:
        return _Tables(picks, 0, 0)  # no rule line of a pipe table: the whole-text search is skipped
    for rule in pattern_lines(joined, _TABLE_RULE):
        header = rule - 1
        if header < 0 or rule in fenced or "|" not in lines[header]:
            continue
        end = rule + 1
        while end < len(lines) and end - rule <= _TABLE_ROWS_READ and lines[end].lstrip().startswith("|"):
            end += 1
        count += 1
        rows += end - rule - 1
        if end > rule + 1 and all(is_badges(lines[row]) for row in range(rule + 1, end)):
            continue  # a README's table of build and version badges: images, no text
        names = _cell_names(lines[header])
        defaults = _DEFAULT in names
        rows_below = end - rule - 1
        cells = [cell for row in (header, *range(rule + 1, end)) for cell in _cell_names(lines[row])]
        if rows_below == 0 or rows_below <= _SCRAP_ROWS and cells.count("") * 5 >= len(cells) * 2:
            # a line a PDF's converter cut into cells (``| Have | fun! |     |     |``): text
            picks += [
                Pick(row, row + 1, _ITEM_FILL + 1.0 - 0.0001 * row, _TABLE_WIDTH)
                for row in range(header, end)
            ]
            continue
        if any(names):
            picks.append(Pick(header, rule + 1, 45.0 - 0.01 * header, _TABLE_WIDTH))
        # else a header of empty cells (an HTML table without one, converted): its rows say it all
        for order, row in enumerate(range(rule + 1, end)):
            if defaults or ("efault" in lines[row] and _cell_names(lines[row])[:1] == [_DEFAULT]):
                priority = _DEFAULT_ROW - 0.01 * order
            elif order < _TABLE_FIRST_ROWS:
                priority = 40.0 - order
            elif row == end - 1:
                priority = 37.0
            else:
                priority = _ITEM_FILL + 1.0 - 0.0001 * row
            picks.append(Pick(row, row + 1, priority, _TABLE_WIDTH))
    return _Tables(picks, count, rows)


def _cell_names(row: str) -> list[str]:
    """A pipe table row's cells as names: without marks, a link's target, a colon or case
    (``| [Default:](directive-dict.html#Default) | `Off` |`` names ``default`` first)."""
    cells = row.strip().strip("|").split("|")
    return [_CELL_LINK.sub(r"\1", cell).strip(" *_`:").casefold() for cell in cells]


def _without_headings(lines: list[str], joined: str, fence_lines: set[int], *, terms: Sequence[str]) -> _Plan:
    """A page without headings (a FAQ of linked questions, a converted page): its head and tail,
    the items of its lists of links (what stands in for an outline) and its stated facts."""
    picks = distinctive_picks(lines, terms)
    links = [index for index in pattern_lines(joined, _LINK_ITEM) if index not in fence_lines]
    picks += [Pick(index, index + 1, 52.0 - 0.01 * order) for order, index in enumerate(links)]
    facts = fact_picks(lines, joined, set(fence_lines), fence_lines)
    picks += facts + _stamps(lines)
    stated = sum(pick.priority > _FACT_HIGHLIGHT for pick in facts)
    outline = f"markdown: {len(lines)} lines, no headings, {len(links)} list links"
    highlights = 1 + (len(links) + stated) // _FACTS_PER_HIGHLIGHT if links or stated else 0
    return _Plan(lines, picks, (), outline, highlights, fence_lines)


_REST = 32.0  # below the first line: 14, 22, 32 and 45 on dev: stage 1 -2, -1, ±0, -1
_PROSE_START = re.compile(r"\s*(?:[*+>|#-]|\d{1,3}[.)]\s|```|~~~)")


def _sentence_rest(lines: Sequence[str], first: int, headings: Container[int], fenced: Container[int]) -> int:
    """The line a section's first sentence goes on to when its first line does not end it (text
    wrapped at a width: its next line, prose too), else -1."""
    line = lines[first].rstrip()
    nxt = first + 1
    if (
        nxt >= len(lines)
        or nxt in headings
        or nxt in fenced
        or not lines[nxt].strip()
        or _PROSE_START.match(lines[nxt])
        or SENTENCE_END.search(line, len(line) - len(line.lstrip()), _SENTENCE_WIDTH)
        or line.endswith((".", ":", "!", "?"))
        or len(line) > _SENTENCE_WIDTH
    ):
        return -1
    return nxt


def _sentence_width(line: str) -> int:
    """Chars of ``line`` through its first sentence (0: the packer's default width)."""
    stripped = len(line) - len(line.lstrip())
    end = SENTENCE_END.search(line, stripped, _SENTENCE_WIDTH)
    if end is None:  # one sentence to the line's end (no space after its stop), or a long one
        return len(line) + 1 if len(line) <= _SENTENCE_WIDTH else 0
    # clip() keeps width - 1 chars and adds "…", so +2 keeps the sentence's final stop.
    width = end.end() + 1
    return width + 1 if width < len(line) else 0
