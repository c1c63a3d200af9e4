"""Accessibility snapshots (Playwright MCP's ``browser_snapshot``, Chrome DevTools MCP's
``take_snapshot``, read in Playwright's terms by ``context_mode.devtools_snapshot``): what an agent
can see and click.

An agent reads a snapshot to find the element to act on, by its ``[ref=eNN]`` (``[ref=f1eNN]``
in a frame), and to read what the page says. The summary keeps, best first: the page header
(URL, title, tabs, console lines before the tree), headings, the first text with words of each
section (a search's "found 48 pages", a page's lead sentence; under an unnamed heading, the text
inside it names it and the section's first text is the one below it: Sphinx's ``text: Usage``
beside its ``¶`` link), named landmarks (navigation, main, search,
form, dialog…), what a live region says (a ``status`` or ``alert``: a search's "9 results are
available") and a short line counting what a search or a listing found ("23 matching documents",
"6366 rows, showing page 1"), interactive elements (textboxes, buttons, checkboxes, comboboxes,
menu items, tabs…) with their names and refs, the terms of definition lists (a reference page's options)
and the text or table cells stating a default (``cell "No; defaults to off"``, or any cell of a
column headed "Default", with its row's first line that says something: whose default it is; a
sentence an inline element cuts, "The default value is" > ``code: "5"``, with the element),
the text noting a change (``changes``: "Deprecated since version 3.3: Use" > ``code: timeout``,
"Changed in version 3.14: …", with the elements finishing its sentence), the text or code a
sentence ending in a colon introduces ("…, use this setting:" > ``generic: "CACHES = {…}"``: the
example, the command, the value; above the terms and defaults), a row's header with the cell
beside it, its value (``rowheader "Request URL:"`` > ``cell "http://…"``: a key is shown with its
value or not at all), a report's or a dashboard's figures, each with its label (a named wrapper
over a short value with a digit: ``listitem "Tests"`` > ``text: "14"``, ``listitem "Duration"`` >
``generic: 17ms``; a wrapper named by one, ``generic "78.57% Passing"``; a label seen before, each
suite's own "Duration", low), a test report's failed rows (a ``cell "Failed"`` and the two cells
after it: the test's name, its time) and a table's totals row (a ``cell "Total"`` and the figures
after it), and the page's last two lines that say something (its footer: "Generated
by GTK-Doc V1.33.1", a version, a copyright) on a page of a few hundred lines, the links to
the next and previous page (``link "Next"``, ``link "Next InlineHilite"``, or the link after a
``"Next:"`` label, shown with it; at the top and at the foot alike, never folded), then links
(an unnamed link by its first child's text, as search results are; a named item one can click,
such as a search box's suggestion, as a link; a link named by a section number, ``"22.4"``,
below them), then paragraphs and other text. The same role and name
seen again ranks last. A run of list items of one role and depth (a nav of 200 links, a
select's options, a table of 300 rows; not headings, terms, a row's cells or a paragraph's texts;
every such run, not only the last at its depth; a table's rows' links and editors, each in the
row after the other's, the row's cells between) is folded: its first and last items are shown,
the first annotated with the run's size (``[×200 link]``), the middle kept for room that is left
(a member shown for another line's sake, a default's row name, keeps that worth). Generic wrappers
(``generic``, ``list``, ``listitem``, ``group``) and ``/url:`` props are dropped, without a ``…``
where they alone were left out (a wrapper holding an icon's glyph alone too); a wrapper with a
phrase of its own (``generic: Page 1 / 64``; not a lone name, which repeats its heading) is read
as text. Lines are shown verbatim without their
indentation, a link up to its ref (``[cursor=pointer]``, which every link has, cut as a clipped
line is); the call's terms raise lines that mention them. The salient items the budget grows with
are its headings and controls and, ``_READ_PER_HIGHLIGHT`` to one, its paragraphs, table rows,
terms and links.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.devtools_snapshot import as_playwright, is_devtools_snapshot
from context_mode.summaries.changes import change_lines
from context_mode.summaries.definitions import definition_lines
from context_mode.summaries.edges import FOOTER_LINES, FOOTER_PAGE, FOOTER_REACH
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack, says_something, split_lines
from context_mode.summaries.snapshot_table import Table
from context_mode.types import ContentKind

# A YAML-quoted item (its name holds ": ") opens with a quote: ``- 'listitem "Types : X" [ref=e1]':``
_ITEM = re.compile(r"""- '?(?P<role>[a-z]+)(?: "(?P<name>[^"\n]*)")?(?P<attrs>(?: \[[^\]\n]*\])*)""")
_LEVEL = re.compile(r"\[level=(\d)\]")
_HEADER = re.compile(r"- Page (?:URL|Title): |- Console: |### |- \d+: |\[(?:ERROR|WARNING|LOG)\]")

_LANDMARKS = frozenset(
    "navigation main banner contentinfo complementary search form region dialog alertdialog alert".split()
)
_INTERACTIVE = frozenset(
    """textbox searchbox button checkbox radio combobox listbox option menuitem menuitemcheckbox
    menuitemradio menu menubar tab switch slider spinbutton""".split()
)
_WRAPPERS = frozenset("generic list listitem group none presentation separator".split())
# What a page says besides its headings and controls counts toward its budget, this many as one
# salient item (an attribute table of 1,500 rows is no less to read than a form of 60 fields).
_READ = ("paragraph", "row", "term", "link")
_READ_PER_HIGHLIGHT = 25
_PROSE = frozenset("paragraph text status alert note definition term blockquote caption".split())
_REPEATED = 8.0
_FIRST_PROSE = 60.0
_FOLD_AT = 6  # a run of at least this many similar siblings is folded
_ROW_LEVELS = 6  # chars of indentation (three levels) from an item up to the row holding it
_NONE = (-1, "", -1)  # no line at an indentation yet
_TERM = 55.0
_STATED = 55.0  # a text or cell stating a default ("No; defaults to off"), and its row's first cell
_STATED_STEP = 0.002  # the later on the page, the lower
# What a sentence ending in a colon introduces ("to store cached data in /var/tmp, use this
# setting:" > ``generic: "CACHES = {…}"``, "The default is:" > ``code: "220"``): the example, the
# command, the value it names.
_EXAMPLE = 62.0
_INTRODUCING = re.compile(r"- (?:paragraph|text)(?: \[[^\]\n]*\])*: .*:\"?\s*\Z")
_CHANGE = 52.0  # a text noting a change (``changes``: deprecated, removed, changed in version 3.14)
_WORDS = re.compile(r"[A-Za-z]{2}")  # a section's first text has words, not a lone "(" or "."
_SAMPLE_LINES = 200  # from each end, to tell Chrome DevTools MCP's snapshot from Playwright's
_LIVE = 85.0  # what a status or alert region says (a search's "9 results are available")
_LIVE_LINES = 30  # lines of one live region ranked so
# The items a long run of is a list (a nav's links, a select's options, a table's rows), folded;
# a run of headings or terms is no repetition (each says what follows it), nor are a row's cells
# (a record's fields) or a paragraph's pieces of text between its links and code.
_FOLDED = frozenset(
    """link option row menuitem menuitemcheckbox menuitemradio tab treeitem img button checkbox radio
    spinbutton article""".split()
)
_NUMBERED = re.compile(r'^- link "[\d.§ ]+"')
_POINTER = " [cursor=pointer]"
_URL = ' url="'
_LAST = 62.0  # the page's last lines with text: its footer (``edges.FOOTER_LINES``)
_CUT_SENTENCE_LINES = 3  # the inline element that finishes a cut sentence, with its children
# A link to the next or previous page ("Next", "Next InlineHilite", "previous"), or the link a short
# label names so ("Next:", "Next topic"): where an agent reading a manual or a listing goes on.
_PAGER = re.compile(r"(?:next|prev(?:ious)?)(?![\w-])", re.IGNORECASE)
_PAGER_LABEL = 20  # a label longer than this is a sentence ("next iteration of the loop")
_PAGER_REACH = 3  # lines from a label to the link it names
_PAGING = 64.0
# A search's or a listing's count ("23 matching documents", "6366 rows, showing page 1", "found 65
# pages"): in a short line of its own, it says how much there is, as a status region does.
_COUNT = re.compile(
    r"\b\d[\d,]* (?:results?|match(?:es|ing)|rows|items|documents|pages|entries|records|hits)\b"
)
_COUNT_WIDTH = 80
_VALUE_STEP = 0.01  # a row header with its value ranks just above it alone
_STAT = 72.0  # a named wrapper with the short figure below it (``listitem "Tests"`` > ``text: "79"``)
_STAT_STEP = 0.01  # its label just above it: taken first, the figure beside it next
_STAT_NAME = 32
_STAT_VALUE = 24
_STAT_REACH = 3  # lines from the label to its figure (an icon's empty ``generic`` between)
_DIGIT = re.compile(r"\d")
_ROW_NEWS = 74.0  # a row a cell makes news: a test's failure, a table's totals, and the cells after
_ROW_KEY = re.compile(
    r"(?P<failed>failed|failure|fail|error|errored|broken)\Z|(?P<total>total|totals|sum|overall)\Z",
    re.IGNORECASE,
)
# The cells after such a cell shown with it: a failed test's name and time; a totals row's figures
_ROW_CELLS = {"failed": 2, "total": 8}


def summarize_snapshot(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The header, headings, landmarks and controls of a snapshot, with their refs, in ``budget`` bytes."""
    raw = split_lines(text)
    shown = [line.strip() for line in raw]  # what the summary shows: the payload's own lines
    if is_devtools_snapshot(raw[:_SAMPLE_LINES] + raw[-_SAMPLE_LINES:]):
        raw = as_playwright(raw)  # Chrome DevTools MCP's: read as Playwright's
    lines = [line.strip() for line in raw]
    lowered_terms = [term.lower() for term in terms if term]
    roles: Counter[str] = Counter()
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    runs: dict[tuple[str, int], list[int]] = {}  # the run of each role and depth going on
    ended: list[tuple[tuple[str, int], list[int]]] = []  # the runs that ended before it
    last_run: tuple[str, int] | None = None
    after_heading = True  # the page's first text is its lead, as a section's first sentence is
    heading_under: int | None = None  # the indent of an unnamed heading, whose text names it
    label_under: int | None = None  # the indent of an unnamed link waiting for its label
    live_under: int | None = None  # the indent of a live region (status, alert) whose lines are news
    live_said = 0  # lines of the live region seen so far
    seen: set[tuple[str, str | None]] = set()
    filler: set[int] = set()  # link targets and bare wrappers: leaving them out is not worth a "…"
    in_tree = False
    joined = "\n".join(lines)
    stated = set(definition_lines(joined))  # "defaults to off": what a reference page states
    changes = set(change_lines(joined))  # "Deprecated since version 6.2", "Changed in version 3.14:"
    table = Table(columns=[])  # the current row's name, and its column's header: is it a default?
    stated_seen: list[int] = []
    pager = _Pager()
    keyed: tuple[int, int, float] | None = None  # a row header's line, indent and priority
    stat: tuple[int, int, bool] | None = None  # a named wrapper's line, indent, first of its name
    stat_names: set[str] = set()
    lent: list[Pick] = []  # lines picked for another line's sake, never demoted as a run's members
    # Each indentation's last line, its item's role and the line at that indentation before it
    at_indent: dict[int, tuple[int, str, int]] = {}
    news: tuple[int, int, int] | None = None  # a news cell's line, indent, and its row's cells in reach
    for index, line in enumerate(lines):
        if not line:
            continue
        indent = len(raw[index]) - len(raw[index].lstrip())
        match = _ITEM.match(line)
        role_here = match.group("role") if match is not None else ""
        at_indent[indent] = (index, role_here, at_indent.get(indent, _NONE)[0])
        if not in_tree and match is None:
            if line.startswith("```"):
                in_tree = True
                continue
            if _HEADER.match(line) or index < 3:
                picks.append(Pick(index, index + 1, 100.0))
            continue
        in_tree = in_tree or match is not None
        if match is None or line.startswith("- /url:"):
            filler.add(index)
            continue
        role = match.group("role")
        named = bool(match.group("name"))
        if role in _WRAPPERS and not named and " " in line.partition(": ")[2].strip():
            # A wrapper with a phrase of its own (``generic: Page 1 / 64``, a signature's line, a
            # version banner) says it as a ``text`` line would: the page's words, not a wrapper.
            role = "text"
        roles[role] += 1
        if stat is not None and indent <= stat[1]:
            stat = None
        value = line.partition(": ")[2].strip().strip('"')
        if (
            stat is not None
            and index - stat[0] <= _STAT_REACH
            and 0 < len(value) <= _STAT_VALUE
            and _DIGIT.search(value)
        ):
            # A labelled figure (``listitem "Duration"`` > ``generic: 749ms``, ``listitem "Failed"`` >
            # ``text: "10"``): a report's or a dashboard's numbers, each with what it counts; the
            # same label again (each suite's "Duration") says less.
            worth = _STAT if stat[2] else _REPEATED + _STAT_STEP
            if all(other in filler for other in range(stat[0] + 1, index)):  # an icon's empty wrapper
                picks.extend((Pick(stat[0], stat[0] + 1, worth + _STAT_STEP), Pick(index, index + 1, worth)))
            else:
                picks.append(Pick(stat[0], index + 1, worth))
            stat = None
        name = match.group("name") or ""
        if role in _WRAPPERS and named and _POINTER not in line and len(name) <= _STAT_NAME:
            stat = (index, indent, name not in stat_names)
            stat_names.add(name)
            if _DIGIT.search(name) and stat[2]:  # ``generic "87.34% Passing"``: a figure in its name
                picks.append(Pick(index, index + 1, _STAT))
        if role == "text" and not says_something(line.partition(": ")[2]):
            filler.add(index)  # punctuation between inline elements ("(", ","): nothing to read
            continue
        mentioned = any(term in line.lower() for term in lowered_terms)
        priority = _priority(role, named, line)
        if keyed is not None and (role == "row" or indent < keyed[1]):
            keyed = None
        if role in ("text", "code") and index and _INTRODUCING.match(lines[index - 1]):
            priority = max(priority, _EXAMPLE)  # what the sentence above introduces
        # A live region's messages (``status`` > ``generic: 9 results are available…``; an
        # ``alert`` listing a form's errors as links): what it says is news, every line of it.
        live = False
        if live_under is not None and indent > live_under and (named or ": " in line):
            live = live_said < _LIVE_LINES
            live_said += 1
        elif live_under is not None and indent <= live_under:
            live_under = None
        if role in ("status", "alert", "log") and ": " not in line:
            live_under, live_said = indent, 0
        if label_under is not None and indent > label_under and ": " in line:
            # An unnamed link is named by its first child's text (``code: cgi``).
            priority = max(priority, _priority("link", True, line))
            label_under = None
        elif label_under is not None and indent <= label_under:
            label_under = None
        if role == "link" and not named:
            label_under = indent
        if heading_under is not None and indent <= heading_under:
            heading_under = None
        if role == "heading":
            after_heading = True
            if not named:  # named by its text inside it (Sphinx's ``text: Usage`` beside its ``¶`` link)
                heading_under = indent
        elif heading_under is not None:
            # The heading's name, as a section's first sentence is ranked; that sentence is below it.
            if role in _PROSE and _WORDS.search(line.split(": ", 1)[-1]) and ": " in line:
                priority = max(priority, _FIRST_PROSE)
        elif after_heading and role in _PROSE and _WORDS.search(line.split(": ", 1)[-1]) and ": " in line:
            priority = max(priority, _FIRST_PROSE)  # a section's first sentence says what it is about
            after_heading = False
        label = _says(match, line) or None
        seen_key = (role, label)
        if seen_key in seen and role not in _WRAPPERS:
            priority = min(priority, _REPEATED)  # the same link or text again says nothing new
        seen.add(seen_key)
        if role in _PROSE and label is not None and len(label) <= _COUNT_WIDTH and _COUNT.search(label):
            priority = max(priority, _LIVE)  # a search's or a listing's size: what it found
        if index in changes and (role in _PROSE or role == "cell"):
            priority = max(priority, _CHANGE)  # what changed, in which version: does it still hold?
            ends = _continuation(lines, raw, index, indent)
            lent.extend(_pick(shown, other, _CHANGE - _STATED_STEP / 2) for other in ends)
        paging = pager.see(role, label, index)
        if paging:
            priority = max(priority, _PAGING)  # each of them, the footer's copy too
            picks.extend(_pick(shown, other, _PAGING) for other in paging[:-1])
        in_default_column = table.see(role, label or "", indent, index)
        if in_default_column or (index in stated and (role in _PROSE or role == "cell")):
            # Each default with its row's name (whose default it is), then the next one.
            late = _STATED_STEP * min(len(stated_seen), 500)
            stated_seen.append(index)
            priority = max(priority, _STATED - late)
            by_cell = role == "cell" or in_default_column
            named_by = [table.row_name] if by_cell and table.row_name not in (None, index) else []
            others = named_by + _continuation(lines, raw, index, indent)
            lent.extend(_pick(shown, other, _STATED - late - _STATED_STEP / 2) for other in others)
        if mentioned:
            priority += 50.0
        if live:
            priority = max(priority, _LIVE)  # kept even in a wrapper
        elif role in _WRAPPERS and named and _POINTER in line:
            priority = max(priority, _priority("link", True, line))  # a clickable option, as a link is
        elif role in _WRAPPERS and not mentioned:
            if not named and (": " not in line or not says_something(value)):
                filler.add(index)  # a wrapper with no text of its own, or an icon's glyph alone
            continue
        key = (role, indent)
        # A run goes on with the next item of its role and depth right after or a few lines on
        # (each in its listitem, with its link target).
        going_on = key == last_run or (
            key in runs and (index - runs[key][-1] <= 4 or _next_row(at_indent, runs[key][-1], indent))
        )
        # Each of a live region's lines is its own news, a pager's link is wanted at the foot as at
        # the top: never folded into a run.
        if not (live or paging):
            if going_on:
                runs.setdefault(key, []).append(index)
            else:
                if key in runs:  # a run of the same role and depth further up stays a run
                    ended.append((key, runs[key]))
                runs[key] = [index]
            last_run = key
        picks.append(_pick(shown, index, priority))
        if news is not None and (role == "row" or indent < news[1] or index - news[0] > news[2]):
            news = None
        keyed_by = _ROW_KEY.match(label or "") if role == "cell" else None
        reach = _ROW_CELLS[keyed_by.lastgroup or ""] if keyed_by is not None else 0
        if reach:
            # A row a cell says is news: a test report's failure (pytest-html's ``cell "Failed"``,
            # with the test's name and its time after it), a table's totals (coverage.py's ``cell
            # "Total"``, with every figure after it).
            news = (index, indent, reach)
            picks.append(_pick(shown, index, _ROW_NEWS))
        elif role == "cell" and news is not None and indent == news[1]:
            picks.append(Pick(news[0], index + 1, _ROW_NEWS - _VALUE_STEP * (index - news[0])))
        if role == "rowheader":
            keyed = (index, indent, priority)
        elif role == "cell" and keyed is not None and indent == keyed[1]:
            # The cell beside a row's header is its value (``rowheader "Request URL:"`` >
            # ``cell "http://…/orders/1/"``): the key is shown with it, or not at all.
            picks.append(Pick(keyed[0], index + 1, max(keyed[2], priority) + _VALUE_STEP))
            keyed = None
    # Lines shown for another's sake (a default's row name, the words finishing a change note) keep
    # their worth when they are a folded run's members too.
    picks = _fold(picks, [*ended, *runs.items()], notes) + lent
    # The page's last lines that say something (its footer: "Generated by GTK-Doc V1.33.1", a
    # version, a copyright, the next page's link) name what the page is, as its title does.
    end = len(lines) - FOOTER_REACH if len(lines) >= FOOTER_PAGE else len(lines)
    said = [
        pick
        for pick in picks
        if pick.start >= end
        and pick.priority > _REPEATED
        and says_something(_says(_ITEM.match(lines[pick.start]), lines[pick.start]))
    ]
    for pick in said[-FOOTER_LINES:]:
        picks.append(Pick(pick.start, pick.stop, max(pick.priority, _LAST), pick.width))
    body = pack(shown, picks, budget, width=160, notes=notes, gaps="short", filler=filler)
    interactive = sum(roles[role] for role in _INTERACTIVE)
    parts = [f"{roles['heading']} headings", f"{roles['link']} links", f"{interactive} controls"]
    outline = f"accessibility snapshot: {len(lines)} lines, " + ", ".join(parts)
    # A page without headings or controls (a man page as text and links) still has links to
    # follow and text to read: the agent asked for it to act on it, so it is never a bare Directive.
    readable = roles["link"] or roles["text"] or roles["paragraph"]
    highlights = roles["heading"] + interactive + sum(roles[role] for role in _READ) // _READ_PER_HIGHLIGHT
    highlights = highlights or int(bool(readable))
    return Extract(text=body, kind=ContentKind.SNAPSHOT, outline=outline, highlights=highlights)


@dataclass(slots=True)
class _Pager:
    """Finds the links to the next and previous page, and the short labels naming them ("Next:")."""

    label_at: int = -_PAGER_REACH  # the line of the last label seen

    def see(self, role: str, label: str | None, index: int) -> list[int]:
        """The lines line ``index`` shows as a link to another page (its label's, then its own); none
        when it is no such link."""
        if label is None:
            return []
        if role != "link":
            if len(label) <= _PAGER_LABEL and _PAGER.match(label.strip('"')):
                self.label_at = index
            return []
        labelled = index - self.label_at <= _PAGER_REACH
        found = [self.label_at, index] if labelled else [index] if _PAGER.match(label) else []
        self.label_at = -_PAGER_REACH
        return found


def _pick(lines: Sequence[str], index: int, priority: float) -> Pick:
    """Line ``index`` at ``priority``; a link's ``[cursor=pointer]`` is cut (its ref says it all), as
    is the ``url="…"`` closing a Chrome DevTools MCP node (its uid says it all, as Playwright's
    ``/url:`` lines, left out, do)."""
    line = lines[index]
    pointer = line.find(_POINTER) if line.endswith((_POINTER, _POINTER + ":")) else -1
    if pointer < 0 and line.endswith('"') and line.startswith("uid="):
        pointer = line.find(_URL)
    return Pick(index, index + 1, priority, pointer + 1 if pointer > 0 else 0)


def _continuation(lines: Sequence[str], raw: Sequence[str], index: int, indent: int) -> list[int]:
    """The lines finishing a sentence an inline element cut ("The default value is" > ``code: "5"``)."""
    if lines[index].rstrip('"').endswith((".", "!", "?", ")")) or index + 1 >= len(lines):
        return []
    sibling = raw[index + 1]
    if len(sibling) - len(sibling.lstrip()) != indent:
        return []
    found = [index + 1]
    for after in range(index + 2, min(index + 1 + _CUT_SENTENCE_LINES, len(lines))):
        if len(raw[after]) - len(raw[after].lstrip()) <= indent:
            break
        if not lines[after].startswith("- /url:"):
            found.append(after)
    return found


def _says(match: re.Match[str] | None, line: str) -> str:
    """What an item (``match``: its ``_ITEM`` match) says: its name, or the text after its colon."""
    if match is not None and match.group("name"):
        return match.group("name")
    return line.split(": ", 1)[1] if ": " in line else ""


def _priority(role: str, named: bool, line: str) -> float:
    if role == "heading":
        level = _LEVEL.search(line)
        return 90.0 - 5.0 * (int(level.group(1)) if level else 3)
    if role in _LANDMARKS:
        return 80.0 if named else 45.0
    if role in _INTERACTIVE:
        return 75.0 if named else 40.0
    if role == "term" and ": " in line:
        return _TERM  # a definition list's term: an option, a setting, a word the page defines
    if role == "link":
        if named and _NUMBERED.search(line):
            return 20.0  # a cross-reference by section number ("22.4") says little of where it goes
        return 50.0 if named else 15.0
    if role in ("row", "columnheader", "rowheader", "img", "cell"):
        return 30.0 if role != "cell" else 12.0
    if role in _PROSE and ": " in line:
        return 35.0  # what the page says: a status line, a result's snippet, a definition
    return 20.0 if named or ": " in line else 5.0


def _next_row(at_indent: dict[int, tuple[int, str, int]], last: int, indent: int) -> bool:
    """Whether an item at ``indent`` is in the table row right after the one of the item at line
    ``last``: the lines between go no nearer the left than one ``row`` line, at most
    ``_ROW_LEVELS`` chars up (each row's link, the row's cells between). A list's entries are not
    read so: a current entry holding a list of its own splits its list's links in two runs.
    ``at_indent`` holds each indentation's last line, its role and the line there before it."""
    for depth in range(max(0, indent - _ROW_LEVELS)):
        if at_indent.get(depth, _NONE)[0] > last:
            return False  # something nearer the left came between: another list, a caption
    for depth in range(max(0, indent - _ROW_LEVELS), indent):
        line, role, before = at_indent.get(depth, _NONE)
        if line > last:
            return role == "row" and before <= last
    return False


def _fold(
    picks: list[Pick], runs: Sequence[tuple[tuple[str, int], list[int]]], notes: dict[int, str]
) -> list[Pick]:
    """Long runs keep their first two and last item at full priority; the middle goes last."""
    demoted: dict[int, float] = {}
    for (role, _indent), members in runs:
        if len(members) < _FOLD_AT or role not in _FOLDED:
            continue
        notes[members[0]] = f"×{len(members)} {role}"
        for position, index in enumerate(members[2:-1]):
            demoted[index] = 10.0 - position / len(members)
    return [
        Pick(
            p.start, p.stop, min(p.priority, demoted[p.start]) if p.start in demoted else p.priority, p.width
        )
        for p in picks
    ]
