"""Accessibility snapshots (Playwright MCP's ``browser_snapshot``): what an agent can see and click.

An agent reads a snapshot to find the element to act on, by its ``[ref=eNN]`` (``[ref=f1eNN]``
in a frame), and to read what the page says. The summary keeps, best first: the page header
(URL, title, tabs, console lines before the tree), headings, the first text with words of each
section (a search's "found 48 pages", a page's lead sentence), named landmarks (navigation, main, search,
form, dialog…), what a live region says (a ``status`` or ``alert``: a search's "9 results are
available"), interactive elements (textboxes, buttons, checkboxes, comboboxes, menu items,
tabs…) with their names and refs, the terms of definition lists (a reference page's options)
and the text or table cells stating a default (``cell "No; defaults to off"``, with its row's first
cell: whose default it is),
then links (an unnamed link by its first child's text, as search results are; a named item one
can click, such as a search box's suggestion, as a link; a link named by a section number,
``"22.4"``, below them), then paragraphs and other text. The same role and name
seen again ranks last. A run of similar siblings (a nav of 200 links, a table of 300 rows; not
headings or terms) is folded: its first and last items are shown, the first annotated with the
run's size (``[×200 link]``), the middle kept for room that is left. Generic wrappers
(``generic``, ``list``, ``listitem``, ``group``) and ``/url:`` props are dropped, without a ``…``
where they alone were left out. Lines are shown verbatim without their indentation, a link up to
its ref (``[cursor=pointer]``, which every link has, cut as a clipped line is); the call's terms
raise lines that mention them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.summaries.definitions import definition_lines
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack, split_lines
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
_PROSE = frozenset("paragraph text status alert note definition term blockquote caption".split())
_REPEATED = 8.0
_FIRST_PROSE = 60.0
_FOLD_AT = 6  # a run of at least this many similar siblings is folded
_TERM = 55.0
_STATED = 55.0  # a text or cell stating a default ("No; defaults to off"), and its row's first cell
_STATED_STEP = 0.002  # the later on the page, the lower
_WORDS = re.compile(r"[A-Za-z]{2}")  # a section's first text has words, not a lone "(" or "."
_LIVE = 85.0  # what a status or alert region says (a search's "9 results are available")
_LIVE_LINES = 30  # lines of one live region ranked so
_UNFOLDED = frozenset(("heading", "term"))  # each says what follows it: a run of them is no repetition
_NUMBERED = re.compile(r'^- link "[\d.§ ]+"')
_POINTER = " [cursor=pointer]"


def summarize_snapshot(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The header, headings, landmarks and controls of a snapshot, with their refs, in ``budget`` bytes."""
    raw = split_lines(text)
    lines = [line.strip() for line in raw]
    lowered_terms = [term.lower() for term in terms if term]
    roles: Counter[str] = Counter()
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    runs: dict[tuple[str, int], list[int]] = {}
    last_run: tuple[str, int] | None = None
    after_heading = True  # the page's first text is its lead, as a section's first sentence is
    label_under: int | None = None  # the indent of an unnamed link waiting for its label
    live_under: int | None = None  # the indent of a live region (status, alert) whose lines are news
    live_said = 0  # lines of the live region seen so far
    seen: set[tuple[str, str | None]] = set()
    filler: set[int] = set()  # link targets and bare wrappers: leaving them out is not worth a "…"
    in_tree = False
    stated = set(definition_lines("\n".join(lines)))  # "defaults to off": what a reference page states
    first_cell: int | None = None  # the current table row's first cell: what its other cells are about
    stated_seen: list[int] = []
    for index, line in enumerate(lines):
        if not line:
            continue
        indent = len(raw[index]) - len(raw[index].lstrip())
        match = _ITEM.match(line)
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
        roles[role] += 1
        named = bool(match.group("name"))
        mentioned = any(term in line.lower() for term in lowered_terms)
        priority = _priority(role, named, line)
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
        if role == "heading":
            after_heading = True
        elif after_heading and role in _PROSE and _WORDS.search(line.split(": ", 1)[-1]) and ": " in line:
            priority = max(priority, _FIRST_PROSE)  # a section's first sentence says what it is about
            after_heading = False
        label = match.group("name") or (line.split(": ", 1)[1] if ": " in line else None)
        seen_key = (role, label)
        if seen_key in seen and role not in _WRAPPERS:
            priority = min(priority, _REPEATED)  # the same link or text again says nothing new
        seen.add(seen_key)
        if role == "row":
            first_cell = None
        elif role == "cell" and first_cell is None:
            first_cell = index
        if index in stated and (role in _PROSE or role == "cell"):
            # Each default with its row's first cell (whose default it is), then the next one.
            late = _STATED_STEP * min(len(stated_seen), 500)
            stated_seen.append(index)
            priority = max(priority, _STATED - late)
            if role == "cell" and first_cell is not None and first_cell != index:
                picks.append(Pick(first_cell, first_cell + 1, _STATED - late - _STATED_STEP / 2))
        if mentioned:
            priority += 50.0
        if live:
            priority = max(priority, _LIVE)  # kept even in a wrapper
        elif role in _WRAPPERS and named and _POINTER in line:
            priority = max(priority, _priority("link", True, line))  # a clickable option, as a link is
        elif role in _WRAPPERS and not mentioned:
            if not named and ": " not in line:  # a wrapper with no text of its own
                filler.add(index)
            continue
        key = (role, indent)
        if not live:  # each of a live region's lines is its own news: never folded into a run
            if key == last_run or (key in runs and runs[key] and index - runs[key][-1] <= 4):
                runs.setdefault(key, []).append(index)
            else:
                runs[key] = [index]
            last_run = key
        # ``[cursor=pointer]`` (every link has it) is cut: the line up to its ref says it all.
        pointer = line.find(_POINTER) if line.endswith((_POINTER, _POINTER + ":")) else -1
        picks.append(Pick(index, index + 1, priority, pointer + 1 if pointer > 0 else 0))
    picks = _fold(picks, runs, notes)
    body = pack(lines, picks, budget, width=160, notes=notes, gaps="short", filler=filler)
    interactive = sum(roles[role] for role in _INTERACTIVE)
    parts = [f"{roles['heading']} headings", f"{roles['link']} links", f"{interactive} controls"]
    outline = f"accessibility snapshot: {len(lines)} lines, " + ", ".join(parts)
    # A page without headings or controls (a man page as text and links) still has links to
    # follow and text to read: the agent asked for it to act on it, so it is never a bare Directive.
    readable = roles["link"] or roles["text"] or roles["paragraph"]
    highlights = roles["heading"] + interactive or int(bool(readable))
    return Extract(text=body, kind=ContentKind.SNAPSHOT, outline=outline, highlights=highlights)


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


def _fold(picks: list[Pick], runs: dict[tuple[str, int], list[int]], notes: dict[int, str]) -> list[Pick]:
    """Long runs keep their first two and last item at full priority; the middle goes last."""
    demoted: dict[int, float] = {}
    for (role, _indent), members in runs.items():
        if len(members) < _FOLD_AT or role in _UNFOLDED:
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
