"""Lint and type-check output: totals, counts per rule and per file, then distinct diagnostics by rule.

``summarize_lint(text, budget=..., terms=...)`` reads the diagnostics (``context_mode.diagnostics``;
ESLint's ``--format json``, JSON lists of one record per diagnostic (ruff's, pylint's,
ShellCheck's, GitLab's code quality report; a record's file and line may be nested: Biome's
``location``, oxlint's ``labels``, Code Climate's ``location.positions.begin``),
an object holding such a list (pylint's ``json2``, pyright's, bandit's, oxlint's, Biome's), JSON
Lines of them (mypy's ``-O json``), per-file results (stylelint's ``source`` and ``warnings``,
as ESLint's), SARIF logs and Checkstyle's XML report too) and prints, within ``budget`` bytes:

1. the first line when it names the command or project, the tool's totals line(s) (``edges``),
   its own warnings and errors above the first diagnostic or below the last (``WARNING: …``; a
   Java tool's exception, its first line and its last ``Caused by:``), its
   totals line below the last diagnostic however far from the end (tsc ``--pretty``'s ``Found 93
   errors in 18 files.`` over its table of errors per file) and
   its short closing block under the last diagnostic (tsc's errors per file, prospector's
   ``Check Information``);
2. a label ``== 112 diagnostics · 9 rules (UP031 ×40, …) · 14 files ==`` and one with the busiest files;
3. per rule, busiest first (errors, warnings, conventions and style, information last), a label
   ``== F821 ×5 ==`` and the rule's distinct diagnostics as verbatim lines (header, and its
   ``-->`` or path line, once over the rule's rows under one path line; javac's ``  symbol:``
   line, which makes "cannot find symbol" of each name a message of its own), taken one per rule per
   round, rarest rule first, so rare rules are not crowded out (but an error rule's first two
   rounds come before any warning's); a message
   repeated elsewhere is shown once with ``[×N]``, its other places filling the room left (after
   every rule's own messages), each file's first before any file's second. Lines that mention
   ``terms`` come first
   within each round.

Lines are verbatim (clipped ones end in ``…``; ANSI codes and CI timestamps stay as sent); for
ESLint JSON each shown line is the verbatim JSON text of one message object or ``{"filePath":…``;
for records, a record's location, rule, severity and message members as JSON spelt as the
report spells them (``"line": 12`` or ``"line":12``), what an object says beside its records
(short members, members named for totals) in the label; for
SARIF, per file a ``{"uri": …`` line and each result's rule, level, message and start line; for
Checkstyle's XML (``diagnostics.checkstyle_items``), each file's ``<file name="…">`` tag and its
``<error …/>`` elements as written, the severities counted in the label; for a linter's JUnit
report (``diagnostics.is_junit_lint``: ESLint's, ruff's), each failing ``<testcase`` line (its
rule the test case's name past the suite's package) with its ``<failure`` line below it. An XML
report's repeats fold by their ``message`` attribute; a fold count ``[×N]`` marks a message's first
place only. ``highlights`` is the number of distinct diagnostics. Linear in the input.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from context_mode.diagnostics import (
    ANNOTATION,
    MESSAGE_PLACE,
    PHPCS_FOUND,
    PHPCS_MORE,
    PHPCS_ROW,
    RECORD_MESSAGE,
    RECORD_RULE,
    SHELLCHECK_AT,
    Diagnostic,
    checkstyle_items,
    clean_line,
    diagnostic_records,
    file_results,
    find_diagnostics,
    is_checkstyle,
    is_diagnostic_records,
    is_eslint_report,
    is_junit_lint,
    is_sarif,
    json_line_records,
    junit_lint_suite,
    lint_totals,
    record_file,
    semgrep_message,
    wrapped_code,
)
from context_mode.summaries.edges import edge_lines
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.json_line import ELLIPSIS
from context_mode.summaries.packing import clip, size, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

_WIDTH = 220
_TOP_FILES = 6
_PATH_WIDTH = 60  # a file's name in the busiest files' label, its end kept
_CONTEXT_LINES = 8
_COUNTED = ("error", "warning")  # severities said in the plural ("3 errors"; "3 info")
_GUTTER = re.compile(r"\s*[|│]\s*")  # an empty gutter line: rustc's ``   |``, annotate-snippets' ``  │``
_ERROR_ROUNDS = 2  # rounds of error rules before any warning's first
# javac's line under a diagnostic that says which name or type it is about (``  symbol:   method
# isPackageName(String)``; older javac's ``  required: int`` / ``  found:    String``): part of the
# message, within a few lines below its header (past the source line and its caret)
_JAVAC_DETAIL = re.compile(r"  (?:symbol|required|found|reason): ")
_DETAIL_REACH = 4
_CASE_REACH = 8  # lines below a JUnit test case's line its failure may be on (past its properties)
# A line of a linter's own statistics: a count, then a rule code (``325   E501 line too long``,
# ruff's ``  325\tE501\t[*] line-too-long``); shown verbatim when they fit this share of the budget.
# flake8 / ruff / pylint ``--statistics``; perlcritic's ``26 violations of Subroutines::RequireFinalReturn.``
_STATISTIC = re.compile(
    r"\s*(\d+)\s+(?:[A-Z]{1,4}\d{2,5}|[a-z]+(?:-[a-z]+)+|violations of [A-Z]\w*(?:::\w+)+\.)(?:\W|\Z)"
)
_STATISTICS_SHARE = 0.4
_STATISTICS_REACH = 2000
# The tool's own word on the run, before its first diagnostic or after its last (sqlfluff's
# ``WARNING: Parsing errors found and dialect is set to 'postgres'. Have you configured…``,
# a config file not found): no diagnostic, but it says how far to trust them.
_TOOL_MESSAGE = re.compile(r"\s*(?:WARNING|ERROR|FATAL|Warning|Error|Fatal|warning|error|fatal)\b:")
_THROWN = re.compile(r"(?:[a-z]\w*\.)+[A-Z]\w*(?:Exception|Error): \S|Caused by: \S")
_TOOL_MESSAGE_REACH = 50  # lines looked at before the first diagnostic and after the last
_TRAILER_LINES = 12
_TOTALS_REACH = 400  # lines below the last diagnostic looked through for the totals line
_TOTALS_LINES = 3


def _severity_rank(severity: str) -> int:
    """Errors first (Code Climate's ``blocker`` and ``critical`` too), then warnings and the rest;
    then conventions and style (RuboCop's and pylint's ``C``, ShellCheck's ``style``, Code Climate's
    ``minor``), which a warning (RuboCop's ``W: Lint/…``) outranks; information and notes last."""
    if severity.startswith(("error", "fatal")) or severity in ("blocker", "critical"):  # Code Climate's
        return 0
    if severity in ("convention", "refactor", "style", "minor"):
        return 2
    return 3 if severity in ("info", "information", "note") else 1


def summarize_lint(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The lint summary of ``text`` (see the module docstring)."""
    parsed = _json_report(text) or _checkstyle_report(text) or _junit_report(text)
    if parsed is not None:
        lines, diagnostics, totals = parsed
        edges: list[int] = []
    else:
        lines = split_lines(text)
        diagnostics = find_diagnostics(lines)
        totals = ""
        head, tail = edge_lines(lines)
        edges = sorted(
            {
                *head,
                *tail,
                *_tool_messages(lines, diagnostics),
                *_trailer(lines, diagnostics),
                *_totals_below(lines, diagnostics),
            }
        )
    if not diagnostics:
        return summarize_text(text, budget=budget, terms=terms)
    return _render(lines, diagnostics, edges, totals, budget, terms)


def _tool_messages(lines: Sequence[str], diagnostics: Sequence[Diagnostic]) -> list[int]:
    """The lines of the tool's own warnings and errors (``_TOOL_MESSAGE``) above the first
    diagnostic and below the last one, which are no diagnostics of the linted code."""
    if not diagnostics:
        return []
    first = (
        min(diagnostics[0].index, diagnostics[0].location)
        if diagnostics[0].location >= 0
        else diagnostics[0].index
    )
    last = diagnostics[-1].index
    known = {d.index for d in diagnostics} | {d.location for d in diagnostics}
    reach = [
        *range(max(0, first - _TOOL_MESSAGE_REACH), first),
        *range(max(last + 1, len(lines) - _TOOL_MESSAGE_REACH), len(lines)),
    ]
    found = [i for i in reach if i not in known and _TOOL_MESSAGE.match(clean_line(lines[i]))]
    # a Java tool's exception (Checkstyle's on a file it cannot parse): its first line and its
    # root cause, the last ``Caused by:`` (``/tmp/a/Main.java:3:58: expecting SEMI, found '}'``)
    thrown = [i for i in reach if i not in known and _THROWN.match(clean_line(lines[i]))]
    causes = [i for i in thrown if lines[i].startswith("Caused by: ")]
    return sorted({*found, *thrown[:1], *causes[-1:]})


def _totals_below(lines: Sequence[str], diagnostics: Sequence[Diagnostic]) -> list[int]:
    """The tool's totals lines below its last diagnostic (``lint_totals``), however far above the
    end: tsc ``--pretty`` prints ``Found 93 errors in 18 files.`` over a table of errors per file."""
    if not diagnostics:
        return []
    last = max(max(d.index, d.location) for d in diagnostics)
    reach = range(last + 1, min(len(lines), last + 1 + _TOTALS_REACH))
    return [i for i in reach if lint_totals(clean_line(lines[i]))][:_TOTALS_LINES]


def _trailer(lines: Sequence[str], diagnostics: Sequence[Diagnostic]) -> list[int]:
    """The tool's own closing block under its last diagnostic (past the blank line that ends that
    diagnostic's own lines) when it is short (at most ``_TRAILER_LINES`` non-blank lines):
    prospector's ``Check Information`` (how many messages, which tools ran, which config), deptry's
    totals and its pointer to the docs; a longer one is output of another kind."""
    if not diagnostics:
        return []
    last = max(max(d.index, d.location) for d in diagnostics)
    own = last + 1  # the last diagnostic's own lines (its snippet, its notes) end at a blank line
    while own < len(lines) and lines[own].strip():
        own += 1
    after = [i for i in range(own, len(lines)) if lines[i].strip()]
    return after if len(after) <= _TRAILER_LINES else []


_TAGS_ONLY = re.compile(r"\s*(?:<[^<>]*>\s*)+")
_MESSAGE_ATTRIBUTE = re.compile(r'\bmessage="([^"]*)"')
_SPELLED_PLACE = re.compile(r"\Aline \d+, col \d+, ")


def _message_key(lines: Sequence[str], diagnostic: Diagnostic, details: dict[int, int]) -> str:
    """The diagnostic's text without its location, so repeats of one message fold (with its
    ``details`` line: javac's "cannot find symbol" of two names are two messages)."""
    line = clean_line(lines[diagnostic.index])
    detail = details.get(diagnostic.index)
    # An XML report's element (Checkstyle's ``<error``, a JUnit test case's ``<failure``): its message
    attribute = _MESSAGE_ATTRIBUTE.search(lines[diagnostic.index if detail is None else detail])
    if line.lstrip().startswith("<") and attribute is not None:
        return attribute[1]
    row = PHPCS_ROW.match(line)
    annotation = ANNOTATION.match(line) if line.startswith("::") else None
    if row:  # PHP_CodeSniffer's row: its message, not its line number
        line = line[row.start("msg") :]
    elif annotation:  # a GitHub Actions annotation: its message, not its place
        line = MESSAGE_PLACE.sub("", annotation["msg"], count=1)
    elif diagnostic.file and line.startswith(diagnostic.file):
        line = line[len(diagnostic.file) :].lstrip("():0123456789, ")
        line = _SPELLED_PLACE.sub("", line, count=1)  # JSHint's ``line 3, col 1, ``
    return line.strip() + (f"\n{lines[detail].strip()}" if detail is not None else "")


def _details(lines: Sequence[str], diagnostics: Sequence[Diagnostic]) -> dict[int, int]:
    """Per diagnostic (its header's index), its javac detail line (``_JAVAC_DETAIL``), the message
    of a Semgrep rule (under its first finding), the line mypy ``--pretty`` wraps its message onto
    (ending in its code), or the line
    a PHP_CodeSniffer row's message wraps onto (``     |         |     multi-line function call``;
    not the sniff's code alone: that is the rule), if any."""
    starts = {d.index for d in diagnostics} | {d.location for d in diagnostics}
    found: dict[int, int] = {}
    messaged: set[str] = set()  # the rules whose message is shown (a Semgrep rule's: once)
    for diagnostic in diagnostics:
        if "<testcase" in lines[diagnostic.index]:  # a linter's JUnit report: the failure below
            failure = _case_failure(lines, diagnostic.index)
            if failure > diagnostic.index:
                found[diagnostic.index] = failure
            continue
        if "┆" in lines[diagnostic.index][:24]:  # a Semgrep finding: under its rule's first, its message
            message = semgrep_message(lines, diagnostic.index) if diagnostic.rule not in messaged else -1
            if message >= 0:
                found[diagnostic.index] = message
                messaged.add(diagnostic.rule)
            continue
        if diagnostic.index + 1 not in starts and wrapped_code(lines, diagnostic.index) == diagnostic.rule:
            found[diagnostic.index] = diagnostic.index + 1  # mypy --pretty: the message's wrapped end
            continue
        if diagnostic.index + 1 < len(lines) and PHPCS_ROW.match(clean_line(lines[diagnostic.index])):
            more = PHPCS_MORE.match(clean_line(lines[diagnostic.index + 1]))
            if more and not (more["msg"].startswith("(") and diagnostic.rule in more["msg"]):
                found[diagnostic.index] = diagnostic.index + 1
            continue
        for index in range(diagnostic.index + 1, min(len(lines), diagnostic.index + 1 + _DETAIL_REACH)):
            if index in starts:
                break
            if lines[index].startswith("  ") and _JAVAC_DETAIL.match(lines[index]):
                found[diagnostic.index] = index
                break
    return found


def _render(
    lines: Sequence[str],
    diagnostics: Sequence[Diagnostic],
    edges: Sequence[int],
    totals: str,
    budget: int,
    terms: Sequence[str],
) -> Extract:
    by_rule: dict[str, list[Diagnostic]] = defaultdict(list)
    again: dict[str, list[Diagnostic]] = defaultdict(list)
    repeats: Counter[tuple[str, str]] = Counter()
    details = _details(lines, diagnostics)
    for diagnostic in diagnostics:
        key = (diagnostic.rule, _message_key(lines, diagnostic, details))
        repeats[key] += 1
        (by_rule if repeats[key] == 1 else again)[diagnostic.rule].append(diagnostic)
    rule_counts = Counter(d.rule for d in diagnostics)
    file_counts = Counter(d.file for d in diagnostics if d.file)
    rank = {rule: min(_severity_rank(d.severity) for d in found) for rule, found in by_rule.items()}
    rules = sorted(by_rule, key=lambda r: (rank[r], -rule_counts[r], r))
    wanted = term_matcher(terms)
    distinct = {rule: len(by_rule[rule]) for rule in rules}
    for rule in rules:
        by_rule[rule].sort(key=lambda d: not wanted(lines[d.index]))
        # Other places of a message shown once, when room is left: each file's first before any
        # file's second (vera++'s 504 "closing curly bracket" lines span seven files, not one).
        seen_in = Counter(d.file for d in by_rule[rule])
        turn = {}
        for diagnostic in again[rule]:
            turn[diagnostic.index] = seen_in[diagnostic.file]
            seen_in[diagnostic.file] += 1
        by_rule[rule] += sorted(again[rule], key=lambda d: turn[d.index])

    again_at = {d.index for found in again.values() for d in found}  # a message's other places
    used = 0
    head_edges = [i for i in edges if i < diagnostics[0].index]
    tail_edges = [i for i in edges if i >= diagnostics[0].index]
    kept_edges: list[int] = []
    for index in [*tail_edges, *head_edges]:  # totals first: they are the first thing looked for
        cost = size(clip(lines[index], _WIDTH)) + 1
        if used + cost <= budget:
            kept_edges.append(index)
            used += cost
    statistics = _statistics(lines, diagnostics[-1].index, budget * _STATISTICS_SHARE - used)
    used += sum(size(clip(lines[i], _WIDTH)) + 1 for i in statistics)
    kept_labels = []
    for label in _labels(diagnostics, rule_counts, file_counts, totals, budget):
        if used + size(label) + 1 <= budget:
            kept_labels.append(label)
            used += size(label) + 1
    shown: dict[str, list[Diagnostic]] = defaultdict(list)
    # One diagnostic per rule per round, rarest rule first; an error rule's first few rounds come
    # before any warning's (a second undefined name outranks the first "line too long").
    turns = sorted(
        (
            0 if rank[rule] == 0 and position < min(_ERROR_ROUNDS, distinct[rule]) else 1,
            position >= distinct[rule],  # other places of a message shown: after every rule's own
            position,
            rank[rule],
            rule_counts[rule],
            rule,
        )
        for rule in rules
        for position in range(len(by_rule[rule]))
    )
    located: set[tuple[str, int]] = set()  # a rule's file lines charged: shown once over its rows
    counted: set[int] = set()  # file lines whose count (PHP_CodeSniffer's ``FOUND …``) is charged
    for _, _, position, _, _, rule in turns:
        diagnostic = by_rule[rule][position]
        heads = (rule, diagnostic.location) not in located
        counts = heads and diagnostic.location not in counted
        shown_lines = _diagnostic_lines(lines, diagnostic, repeats, details, heads, counts, again_at)
        cost = sum(size(text) + 1 for text in shown_lines)
        if not shown[rule]:
            cost += size(_rule_label(rule, rule_counts[rule])) + 1
        if used + cost <= budget:
            shown[rule].append(diagnostic)
            located.add((rule, diagnostic.location))
            if counts:
                counted.add(diagnostic.location)
            used += cost
        if used > budget - 48:
            break
    context = _context(lines, diagnostics, shown, rules, budget - used, set(details.values()))
    body: list[str] = [clip(lines[i], _WIDTH) for i in sorted(i for i in kept_edges if i in head_edges)]
    body += kept_labels
    body += [clip(lines[i], _WIDTH) for i in statistics]
    counted_in_body: set[int] = set()  # a file's count is shown once, under its first file line
    for rule in rules:
        if not shown[rule]:
            continue
        body.append(_rule_label(rule, rule_counts[rule]))
        heading = -1  # the file line over the rule's last shown row
        for diagnostic in sorted(shown[rule], key=lambda d: d.index):
            heads = diagnostic.location != heading
            counts = heads and diagnostic.location not in counted_in_body
            body += _diagnostic_lines(lines, diagnostic, repeats, details, heads, counts, again_at)
            if counts:
                counted_in_body.add(diagnostic.location)
            body += context.get(diagnostic.index, [])
            heading = diagnostic.location
    body += [clip(lines[i], _WIDTH) for i in sorted(i for i in kept_edges if i in tail_edges)]
    outline = f"lint: {_count(len(diagnostics), 'diagnostic')}, {_count(len(rule_counts), 'rule')}"
    outline += f", {_count(len(file_counts), 'file')}" if file_counts else ""
    return Extract(text="\n".join(body), kind=ContentKind.LINT, outline=outline, highlights=len(repeats))


def _statistics(lines: Sequence[str], last: int, room: float) -> list[int]:
    """The tool's own count per rule under its last diagnostic (``flake8 --statistics``: ``325
    E501 line too long …``; ``ruff --statistics``), most common first while they fit ``room``,
    in the tool's order; none when fewer than two."""
    found = [
        (int(match.group(1)), index)
        for index in range(last + 1, min(len(lines), last + 1 + _STATISTICS_REACH))
        if (match := _STATISTIC.match(clean_line(lines[index]))) is not None
    ]
    if len(found) < 2:
        return []
    kept: list[int] = []
    for _, index in sorted(found, key=lambda found: -found[0]):
        cost = size(clip(lines[index], _WIDTH)) + 1
        if cost <= room:
            kept.append(index)
            room -= cost
    return sorted(kept)


def _labels(
    diagnostics: Sequence[Diagnostic],
    rule_counts: Counter[str],
    file_counts: Counter[str],
    totals: str,
    budget: int,
) -> list[str]:
    room = max(budget // 10, 80)
    counts = _listing(rule_counts, room)
    overall = f"== {_count(len(diagnostics), 'diagnostic')} · {_count(len(rule_counts), 'rule')} ({counts})"
    if file_counts:  # perlcritic on one file names none
        overall += f" · {_count(len(file_counts), 'file')}"
    labels = [overall + (f" · {totals} ==" if totals else " ==")]
    if len(file_counts) > 1 and file_counts.most_common(1)[0][1] > 1:
        # paths too long to show whole are named in the folder they share, said once
        folder = _shared_folder(file_counts) if max(map(len, file_counts)) > _PATH_WIDTH else ""
        names = Counter({name[len(folder) :]: count for name, count in file_counts.items()})
        where = f" in {_path_end(folder, _PATH_WIDTH)}" if folder else ""
        labels.append(f"== files{where}: {_listing(names, room)} ==")
    return labels


def _count(count: int, noun: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _shared_folder(paths: Iterable[str]) -> str:
    """The folder every one of ``paths`` is in (through its last ``/``), said once in the label."""
    shared = os.path.commonprefix(list(paths))
    return shared[: max(shared.rfind("/"), shared.rfind("\\")) + 1]


def _path_end(path: str, width: int) -> str:
    """``path`` if at most ``width`` chars, else ``…`` and its end from a ``/`` on: the files a
    linter names by absolute paths share their start (``/tmp/…/src/pkg/``), not their names."""
    if len(path) <= width:
        return path
    end = path[len(path) - width + 1 :]
    cut = end.find("/")
    return ELLIPSIS + (end[cut:] if 0 <= cut < len(end) - 1 else end)


def _listing(counts: Counter[str], room: int) -> str:
    """``name ×N`` for the most common names, as many as fit in ``room`` chars (at least one)."""
    parts: list[str] = []
    for name, count in counts.most_common(_TOP_FILES):
        part = f"{_path_end(name, _PATH_WIDTH)} ×{count}"
        if parts and sum(len(p) + 2 for p in parts) + len(part) > room:
            break
        parts.append(part)
    return ", ".join(parts) + (", …" if len(counts) > len(parts) else "")


def _context(
    lines: Sequence[str],
    diagnostics: Sequence[Diagnostic],
    shown: dict[str, list[Diagnostic]],
    rules: Sequence[str],
    room: int,
    details: set[int],
) -> dict[int, list[str]]:
    """The lines under shown diagnostics (notes, ``found …``, continuations) that fit in ``room``,
    but for their ``details`` lines (shown with their headers)."""
    starts = sorted({d.index for d in diagnostics} | {d.location for d in diagnostics})
    context: dict[int, list[str]] = {}
    for rule in rules:
        for diagnostic in sorted(shown[rule], key=lambda d: d.index):
            first = max(diagnostic.index, diagnostic.location) + 1
            position = bisect.bisect_left(starts, first)
            stop = min(starts[position] if position < len(starts) else len(lines), first + _CONTEXT_LINES)
            extra: list[str] = []
            markup = lines[diagnostic.index].lstrip().startswith("<")
            for index in range(first, stop):
                line = clip(lines[index], _WIDTH)
                if not line.strip() or size(line) + 1 > room:
                    break
                if index in details or _GUTTER.fullmatch(line):
                    continue  # rustc's empty gutter line (``   |``) between a location and its snippet
                if markup and _TAGS_ONLY.fullmatch(line):
                    continue  # an XML report's ``<properties>``, ``</testcase>``: no text of its own
                extra.append(line)
                room -= size(line) + 1
            if extra:
                context[diagnostic.index] = extra
    return context


def _rule_label(rule: str, count: int) -> str:
    return f"== {clip(rule, 60)} ×{count} =="


def _diagnostic_lines(
    lines: Sequence[str],
    diagnostic: Diagnostic,
    repeats: Counter[tuple[str, str]],
    details: dict[int, int],
    located: bool = True,
    counts: bool = True,
    again_at: Collection[int] = (),
) -> list[str]:
    """The diagnostic's lines: its header and, when ``located`` (not under the same file line as
    the row above it: ESLint's path, sqlfluff's ``== [file] FAIL``), the line naming its file, and
    when ``counts`` (its first time in the summary) PHP_CodeSniffer's ``FOUND 16 ERRORS AND 1
    WARNING AFFECTING 13 LINES`` below it (ShellCheck's ``In path line 12:`` with the code line below
    it, which its caret line points into); and its javac or PHP_CodeSniffer detail line
    (``details``). A message's fold count ``[×N]`` marks its first place only, not the others
    shown (``again_at``)."""
    detail = details.get(diagnostic.index, -1)
    indexes = sorted({diagnostic.index, diagnostic.location if located else -1, detail} - {-1})
    counted = diagnostic.location + 2  # PHP_CodeSniffer's count for the file, under its rule line
    if counts and counted < diagnostic.index and PHPCS_FOUND.match(clean_line(lines[counted])):
        indexes.insert(1, counted)
    quoted = diagnostic.location + 1  # ShellCheck's code line, between its place and its carets
    if located and quoted < diagnostic.index and SHELLCHECK_AT.match(clean_line(lines[diagnostic.location])):
        indexes.insert(1, quoted)
    count = repeats[(diagnostic.rule, _message_key(lines, diagnostic, details))]
    shown = []
    for index in indexes:
        line = clip(lines[index], _WIDTH)
        if index == diagnostic.index and count > 1 and index not in again_at:
            line = f"{line} [×{count}]"
        shown.append(line)
    return shown


def _json_report(text: str) -> tuple[list[str], list[Diagnostic], str] | None:
    """A JSON lint report as display lines (JSON pieces of it) and diagnostics, else None."""
    if text.lstrip()[:1] not in ("[", "{"):
        return None
    spelling = _SPACED if _SPACED_MEMBER.search(text, 0, _SPELLING_REACH) else _COMPACT
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        records = json_line_records(text.splitlines())
        return None if records is None else _records_json(records, "", spelling)
    if is_sarif(value):
        return _sarif_json(value)
    if is_eslint_report(value):
        return _eslint_json(value)
    records = diagnostic_records(value)
    if records is None:
        return None
    totals = _report_totals(value, spelling) if isinstance(value, dict) else ""
    return _records_json(records, totals, spelling)


# A report's pieces are shown spelt as the tool printed them (``"line": 12, "column": 4`` when
# indented or spaced; compact otherwise), so a line of it reads the same in stage 1.
_COMPACT = (",", ":")
_SPACED = (", ", ": ")
_SPACED_MEMBER = re.compile(r'"[^"\n]{1,80}": ')
_SPELLING_REACH = 2000


def _report_totals(report: dict[str, Any], spelling: tuple[str, str]) -> str:
    """What an object holding a list of diagnostics says beside it, as JSON members: its short
    members (pylint's ``statistics``, pyright's ``version`` and ``summary``) and, of a long one,
    its members named for totals (bandit's ``metrics`` → ``_totals``)."""
    pieces = []
    for key, member in report.items():
        if is_diagnostic_records(member):
            continue
        piece = _member_json(key, member, spelling)
        if len(piece) <= _REPORT_MEMBER:
            pieces.append(piece)
        elif isinstance(member, dict):
            pieces += [_member_json(k, v, spelling) for k, v in member.items() if "total" in str(k).lower()]
    return spelling[0].join(piece for piece in pieces if len(piece) <= _REPORT_MEMBER)


_REPORT_MEMBER = 300  # characters of a report's member shown beside its diagnostics' counts


def _member_json(key: Any, value: Any, spelling: tuple[str, str]) -> str:
    """``"key": value`` in JSON spelt as ``spelling``."""
    return _json(str(key), spelling) + spelling[1] + _json(value, spelling)


def _json(value: Any, spelling: tuple[str, str] = _COMPACT) -> str:
    """``value`` as JSON on one line, spelt as ``spelling`` (compact by default)."""
    return json.dumps(value, ensure_ascii=False, separators=spelling)


def _records_json(
    value: list[Any], totals: str, spelling: tuple[str, str]
) -> tuple[list[str], list[Diagnostic], str]:
    """One record per diagnostic: per file, a ``{"filename": …}`` line, then each record's
    location, rule, severity and message, in its order, as JSON spelt as ``spelling`` (the rest
    of it is left out; of a ``range``, its ``start``); ``totals`` is what the report says beside
    them."""
    by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in value:
        if isinstance(item, dict):
            by_file[record_file(item)[1]].append(item)
    lines: list[str] = []
    diagnostics: list[Diagnostic] = []
    for path, records in by_file.items():
        lines.append("{" + _member_json(record_file(records[0])[0] or "file", path, spelling))
        file_line = len(lines) - 1
        for record in records:
            shown = {k: _shown_member(k, v) for k, v in record.items() if _shows(k, v)}
            lines.append(_json(shown, spelling))
            rule = str(_first(record, RECORD_RULE, _is_rule)[1] or "diagnostic")
            level = str(next((record[k] for k in _RECORD_LEVEL if record.get(k)), "warning"))
            diagnostics.append(Diagnostic(len(lines) - 1, file_line, rule, path, level.lower()))
    return lines, diagnostics, totals  # a bare list's header counts are all the totals it has


_RECORD_LEVEL = ("severity", "level", "type", "issue_severity")
_RECORD_SHOWN = frozenset(
    (
        *RECORD_RULE,
        *RECORD_MESSAGE,
        *_RECORD_LEVEL,
        "line",
        "line_number",
        "column",
        "location",
        "row",
        "hint",
    )
)


def _shows(key: str, value: Any) -> bool:
    """Whether a record's member is shown: its location, rule, level or message (not a rule key's
    code snippet: bandit's ``code``), or where it is when that is nested (``_place``)."""
    if value is None:
        return False
    if key in _PLACE_MEMBERS:
        return _place(value) is not None
    return key in _RECORD_SHOWN and (key not in RECORD_RULE or _is_rule(value))


def _shown_member(key: str, value: Any) -> Any:
    """A shown member's value: of a nested place, its line and column alone."""
    return _place(value) if key in _PLACE_MEMBERS else value


# Members that say where a record is, nested: pyright's ``range``, Biome's ``location``, oxlint's
# ``labels`` (``[{"span": {"line": 72, "column": 25, …}}]``); of them, the keys kept
_PLACE_MEMBERS = frozenset({"range", "location", "labels", "span", "position"})
# (Code Climate's, GitLab's: ``{"positions": {"begin": {"line": 3, …}}}`` or ``{"lines": {"begin": 3}}``)
_PLACE_KEYS = frozenset(
    {"start", "span", "line", "column", "character", "row", "col", "positions", "begin", "lines"}
)


def _place(value: Any) -> Any:
    """The line and column a nested place holds (of a list, its first item's; its file, which
    the file's line above names, an ``end`` and offsets left out), else None."""
    if isinstance(value, list):
        first = _place(value[0]) if value else None
        return [first] if first is not None else None
    if not isinstance(value, dict):
        return None
    kept = {key: (_place(inner) if isinstance(inner, dict | list) else inner) for key, inner in value.items()}
    kept = {key: inner for key, inner in kept.items() if key in _PLACE_KEYS and inner is not None}
    return kept or None


def _is_rule(value: Any) -> bool:
    """Whether a value can be a rule's name or code: a number or a short word, no code snippet."""
    return isinstance(value, int) or isinstance(value, str) and len(value) <= _RULE_CHARS and " " not in value


_RULE_CHARS = 80


def _first(
    record: dict[str, Any], keys: Sequence[str], fits: Callable[[Any], bool] | None = None
) -> tuple[str, Any]:
    """The first of ``keys`` the record holds a value under (that ``fits``, when given), with that
    value (``("", "")`` if none)."""
    return next(
        (
            (k, record[k])
            for k in keys
            if record.get(k) not in (None, "") and (fits is None or fits(record[k]))
        ),
        ("", ""),
    )


def _checkstyle_report(text: str) -> tuple[list[str], list[Diagnostic], str] | None:
    """A Checkstyle XML report as display lines (each file's ``<file name="…">`` tag and its
    ``<error …/>`` elements, as written) and diagnostics, else None; an error's rule is the last
    part of its ``source`` (``eslint.rules.no-var``: ``no-var``; ``ShellCheck.SC2086``: ``SC2086``),
    else its severity."""
    if not is_checkstyle(text):
        return None
    lines: list[str] = []
    diagnostics: list[Diagnostic] = []
    path, tag, file_line, listed = "", "", -1, False
    for item in checkstyle_items(text):
        if item.is_file:
            path, tag, listed = item.attributes.get("name", ""), item.text, False
            continue
        if not listed:  # a file's tag only above its first error: a clean file's says nothing
            lines.append(tag)
            file_line, listed = len(lines) - 1, True
        level = item.attributes.get("severity", "").lower() or "warning"
        source = item.attributes.get("source", "")
        lines.append(item.text)
        diagnostics.append(
            Diagnostic(len(lines) - 1, file_line, source.rsplit(".", 1)[-1] or level, path, level)
        )
    return lines, diagnostics, _level_counts(diagnostics)


def _level_counts(diagnostics: Sequence[Diagnostic]) -> str:
    """The diagnostics counted by severity, errors first (``3 errors, 12 warnings, 2 info``)."""
    levels = Counter(diagnostic.severity for diagnostic in diagnostics)
    ranked = sorted(levels.items(), key=lambda item: (_severity_rank(item[0]), -item[1]))
    return ", ".join(
        _count(count, level) if level in _COUNTED else f"{count} {level}" for level, count in ranked
    )


_XML_NAME = re.compile(r'\bname="([^"]*)"')
_FAILED = re.compile(r"<(?:failure|error)\b")
_LEVEL_WORD = re.compile(r'\bvalue="(error|warning|info)"|, (Error|Warning) - ')


def _junit_report(text: str) -> tuple[list[str], list[Diagnostic], str] | None:
    """A linter's report in JUnit's XML (``diagnostics.is_junit_lint``) as its lines and diagnostics,
    else None: each failing ``<testcase`` line is one, its rule the test case's name past the
    suite's package, its file the suite's name (not shown over it: the test case's ``classname``
    names it); a ``<failure`` below the test case's line (past its ``<properties>``) is its
    detail (``_details``). A report with no failing case has no diagnostics."""
    if not is_junit_lint(text):
        return None
    lines = split_lines(text)
    diagnostics: list[Diagnostic] = []
    package, path = "", ""
    for index, line in enumerate(lines):
        if "<testsuite " in line:
            package = junit_lint_suite(line) or package
            named = _XML_NAME.search(line)
            path = named[1] if named else ""
            continue
        if "<testcase" not in line or (failure := _case_failure(lines, index)) < 0:
            continue
        named = _XML_NAME.search(line)
        rule = named[1].removeprefix(package + ".") if named else ""
        block = "".join(lines[index : failure + 1])
        word = _LEVEL_WORD.search(block)
        level = (word[1] or word[2]).lower() if word else "warning"
        diagnostics.append(Diagnostic(index, -1, rule or level, path, level))
    # (none failed: a clean report, read as text; its XML lines are not looked through again)
    return lines, diagnostics, _level_counts(diagnostics)


def _case_failure(lines: Sequence[str], index: int) -> int:
    """The line of a ``<testcase`` line's ``<failure`` or ``<error`` (itself, or one of the next
    ``_CASE_REACH`` lines before ``</testcase>``), else -1."""
    if _FAILED.search(lines[index]):
        return index
    for below in range(index + 1, min(len(lines), index + 1 + _CASE_REACH)):
        if _FAILED.search(lines[below]):
            return below
        if "</testcase>" in lines[below] or "<testcase" in lines[below]:
            break
    return -1


def _sarif_json(value: dict[str, Any]) -> tuple[list[str], list[Diagnostic], str]:
    """A SARIF log's results: per file (its first location's ``uri``), a ``{"uri": …`` line, then
    each result's rule, level, message and start line as compact JSON; the totals name each run's
    tool and version."""
    by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
    tools: list[str] = []
    for run in value["runs"]:
        if not isinstance(run, dict):
            continue
        driver = _member(_member(run, "tool"), "driver")
        if driver.get("name"):
            tools.append(" ".join(str(driver[key]) for key in ("name", "version") if driver.get(key)))
        for result in run["results"]:
            if isinstance(result, dict):
                by_file[_sarif_location(result)[0]].append(result)
    lines: list[str] = []
    diagnostics: list[Diagnostic] = []
    levels: Counter[str] = Counter()
    for path, results in by_file.items():
        lines.append("{" + _member_json("uri", path, _COMPACT))
        file_line = len(lines) - 1
        for result in results:
            line = _sarif_location(result)[1]
            shown: dict[str, Any] = {k: result[k] for k in ("ruleId", "level", "message") if result.get(k)}
            if line is not None:
                shown["startLine"] = line
            lines.append(_json(shown))
            level = str(result.get("level") or "warning").lower()
            levels[level] += 1
            rule = str(result.get("ruleId") or "result")
            diagnostics.append(Diagnostic(len(lines) - 1, file_line, rule, path, level))
    counts = ", ".join(f"{count} {level}" for level, count in levels.most_common())
    totals = f"{len(diagnostics)} results ({counts})" + (f" from {', '.join(tools)}" if tools else "")
    return lines, diagnostics, totals


def _sarif_location(result: dict[str, Any]) -> tuple[str, Any]:
    """A SARIF result's first location: its file's ``uri`` ("" when none) and ``startLine``."""
    locations = result.get("locations")
    first = locations[0] if isinstance(locations, list) and locations else {}
    physical = _member(first, "physicalLocation")
    uri = _member(physical, "artifactLocation").get("uri", "")
    return str(uri), _member(physical, "region").get("startLine")


def _member(value: Any, key: str) -> dict[str, Any]:
    """``value[key]`` when both are objects, else an empty one."""
    inner = value.get(key) if isinstance(value, dict) else None
    return inner if isinstance(inner, dict) else {}


def _eslint_json(value: list[Any]) -> tuple[list[str], list[Diagnostic], str]:
    """Per-file results (ESLint's ``--format json``, stylelint's) as display lines (verbatim
    JSON pieces: each file's ``{"filePath": …`` and its messages) and diagnostics."""
    lines: list[str] = []
    diagnostics: list[Diagnostic] = []
    counted = any("errorCount" in entry for entry in value)
    errors = warnings = 0
    for entry in value:
        errors += int(entry.get("errorCount") or 0)
        warnings += int(entry.get("warningCount") or 0)
        key, path, listed = file_results(entry) or ("", "", [])
        messages = [m for m in listed if isinstance(m, dict)]
        if not messages:
            continue
        lines.append("{" + _member_json(key, path, _COMPACT))
        file_line = len(lines) - 1
        for message in messages:
            lines.append(_json(message))
            rule = str(message.get("ruleId") or message.get("rule") or "parse")
            severity = message.get("severity")
            level = "error" if severity in (2, "error") else "warning"
            if not counted:
                errors, warnings = errors + (level == "error"), warnings + (level == "warning")
            diagnostics.append(Diagnostic(len(lines) - 1, file_line, rule, path, level))
    totals = f"{errors + warnings} problems ({errors} errors, {warnings} warnings) in {len(value)} files"
    return lines, diagnostics, totals
