"""Recognising the shapes real MCP servers return, from content alone, before the generic kinds.

``detect_shape(text, sample, tool_name)`` returns a specific ``ContentKind`` or ``None`` (then the
generic detection of ``context_mode.kinds`` decides). It looks only at ``sample`` (whole lines from
the head and tail of the text) plus a bounded prefix, so it is linear and cheap:

- SNAPSHOT: an accessibility tree: at least a third of the sampled non-blank lines are YAML-like
  ``- role "name" [ref=e12]`` items or their ``- /url:`` props, or refs under a ``### Snapshot`` /
  ```` ```yaml ```` header (Playwright MCP's ``browser_snapshot``); or Chrome DevTools MCP's
  ``uid=1_4 link "logo"`` nodes (``devtools_snapshot``).
- ROWS: a row set: a Python-repr list of dicts (``[{'id': 1, …}, …]``, what SQLite MCP servers
  print), of tuples (``[('AUS', 1970, …), …]``, DuckDB's) or of keyword records (asyncpg's
  ``[<Record id=1 name='x'>, …]``, a named tuple's ``[Row(id=1, …), …]``), flat JSON objects one
  after another, ``N. row`` blocks of ``column: value`` lines, or (``json_shape``) a JSON array of
  flat records.
- TREE: a JSON directory tree (``{"name", "type", "children"}`` nodes, ``tree -J``'s ``contents``),
  a list of paths (most sampled lines are one path each, sharing directories), a ``git status``
  (``is_git_status``: a branch line near the top, then ``Changes to be committed:`` and the like),
  or a drawn tree (``├── name`` lines, as ``tree``, ``npm ls``, ``cargo tree`` and ``pipdeptree``
  print them).
- TABLE: a query result drawn as a grid (psql's aligned output, MySQL's and sqlite3's boxed
  tables, a Markdown table alone): a rule line with column marks (``---+---``, ``+----+``,
  ``|---|``) among the first lines, and nine in ten other lines holding the same number of ``|``
  (a ``(400 rows)`` footer aside). Its timestamps or level words must not make a log of it. So is
  a long listing (``ls -l``: nine in ten lines open with a mode such as ``drwxr-xr-x``), whose
  ``--time-style=long-iso`` or ``--full-time`` dates read as log timestamps. So is the filesystem
  MCP server's ``list_directory_with_sizes`` (``[FILE] name   12.5 KB`` lines, then its totals),
  whose long names push the sizes out of line.
- DIFF: a one-line commit list (``git log --oneline``, with ``--graph`` or ``--decorate``): nine
  in ten sampled lines are an abbreviated hash and a subject; or a commit list as the git MCP
  server's ``git_log`` writes it (``Commit: <hash>``, ``Author:``, ``Date:``, ``Message: …``), whose
  unindented messages would otherwise read as a log of their words.
- MARKDOWN: an HTML document (it opens with ``<!DOCTYPE html`` or ``<html``, comments aside):
  a page, summarised by its title and headings (``summaries.html_page``), not a Directive of text.
- LOG: a test runner's output by its verdict lines (``go test``'s ``--- FAIL: TestX (0.01s)``
  and ``ok``/``FAIL`` package lines, mocha's ``276 passing (512ms)``, Jest's ``FAIL
  __tests__/cart.test.js`` and ``  ● Cart › total``), whatever its failures
  print (a struct diff, a coverage table); a JUnit XML test report (Maven Surefire, Gradle,
  ``pytest --junitxml``, jest-junit): a ``<testsuite`` element with its ``tests=`` count and
  ``<testcase`` elements; read as a test log, its failures and totals come first (its indented
  elements would otherwise read as a table).
- CODE_SEARCH: Desktop Commander's content search, ``📄 /src/a.py:662 - text`` lines
  (``is_found_in_files``; ``as_grep`` rewrites them as ``grep -n``'s); TREE: its file search,
  ``📁 /src/a.py`` lines (``found_files``); LOG: Chrome DevTools MCP's requests, ``reqid=5 GET
  http://host/a.png [404]`` lines (an access log's, whose ``reqid=`` made them properties).
- SOURCE: a multi-file read: file header lines (``/path/file.py:``, ``==> path <==``, ``---
  /path/file.py contents: ---``; ``header_path`` is the path) each followed
  by code, or a single-file read tool (``read_file``, ``read_text_file``, ``get_file_contents``…)
  whose ``path`` names a source file by its extension.

``is_hunk_body(lines)``, ``is_word_body(lines)`` and ``is_struck_body(lines)`` serve
``context_mode.kinds`` and the diff summary alike: a diff's lines without its headers, as JSON
differs print them (``json-diff``, ``jsondiffpatch``), a word diff's marks (``wdiff``,
``dwdiff``), and a tree differ's (``graphtage``).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any

from context_mode.devtools_snapshot import is_devtools_snapshot
from context_mode.diagnostics import GROUP_TRACEBACK, GROUPED_ROW
from context_mode.framing import document_start
from context_mode.levels import LEVELS
from context_mode.toolnames import tool_words
from context_mode.types import ContentKind

_SNAPSHOT_ITEM = re.compile(r'\s*- (?:[a-z]+(?: "[^"\n]*")?(?: \[[^\]\n]*\])*:?(?: .*)?|/url: .*|text: .*)\Z')
_SNAPSHOT_HEADER = re.compile(r"^### (?:Page state|Snapshot)\s*$|^```yaml\s*$", re.M)
_REF = re.compile(r"\[ref=[a-z][a-z0-9]*\d\]|\[ref=\d+\]")
# (a first cell may be a constructor's call: ``datetime.date(2024, 1, 5)``, ``Decimal('1.50')``)
_REPR_ROWS = re.compile(
    r"\s*\[(?:\{'[^'\n]{1,80}': |\((?:'|\"|-?\d|None\b|True\b|False\b|[A-Za-z_][\w.]{0,60}\([\d'\"-]))"
)
# A list of keyword records: asyncpg's ``[<Record id=1 name='x'>, …]``, a named tuple's
# ``[Row(id=1, name='x'), …]`` (psycopg's ``namedtuple_row``, PySpark)
KEYWORD_ROWS = re.compile(r"\s*\[(<[A-Za-z_][\w.]{0,60} |[A-Za-z_][\w.]{0,60}\()[A-Za-z_]\w{0,60}=")
# A CSV header's column name (``installed_at``, ``Package Name``, ``size (bytes)``); a CSV field in
# double quotes (``"~(name,text)"``: its delimiters are no column marks); the rows a CSV table in a
# run of them has at least.
_COLUMN_NAME = re.compile(r"[A-Za-z_][\w .()/%#-]{0,60}\Z")
_QUOTED_FIELD = re.compile(r'"(?:[^"]|"")*"')
_CSV_MIN_ROWS = 2
# Flat JSON objects one after another, not in an array (a row per object)
_OBJECT_STREAM = re.compile(r"\}[ \t]*\r?\n\s*\{\s*\"")
# A member that makes a stream of records a log's events (pino's ``level`` and ``time``, PostgreSQL
# jsonlog's ``timestamp``, ``go test -json``'s ``Time``), keys lowercased without ``_``.
_EVENT_KEYS = frozenset("time timestamp ts asctime level levelname lvl loglevel severity".split())
# A Markdown heading's or defined term's link to itself, as documentation generators write it
# (Sphinx's ``[¶](#id "Permalink to this heading")``, ``[#](#id)``): it names nothing, and its words
# are in every heading.
HEADING_ANCHOR = re.compile(r"\s*\[(?:¶|#|🔗|)\]\(#[^)\s]*(?:\s+\"[^\"]*\")?\)")
# A record's opening line: mcp-alchemy's ``1. row``; psql's expanded display ``-[ RECORD 1 ]----``
# (``-[ RECORD 1 ]---+----`` with a border).
ROW_BLOCK = re.compile(r"\d+\. row\Z|-\[ RECORD \d+ \][-+]*\Z")
# The same opening anywhere on a line, after indentation or MySQL ``\G``'s stars (``*** 1. row ***``)
ROW_MARK = re.compile(r"^\s*+\**+\s*+(?:\d+\. row\b|-\[ RECORD \d+ \])")
# ``ls -R``'s directory line (``./lib/vquic:``), heading that directory's entries
_LISTING_DIRECTORY = re.compile(r"[^\s:][^\s]*:\s*\Z")
_FIELD = re.compile(r"[^\s:][^:\n]{0,80}: |[^\s|][^|\n]{0,80}? *\|(?: |\Z)")
# A multi-file read's line naming the file that follows (``src/app.py:``, ``==> a.log <==``, Desktop
# Commander's ``--- /src/app.py contents: ---``): it starts the line and is a path with no spaces
# (``with ctx.scope:`` is code, not a header); npm's scoped packages put an ``@`` in it
# (``node_modules/@tanstack/query-core/src/query.ts:``).
_FILE_HEADER = r"(?:/|[A-Za-z]:\\|\./)?[\w.\-/\\@+~]+\.[A-Za-z0-9]{1,8}:|==> .+ <==|--- \S.* contents: ---"
FILE_HEADER = re.compile(rf"(?:{_FILE_HEADER})\Z")
_HEADER_FRAME = re.compile(r"\A(?:==> |--- )|(?: <==| contents: ---|:)\Z")


# Desktop Commander's content search (``start_search``, ``get_more_search_results``): each line found
# (or around one) as ``📄 /src/a.py:662 - text``, under a few lines about the search session.
_FOUND_IN_FILE = re.compile(r"^📄 ([^\n]+?):(\d+) - ", re.MULTILINE)


def is_found_in_files(lines: Sequence[str]) -> bool:
    """Whether ``lines`` (a sample; blank ones are not counted) are mostly Desktop Commander's
    found lines."""
    said = [line for line in lines if line.strip()]
    found = sum(1 for line in said if line.startswith("📄 ") and _FOUND_IN_FILE.match(line))
    return found >= 3 and found * 2 >= len(said)


def found_files(lines: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """Desktop Commander's file search (``📁 /src/a.py`` lines under its session's lines): the paths
    found and its own other lines, or None when ``lines`` are not mostly such."""
    said = [line for line in lines if line.strip()]
    paths = [line[2:].strip() for line in said if line.startswith("📁 ")]
    if len(paths) < 3 or len(paths) * 2 < len(said):
        return None
    return paths, [line for line in said if not line.startswith("📁 ")]


def as_grep(text: str, terms: Sequence[str] = ()) -> str:
    """``text`` with Desktop Commander's found lines as ``grep -n`` prints them, line for line: a
    line holding one of ``terms`` (lower-cased) as a match (``/src/a.py:662:text``), the lines
    around it as context (``/src/a.py-661-text``); every line a match when none holds a term."""

    def held(found: re.Match[str]) -> bool:
        end = text.find("\n", found.end())
        content = text[found.end() : end if end >= 0 else len(text)].lower()
        return any(term in content for term in terms)

    if not terms or not any(held(found) for found in _FOUND_IN_FILE.finditer(text)):
        return _FOUND_IN_FILE.sub(r"\1:\2:", text)
    return _FOUND_IN_FILE.sub(
        lambda found: f"{found[1]}:{found[2]}:" if held(found) else f"{found[1]}-{found[2]}-", text
    )


def header_path(line: str) -> str:
    """The path a ``FILE_HEADER`` line names (``src/app.py`` of ``--- src/app.py contents: ---``)."""
    return _HEADER_FRAME.sub("", line.strip())


# …as a line of the whole text (a read's first file may be longer than the sample detection reads)
FILE_HEADER_LINE = re.compile(rf"^(?:{_FILE_HEADER})[ \t]*$", re.MULTILINE)
# A table's rule line (``-----``, ``|---|:--:|``, ``+====+``): only rule characters, with a run of
# three dashes or equals signs. Possessive, so a long line that is almost one costs linear time.
# A table's rule line: ``----``, ``+----+----+``, ``|---|:--|``, or drawn (``├─────┼─────┤``).
# Rich's heavy head (``┏━━┳━━┓`` over its ``┃`` header, ``┡━━╇━━┩`` under it) and rounded
# corners (``╭──┬──╮``) too; a bracketed column's dashes (eprof's ``[----------]``) too.
RULE_LINE = re.compile(
    r"(?=.*?[-=─═━]{3})\s*+[|+┌├└╞╘╒╔╠╚┏┡┗┢┣╭╰]?[-=:+| ─═━┬┼┴┐┤┘╡╛╕╤╪╧╦╬╩╗╣╝┳╇┓┩┛╋┫┻╈┪╮╯\[\]]*+\Z"
)
BOX_LINE = re.compile(r"[│├└┬─|`+\\ \xa0-]*(?:├|└|\|--|`--|\+--|\\--)[─┬-]*\s*\S")  # a drawn tree's item
# ``git log --oneline``: an abbreviated hash, maybe after ``--graph`` lines and before refs.
# (``git blame``'s ``(Author 2026-12-01 10:00:00 +0000 12)`` is no ref list: it holds a date; a
# second hex column, as ``nm -S`` prints an address and a size, is no subject.)
ONELINE_COMMIT = re.compile(
    r"(?:[*|\\/ ]+ )?[0-9a-f]{7,40}(?: \((?![^)\n]*\d{4}-\d\d-\d\d)[^)\n]{1,200}\))? (?![0-9a-f]{7,} )"
    r"(?!(?:[0-9a-f]{4} ){3})[^\s(]"
)
# ``git blame``: ``<hash> [<path>] (<author> <date> [<time> <zone>] <line>) <code>``, ``^`` on a boundary.
BLAME_LINE = re.compile(
    r"\^?(?P<hash>[0-9a-f]{7,40})(?: [^\s(]+)? +\((?P<author>[^\n]*?) +"
    r"(?P<date>\d{4}-\d\d-\d\d)(?: (?P<time>\d\d:\d\d(?::\d\d)?))?(?: [+-]\d{4})? +"
    r"(?P<line>\d+)\) ?(?P<code>[^\n]*)"
)
# ``hg annotate -udnc[l]``: ``andrew 10 14aba9b9f362 Wed Nov 06 16:41:00 2024 +0000:  8: code``
HG_ANNOTATE_LINE = re.compile(
    r"(?P<author>\S+) +(?P<rev>\d+) (?P<hash>[0-9a-f]{12,40}) \w{3} (?P<month>\w{3}) +(?P<day>\d{1,2}) "
    r"(?P<time>\d\d:\d\d:\d\d) (?P<year>\d{4}) [+-]\d{4}:(?: *(?P<line>\d+):)? ?(?P<code>[^\n]*)"
)
BLAME_SHARE = 0.9  # of a blame's non-blank lines, at least this share are blame lines


def blame_match(line: str) -> re.Match[str] | None:
    """``line`` as a ``git blame`` line (``BLAME_LINE``) or an ``hg annotate`` one."""
    return BLAME_LINE.match(line) or (HG_ANNOTATE_LINE.match(line) if line[:1].isalpha() else None)


_ROW_COUNT = re.compile(r"\(\d+ rows?\)\Z|\d+ rows? in set\b")  # psql's and MySQL's footers
_GRID_RULE_AT = 4  # the rule line is among the first lines (boxed tables open with one)
_LONG_LISTING = re.compile(r"[-dlcbpsD][r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-][.+@]?\s+\d+\s")
_LS_TOTAL = re.compile(r"total \d+[KMGT]?\s*\Z")
# A ``git log`` commit line's start: ``commit 7a59…``, or with ``--left-right``'s or ``--cherry-mark``'s
# mark, ``commit < 7a59…`` (a regex fragment: the hash follows)
COMMIT_START = r"commit (?:[<>=-] )?"
MCP_COMMIT = re.compile(r"Commit: [0-9a-f]{40}\Z")  # the git MCP server's git_log entries
HG_CHANGESET = re.compile(r"changeset: +\d+:[0-9a-f]{12,40}\s*\Z")  # ``hg log``'s entries
# Other version controls' log entries: Subversion's ``r1234 | alice | 2024-01-02 10:00:00 +0000
# (Tue, 02 Jan 2024) | 3 lines``, Breezy's ``revno: 7``, RCS's and CVS's ``revision 1.7`` (above
# its ``date: …;  author: …`` line)
VCS_ENTRY = re.compile(
    r"r\d+ \| [^|\n]{1,80} \| \d{4}-\d\d-\d\d [^|\n]{1,80} \| \d+ lines?\s*\Z"
    r"|revno: \d+(?:\.\d+)*(?: \[merge\])?\s*\Z"
    r"|revision \d+(?:\.\d+)+(?:\tlocked by: [^;\n]{1,80};)?\s*\Z"
)
# Subversion's ``Changed paths:`` lines under an entry: ``   M /trunk/setup.py``, ``   A /x (from /y:12)``
SVN_PATH = re.compile(r" {3}(?P<status>[ADMR]) /\S")
# ``git log --raw``: ``:100644 000000 639ca2f 0000000 D\tdist/umd/uuid.min.js`` a file (modes, blobs,
# status); ``--name-status``: ``D\tHISTORY.md``, ``R100\told.js\tnew.js`` (the status alone)
RAW_FILE = re.compile(
    r"(?::\d{6} \d{6} [0-9a-f]{7,64}(?:\.\.\.)? [0-9a-f]{7,64}(?:\.\.\.)? )?(?P<status>[ACDMRTUX])\d*\t"
)
# ``--numstat``: ``12<TAB>3<TAB>src/app.py`` a file (lines added, removed; ``-`` for a binary)
NUMSTAT = re.compile(r"(?:\d+|-)\t(?:\d+|-)\t\S")
# ``--name-only``: a path alone on its line (a slash or an extension in it, no space)
NAME_ONLY = re.compile(r"[^\s|:]*[/.][^\s|:]*\w[^\S\n]*(?=\n|\Z)")  # (a line's end in a whole text too)
# ``--stat``: `` src/app.py | 118 +++---`` per file, then `` 53 files changed, 977 insertions(+)…``
STAT_FILE = re.compile(r" \S.*? \|\s+(?:\d+|Bin\b)")
STAT_TOTAL = re.compile(r" \d+ files? changed\b")
# A line naming one of a commit's files: ``--stat``'s, ``--numstat``'s, ``--raw``'s and
# ``--name-status``' (not ``--name-only``'s bare path: a message's line may be one too)
LISTED_FILE = re.compile(
    rf"{STAT_FILE.pattern}|{NUMSTAT.pattern}|{RAW_FILE.pattern.replace('?P<status>', '?:')}"
)
# A line of a log's list of files under each commit: a ``LISTED_FILE``, ``--stat``'s totals,
# ``--name-only``'s path.
LISTED_CHANGE = re.compile(rf"{LISTED_FILE.pattern}|{STAT_TOTAL.pattern}|{NAME_ONLY.pattern}")
# An XHTML page opens with an XML declaration: ``<?xml version="1.0" …?><!DOCTYPE html …>``.
_HTML_OPENING = re.compile(
    # a comment ends at its first ``-->`` (``.*?`` in a repeated group backtracked through every
    # split of a head of thirty comments: minutes on Tomcat's web.xml)
    r"\s*(?:<\?xml[^>]{0,200}\?>\s*)?(?:<!--(?:[^-]|-(?!->))*-->\s*)*(?:<!doctype html\b|<html\b)",
    re.I,
)
YAML_KEY_LINE = re.compile(r"(\s*)(- +)?(?:\"[^\"\n]{1,80}\"|'[^'\n]{1,80}'|[\w.$@/-]{1,80}):(?: |\Z)")
_YAML_SAMPLE = 400
_LEVEL_WORDS = frozenset((*LEVELS, "NOTE", "HINT"))  # a line led by one is a log's or a linter's
_JUNIT_SUITE = re.compile(r"<testsuite\b[^>]*\btests=\"\d+\"")
_RESULT_MARK = re.compile(r" [✔✘↷](?: |\Z)")  # a test's result after its name in a drawn tree
WORD_CHANGE = re.compile(r"\[-.*?-\]|\{\+.*?\+\}")  # ``git diff --word-diff``'s marks
_GRAPH_ONLY = re.compile(r"[*|\\/ _]+\Z")
# The filesystem MCP server's ``list_directory``: ``[FILE] name`` / ``[DIR] name`` (its
# ``list_directory_with_sizes`` adds a size column and totals: a table)
LISTED_ENTRY = re.compile(r"\[(?:FILE|DIR)\] (?!.*\s{2,}\d[\d.]* ?[KMGT]?B\s*\Z)\S")
# …whose sizes only line up while names are short: long names push them right, out of a grid.
_SIZED_ENTRY = re.compile(r"\[(?:FILE|DIR)\] \S.*?(?:\s{2,}\d[\d.]* ?[KMGT]?B)?\s*\Z")
# A listing with a size on every entry (``summaries.sized_listing``): ``du``'s ``1.3M<TAB>./asyncio``,
# ``find -printf '%s %p'``'s and ``wc -c``'s ``8766 ./if_ether.h``, ``list_directory_with_sizes``'s
# ``[FILE] GFile.html   643.94 KB`` (a ``[DIR]`` has no size); and the totals under them.
_SIZE_UNITS = {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5, "E": 1024**6}
_DU_ENTRY = re.compile(r"(?P<size>\d+(?:[.,]\d+)?)(?P<unit>[KMGTPE]?)\t(?P<path>\S.*)\Z")
_COUNTED_ENTRY = re.compile(r"\s*(?P<size>\d+)(?P<unit>) +(?P<path>[^\s]*[/.][^\s]*)\Z")
_LISTED_SIZE = re.compile(
    r"\[(?P<type>FILE|DIR)\] (?P<path>\S.*?)(?:\s{2,}(?P<size>\d+(?:\.\d+)?) ?(?P<unit>[KMGTPE]?)B)?\s*\Z"
)
# ``ls -l``'s entry: mode, links, owner, group, size, date (``Oct 21  2024``, ``Dec  3 07:01``,
# ``--time-style=long-iso``'s ``2024-10-21 09:30``), name; and the lines around them in ``ls -lR``
# (each directory's ``path:`` and ``total 88``), which are neither entries nor totals. Between
# the mode and the size one to three fields (``ls -g`` / ``ls -o`` drop one, ``restic ls -l``
# has a uid and a gid), and before the mode up to two numbers (``ls -s``'s blocks, ``find -ls``'s
# inode and blocks).
_LS_ENTRY = re.compile(
    r"\s*(?:\d+\s+){0,2}(?P<type>[-dlcbpsD])[rwxsStT-]{9}[.+@]?\s+(?:\S+\s+){1,3}"
    r"(?P<size>\d+(?:[.,]\d+)?)(?P<unit>[KMGTPE]?)\s+"
    r"(?:[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{4}|\d\d:\d\d)"
    r"|\d{4}-\d\d-\d\d(?: \d\d:\d\d(?::\d\d(?:\.\d+)?)?)?(?: [+-]\d{4})?)"
    r"\s+(?P<path>\S.*)\Z"
)
# Archive and object listings: ``tar tv``'s ``-rw-r--r-- user/group 146 2024-09-24 14:16 pkg/a.yml``,
# ``unzip -l``'s ``  11257  2024-08-13 00:17   pkg/METADATA`` (``08-13-2024`` too), ``git ls-tree -l``'s
# ``100644 blob 06416fce…     273<TAB>.coveragerc`` (a tree's size is ``-``). Python's ``tarfile -v -l``
# prints ``?`` for the type a tar header's mode does not hold, and a space after each name.
_TAR_ENTRY = re.compile(
    r"(?P<type>[-dlhcbp?])[rwxsStT-]{9}\s+\S+/\S+\s+(?P<size>\d+)(?P<unit>)\s+"
    r"\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?\s+(?P<path>\S.*?) ?\Z"
)
_ZIP_ENTRY = re.compile(
    r"\s*(?P<size>\d+)(?P<unit>)\s+(?:\d{4}-\d\d-\d\d|\d\d-\d\d-\d{2,4})\s+\d\d:\d\d\s+(?P<path>\S.*)\Z"
)
# ``jar tvf``: size, the date spelled out (``Sun Jun 07 17:18:04 UTC 2026``), path; Python's
# ``zipfile -l``: path, date and time, size (under its ``File Name  Modified  Size`` header)
_JAR_ENTRY = re.compile(
    r"\s*(?P<size>\d+)(?P<unit>)\s+[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [A-Z]{2,5} \d{4}"
    r"\s+(?P<path>\S.*)\Z"
)
# ``rsync --list-only``: mode, size with thousands marked (``65,713``), ``2024/10/21 09:30:00``, path
_RSYNC_ENTRY = re.compile(
    r"(?P<type>[-dlcbps])[rwxsStT-]{9}\s+(?P<size>\d{1,3}(?:,\d{3})*)(?P<unit>)\s+"
    r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\s+(?P<path>\S.*)\Z"
)
# ``rclone lsl``: size, date and time to the nanosecond, path
_RCLONE_ENTRY = re.compile(
    r"\s*(?P<size>\d+)(?P<unit>)\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+(?P<path>\S.*)\Z"
)
# ``7z l``: date, time, attributes (``D....`` a directory), size, packed size (on a block's first
# file only), path
_7Z_ENTRY = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?P<type>[D.])[R.][H.][S.][A.]\s+(?P<size>\d+)(?P<unit>)"
    r"\s+(?:\d+\s+)?(?P<path>\S.*)\Z"
)
_ZIPFILE_ENTRY = re.compile(r"(?P<path>\S+)\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+(?P<size>\d+)(?P<unit>)\s*\Z")
# ``git ls-tree -r`` without ``-l`` (``100644 blob 4e58c2…<TAB>path``) and ``git ls-files -s``
# (``100644 4e58c2… 0<TAB>path``, its stage): a path per line, behind its mode and object
GIT_ENTRY = re.compile(r"\d{6} (?:(?P<type>blob|tree|commit) )?[0-9a-f]{40,64}(?: [0-3])?\t(?P<path>.+)\Z")
_GIT_TREE_ENTRY = re.compile(
    r"\d{6} (?P<type>blob|tree|commit) [0-9a-f]{40,64}\s+(?P<size>\d+|-)(?P<unit>)\t(?P<path>.+)\Z"
)
_ARCHIVE_FRAME = re.compile(
    r"Archive: |\s*Length\s+Date\s+Time\s+Name\s*\Z|File Name\s+Modified\s+Size\s*\Z|[-\s]+\Z"
    # 7z's banner, the archive's properties (``Method = LZMA2:768k``) and its column header
    r"|7-Zip |p7zip Version |Scanning the drive for archives:|\d+ files?, \d+ bytes|Listing archive: "
    r"|[A-Z][\w ]{0,30} = |\s*Date\s+Time\s+Attr\s+Size\b"
)
LS_FRAME = re.compile(r"total \d+(?:[.,]\d+)?[KMGTPE]?\Z|\S[^\t]*:\Z")
SIZED_TOTALS = re.compile(
    r"(?:Total|Combined size|Grand total)\b.*:|\s*\d+(?:[.,]\d+)?[KMGTPE]?\s+total\Z"
    r"|\s*\d+\s+\d+ files?\Z"  # ``unzip -l``'s last line: bytes and files
    r"|.*\s\d+ files?, \d+ folders?\Z",  # ``7z l``'s
    re.IGNORECASE,
)
# A MySQL / MariaDB slow query log's timing line (``# Query_time: 4.000272  Lock_time: 0.000118
# Rows_sent: 1  Rows_examined: 1200000``): its ``#`` lines are no Markdown headings.
SLOW_QUERY_TIMING = re.compile(
    r"# Query_time: (?P<time>[\d.]+)\s+Lock_time: [\d.]+\s+Rows_sent: \d+\s+Rows_examined: (?P<rows>\d+)"
)
_SLOW_QUERIES = 2
# A line of ``key=value`` fields, three or more, nothing else (``id=451 addr=127.0.0.1:53758 …``).
KV_LINE = re.compile(r"[\w.-]{1,40}=\S*(?: [\w.-]{1,40}=\S*){2,} *\Z")
_KV_MIN_ROWS = 4
KV_PREFIX = 2000  # the start of a line matched against ``KV_LINE``
_LOG_KEYS = frozenset({"level", "lvl", "msg", "message", "ts", "time", "timestamp", "severity", "caller"})
BOXED_HEADER_LINES = 12  # a boxed table's header spans at most this many lines
# A JSON string's escaped line break: ``\n`` after an even run of backslashes (``\\n`` is an escaped
# backslash, then an ``n``), the run kept in group 1 (it ends the line before)
ESCAPED_BREAK = re.compile(r"(?<!\\)((?:\\\\)*)\\n")
_SIZED_MIN = 8  # entries a sized listing has at least…
_SIZED_SHARE = 0.9  # …and this share of its non-blank lines are entries or totals
# A test's id as runners list it (``pytest --collect-only -q``): ``tests/test_a.py::TestX::test_y[p]``.
TEST_ID = re.compile(r"(?P<file>[\w./-]+\.\w+)::(?P<test>[^\s\[]+(?:\[[^\n]*\])?)\s*\Z")
_PATH_LINE = re.compile(r"(?:/|\./|[\w.-]+/)[^\s:]*\Z|[\w.-]+\.[A-Za-z0-9]{1,8}\Z")
_CODE_EXTENSIONS = frozenset(
    """py pyi js jsx mjs cjs ts tsx go rs java kt kts scala c h cc cpp cxx hpp cs rb php swift m mm
    sh bash zsh lua pl pm r jl ex exs erl hs ml clj dart vue svelte sql""".split()
)
_READ_VERBS = frozenset({"read", "get", "cat", "view", "open", "show"})


# A test or build runner's own lines, which no other output writes: ``go test``'s ``--- FAIL: TestX
# (0.01s)`` and ``FAIL``/``ok`` package lines (its ``-v`` ``=== RUN`` lines), mocha's ``276 passing
# (512ms)`` and ``8 failing``, and the others named below. Their failures' diffs, coverage tables,
# reformatting diffs and build commands would read as text, Markdown or a diff.
_RUNNER_LINE = re.compile(
    r"\s*--- (?:FAIL|PASS|SKIP): \S+ \(\d+(?:\.\d+)?s\)|=== RUN +\S"
    r"|(?:ok|FAIL)\s+\S+\s+(?:\d+\.\d+s|\(cached\))"
    r"|\s*\d+ (?:passing|failing|pending)(?: \(\d+m?s\))?\s*\Z"
    # GoogleTest's ``[ RUN      ] Suite.Test`` / ``[  FAILED  ]``; meson test's ``5/8 name  FAIL  0.31s``;
    # tox's ``py38: FAIL code 1 (29.72=setup…`` and ``lint: commands[0]> ruff check``
    r"|\[ +(?:RUN|OK|FAILED|PASSED|SKIPPED) +\] \S|\[=+\] \d+ tests?\b"
    r"|\s*\d+/\d+ \S.{0,100}?\s(?:OK|FAIL|SKIP|EXPECTEDFAIL|TIMEOUT|ERROR)\s+\d+\.\d+s"
    r"|\s*[\w.-]+: (?:OK|FAIL(?: code \d+)?) \(\d|[\w.-]+: (?:commands\[\d+\]|install_deps)> "
    # a build's runner: make's ``make[2]: Entering directory '…'`` and ``make: *** [all] Error 2``;
    # webpack's ``ERROR in ./src/a.js 23:2``
    r"|make(?:\[\d+\])?: (?:Entering|Leaving) directory |make(?:\[\d+\])?: \*\*\* "
    r"|(?:ERROR|WARNING) in \.{0,2}/\S"
    # pip's build of a package (``Building wheel for ujson (pyproject.toml): finished with status
    # 'error'``) and autotools' ``checking for event_init... no`` / ``configure: error: …``
    r"|\s*(?:Building wheels? for |Installing build dependencies|Getting requirements to build"
    r"|Preparing metadata \(|Successfully (?:built|installed) "
    r"|ERROR: (?:Failed building wheel|Could not build wheels)|error: subprocess-exited-with-error)"
    r"|checking [\w .,/+-]{3,80}\.\.\. |configure: (?:error|WARNING): "
    # EUnit's banner and ``Failed: 9.  Skipped: 0.  Passed: 92.``; prettier --check's ``[warn] a.js``;
    # a sanitizer's report (``==21886==ERROR: AddressSanitizer: …``, ``a.c:386:5: runtime error:``)
    # and its frames (``    #0 0x55b7cec1ad5f in parse_number tests/../cJSON.c:386``)
    r"|=+ EUnit =+|\s*Failed: \d+\.\s+Skipped: \d+\.\s+Passed: \d+\.|\[warn\] \S|Checking formatting\.\.\."
    r"|==\d+==ERROR: \w+Sanitizer|\S+:\d+:\d+: runtime error: |\s+#\d+ 0x[0-9a-f]+ in \S"
    # TAP (Perl's prove, node's tape and tap): ``not ok 4 - name``, ``ok 5 - name``, ``# Looks like
    # you failed 2 tests of 9.``; prove's ``Files=6, Tests=73, …`` and ``Result: FAIL``
    r"|(?:not )?ok \d+\b(?: - |\s*\Z)|# Looks like you failed \d+ tests? of \d+"
    r"|Files=\d+, Tests=\d+, |Result: (?:FAIL|PASS|NOTESTS)\s*\Z"
    # gdb's ``Program received signal SIGSEGV, …`` and its backtrace's frames (``#1  0x55… in f (a=1)
    # at x.c:12``, ``#2  main (argc=6, …) at brotli.c:1299``)
    r"|Program received signal SIG[A-Z]+\b|#\d+ +(?:0x[0-9a-f]+ in )?[\w:~<>.]+ \(.{0,400}?\) at \S+:\d+"
    # unittest's ``Ran 286 tests in 2.860s``, ``FAILED (failures=6, errors=5)`` and each failure's
    # ``ERROR: testX (tests.test_unit.Case.testX)`` (its ``=====`` and ``-----`` rules are no headings)
    r"|Ran \d+ tests? in \d|FAILED \((?:failures|errors|skipped|expected failures)=\d"
    r"|(?:ERROR|FAIL): \w+ \([\w.]+\)"
    # esbuild's ``✘ [ERROR] Could not resolve "./a"``, ``▲ [WARNING] …``, ``⬥ [VERBOSE] …``
    r"|[✘▲⬥] \[(?:ERROR|WARNING|VERBOSE|DEBUG|INFO)\] "
    # pytest's banner, its short summary's ``FAILED tests/a.py::test_x - …`` and its closing counts
    r"|=+ test session starts =+|(?:FAILED|ERROR) [\w./-]+\.py::\S"
    r"|=+ (?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|warnings?|deselected)(?:, )?)+ in [\d.]+s"
    # coverage.py's report: ``Name  Stmts  Miss  Cover`` and ``TOTAL  7521  886  86%``
    r"|Name\s+Stmts\s+Miss\b|TOTAL\s+\d+\s+\d+\s.*\d%\s*\Z"
    # strace: ``openat(AT_FDCWD, "/a", O_RDONLY) = -1 ENOENT (No such file or directory)``, its end
    r"|(?:\[pid +\d+\] |\d+ +)?[a-z_][a-z0-9_]*\(.{0,300}\) += (?:-?\d+|0x[0-9a-f]+|\?)(?: [A-Z]\w* \(|\s*\Z)"
    r"|\+\+\+ (?:exited with \d+|exited \(status \d+\)|killed by SIG[A-Z]+)"
    # ltrace: ``[pid 12915] 18:44:21.096 python3->getenv("LC_ALL") = nil`` (a library's call, by caller)
    r"|(?:\[pid +\d+\] )?(?:[\d:.]+ )?[\w.+-]+->[A-Za-z_]\w*\(.{0,300}\) += \S"
    # RSpec: ``17 examples, 3 failures, 1 pending`` and its rerun lines ``rspec ./spec/a_spec.rb:42 # …``
    r"|\d+ examples?, \d+ failures?\b|rspec \./\S+:\d+ # "
    # doctest: ``97 passed and 0 failed.``, ``***Test Failed*** 2 failures.``, ``1 items had failures:``
    r"|\d+ passed and \d+ failed\.|\*\*\*Test Failed\*\*\* \d+ failures?\.|\d+ items? had failures:"
    # R's tinytest: ``----- FAILED[data]: test_crc32.R<16--16>``, ``Showing 3 out of 279 results: 3 fails``
    r"|\s*-{3,} FAILED\[\w+\]: \S+<\d+--\d+>|Showing \d+ out of \d+ results?: \d+ fails?\b"
    # Jest: a test file's verdict (``FAIL __tests__/cart.test.js``, `` PASS  src/a.test.ts (5.1 s)``),
    # a failure's header (``  ● Cart › rejects zero qty``), its closing ``Test Suites: 2 failed, 6
    # passed, 8 total`` and ``Tests:       8 failed, …, 66 total``
    r"|\s?(?:PASS|FAIL)\s{1,2}\S+\.[cm]?[jt]sx?\b|\s+● \S"
    r"|Test Suites: \d+ \w+, |Tests: +\d+ (?:failed|passed|skipped|todo)\b"
    # bun test: ``(fail) cart > discount needs five items [0.20ms]``, ``Ran 64 tests across 2 files.``
    r"|\((?:pass|fail|skip|todo)\) \S|Ran \d+ tests? across \d+ files?\b"
    # deno test: ``name ... FAILED (576µs)`` and ``FAILED | 26 passed (1 step) | 4 failed (1 step)``
    r"|\S.*? \.\.\. (?:FAILED|ok|ignored)(?: \(due to \d+ failed steps?\))? \(\d+(?:\.\d+)?(?:µs|ms|s)\)\s*\Z"
    r"|(?:ok|FAILED) \| \d+ passed\b"
)
# Runner lines known by their end: Robot Framework's ``Name    | FAIL |``, pre-commit's
# ``black.........Failed``, webpack's ``… webpack 5.1.0 compiled with 3 errors in 3753 ms``.
_RUNNER_ENDS = ("| PASS |", "| FAIL |", "| SKIP |", "....Passed", "....Failed", "....Skipped")
_WEBPACK_DONE = re.compile(r"\bwebpack [\d.]+ compiled (?:successfully|with \d+ (?:errors?|warnings?))")


def _runner_line(line: str) -> bool:
    """Whether ``line`` is one of a test or build runner's own lines (``_RUNNER_LINE``,
    ``_RUNNER_ENDS``, ``_WEBPACK_DONE``); cheap tests first, as every sampled line is asked."""
    start = line[:_RUNNER_WIDTH]
    if _RUNNER_LINE.match(start):
        return True
    end = line.rstrip()
    return end.endswith(_RUNNER_ENDS) or (" compiled " in line and _WEBPACK_DONE.search(start) is not None)


_VERDICTS = 2
# Chrome DevTools MCP's list_network_requests: ``reqid=5 GET http://host/a.png [404]``
REQUEST_ROW = re.compile(r"reqid=\d+ [A-Z]{3,10} \S+ \[")
_GROUP_LOOK = 20  # lines an exception group's traceback may start below
_RUNNER_WIDTH = 300  # a runner's own lines are short: longer ones are matched on their start

# ``git status`` in its long form (``summaries.git_status``): a branch line near the top, then sections.
_GIT_BRANCH = re.compile(r"(?:On branch \S|HEAD detached (?:at|from) \S|Not currently on any branch)")
GIT_STATUS_SECTION = re.compile(
    r"(?P<name>Changes to be committed|Changes not staged for commit|Untracked files|Unmerged paths"
    r"|Ignored files):\s*\Z"
)
_GIT_BRANCH_LOOK = 6


def is_slow_query_log(lines: Sequence[str]) -> bool:
    """Whether ``lines`` hold two or more slow query log timing lines (``summaries.slow_queries``)."""
    timed = (line for line in lines if line.startswith("# Query_time: "))
    return sum(1 for line in timed if SLOW_QUERY_TIMING.match(line)) >= _SLOW_QUERIES


# A stanza's field line: ``Installed-Size: 54254`` (Debian's control stanzas, ``apt-cache show``,
# ``dpkg -s``, ``pip show``, e-mail headers) or sqlite3 -line's ``  mean_area = 2499.0`` (names
# right-aligned); an indented line continues the field above (a ``Description``'s paragraphs).
STANZA_FIELD = re.compile(r"(?:([A-Za-z][\w.\-]{0,60}): ?|\s*(\w{1,60}) =(?: |\Z))(.*)\Z")  # ``x =``: a NULL
STANZA_CONTINUED = re.compile(r"[ \t]+\S")
_STANZAS_MIN = 2
_STANZAS_SAMPLED = 8  # stanzas looked at for detection, in the text's first ``_STANZAS_READ`` chars
_STANZAS_READ = 16384
_STANZA_SHARE = 0.9  # of a stanza's lines, the fields and their continuations
_SAME_FIRST_SHARE = 0.8  # of the stanzas, those opening with the commonest first field


def stanzas(text: str, limit: int | None = None) -> list[list[str]] | None:
    """The text's stanzas: blank-line separated blocks of field lines, each opening with the same
    field in most (``Package:``, ``id =``), at least two; None when the text is not so. At most
    ``limit`` stanzas are read (all when None)."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
            continue
        if current:
            blocks.append(current)
            current = []
            if limit is not None and len(blocks) >= limit:
                break
    if current and (limit is None or len(blocks) < limit):
        blocks.append(current)
    if len(blocks) < _STANZAS_MIN:
        return None
    firsts: Counter[str] = Counter()
    for block in blocks:
        fields = [STANZA_FIELD.match(line) for line in block]
        held = sum(
            1 for line, field in zip(block, fields, strict=True) if field or STANZA_CONTINUED.match(line)
        )
        if held < len(block) * _STANZA_SHARE or fields[0] is None:
            return None
        firsts[fields[0].group(1) or fields[0].group(2)] += 1
    return blocks if firsts.most_common(1)[0][1] >= len(blocks) * _SAME_FIRST_SHARE else None


# Directories a tool or a build writes, not the project's own: what they hold is seldom asked for.
_GENERATED_DIRS = frozenset(
    ".git node_modules __pycache__ .tox .nox .venv venv .mypy_cache .pytest_cache .ruff_cache "
    "autom4te.cache .cache CMakeFiles .gradle .eggs .hypothesis .sass-cache bower_components".split()
)


def is_generated_dir(name: str) -> bool:
    """Whether a directory of this name holds what tools generate (``node_modules``, ``.git``,
    ``__pycache__``, ``autom4te.cache``, ``x.egg-info``…) rather than the project's files."""
    bare = name.rstrip("/")
    return bare in _GENERATED_DIRS or bare.endswith(".egg-info")


def is_key_value_rows(lines: Sequence[str]) -> bool:
    """Whether ``lines`` are records of ``key=value`` fields, one per line, the same keys first
    (``redis-cli CLIENT LIST``: ``id=451 addr=127.0.0.1:53758 fd=8 name= age=12 …``); a logfmt
    log (``level=``, ``msg=``, ``ts=``) is a log, not a row set."""
    shown = [line for line in lines if line.strip()]
    if len(shown) < _KV_MIN_ROWS:
        return False
    rows = [line for line in shown if KV_LINE.match(line[:KV_PREFIX])]
    if len(rows) * 10 < len(shown) * 9:
        return False
    first = Counter(line.split("=", 1)[0] for line in rows).most_common(1)[0]
    keys = {pair.split("=", 1)[0] for pair in rows[0].split()}
    return first[1] * 10 >= len(rows) * 9 and not keys & _LOG_KEYS


def sized_entry(line: str) -> tuple[str, float | None, bool] | None:
    """A sized listing's line as its path, size in bytes (None when it shows none, or ``ls -l``'s
    for a directory) and whether it is listed as a directory; None for any other line. A bare
    number is bytes (``du``'s blocks: the same scale throughout one listing)."""
    found = (
        _DU_ENTRY.match(line)
        or _COUNTED_ENTRY.match(line)
        or _LISTED_SIZE.match(line)
        or _LS_ENTRY.match(line)
        or _TAR_ENTRY.match(line)
        or _ZIP_ENTRY.match(line)
        or _JAR_ENTRY.match(line)
        or _ZIPFILE_ENTRY.match(line)
        or _GIT_TREE_ENTRY.match(line)
        or _RSYNC_ENTRY.match(line)
        or _RCLONE_ENTRY.match(line)
        or _7Z_ENTRY.match(line)
    )
    if found is None:
        return None
    amount = (found.group("size") or "").strip("-")
    typed = "type" in found.re.groupindex
    listed_dir = typed and found.group("type") in ("DIR", "d", "tree") or found.group("path").endswith("/")
    if listed_dir and found.re in (_LS_ENTRY, _TAR_ENTRY, _ZIP_ENTRY, _JAR_ENTRY, _RSYNC_ENTRY, _7Z_ENTRY):
        amount = ""  # the size an archive or ``ls`` gives a directory is its own, not what it holds
    if found.re is _RSYNC_ENTRY:
        amount = amount.replace(",", "")  # thousands, not a decimal comma
    return found.group("path"), byte_size(amount, found.group("unit") or "") if amount else None, listed_dir


def byte_size(number: str, unit: str = "") -> float:
    """``number`` (``1.5``, ``4,0``) of ``unit`` (``K``, ``M``… or none: bytes) in bytes."""
    return float(number.replace(",", ".")) * _SIZE_UNITS[unit]


def is_sized_listing(lines: Sequence[str]) -> bool:
    """Whether ``lines`` list entries with their sizes: ``_SIZED_MIN`` entries or more, most of
    them with a size, and nine in ten non-blank lines entries or totals."""
    shown = [line for line in lines if line.strip()]
    if len(shown) < _SIZED_MIN or _tab_header(shown):
        return False
    # Past this many lines that are neither entries nor totals it is no listing: most texts are
    # told so in their first lines, not after every line was tried against every entry's shape.
    allowed = len(shown) - math.ceil(len(shown) * _SIZED_SHARE)
    entries: list[tuple[str, float | None, bool]] = []
    others = 0
    for line in shown:
        found = sized_entry(line)
        if found is not None:
            entries.append(found)
        elif not (SIZED_TOTALS.match(line) or LS_FRAME.match(line) or _ARCHIVE_FRAME.match(line)):
            others += 1
            if others > allowed:
                return False
    sized = sum(1 for _, amount, _ in entries if amount is not None)
    return len(entries) >= _SIZED_MIN and sized * 2 >= len(entries)


def _tab_header(lines: Sequence[str]) -> bool:
    """Whether the first line names the columns of the tab-separated rows below it (MariaDB's
    ``--batch``: ``id<TAB>name<TAB>…`` over ``48<TAB>Berlin<TAB>…``): a table, though each row
    starts as ``du``'s ``SIZE<TAB>PATH`` does; ``du`` prints no header."""
    tabs = lines[0].count("\t")
    return tabs > 0 and lines[1].count("\t") == tabs and sized_entry(lines[0]) is None


def is_git_status(lines: Sequence[str]) -> bool:
    """Whether ``lines`` (a sample from the top will do) are a ``git status`` in its long form."""
    top = [line for line in lines[: _GIT_BRANCH_LOOK + 2] if line.strip()]
    if not any(_GIT_BRANCH.match(line) for line in top[:_GIT_BRANCH_LOOK]):
        return False
    return any(GIT_STATUS_SECTION.match(line) for line in lines) or any(
        line.startswith(("nothing to commit", "no changes added")) for line in lines
    )


def json_values(text: str) -> Iterator[object]:
    """The JSON values of ``text`` one after another (``{…}`` then ``{…}``, whitespace or commas
    between them), until its end; raises ``ValueError`` (or ``RecursionError``) where none parses."""
    decoder = json.JSONDecoder()
    at = len(text) - len(text.lstrip())
    while at < len(text):
        value, at = decoder.raw_decode(text, at)
        yield value
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1


def _flat_objects(text: str, count: int = 3) -> bool:
    """Whether ``text`` opens with ``count`` JSON records one after another (``_flat_record``), the
    first naming no time or level (such a stream is a log's events: a log's summary reads it)."""
    try:
        opening = list(islice(json_values(text), count))
    except (ValueError, RecursionError):
        return False
    if len(opening) < count or not all(map(_flat_record, opening)):
        return False
    first: dict[str, object] = opening[0]  # type: ignore[assignment]  # a record, as checked
    return not any(key.lower().replace("_", "") in _EVENT_KEYS for key in first)


def _flat_record(value: object, share: float = 0.75) -> bool:
    """Whether ``value`` is a record: an object at least ``share`` of whose members are scalars
    (emojibase's records hold a list of tags; ``go list -json``'s packages, a third or more of
    whose members are lists, are no records)."""
    return (
        isinstance(value, dict)
        and bool(value)
        and sum(not isinstance(v, dict | list) for v in value.values()) >= len(value) * share
    )


def csv_header(line: str, least: int = 3) -> tuple[str, int] | None:
    """The delimiter (``,`` or a tab) and field count of a CSV header: ``least`` column names or
    more (``unpacked_at,package,version,installed_at``); None when ``line`` is none."""
    for delimiter in (",", "\t"):
        names = line.split(delimiter)
        if len(names) >= least and all(_COLUMN_NAME.match(name.strip().strip('"')) for name in names):
            return delimiter, len(names)
    return None


def unquoted(lines: Sequence[str]) -> list[str]:
    """``lines`` without their double-quoted CSV fields (their delimiters are no column marks)."""
    return [_QUOTED_FIELD.sub("", line) if '"' in line else line for line in lines]


def _fields(line: str, delimiter: str) -> int:
    """How many fields ``line`` holds between ``delimiter``s, quoted fields' delimiters aside."""
    return (_QUOTED_FIELD.sub("", line) if '"' in line else line).count(delimiter) + 1


def csv_sections(lines: Sequence[str]) -> list[int]:
    """The header lines of CSV tables one after another (``xlsx2csv -a``'s sheets, ``head`` of
    several CSV files): each a header of two column names or more (``csv_header``) over
    ``_CSV_MIN_ROWS`` rows or more of as many fields, a title line or blank lines between them.
    Empty unless there are two or more and they hold nine in ten of the non-blank lines. Linear in
    the lines."""
    headers: list[int] = []
    held = index = 0
    while index < len(lines):
        header = csv_header(lines[index], 2) if lines[index].strip() else None
        if header is None:
            index += 1
            continue
        delimiter, count = header
        end = index + 1
        while end < len(lines) and _fields(lines[end], delimiter) == count:
            end += 1
        if end - index - 1 >= _CSV_MIN_ROWS:
            headers.append(index)
            held += end - index
        index = max(end, index + 1)
    filled = sum(1 for line in lines if line.strip())
    return headers if len(headers) >= 2 and held >= 0.9 * filled else []


def is_repr_rows(text: str) -> bool:
    """Whether ``text`` opens as a Python-repr list of rows: of dicts, of tuples or of keyword
    records (``[<Record id=1 …>, …]``, ``[Row(id=1, …), …]``)."""
    return bool(_REPR_ROWS.match(text[:200]) or KEYWORD_ROWS.match(text[:200]))


def detect_shape(
    text: str, sample: Sequence[str], tool_name: str = "", arguments: Mapping[str, Any] | None = None
) -> ContentKind | None:
    """The specific kind of a text result, or ``None`` when none of these shapes holds."""
    lines = [line for line in sample if line.strip()]
    if not lines:
        return None
    if is_repr_rows(text):
        return ContentKind.ROWS
    if text.lstrip()[:1] == "{" and _OBJECT_STREAM.search(text[:20000]) and _flat_objects(text):
        return ContentKind.ROWS
    if is_git_status(sample):
        return ContentKind.TREE
    # Whether _VERDICTS lines are a runner's: asked from the last line up, where a run's closing
    # counts are, the search stops at the _VERDICTS-th (order makes no difference to the answer).
    verdicts = islice(filter(_runner_line, reversed(lines)), _VERDICTS - 1, None)
    if next(verdicts, None) is not None or is_slow_query_log(lines):
        return ContentKind.LOG
    head = text[:4096]
    if is_html(head):
        return ContentKind.MARKDOWN
    if head.lstrip().startswith("<") and _JUNIT_SUITE.search(head) and "<testcase" in text[:65536]:
        return ContentKind.LOG
    items = sum(1 for line in lines if _SNAPSHOT_ITEM.match(line))
    refs = sum(1 for line in lines if _REF.search(line))
    if refs >= 3 and (items * 3 >= len(lines) or _SNAPSHOT_HEADER.search(text[:4096])):
        return ContentKind.SNAPSHOT
    if is_devtools_snapshot(lines):
        return ContentKind.SNAPSHOT
    if is_found_in_files(lines):
        return ContentKind.CODE_SEARCH
    if found_files(lines):
        return ContentKind.TREE
    if sum(1 for line in lines if line.startswith("reqid=") and REQUEST_ROW.match(line)) * 2 >= len(lines):
        return ContentKind.LOG  # Chrome DevTools MCP's requests: read as an access log, not properties
    blocks = sum(1 for line in lines if ROW_BLOCK.match(line))
    fields = sum(1 for line in lines if _FIELD.match(line))
    if blocks >= 2 and (blocks + fields) * 10 >= len(lines) * 8:
        return ContentKind.ROWS
    if is_key_value_rows(lines):
        return ContentKind.ROWS
    opening = text[:_STANZAS_READ]  # whole stanzas of the text's first part
    if stanzas(opening[: opening.rfind("\n\n") + 1] or opening, limit=_STANZAS_SAMPLED) is not None:
        return ContentKind.ROWS
    headers = sum(1 for line in lines if FILE_HEADER.match(line.rstrip()))
    if headers and sum(1 for line in lines if GROUPED_ROW.match(line)) * 2 >= len(lines):
        return ContentKind.LINT  # ruff's grouped output: a file's line, then its diagnostics, no code
    read = len(lines)
    if headers == 1 and FILE_HEADER.match(lines[0].rstrip()):  # the first file fills the sample
        headers, read = len(FILE_HEADER_LINE.findall(text)), text.count("\n")
    if headers >= 2 and read >= 20 * headers // 4:
        return ContentKind.SOURCE
    if any(GROUP_TRACEBACK.match(line) for line in lines[:_GROUP_LOOK]):
        return ContentKind.LOG  # an exception group's tracebacks: its ``|`` gutter makes no table
    if _is_long_listing(lines):  # ``ls -l``: its biggest files when it has a size on each
        return ContentKind.TREE if is_sized_listing(lines) else ContentKind.TABLE
    if _is_grid(lines):
        return ContentKind.TABLE
    if described_tables(lines):
        return ContentKind.TABLE  # psql's ``\d+``: the notes under a table (``Indexes:``) are no rows
    if lines[0].startswith("diff --git ") and any(WORD_CHANGE.search(line) for line in lines[:200]):
        return ContentKind.DIFF  # ``git diff --word-diff``: its changes are marked inside the lines
    if sum(1 for line in lines if blame_match(line)) >= max(3, len(lines) * BLAME_SHARE):
        return ContentKind.SOURCE
    entries = [i for i, line in enumerate(lines[:-1]) if MCP_COMMIT.match(line.rstrip())]
    if len(entries) >= 2 and all(lines[i + 1].startswith("Author: ") for i in entries):
        return ContentKind.DIFF
    entries = [i for i, line in enumerate(lines[:-1]) if VCS_ENTRY.match(line)]
    if len(entries) >= 2 and all(
        not lines[i].startswith("revision") or lines[i + 1].startswith("date: ") for i in entries
    ):
        return ContentKind.DIFF  # ``svn log``, ``bzr log``, ``cvs log``, ``rlog``: a log of entries
    changesets = [i for i, line in enumerate(lines) if HG_CHANGESET.match(line)]
    if len(changesets) >= 2 and all(
        any(line.startswith("user:") for line in lines[i + 1 : i + 6]) for i in changesets
    ):
        return ContentKind.DIFF  # ``hg log``: a changeset line, then its fields
    commits = sum(1 for line in lines if ONELINE_COMMIT.match(line))
    graph = sum(1 for line in lines if _GRAPH_ONLY.match(line))  # ``|\``, ``|/`` of --graph
    # ``git log --oneline --stat`` (``--numstat``, ``--name-only``): each commit's files under it
    listed = sum(1 for line in lines if LISTED_CHANGE.match(line)) if commits >= 2 else 0
    if (commits >= 5 or listed >= commits >= 2) and (commits + graph + listed) * 10 >= len(lines) * 9:
        return ContentKind.DIFF
    drawn = sum(1 for line in lines if BOX_LINE.match(line))
    if len(lines) >= 8 and drawn * 10 >= len(lines) * 7:
        # JUnit 5's console launcher draws its test plan as a tree of results (``testX() ✔``)
        marked = sum(1 for line in lines if _RESULT_MARK.search(line))
        return ContentKind.LOG if marked * 2 >= drawn else ContentKind.TREE
    if is_sized_listing(lines):
        return ContentKind.TREE
    sized = [line for line in lines if _SIZED_ENTRY.match(line)]
    if (
        len(lines) >= 8
        and len(sized) * 10 >= len(lines) * 9
        and any(not LISTED_ENTRY.match(line) for line in sized)
    ):
        return ContentKind.TABLE
    paths = sum(
        1
        for line in lines
        if _PATH_LINE.match(line.strip())
        or LISTED_ENTRY.match(line)
        or _is_test_id(line)
        or GIT_ENTRY.match(line)
    )
    if len(lines) >= 8 and paths * 10 >= len(lines) * 9:
        return ContentKind.TREE
    if (is_file_read(tool_name) and _code_path(arguments or {})) or prints_source_file(arguments or {}):
        return ContentKind.SOURCE
    return None


def _is_test_id(line: str) -> bool:
    return "::" in line and TEST_ID.match(line) is not None


def _is_grid(lines: Sequence[str]) -> bool:
    """A grid table: a rule line with column marks at the top, and rows with one count of ``|``."""
    if len(lines) < 3 or not any(
        RULE_LINE.match(line) and ("+" in line or "|" in line) for line in lines[:_GRID_RULE_AT]
    ):
        return False
    rows = [line for line in lines if not RULE_LINE.match(line) and not _ROW_COUNT.match(line.strip())]
    if len(rows) < 2:
        return False
    common, times = Counter(line.count("|") for line in rows).most_common(1)[0]
    return common >= 1 and times * 10 >= len(rows) * 9


def _is_long_listing(lines: Sequence[str]) -> bool:
    """``ls -l``: nine in ten lines (its ``total`` lines and directory headers aside) open with a mode."""
    entries = [line for line in lines if not _LS_TOTAL.match(line) and not line.endswith(":")]
    modes = sum(1 for line in entries if _LONG_LISTING.match(line))
    return modes >= 3 and modes * 10 >= len(entries) * 9


# The title psql's ``\d`` puts over what it describes.
_DESCRIBED = re.compile(
    r"(?:Table|View|Materialized view|Index|Sequence|Foreign table|Partitioned table|Partitioned index"
    r'|Composite type|Unlogged table) "[^"\n]{1,200}"\Z'
)


def table_headers(lines: Sequence[str]) -> list[int]:
    """The header lines of the tables in ``lines``: a line holding a ``|`` right above a rule line
    (``------+------``, ``+----+----+``), as ``psql`` and MySQL print each table. A boxed table's
    first row, under its header's rule, and last row, above its closing rule, are no headers; a
    boxed header over several lines (PSPP's "Cases" over "Valid | Missing") is found by its first."""
    headers: list[int] = []
    for index in range(1, len(lines)):
        if not ("|" in lines[index - 1] and is_rule(lines[index])):
            continue
        top = _box_top(lines, index - 1)
        if top is not None:
            if top + 1 not in headers:
                headers.append(top + 1)  # a boxed header over several lines: its first
            continue
        above = index - 2
        if above >= 0 and ("|" in lines[above] and not is_rule(lines[above]) or above - 1 in headers):
            continue  # a row above it (the last row), or the header two lines up (the first row)
        headers.append(index - 1)
    return headers


def _box_top(lines: Sequence[str], index: int) -> int | None:
    """The top rule of the box whose header's last line is ``index``, when the header spans
    several lines: wrapped cells (``Asymptotic Sig.`` over ``(2-tailed)``) or a group over its
    columns (``Cases`` over ``Valid | Missing``, a rule between); None for a one-line header or a
    row (the lines above a row lead to its header's rule, which has the header above it)."""
    top = index - 1
    while top >= 0 and index - top <= BOXED_HEADER_LINES and lines[top].startswith("|"):
        top -= 1
    if top == index - 1 or top < 0 or not (lines[top].startswith("+") and is_rule(lines[top])):
        return None
    return top if top == 0 or not lines[top - 1].startswith(("|", "+")) else None


def described_tables(lines: Sequence[str], headers: Sequence[int] | None = None) -> list[int]:
    """The header lines of psql's (or MySQL's) tables in ``lines`` when there are two or more, or
    one under the title psql's ``\\d`` gives it (``Table "public.users"``); else empty.
    ``headers``: ``table_headers(lines)``, when the caller has them already."""
    found = table_headers(lines) if headers is None else headers
    headers = [index for index in found if _is_psql_header(lines, index)]
    if len(headers) == 1 and not (headers[0] and _DESCRIBED.match(lines[headers[0] - 1].strip())):
        return []
    return headers


def _is_psql_header(lines: Sequence[str], index: int) -> bool:
    """Whether the table header at ``index`` is psql's or MySQL's: its rule marks the columns with
    ``+`` (a Markdown table's with ``|``), and neither is a diff's added or removed line."""
    return "+" in lines[index + 1] and lines[index][:1] not in ("+", "-")


def is_rule(line: str) -> bool:
    """Whether ``line`` is a table's rule: ``------+------``, ``+----+----+``, ``|---|---|``, or
    a box's rule inside it (``|    +------+``, ``|   -----+----|``)."""
    return (
        line[:1] in ("-", "+", "=", "|")
        and ("+" in line or "|" in line)
        and bool(RULE_LINE.match(line[:400]))
    )


def is_html(text: str) -> bool:
    """Whether ``text`` is an HTML document: ``<!DOCTYPE html`` or ``<html`` first, an XML
    declaration and comments aside, or below a tool's few framing lines (the fetch server's
    "Content type text/html cannot be simplified to markdown…" and "Contents of <url>:")."""
    if _HTML_OPENING.match(text[:4096]) is not None:
        return True
    at = document_start(text[:4096], "<")
    return at is not None and _HTML_OPENING.match(text, at, at + 4096) is not None


# A key-value listing's lines (``is_properties``): ``used_memory:1447624``, ``vm.swappiness = 60``,
# and its section lines (``# Memory``, ``[core]``). A colon is followed by the value at once (``key:
# value`` is YAML's, ``ERROR: …`` a log's); not a URL, grep's ``a.py:12:``, a test id's ``a.py::t``.
PROPERTY_KEY = re.compile(r"\s*[A-Za-z_][\w.\-/]{0,79}(?:\s*=|:(?![ \t:]|//|\d+[:-]))")
PROPERTY_SECTION = re.compile(r"#\s*\w[\w .\-/]{0,60}\s*\Z|\[[\w .\-/\"]{1,80}\]\s*\Z")
_PROPERTY_KEYS = 10
# A line of columns two spaces apart or more (``xmerl_scan:scan_nmtoken/7   92881   17.05``, an
# Erlang function and its counts): a table's row, whatever its first column's colon
_ROW_GAPS = re.compile(r"\S {2,}\S+ {2,}\S")
_PROPERTY_SAMPLE = 400
_PROPERTY_PREFIX = 400


# Python logging's default format, ``%(levelname)s:%(name)s:%(message)s``: a level is no key
_LEVEL_KEY = re.compile(r"\s*(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL|SEVERE):\S")
# A logfmt record's level among other fields (Prometheus', Loki's, Consul's logs)
_LOGFMT_LEVEL = re.compile(r"\S=\S.* (?:level|lvl)=\w+\b|(?:^|\s)(?:level|lvl)=\w+ .*\S=\S")


def is_properties(lines: Sequence[str]) -> bool:
    """Whether ``lines`` read as a key-value listing (``redis-cli INFO``, ``sysctl -a``): ten or more
    ``key:value`` / ``key=value`` lines (no ``://`` after the key) and, with section lines (``#
    Memory``, ``[core]``), nine in ten non-blank lines (``summaries.properties``); not when half
    its lines are a log's (logfmt's, or Python logging's ``DEBUG:mail.log:…``)."""
    # each line's head: a long line's ``.*`` search went over it again from every ``=`` (1 s on a
    # minified HTML page of 300 kB)
    content = [line[:_PROPERTY_PREFIX] for line in lines[:_PROPERTY_SAMPLE] if line.strip()]
    if 2 * sum(1 for line in content if _LOGFMT_LEVEL.search(line) or _LEVEL_KEY.match(line)) >= len(content):
        return False  # ``ts=… caller=main.go:513 level=info msg="…"``, ``INFO:root:…``: a log's lines
    keys = sum(
        1
        for line in content
        if PROPERTY_KEY.match(line) and not line.lstrip().startswith("#") and not _ROW_GAPS.search(line)
    )
    sections = sum(1 for line in content if PROPERTY_SECTION.match(line.strip()))
    return keys >= _PROPERTY_KEYS and (keys + sections) * 10 >= len(content) * 9


# A configuration file that documents itself in comments (``postgresql.conf``, ``redis.conf``,
# ``sshd_config``, ``php.ini``): its settings (``max_connections = 100``, ``maxmemory-policy
# noeviction``, ``Port 22``) among comment lines (``#`` or ``;``), some of them settings commented
# out (``#port = 5432``, ``# maxmemory <bytes>``). Its ``#`` lines are no Markdown headings.
CONFIG_COMMENT = re.compile(r"\s*(?:#|;(?!;))")  # (``;;`` is Lisp's)
CONFIG_SETTING = re.compile(r"\s*[A-Za-z_][\w.\-/\[\]]{0,79}(?:\s*[=:]\s*\S|[ \t]+(?![=:])\S[^\n]{0,200}\Z)")
_COMMENTED_SETTING = re.compile(
    r"\s*(?:#+|;(?!;))[ \t]{0,4}[A-Za-z_][\w.\-]{0,79}(?:\s*=\s*\S|[ \t]+[^\s.!?,;:]+(?:[ \t]+\S+){0,3}\s*\Z)"
)
_CONFIG_SAMPLE = 4000
_CONFIG_SETTINGS = 3  # settings, and settings commented out, that make a configuration file
_SENTENCE = re.compile(r"[.:;!?,]\s*\Z|\b(?:the|is|are|and|of|to|a|an|be|if|it|this|that|with|for)\b")


def is_commented_config(lines: Sequence[str]) -> bool:
    """Whether (sampled) ``lines`` are a configuration file documented in its comments: half its
    non-blank lines comments, ``_CONFIG_SETTINGS`` settings or more (``key = value``, or a key and
    a few values with no sentence in them) making four in five of its other lines, and as many
    settings commented out; no ``#!`` line."""
    content = [line[:_PROPERTY_PREFIX] for line in lines[:_CONFIG_SAMPLE] if line.strip()]
    if not content or content[0].startswith("#!"):
        return False
    comments = [line for line in content if CONFIG_COMMENT.match(line)]
    if len(comments) * 2 < len(content):
        return False
    settings = sum(1 for line in content if is_config_setting(line))
    if settings < _CONFIG_SETTINGS or settings * 10 < (len(content) - len(comments)) * 8:
        return False  # code among comments (Ruby's ``end``, a brace): a source file's, not settings
    return sum(1 for line in comments if is_commented_out(line)) >= _CONFIG_SETTINGS


def is_commented_out(line: str) -> bool:
    """Whether ``line`` is a setting commented out (``#port = 5432``, ``# maxmemory <bytes>``)."""
    return bool(_COMMENTED_SETTING.match(line)) and not _SENTENCE.search(line.lstrip("#; \t"))


def is_config_setting(line: str) -> bool:
    """Whether ``line`` is a configuration file's setting (see ``is_commented_config``)."""
    if CONFIG_COMMENT.match(line) or not CONFIG_SETTING.match(line):
        return False
    return "=" in line[:120] or ":" in line[:120] or not _SENTENCE.search(line) and len(line.split()) <= 8


# An XML document's first line: its declaration, a doctype (not HTML's) or an element
_XML_START = re.compile(
    r"\s*(?:<\?xml\b|<!DOCTYPE (?!html\b)[A-Za-z_]|<(?!html\b)[A-Za-z_][\w:.-]*[\s>/])", re.I
)
_XML_SAMPLE = 400


# A query plan's node as ``EXPLAIN`` prints it: PostgreSQL's ``->  Hash Join  (cost=76.10..5125.96
# rows=14308 width=79) (actual time=…)``, ``Seq Scan on files f  (cost=…)``; MySQL's tree format's
# ``-> Table scan on t  (cost=0.35 rows=1)``. Its operation is what comes before ``on``, ``using``
# or a colon.
PLAN_NODE = re.compile(
    r"\s*(?:->\s+)?(?P<op>[A-Z][\w-]*(?: [\w-]+)*?)(?:(?: on | using |: )[^\n]*?)?\s+\((?:cost=\d|actual )"
)
_PLAN_NODES = 3  # nodes that make a plan
_PLAN_ROOT_REACH = 5  # non-blank lines its root is among (under psql's ``QUERY PLAN`` and rule)
_PLAN_SAMPLE = 2000  # lines looked at


def is_query_plan(lines: Sequence[str]) -> bool:
    """Whether ``lines`` (their first ``_PLAN_SAMPLE``) are a query plan: its root node among its
    first ``_PLAN_ROOT_REACH`` lines, ``_PLAN_NODES`` nodes or more."""
    content = [line[:400] for line in lines[:_PLAN_SAMPLE] if line.strip()]
    if not any(PLAN_NODE.match(line) for line in content[:_PLAN_ROOT_REACH]):
        return False
    return sum(1 for line in content if "(" in line and PLAN_NODE.match(line)) >= _PLAN_NODES


# pydoc's text (``python -m pydoc str``, ``help(dict)``): its title line, then a class's members in a
# gutter of bars (`` |  capitalize(self, /)`` over `` |      Return a capitalized…``), which a nested
# class repeats (``     |  ``): no table's column separators.
PYDOC_TITLE = re.compile(r"Help on \S.{0,200}:\Z")
PYDOC_GUTTER = re.compile(r"[ |]*\|(?:  |\Z)")
_PYDOC_MEMBERS = 3  # gutter lines that make a class's body


def is_pydoc(lines: Sequence[str]) -> bool:
    """Whether (sampled) ``lines`` are pydoc's text of a class (or a module holding classes): its
    ``Help on … :`` title first, then ``_PYDOC_MEMBERS`` lines or more in its gutter of bars."""
    first = next((line for line in lines if line.strip()), "")
    if not PYDOC_TITLE.match(first.strip()):
        return False
    return sum(1 for line in lines if PYDOC_GUTTER.match(line)) >= _PYDOC_MEMBERS


def is_xml(lines: Sequence[str]) -> bool:
    """Whether (sampled) ``lines`` read as an XML document (``summaries.xml_doc``): eight or more
    lines, the first its declaration, a doctype or an element, and six in ten lines an element's,
    a closing tag's or a comment's."""
    content = [line for line in lines[:_XML_SAMPLE] if line.strip()]
    if len(content) < 8 or not _XML_START.match(content[0]):
        return False
    comments = xml_comments(content)
    tagged = sum(
        1 for line, comment in zip(content, comments, strict=True) if comment or line.lstrip()[:1] == "<"
    )
    return tagged * 10 >= len(content) * 6


def xml_comments(lines: Sequence[str]) -> list[bool]:
    """Per line, whether it is (part of) an XML comment: ``<!--`` opens one, ``-->`` closes it."""
    flags: list[bool] = []
    inside = False
    for line in lines:
        stripped = line.lstrip()
        flag = inside or stripped.startswith("<!--")
        inside = flag and "-->" not in stripped
        flags.append(flag)
    return flags


def is_yaml(lines: Sequence[str]) -> bool:
    """Whether (sampled) ``lines`` read as a YAML document (``kubectl get -o yaml``, a compose file,
    an API result as YAML): nine in ten non-blank lines are a ``key: value`` or ``key:`` line, a
    ``- `` list item, a ``---`` marker, a comment or a value's continuation (deeper than the key
    above it), at least a third of them keys, few of them a top-level key its document already
    named or the key of the line above. A level word is no key (``ERROR: …`` lines are a log)."""
    content = [line for line in lines[:_YAML_SAMPLE] if line.strip()]
    if len(content) < 8:
        return False
    keys = shaped = repeated = 0
    indent = -1  # of the last key or item line: a deeper line goes on its value (``description: >``)
    top: set[str] = set()  # the document's top-level keys: a mapping names each once
    previous = ""  # the line before, when it was a key's
    for line in content:
        stripped = line.lstrip(" ")
        depth = len(line) - len(stripped)
        key = YAML_KEY_LINE.match(line)
        if key is not None and stripped.split(":", 1)[0].upper() not in _LEVEL_WORDS:
            keys += 1
            shaped += 1
            indent = depth
            name = line.split(":", 1)[0]
            if depth == 0 and not key.group(2):
                repeated += name in top
                top.add(name)
            elif name == previous and not key.group(2):
                repeated += 1  # the same key on the line before, as deep: a prefix (``checking: …``)
            previous = name
            continue
        previous = ""
        if stripped.rstrip() == "---":
            shaped += 1
            top.clear()
        elif stripped.startswith(("- ", "#")) or stripped.rstrip() in ("---", "...", "-"):
            shaped += 1
            indent = depth if stripped.startswith("- ") else indent
        elif 0 <= indent < depth:
            shaped += 1
    # A top-level key on many lines is a prefix, not a key (ctest -V's ``12: `` before each line),
    # as is a key on line after line (``raco make -vv``'s ``checking: …`` under each file).
    return keys * 3 >= len(content) and shaped * 10 >= len(content) * 9 and repeated * 4 < keys


_MANY_RECORDS = 20
_MANY_SHARE = 0.5


def json_shape(value: Any) -> ContentKind | None:
    """ROWS for a JSON array of flat records, TREE for a directory tree, else ``None``."""
    if isinstance(value, dict) and _is_tree_node(value) and _has_children(value):
        return ContentKind.TREE
    if not isinstance(value, list) or not value:
        return None
    head = value[:50]
    # A tree's top level may be one directory (``directory_tree`` of ``/`` gives ``[{"name": "usr", …}]``);
    # ``tree -J`` closes its list with ``{"type": "report", "directories": 204, "files": 235}``.
    nodes = [item for item in head if isinstance(item, dict) and _is_tree_node(item)]
    reports = sum(1 for item in head if isinstance(item, dict) and item.get("type") == "report")
    if nodes and len(nodes) + reports == len(head) and (len(value) >= 3 or any(map(_has_children, nodes))):
        return ContentKind.TREE
    if len(value) < 3:
        return None
    # Many records are a row set when half their members are scalars (countries with lists of
    # borders and maps of languages): a table shows dozens of them where a skeleton shows a few.
    share = _MANY_SHARE if len(value) >= _MANY_RECORDS else 0.75
    flat = sum(_flat_record(item, share) for item in head)
    return ContentKind.ROWS if flat * 10 >= len(head) * 9 else None


def is_file_read(tool_name: str) -> bool:
    """Whether the tool reads one file (``read_file``, ``read_text_file``, ``get_file_contents``),
    not what is said of it (``get_file_summary``, ``get_file_info``)."""
    words = set(tool_words(tool_name))
    return (
        "file" in words
        and bool(words & _READ_VERBS)
        and not words & {"files", "multiple"}
        and not words & _ABOUT_A_FILE
    )


# A tool named for what it says of a file, not its text: an outline, its metadata, its history.
_ABOUT_A_FILE = frozenset(
    {"summary", "info", "metadata", "stats", "status", "outline", "symbols", "history", "blame", "watcher"}
)


def _code_path(arguments: Mapping[str, Any]) -> bool:
    """Whether the call names a source file by its extension (a ``.md`` or ``.log`` read is not code)."""
    for key in ("path", "file", "file_path", "filename", "uri"):
        value = arguments.get(key)
        if isinstance(value, str) and _is_code_file(value):
            return True
    return False


def _is_code_file(path: str) -> bool:
    return path.rsplit(".", 1)[-1].lower() in _CODE_EXTENSIONS


# A shell command that prints files: ``cat a.h``, ``head -n 400 a.go``, ``sed -n '1,1300p' a.rb``,
# ``cat mux.go route.go regexp.go``.
_PRINTS_FILE = re.compile(
    r"\s*(?:cat|bat|batcat|nl|head|tail|sed -n\s+(?:'[^']*'|\"[^\"]*\"|\S+))"
    r"(?:\s+-{1,2}[\w-]+(?:[ =]\d+)?)*(?P<paths>(?:\s+[^\s|;&<>-][^\s|;&<>]*)+)\s*\Z"
)


def prints_source_file(arguments: Mapping[str, Any]) -> bool:
    """Whether the call's command prints source files and nothing else (``cat src/a.rs``,
    ``cat mux.go route.go``)."""
    command = arguments.get("command") or arguments.get("cmd")
    if not isinstance(command, str) or len(command) > 500:
        return False
    found = _PRINTS_FILE.match(command)
    return found is not None and all(_is_code_file(path) for path in found.group("paths").split())


def _is_tree_node(value: dict[str, Any]) -> bool:
    return isinstance(value.get("name"), str) and value.get("type") in ("file", "directory", "dir", "folder")


TREE_CHILDREN = ("children", "contents")  # the filesystem MCP server's key, ``tree -J``'s


def _has_children(node: dict[str, Any]) -> bool:
    return any(key in node for key in TREE_CHILDREN)


def is_listing_directory(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is ``ls -R``'s ``./lib/vquic:`` opening a directory's entries: the
    listing's first line or one after a blank line."""
    return (index == 0 or not lines[index - 1].strip()) and _LISTING_DIRECTORY.match(lines[index]) is not None


_BODY_MARKS = frozenset(" +-")
_BODY_OTHERS = 2  # lines of a headerless diff that open with no mark: its outer brackets
_BODY_CHANGES = 3  # changed lines, at least


def is_hunk_body(lines: Sequence[str]) -> bool:
    """Whether ``lines`` are a diff's lines without file or hunk headers, as JSON differs print
    them (``json-diff``, ``jsondiffpatch``): every line but an outer bracket or two opens with a
    space, a ``+`` or a ``-``, lines open with each, and the changed ones are at least a few."""
    marks = Counter(line[:1] if line[:1] in _BODY_MARKS else "" for line in lines if line.strip())
    return (
        marks[""] <= _BODY_OTHERS
        and all(marks[mark] for mark in _BODY_MARKS)
        and marks["+"] + marks["-"] >= _BODY_CHANGES
    )


_WORD_REMOVED = re.compile(r"\[-(?!-).*?-\]")  # ``wdiff``'s ``[-old-]`` (not a ``[-----]`` column)
_WORD_ADDED = re.compile(r"\{\+(?!\+).*?\+\}")
WORD_MARK = re.compile(rf"{_WORD_REMOVED.pattern}|{_WORD_ADDED.pattern}")  # either
_WORD_LINES = 2  # lines with each mark, at least


def is_word_body(lines: Sequence[str]) -> bool:
    """Whether ``lines`` hold a word diff's marks, ``[-old-]`` on some lines and ``{+new+}`` on
    others (``wdiff``, ``dwdiff``, ``git diff --word-diff``), whatever else they hold."""
    removed = sum(1 for line in lines if _WORD_REMOVED.search(line))
    added = sum(1 for line in lines if _WORD_ADDED.search(line))
    return removed >= _WORD_LINES and added >= _WORD_LINES


# graphtage's marks in a tree document's lines: ``~~"avianca"~~,`` removed, ``"^2.1~~0~~++2++"``
# changed in place (not gcc's ``~~~~^~~~`` carets: a mark holds something besides them)
STRUCK = re.compile(r"~~[^~\s^|](?:[^~\n]*?[^~\s^|])?~~|\+\+[^+\s](?:[^+\n]*?[^+\s])?\+\+")
# a JSON document's line: a member, a bracket, or a bare scalar item (a mark before it, graphtage's)
_JSON_LINE = re.compile(r'\s*(?:~~|\+\+)?(?:["{}\[\]]|(?:-?\d[\d.eE+-]*|true|false|null)(?:~~|\+\+)?,?\s*\Z)')
_STRUCK_LINES = 3  # lines with a mark, at least
_JSON_SHARE = 0.9  # of the non-blank lines, a JSON document's


def is_struck_body(lines: Sequence[str]) -> bool:
    """Whether ``lines`` are a JSON document with a tree differ's marks in a few of them
    (``graphtage --no-color``: ``~~old~~`` and ``++new++``); Markdown's ``~~struck~~`` words stand
    in prose, whose lines are no JSON's."""
    if sum(1 for line in lines if STRUCK.search(line)) < _STRUCK_LINES:
        return False
    filled = [line for line in lines if line.strip()]
    return sum(1 for line in filled if _JSON_LINE.match(line)) >= _JSON_SHARE * len(filled)
