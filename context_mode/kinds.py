"""Detecting what a tool result is (``ContentKind``), from its content first.

``detect_kind`` decides in this order; the first rule that holds wins:

0. A shape of a real MCP server (``context_mode.shapes``): an accessibility snapshot, a row set,
   a directory tree or path list (test ids too), a multi-file or single-file source read, a
   ``git blame`` (SOURCE); but files read together whose lines are mostly log lines are a LOG
   (``tail -n +1 a.log b.log``: its ``==> a.log <==`` headers). Then lint output and
   web-server logs (``diagnostics``), then a YAML document (``shapes.is_yaml``: TEXT, which
   ``summaries.text`` summarises as YAML; its comments are no headings, its dates no log), and
   likewise properties, XML and pydoc's text of a class (``shapes.is_pydoc``: its gutter of bars
   is no table's column separators; summarised as a manual).
1. JSON: the whole text parses as JSON (or is nested too deep for the parser but is bracketed);
   a JSON array of flat records is ROWS, a JSON directory tree is TREE. A Checkstyle XML report
   is LINT.
2. DIFF: unified-diff hunks (``@@ -a,b +c,d @@``) with file headers, or ``git log`` commit lines,
   make up most of the sampled lines; or the lines are a diff's without its headers
   (``shapes.is_hunk_body``: a JSON differ's), or hold a word diff's marks (``is_word_body``) or a
   tree differ's (``is_struck_body``).
3. CODE_SEARCH: ``path:line:`` lines (grep -n, rg -n, git grep; ``path-line-`` context lines
   count too) are at least 60% of the non-blank sampled lines, unless most of them are compiler
   diagnostics (``path:line:col: error:``), which make a LOG, or a name and a percentage
   (``go tool cover -func``'s coverage per function), which make a TABLE.
4. Weaker evidence is scored: log markers (levels, timestamps, tracebacks, compiler errors,
   pytest/unittest/go test/TAP lines, JSON-lines and logfmt level fields, make and pip lines),
   Markdown headings (not TAP's ``# Subtest:`` comments), column alignment or a
   steady CSV/TSV delimiter count. A CSV/TSV under a header line of column names is a TABLE
   (its rows may open with timestamps); else strong log evidence wins, then Markdown (but code commented with
   ``#``, a ``#!`` script or one whose other lines are mostly code or shell syntax, is SOURCE:
   its comments are no headings), then TABLE, then weaker log evidence.
5. The tool name (and argument names) break ties: a ``*log*`` tool makes a LOG, ``*grep*`` or
   ``*search*`` a CODE_SEARCH, ``*diff*`` a DIFF, when the content has some evidence of that
   kind or is otherwise plain TEXT.

Only a sample is read: the first and last ``SAMPLE_CHARS`` of the text, cut to whole lines
(JSON is tried on the whole text: a C parse is cheap and all-or-nothing). Every regex sees a
bounded prefix of a line, so detection is linear and fast on a 1 MB single line. Rules 2 and 3
read their flags with one regex pass over the sample (``_structural_tally``), so a diff or a
grep listing is settled without per-line classification.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from context_mode.classic_diff import as_unified
from context_mode.codelines import looks_like_code
from context_mode.diagnostics import (
    clean_lines,
    diagnostic_records,
    is_checkstyle,
    is_eslint_report,
    is_junit_lint,
    is_lint,
    is_sarif,
    is_server_log,
    json_line_records,
    without_test_number,
)
from context_mode.framing import unframe
from context_mode.graph_log import without_graph
from context_mode.line_groups import group_lines
from context_mode.shapes import (
    COMMIT_START,
    FILE_HEADER,
    NAME_ONLY,
    NUMSTAT,
    RAW_FILE,
    REQUEST_ROW,
    RULE_LINE,
    csv_header,
    csv_sections,
    detect_shape,
    is_commented_config,
    is_hunk_body,
    is_properties,
    is_pydoc,
    is_query_plan,
    is_struck_body,
    is_word_body,
    is_xml,
    is_yaml,
    json_shape,
    table_headers,
    unquoted,
)
from context_mode.side_by_side import gutter
from context_mode.types import ContentKind

_LOG_FILES_READ = 40  # lines of files read together looked at for log lines
SAMPLE_CHARS = 32 * 1024  # 64 KB in all: on 124 corpus and test files, the verdicts of 128 KB
_PREFIX = 300

_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_DIFF_LINE = re.compile(
    r"(?:diff --git |index [0-9a-f]+\.\.|--- |\+\+\+ |@@ |[ +\-]|Merge: |Author: |Date: "
    rf"|{COMMIT_START}[0-9a-f]{{7,}}"
    r"|AuthorDate: |Commit: |CommitDate: "  # ``--format=fuller``
    r"|new file mode|deleted file mode|similarity index|rename (?:from|to) |Binary files |\\ No newline| {4}"
    rf"|{RAW_FILE.pattern.replace('?P<status>', '?:')}"  # ``--raw``'s files
    rf"|{NUMSTAT.pattern}|{NAME_ONLY.pattern})"  # ``--numstat``'s and ``--name-only``'s
)
_COMMIT = re.compile(rf"{COMMIT_START}[0-9a-f]{{7,64}}\b")
_GREP = re.compile(r"(?P<path>[^\s:]{1,250}?)(?P<sep>[:=-])\d+(?P=sep)")
_HEADING_MATCH = re.compile(r"\d+[:-]")
_HEADING_PATH = re.compile(r"[^\s:]*[./][^\s:]*\Z")
# A compiler's diagnostic: ``a.c:37:14: error:``, erlc's ``tftp.erl:298:1: Warning:``.
_COMPILER = re.compile(r"[^\s:]+:\d+(?::\d+)?: (?:fatal error|error|warning|note|Error|Warning)\b")
# A location, a name and a percentage (``go tool cover -func``'s ``flags.go:27:  VisitAll  100.0%``):
# a table of figures per function, not code matched.
_FIGURE = re.compile(r"[^\s:]+:\d+:[^\S\n]+\S+[^\S\n]+\d+(?:\.\d+)?%[^\S\n]*")
# TAP (node --test, tape, prove, bats): results, plan, version and the "# Subtest:" / totals
# comments (indented under a ``describe``), node's ``duration_ms:`` lines, and a Terraform
# plan's "  # aws_instance.web will be created", which are no Markdown headings.
_TAP = re.compile(
    r"^\s*(?:not ok|ok) \d+\b|^TAP version \d+|^1\.\.\d+$"
    r"|^\s*# (?:Subtest: |(?:tests|pass|fail|skip|skipped|todo|cancelled|suites|duration_ms) \d)"
    r"|^\s+duration_ms: [\d.]+$"  # node --test's YAML block under each result
    r"|^\s*# \S+ (?:will be|must be|has been|has changed) "  # a Terraform plan's resource comments
)


def _words_at_a_boundary(words: str) -> str:
    """``\\b(?:WORDS)`` (``|``-separated) written so that each alternative opens with its first
    letter, the boundary checked behind it: the same matches, but a search can skip every
    position whose letter opens none of them."""
    return "(?:" + "|".join(rf"{word[0]}(?<!\w{word[0]}){word[1:]}" for word in words.split("|")) + ")"


# A log line's marks, in two regexes: those found anywhere in a line (searched) and those that
# open it (matched). One alternation of both, searched, tried every alternative at every
# position of every line: twice the time of these two. A search only asks whether a line has
# one of these marks. Each alternative opens with a literal or a class (a boundary ``\b`` or a
# ``\w`` before a mark is a lookbehind after its first character), and the lookahead in front
# names every character one can open with: a search tries the alternatives only where one can
# start, two and a half times as fast as with ``\b`` and ``\w`` first, with the same verdict on
# every sampled line of the corpora and the test data.
_LOG_MARK = re.compile(
    r"(?=[A-Z\d\[\]: \"_newl])(?:"
    + _words_at_a_boundary(
        "TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|SEVERE|CRITICAL|FINE|PASSED|FAILED|SKIPPED|XFAIL"
    )
    + r"\b"
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|(?<!\w)\d{1,2} [A-Z][a-z]{2} \d{4}\b|\d\d-[A-Z][a-z]{2}-\d{4}"
    r"|\[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d"  # CUPS's and Apache's ``[03/Dec/2026:13:09:16 +0000]``
    r"|(?<!\w)[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d\b"  # syslog's ``Dec 03 15:02:04`` (dovecot, sshd)
    # a program's own level word: unbound's ``unbound[29134:0] debug: …``, dovecot's ``auth: Debug: …``
    r"|\](?<=\w\]) (?:debug|info|notice): |:(?<=\w:) (?:Debug|Info|Notice|Warning|Error|Fatal|Panic): "
    r"|Traceback \(most recent call last\)|::\w+|npm (?:ERR!|WARN)|"
    + _words_at_a_boundary("error|warning")
    + r"(?:(?:\[\w+\])?: "
    r"| [A-Z]{2,4}\d{3,5}: )"  # MSBuild / dotnet: ``error CS0103: …``
    r"| \.\.\. (?:ok|FAIL|ERROR|skipped|expected failure|unexpected success)\b"  # unittest -v
    r"""|["_](?:level|lvl|severity|levelname)"\s*:|l(?<!\wl)evel=\w"""  # JSON-lines and logfmt records
    r")"
)
_LOG_START = re.compile(
    r"\[?\d\d:\d\d:\d\d\b|\s+at [\w$.]+\(|\s*File \"[^\"]+\", line \d+"
    r"|\[\d{10}(?:\.\d+)?\] |[0-9a-f]{8}\.[0-9a-f]{8} 0x[0-9a-f]{6,16} "  # unbound's epoch; slapd's hex time
    r"|=+ .* =+$|(?:ok|FAIL|---) "
    r"|make(?:\[\d+\])?: |\[ *\d+%\]|-- |(?:Collecting|Downloading|Installing|Successfully) "
    r"|\s*(?:Compiling|Finished|Running) |\w+(?:Error|Exception)\b"
    r"|(?:FAIL|ERROR): |Ran \d+ tests? in "
    rf"|{_TAP.pattern}"
    r"|\s*[✔✓] \S|\s{2,}\d{1,4}\) \S|\s*\d+ (?:passing|failing|pending) \("  # mocha
    r"|PASS \S|\s+● \S|(?:Tests|Test Suites|Snapshots):\s+\d"  # Jest
    r"|\[(?: RUN {6}| {7}OK |  FAILED  |  PASSED  |={10}|-{10})\]"  # GoogleTest
    r"|\s*\d+/\d+ Test\s+#\d+: |\s+Start\s+\d+: "  # CTest
    r"|\S+:\d+:\w+:(?:PASS|FAIL|IGNORE)\b|\d+ Tests \d+ Failures \d+ Ignored"  # Unity (C)
    r"|\*\*\* (?:\d+ failures? (?:is|are) detected|No errors detected)|\S+\(\d+\): (?:fatal )?error: in \""
    r"|(?:\S+\(\d+\): )?(?:Entering|Leaving) test (?:case|suite|module) \"|Test setup error: "  # Boost.Test
    r"|\s+Failure/Error: |\s+# \./\S+:\d+|rspec \./|\d+ examples?, \d+ failures?"  # RSpec
    r"|\* (?:checking|using|installing|building|preparing|this is package) "  # R CMD check / build
    r"|> Task :|BUILD (?:SUCCESSFUL|FAILED) in "  # Gradle (its "> Task" lines are no Markdown quotes)
    r"|\s+--> [^\s:]+:\d+:\d+|\s+= (?:help|note): |running \d+ tests?$|test result: "  # rustc, cargo test
    r"|\s+(?:Passed|Failed|Skipped) [\w.+`<>,-]+ \[\d+ m?s\]|(?:Passed|Failed)!\s+- "  # dotnet test
    r"|(?:ERROR|WARNING) in |asset \S+ [\d.]+ [KMG]?i?B|(?:orphan )?modules by path |webpack [\d.]+ compiled"
    r"|\S+\s+[\d.]+ [kKMG]?B │ gzip: |✓ built in |vite v[\d.]+ building "  # vite build's chunks
    r"|\s*(?:Determining projects to restore|Restored \S|Build (?:FAILED|succeeded)\."  # MSBuild
    r"|\d+ (?:Warning|Error)\(s\)|Time Elapsed \d)"
    r"|\s*# \S+ (?:will be|must be|has been|has changed) |Plan: \d+ to add|(?:Apply|Destroy) complete! "
    r"|\s+[+~-]/?[+~-]? (?:resource|data) \"|\s{4,}[+~-] [\w.-]+\s+= "  # a plan's resources and attributes
    r"|Error: |npm (?:http|timing|verb|info|notice|sill|warn|error) "  # Terraform; npm's log levels
    # apt / dpkg: a plan (``apt-get -s``) or an install
    r"|(?:Inst|Conf|Remv) \S+ [\[(]|Get:\d+ |Setting up \S+ \(|Unpacking \S+ |Preparing to unpack "
    r"|Processing triggers for "
    r"|E {2,}\S|\d+ (?:failed|passed|errors?)(?:, \d+ \w+)* in [\d.]+s\b"  # pytest -q: its E lines, totals
    r"|==\d+== "  # Valgrind's tools prefix each line with the process id
    r"|\d+\. \[[A-Z]{3,10}\] \S+ => \["  # a browser's requests (Playwright MCP's browser_network_requests)
    rf"|{REQUEST_ROW.pattern}"  # …and Chrome DevTools MCP's list_network_requests
    r"|\s*\d+\) (?:Failure|Error):|\d+ runs, \d+ assertions, |[\w:]+#\w+ = [\d.]+ s = [.FES]$"  # minitest
    # R's testthat: its progress per file (``✖ | 2      18 | collapse [0.5s]``, a spinner's frame),
    # a failure's head and the totals
    r"|[✔✖⠀-⣿] \| [\d ]*\| \S|(?:── )?(?:Failure|Error|Skip|Warning) \('[^'\n]+:\d+(?::\d+)?'\): "
    r"|\[ FAIL \d+ \| WARN \d+ \| SKIP \d+ \| PASS \d+ \]",
)
_ATX = re.compile(r"#{1,6} \S")  # at the margin: an indented "# Loaded module" is a comment in a dump
_SETEXT = re.compile(r" {0,3}(?:={3,}|-{3,})\s*\Z")
_FENCE = re.compile(r" {0,3}(?:```|~~~)")
_SUBHEADING = re.compile(r"#{2,6} \S")
# Of the lines that are neither blank nor ``#`` lines, the share that look like code
# (``codelines``) in a script whose ``#`` comments read as headings; a Markdown page's text
# outside fences has few (at most 0.32 of a page of HTML-like markup among the corpus' pages).
COMMENTED_CODE_SHARE = 0.4
_COMMENTED_CODE_LINES = 10
# A shell script's own syntax, which ``codelines`` does not count: ``fi``, ``done``, ``esac``,
# ``;;``, ``if [ -n "$1" ]; then``, ``case "$1" in``, ``local x``, ``export PATH``, ``-f)``
_SHELL_LINE = re.compile(
    r"\s*(?:(?:fi|done|esac|then|do|else|;;)\s*\Z|(?:if|elif|while|until) (?:\[|test )|case \S.* in\s*\Z"
    r"|(?:local|export|readonly|declare|unset|shift|set) [\w-]|[^\s()]+\)\s*\Z)"
)
_MARKDOWN_INLINE = re.compile(
    r"\[[^\]\n]+\]\([^)\s]+\)|^\s*[-*+] \S|^\s*\d{1,3}\. \S|^\s*>(?: |$)|`[^`\n]+`|\*\*[^*\n]+\*\*"
)

_HINTS: tuple[tuple[str, ContentKind], ...] = (
    ("diff", ContentKind.DIFF),
    ("grep", ContentKind.CODE_SEARCH),
    ("search_code", ContentKind.CODE_SEARCH),
    ("search", ContentKind.CODE_SEARCH),
    ("log", ContentKind.LOG),
)
_SEARCH_ARGUMENTS = frozenset({"pattern", "regex", "regexp"})
_DIAGNOSED_SHARE = 0.03  # lines with a level word that, with a compiler's diagnostic, make a log
_CSV_HEAD = 3  # lines of which one is a CSV header, for the text to be read as CSV tables
_CSV_FILE_HEAD = 4  # the same, for files read together (a path line or two above the header)
_CSV_LINES = 20_000  # lines read for CSV tables one after another
# A command line that builds, installs or tests: what it prints is a log (a build's, a run's).
_BUILD_COMMAND = re.compile(
    r"(?:\A|[;&|(]\s*|\s)(?:make|cmake|ninja|meson|cargo|mvn|gradle|tsc|gcc|g\+\+|clang|javac|erlc|rustc|tox|nox|pytest"
    r"|go (?:build|test|vet)|(?:npm|pnpm|yarn) (?:install|ci|run|test|build)|pip3? install"
    r"|python3?(?:\.\d+)? -m (?:build|pip install|pytest))\b"
)

# What one sampled line shows, as bits; found once per key (see ``summaries.line_groups``).
_BLANK, _DIFF, _HUNK_LINE, _COMMIT_LINE, _GREP_LINE, _HEADING_PATH_LINE, _HEADING_MATCH_LINE = (
    1 << n for n in range(7)
)
_COMPILER_LINE, _LOG_LINE, _FENCE_LINE, _ATX_LINE, _SETEXT_LINE, _INLINE_LINE = (1 << n for n in range(7, 13))
_ALIGNED_LINE = 1 << 13  # words two spaces apart or more: a table's header or row, no heading
_FIGURE_LINE = 1 << 14  # a location, a name and a percentage (``_FIGURE``)
_ALIGNED = re.compile(r"\S {2,}\S")
# The flags rules 2 and 3 (diff, code search) look at.
STRUCTURAL = (
    _BLANK
    | _DIFF
    | _HUNK_LINE
    | _COMMIT_LINE
    | _GREP_LINE
    | _HEADING_PATH_LINE
    | _HEADING_MATCH_LINE
    | _COMPILER_LINE
    | _FIGURE_LINE
)


def detect_kind(text: str, *, tool_name: str = "", arguments: Mapping[str, Any] | None = None) -> ContentKind:
    """The kind of ``text``, judged from its content, with the tool name as a tie-breaker."""
    parsed = _parse_json(text)
    if parsed is None:  # a JSON document inside a tool's framing lines (fetch's, Playwright's)
        framed = unframe(text)
        parsed = _parse_json(framed.body) if framed is not None else None
    if parsed is not None:
        return _json_kind(parsed[0])
    if is_checkstyle(text) or is_junit_lint(text):
        return ContentKind.LINT  # a Checkstyle XML report (ESLint's, ShellCheck's, ktlint's …), a JUnit one
    sampled = _sample(text)
    if text.lstrip()[:1] == "{" and json_line_records(sampled) is not None:
        return ContentKind.LINT  # JSON Lines of diagnostics (mypy ``-O json``)
    # CI colours and timestamp prefixes say nothing of the kind, nor ctest's test numbers.
    sample = list(without_test_number(clean_lines(sampled)))
    sample = without_graph(sample) or sample  # ``git log --graph``: read without its graph
    if gutter(sample) is not None:
        return ContentKind.DIFF  # ``diff -y``, ``sdiff``: two files side by side, a gutter between
    shape = detect_shape(text, sample, tool_name, arguments)
    if shape is ContentKind.SOURCE and _log_files(sample):
        return ContentKind.LOG  # log files read together (``tail -n +1 a.log b.log``' ``==> a.log <==``)
    if shape is ContentKind.SOURCE and _csv_tables(text, sample, reach=_CSV_FILE_HEAD):
        return ContentKind.TABLE  # CSV files read together (``head a.csv b.csv``)
    if shape is not None:
        return shape
    if is_lint(sample):
        return ContentKind.LINT
    if is_server_log(sample):  # their aligned fields would otherwise read as a table
        return ContentKind.LOG
    if is_yaml(sample):  # its comments are no headings, its timestamps no log: summarised as YAML
        return ContentKind.TEXT
    if is_properties(sample):  # ``redis-cli INFO``'s ``# Server`` is no heading either
        return ContentKind.TEXT
    if is_xml(sample):  # its indented elements are no table's columns: summarised as XML
        return ContentKind.TEXT
    if is_pydoc(sample):  # a class's gutter of bars is no table's: summarised as a manual
        return ContentKind.TEXT
    if is_query_plan(sample):  # ``EXPLAIN``'s nodes and their details: summarised as a plan
        return ContentKind.TEXT
    if is_commented_config(sample):  # ``postgresql.conf``: its ``#`` lines are no Markdown headings
        return ContentKind.TEXT
    lines = [line[:_PREFIX] for line in sample]
    classic = as_unified(lines)  # plain ``diff``'s normal or context format, read as unified
    structural = _structural_kind(lines if classic is None else classic)
    if structural is not None:
        return structural
    if _one_commit(lines):
        return ContentKind.DIFF  # ``git show --stat``: one commit, its message and its files
    if is_hunk_body(lines) or is_word_body(lines) or is_struck_body(lines):
        return ContentKind.DIFF  # a diff's lines without headers (json-diff, jsondiffpatch, wdiff, graphtage)
    groups = group_lines(lines, _PREFIX)
    # Every regex below names no particular digit: one line per key decides for its whole group.
    flags_of = {key: _flags(lines[index]) for key, index in groups.samples.items()}
    tally: Counter[int] = Counter()
    for key, size in groups.sizes.items():
        tally[flags_of[key]] += size
    structure = _structure(tally)
    if structure is None:
        return ContentKind.TEXT
    if structure.kind is not None:
        return structure.kind
    hint = _hint(tool_name, arguments or {})
    log_share = _count(tally, _LOG_LINE) / structure.total
    markdown = _markdown_score([flags_of[key] for key in groups.keys])
    table = _is_table([line for line in lines if line.strip()])
    content = ContentKind.TEXT
    if _headed_csv([line for line in lines if line.strip()]) or _csv_tables(text, lines):
        content = ContentKind.TABLE  # its rows may open with a timestamp: still no log's lines
    elif log_share >= 0.5:
        content = ContentKind.LOG
    elif markdown >= 2 and log_share < 0.3:
        content = ContentKind.SOURCE if _commented_code(lines) else ContentKind.MARKDOWN
    elif table and log_share < 0.3:
        content = ContentKind.TABLE
    elif log_share >= 0.15 or structure.compiler > 0 and log_share >= _DIAGNOSED_SHARE:
        content = ContentKind.LOG  # a compiler's ``a.c:37:14: error:`` among level words: a build

    if hint is None or hint == content:
        return content
    evidence = {
        ContentKind.LOG: log_share >= 0.05 or structure.compiler > 0,
        ContentKind.CODE_SEARCH: structure.grep_share >= 0.3,
        ContentKind.DIFF: structure.hunks > 0 or structure.commits > 0,
    }
    if evidence.get(hint, False) or content == ContentKind.TEXT:
        return hint
    return content


# Per line (each ending in a newline), which of the structural tests hold: blank, a diff line, a
# hunk, a commit, a grep-like start (its path, checked by ``_grep_path``), an rg heading path, an
# rg heading match, a compiler diagnostic. The same regexes as ``_flags``, as lookaheads.
_STRUCTURE = re.compile(
    r"(?:(?=([^\S\n]*\n))|)"
    rf"(?:(?=({_DIFF_LINE.pattern}))|)"
    rf"(?:(?=({_HUNK.pattern}))|)"
    rf"(?:(?=({_COMMIT.pattern}))|)"
    r"(?:(?=(?P<path>[^\s:]{1,250}?)(?P<sep>[:=-])\d+(?P=sep))|)"
    r"(?:(?=([^\s:]*[./][^\s:]*\n))|)"
    rf"(?:(?=({_HEADING_MATCH.pattern}))|)"
    rf"(?:(?=({_COMPILER.pattern}))|)"
    rf"(?:(?=({_FIGURE.pattern}\n))|)"
    r"[^\n]*\n"
)
_STRUCTURE_BITS = (
    _BLANK,
    _DIFF,
    _HUNK_LINE,
    _COMMIT_LINE,
    0,
    0,
    _HEADING_PATH_LINE,
    _HEADING_MATCH_LINE,
    _COMPILER_LINE,
    _FIGURE_LINE,
)


class _Structure(NamedTuple):
    """What the structural flags say: rules 2 and 3's verdict (``kind``) and the counts the
    later rules use."""

    kind: ContentKind | None
    total: int
    hunks: int
    commits: int
    grep_share: float
    compiler: int


def _log_files(sample: Sequence[str]) -> bool:
    """Whether ``sample`` is files read together (their ``==> a.log <==`` headers) whose first
    ``_LOG_FILES_READ`` lines (but headers and blanks) are mostly log lines: a timestamp or a
    level first (a source read pays for this test: it reads a few lines, as ``_flags`` does)."""
    written: list[str] = []
    headers = 0  # a ``git blame`` is a SOURCE too, with no header
    for line in sample:
        if len(written) >= _LOG_FILES_READ:
            break
        if FILE_HEADER.match(line.rstrip()):
            headers += 1
        elif line.strip():
            written.append(line[:_PREFIX])
    logged = sum(1 for line in written if _LOG_START.match(line) or _LOG_MARK.search(line))
    return headers > 0 and logged * 2 > len(written)


def _count(tally: Mapping[int, int], bits: int, *, all_of: int = 0, none_of: int = 0) -> int:
    """Non-blank lines with any of ``bits``, all of ``all_of`` and none of ``none_of``."""
    return sum(
        size
        for flags, size in tally.items()
        if flags & bits and flags & all_of == all_of and not flags & (_BLANK | none_of)
    )


def _structure(tally: Mapping[int, int]) -> _Structure | None:
    """Rules 2 and 3 over a tally of line flags; None when every line is blank."""
    total = sum(size for flags, size in tally.items() if not flags & _BLANK)
    if not total:
        return None
    diff_share = _count(tally, _DIFF) / total
    hunks = _count(tally, _HUNK_LINE)
    commits = _count(tally, _COMMIT_LINE)
    grep = _GREP_LINE
    headings = _count(tally, _HEADING_PATH_LINE)
    # A line that reads as a path too (a CSV row led by a date) is no match line.
    matches = _count(tally, _HEADING_MATCH_LINE, none_of=_HEADING_PATH_LINE)
    if headings and not _count(tally, _GREP_LINE) and matches >= headings:
        # rg's heading mode: a path line, then one or more ``12:text`` lines. Lines that only look
        # like paths (CSV rows of decimals: no blank, no colon, a dot) have no match lines after them.
        grep = _HEADING_MATCH_LINE | _HEADING_PATH_LINE
    grep_lines = _count(tally, grep)
    grep_share = grep_lines / total
    compiler = _count(tally, grep, all_of=_COMPILER_LINE)
    kind = None
    if (hunks and diff_share >= 0.8) or (commits >= 2 and diff_share >= 0.8):
        kind = ContentKind.DIFF
    elif grep_share >= 0.6 and compiler * 2 < grep_lines:
        figures = _count(tally, grep, all_of=_FIGURE_LINE)
        kind = ContentKind.TABLE if figures * 2 >= grep_lines else ContentKind.CODE_SEARCH
    return _Structure(kind, total, hunks, commits, grep_share, compiler)


def _structural_kind(lines: Sequence[str]) -> ContentKind | None:
    """DIFF or CODE_SEARCH when the structural flags alone decide (``detect_kind``'s rules 2
    and 3), else None."""
    tally = _structural_tally(lines)
    structure = None if tally is None else _structure(tally)
    return None if structure is None else structure.kind


def _one_commit(lines: Sequence[str]) -> bool:
    """Whether ``lines`` are one commit without a patch (``git show --stat``, ``--name-status``):
    its ``commit <hash>`` line first, and diff lines (headers, the indented message, the files)
    eight in ten of the others, as two commits' must be."""
    filled = [line for line in lines if line.strip()]
    if not filled or _COMMIT.match(filled[0]) is None:
        return False
    return sum(1 for line in filled if _DIFF_LINE.match(line)) >= 0.8 * len(filled)


def _structural_tally(lines: Sequence[str]) -> Counter[int] | None:
    """How many lines have each combination of the ``STRUCTURAL`` flags (``_flags(line) &
    STRUCTURAL``), from one regex pass over the lines, so a diff or a grep listing costs no
    per-line classification; None if a line holds a newline."""
    rows = _STRUCTURE.findall("\n".join(lines) + "\n") if lines else []
    if len(rows) != len(lines):
        return None
    tally: Counter[int] = Counter()
    for row, size in Counter(rows).items():
        flags = 0
        for found, bit in zip(row, _STRUCTURE_BITS, strict=True):
            if found:
                flags |= bit
        if _grep_path(row[4]):
            flags |= _GREP_LINE
        tally[flags] += size
    return tally


def _flags(line: str) -> int:
    """What one (sampled, cut) line shows, as a set of the bits above."""
    flags = 0
    if not line.strip():
        flags |= _BLANK
    if _DIFF_LINE.match(line):
        flags |= _DIFF
    if _HUNK.match(line):
        flags |= _HUNK_LINE
    if _COMMIT.match(line):
        flags |= _COMMIT_LINE
    if _looks_like_grep(line):
        flags |= _GREP_LINE
    if _HEADING_PATH.match(line):
        flags |= _HEADING_PATH_LINE
    if _HEADING_MATCH.match(line):
        flags |= _HEADING_MATCH_LINE
    if _COMPILER.match(line):
        flags |= _COMPILER_LINE
    if _FIGURE.fullmatch(line):
        flags |= _FIGURE_LINE
    if _LOG_START.match(line) or _LOG_MARK.search(line):
        flags |= _LOG_LINE
    if _FENCE.match(line):
        flags |= _FENCE_LINE
    if _ATX.match(line) and not _TAP.match(line):
        flags |= _ATX_LINE
    if _SETEXT.match(line):
        flags |= _SETEXT_LINE
    if _MARKDOWN_INLINE.search(line):
        flags |= _INLINE_LINE
    if _ALIGNED.search(line.strip()):
        flags |= _ALIGNED_LINE
    return flags


_TOO_DEEP = object()  # bracketed and nested deeper than the parser goes: still JSON to us


def _parse_json(text: str) -> tuple[Any] | None:
    """The parsed JSON document in a 1-tuple (``_TOO_DEEP`` for one nested past the parser's
    limit), or None when ``text`` is not one."""
    stripped = text.strip().lstrip("\ufeff")
    if not stripped or stripped[0] not in "[{" or stripped[-1] not in "]}":
        return None
    try:
        return (json.loads(stripped),)
    except RecursionError:
        return (_TOO_DEEP,)
    except ValueError:
        return None


def _json_kind(value: Any) -> ContentKind:
    """JSON, or the row set or directory tree it holds (``shapes.json_shape``)."""
    if value is _TOO_DEEP:
        return ContentKind.JSON
    if is_eslint_report(value) or diagnostic_records(value) is not None or is_sarif(value):
        return ContentKind.LINT
    return json_shape(value) or ContentKind.JSON


def _sample(text: str) -> list[str]:
    """Whole lines from the first and last ``SAMPLE_CHARS`` of ``text``."""
    if len(text) <= 2 * SAMPLE_CHARS:
        return text.splitlines()
    head = text[:SAMPLE_CHARS].splitlines()[:-1] or [text[:SAMPLE_CHARS]]
    tail = text[-SAMPLE_CHARS:].splitlines()[1:] or [text[-SAMPLE_CHARS:]]
    return head + tail


def _looks_like_grep(line: str) -> bool:
    """A ``path:12:`` (or ``path-12-``) line whose path looks like a file path, not a date or time."""
    match = _GREP.match(line)
    return match is not None and _grep_path(match.group("path"))


def _grep_path(path: str) -> bool:
    """Whether the path of a grep-like line start looks like a file path ("" for none: no)."""
    return any(ch in path for ch in "./\\") and any(ch.isalpha() or ch == "_" for ch in path)


def _commented_code(lines: Sequence[str]) -> bool:
    """Whether text that reads as Markdown by its ``# `` lines is code commented with ``#`` (a
    shell script, a Python module, a firewall ruleset): a script opening with its ``#!`` line, or
    two ``#`` lines or more, no heading below the first level, and ``COMMENTED_CODE_SHARE`` of
    the other lines (neither blank nor ``#`` lines) code (``codelines``) or shell syntax."""
    if lines and lines[0].startswith("#!/"):
        return True
    other = 0
    code = 0
    comments = 0
    for line in lines:
        if line.startswith("#"):
            if _SUBHEADING.match(line):
                return False
            comments += 1
            continue
        if line.strip():
            other += 1
            code += looks_like_code(line) or _SHELL_LINE.match(line) is not None
    return comments >= 2 and other >= _COMMENTED_CODE_LINES and code >= other * COMMENTED_CODE_SHARE


def _markdown_score(line_flags: Sequence[int]) -> int:
    """Headings outside code fences, plus 1 if inline Markdown (links, lists, code) is common;
    2 when there is no heading but a fifth of the lines are inline Markdown."""
    headings = 0
    inline = 0
    fenced = False
    previous = _BLANK
    for flags in line_flags:
        if flags & _FENCE_LINE:
            fenced = not fenced
            continue
        if fenced:
            continue
        # A rule under a table's header or row (``File   blank   comment   code``) underlines no heading.
        setext = flags & _SETEXT_LINE and not previous & (_BLANK | _SETEXT_LINE | _ALIGNED_LINE)
        if flags & _ATX_LINE or setext:
            headings += 1
        elif flags & _INLINE_LINE:
            inline += 1
        previous = flags
    if not headings and inline * 5 >= len(line_flags):
        return 2  # a page without headings (a FAQ of linked questions) is still Markdown
    return headings + (1 if headings and inline * 10 >= len(line_flags) else 0)


def _is_table(lines: Sequence[str]) -> bool:
    """Whether most lines share a delimiter count, or column boundaries line up, or most lines are
    the rows of several tables with their headers and rules (``shapes.table_headers``)."""
    rows = [line for line in lines[:400] if not RULE_LINE.match(line)]
    if len(rows) < 3:
        return False
    if len(table_headers(lines)) >= 2 and sum("|" in row for row in rows) * 2 >= len(rows):
        return True  # several tables one after another (psql's ``\d+`` of several tables)
    cells = unquoted(rows)
    for delimiter in ("\t", ",", "|", ";", "│", "║"):
        counts = Counter(line.count(delimiter) for line in cells)
        common, times = counts.most_common(1)[0]
        if common >= 1 and times >= 0.9 * len(rows) and (delimiter != "\t" or not rows[0].startswith("\t")):
            return True
    return _aligned(rows)


def _csv_tables(text: str, sample: Sequence[str], reach: int = 0) -> bool:
    """Whether ``text`` is CSV tables one after another (``shapes.csv_sections``), each under its
    title (``xlsx2csv -a``'s ``-------- 2 - mtcars``); read when one of its first lines is a header
    (of its first ``reach`` lines: a file reader's ``==> a.csv <==`` first)."""
    head = [line for line in sample if line.strip()][: reach or _CSV_HEAD]
    if not any(csv_header(line, 2) for line in head):
        return False
    return bool(csv_sections(text.splitlines()[:_CSV_LINES]))


def _headed_csv(lines: Sequence[str]) -> bool:
    """Whether ``lines`` are a CSV (or TSV) with a header: a first line of three or more column
    names (``unpacked_at,package,version,installed_at``), and nine in ten lines as many fields."""
    if len(lines) < 3:
        return False
    header = csv_header(lines[0])
    if header is None:
        return False
    delimiter, count = header
    rows = unquoted(lines[1:400])
    return sum(1 for row in rows if row.count(delimiter) == count - 1) >= 0.9 * len(rows)


def _aligned(rows: Sequence[str]) -> bool:
    """Whether 90% of the rows share two or more blank vertical lanes after some text.

    Only positions before the shorter rows' end are looked at (the 20th percentile of lengths),
    so the ragged right edge of prose is not mistaken for a lane.
    """
    width = min(sorted(len(row) for row in rows)[len(rows) // 5], _PREFIX)
    if width < 5:
        return False
    needed = 0.9 * len(rows)
    # Column by column (past a short row's end is blank too, hence the padding).
    blanks = [column.count(" ") for column in zip(*(row[:width].ljust(width) for row in rows), strict=True)]
    lanes = 0
    inside = False
    seen_text = False
    for position in range(width):
        blank = blanks[position] >= needed
        if blank and seen_text and not inside:
            lanes += 1
        inside = blank
        seen_text = seen_text or not blank
    return lanes >= 2


def _hint(tool_name: str, arguments: Mapping[str, Any]) -> ContentKind | None:
    name = tool_name.lower()
    for fragment, kind in _HINTS:
        if fragment in name:
            return kind
    if _SEARCH_ARGUMENTS & {str(key).lower() for key in arguments}:
        return ContentKind.CODE_SEARCH
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, str) and _BUILD_COMMAND.search(command[:_PREFIX]):
        return ContentKind.LOG
    return None
