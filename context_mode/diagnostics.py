"""Reading lint and type-check diagnostics out of tool output, line by line, in one pass.

``find_diagnostics(lines)`` returns one ``Diagnostic`` per reported problem, for the formats agents
meet in CI (``clean_line`` is applied first, so ANSI colours and CI timestamp prefixes never hide
a match; the indexes point at the verbatim input lines):

- tsc: ``src/a.ts(69,29): error TS2532: Object is possibly 'undefined'.``, and with ``--pretty``
  ``src/a.ts:69:29 - error TS2532: …`` (its numbered code line above a ``~~~`` line is context);
- ``file:line[:col]: …`` with a severity or a rule (mypy with its ``[code]``, cpplint's
  ``[build/include_order] [4]``, ruff/flake8
  concise ``F821 …``, gcc/clang, ESLint ``--format unix``, cppcheck's ``style:`` /
  ``performance:`` … ``[ruleId]``; after a column, a check's dotted or snake_case name:
  proselint's ``typography.symbols.curly_quotes: …``; a code in brackets first, pylint's
  ``parseable`` ``[C0116(missing-function-docstring), main] …``, its rule the symbol); a bare grep
  match is not one; the place may be in parentheses, ``file(line[,col]): …`` (pylint's ``msvs``,
  MSVC's and Mono's ``warning CS0642: …``);
- two-line headers with a ``--> file:line:col`` below (rustc/cargo/clippy ``warning: …`` /
  ``error[E0308]: …``, ruff's full format ``F821 Undefined name …``, ty's
  ``error[invalid-argument-type]: …``, zizmor's ``warning[artipacked]: …`` and ``info[…]: …``),
  or annotate-snippets' ``╭▸ file:line:col`` (typos) or miette's ``,-[file:line:col]`` /
  ``╭─[file:line:col]`` under ``  ! rule(name): …`` or ``  × …`` (oxlint, deno lint);
  clippy's rule comes from its ``#[warn(clippy::…)]`` note or help URL a few lines down;
- ESLint stylish: a path line, then ``  30:14  error  'x' is not defined  no-undef`` rows (a row
  with no rule is a ``parse`` error, ``  1:1  error  Parsing error: …``, or its severity's)
  (pydoclint's likewise, its rows led by the line and the code: ``    60: DOC203: Method …``);
  stylelint's string format likewise, its severity a ``✖`` or ``⚠``, and yamllint's, its rule
  in parentheses;
- RuboCop's ``file:line:col: C: [Correctable] Style/StringLiterals: …`` (C, W, E, F, R),
  markdownlint's ``README.md:12:81 [error ]MD013/line-length …`` and hadolint's ``Dockerfile:3 DL3008
  warning: …`` (the rule right after the location), Checkstyle's ``[WARN] path:12:5: … [Rule]``;
  a problem with a whole file, its rule after the path (deptry's ``pyproject.toml: DEP002 …``);
- pyright: ``  /src/a.py:44:19 - error: … (reportAttributeAccessIssue)``;
- Biome: ``lib/a.js:146:25 lint/style/useTemplate  FIXABLE  ━━━``, its message on the next line (led
  by ``×``, ``!`` or ``i``: the severity), which stands as its location line; Bandit's
  ``>> Issue: [B101:assert_used] …`` with its ``Severity:`` (High, Medium, Low) and ``Location:``
  lines below; SQLFluff's ``== [a.sql] FAIL`` file lines and ``L:  47 | P:  10 | LT01 | …`` rows;
- Go's compiler and vet: ``# example.com/pkg``, then ``./main.go:10:7: undefined: x`` lines;
- JSHint's default reporter: ``lib/a.js: line 52, col 14, 'i' is already defined. (W004)``;
- ShellCheck's default format: ``In path line 12:``, the code line, then a caret line
  ``^-- SC2086 (info): Double quote …`` per problem (``-f gcc`` is the ``file:line`` form);
- Dart Sass: ``DEPRECATION WARNING [import]: …`` (``WARNING:``, ``Error:``), a drawn snippet, then
  its stack, whose first line (``    scss/app.scss 7:9  root stylesheet``) is where it is;
- PHP_CodeSniffer's full report: ``FILE: path`` lines, then ``  37 | ERROR   | [x] …`` rows, the
  message wrapped onto ``     |         |     …`` lines (with ``-s``, the last of them the sniff's
  code in parentheses: the rule; without, the severity is);
- GitHub Actions annotations (``ruff --output-format github``, actionlint): ``::error title=ruff
  (F401),file=/src/a.py,line=3,col=8::…``, the rule the code in its title or message;
- luacheck's default report: ``Checking path   6 warnings``, then the file's problems indented
  below it (``    path:9:27: unused argument 'f'``), a code only with ``--codes``;
- Semgrep's text: a file's path indented four spaces, a rule under it (``❯❱ rule.id``, its marks
  the severity), the rule's message, then a finding per ``  106┆ code`` line
  (``semgrep_message`` finds a finding's message).

``clean_lines`` does it to a whole list when needed; ``without_service_prefix`` drops the service
column of a multi-service log (``docker compose logs``: ``web-1  | …``; ``kubectl logs --prefix``:
``[pod/web-7d4b9/app] …``) when nearly every line has one, and ``without_test_number`` drops the
test numbers ``ctest -V`` puts before each line a test printed; ``is_server_log`` spots
access/error logs.
``is_eslint_report(value)`` recognises ESLint's parsed ``--format json``, ``is_diagnostic_records(value)``
a list of one record per diagnostic (ruff's, pylint's, ShellCheck's JSON), ``diagnostic_records(value)``
that list or the one an object holds beside its totals (pylint's ``json2``, pyright's
``--outputjson``, bandit's ``-f json``), ``json_line_records(lines)`` JSON Lines of such records
(mypy's ``-O json``), ``is_checkstyle(text)`` and ``checkstyle_items(text)`` Checkstyle's XML
report (ESLint's, ShellCheck's, ktlint's …: its ``<file>`` tags and ``<error>`` elements, however
its lines break), ``is_junit_lint(text)`` a linter's report in JUnit's XML (``junit_lint_suite(line)``
the rules' package a ``<testsuite`` line names), ``is_sarif(value)`` a
SARIF log (code scanners' common format: CodeQL, Semgrep, Trivy, ruff's ``--output-format
sarif``); ``is_lint(lines)``
says whether a sample reads as lint output; ``lint_totals(line)`` whether a line is a lint
tool's totals line (``Found 112 errors.``, ``✖ 12 problems (…)``, cppcheck's last
``34/34 files checked 100% done``). Pure and linear.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from context_mode.ansi import strip_ansi

# GitHub Actions (``2026-11-30T10:15:02.1234567Z ``) and similar ISO timestamps at line start.
_CI_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z? ")

# ShellCheck's default (tty) format: ``In path line 12:``, the code, then ``^-- SC2086 (info): …``.
SHELLCHECK_AT = re.compile(r"In (?P<file>\S.{0,250}) line (?P<line>\d+):\Z")
_SHELLCHECK_NOTE = re.compile(r"\s*\^[-^]*\s+(?P<code>SC\d{4}) \((?P<sev>error|warning|info|style)\): ")
# Semgrep's text: a file's path (indented four spaces), a rule under it (``❯❯❱ rule.id``: error,
# ``❯❱``: warning, ``❱``: info), its message, then each finding's line (``  345┆ assert x``).
_SEMGREP_RULE = re.compile(r"\s{1,8}(?P<marks>❯❯❱|❯❱|❱) (?P<rule>\S+)\s*\Z")
_SEMGREP_LEVELS = {"❯❯❱": "error", "❯❱": "warning", "❱": "info"}
_SEMGREP_FINDING = re.compile(r"\s+\d+┆")
SEMGREP_BLOCKING = re.compile(r"\s*❰❰ (?:Blocking|Non-blocking) ❱❱\s*\Z")


def semgrep_message(lines: Sequence[str], index: int) -> int:
    """For a Semgrep finding's line, the line of its rule's message (the first below the rule's
    ``❯❱`` line but its ``❰❰ Blocking ❱❱``), else -1."""
    for above in range(index - 1, max(-1, index - 400), -1):
        line = clean_line(lines[above])
        if "❱" in line[:12] and _SEMGREP_RULE.match(line):
            for below in range(above + 1, min(index, above + 4)):
                text = clean_line(lines[below])
                if text.strip() and not SEMGREP_BLOCKING.match(text):
                    return below
            return -1
    return -1


# ``go build`` / ``go vet``: ``# example.com/pkg``, then ``./main.go:10:7: undefined: x`` lines
# (no severity word, no rule; the package line says they are compiler errors, not grep matches).
_GO_PACKAGE = re.compile(r"# [\w.\-]+(?:/[\w.\-]+)*(?: \[[\w./ -]+\])?\Z")
_GO_ERROR = re.compile(r"\S+\.go:\d+:\d+: \S")
_TSC = re.compile(r"(?P<file>[^\s(][^()\n]*)\((?P<line>\d+),\d+\): (?P<sev>error|warning) (?P<code>TS\d+): ")
# tsc --pretty (its default on a terminal): ``src/a.ts:69:29 - error TS2532: …``, code and ``~~~`` below
_TSC_PRETTY = re.compile(
    r"(?P<file>[^\s:][^:\n]*):(?P<line>\d+):\d+ - (?P<sev>error|warning) (?P<code>TS\d+): "
)
# pyright: ``  /src/a.py:44:19 - error: "x" is not a known attribute (reportAttributeAccessIssue)``
_PYRIGHT = re.compile(
    r"\s*(?P<file>\S[^\n]*?):(?P<line>\d+):\d+ - (?P<sev>error|warning|information): .*?"
    r"(?: \((?P<code>report\w+)\))?\s*\Z"
)
_COLON = re.compile(
    r"(?P<file>[^\s:][^:\n]{0,250}?(?:\.[A-Za-z0-9]{1,8}|/[\w.-]+)):(?P<line>\d+):(?:(?P<col>\d+):)? "
    r"(?:(?P<sev>error|warning|note|info|fatal error|style|performance|portability|information):\s*)?"
    r"(?P<msg>.*)"
)
# A place in parentheses (pylint's ``msvs`` format, MSVC's): ``httpx/_api.py(18): [C0116(…)] …``,
# ``src\\main.cpp(12,5): warning C4996: 'strcpy': …``, read as ``_COLON``'s groups
_PAREN_PLACE = re.compile(
    r"(?P<file>[^\s(][^()\n]{0,250}?\.[A-Za-z0-9]{1,8})\((?P<line>\d+)(?:,(?P<col>\d+))?\) ?: "
    r"(?:(?P<sev>error|warning|note|info|fatal error)(?::\s*|\s+(?=[A-Z]{1,4}\d)))?"
    r"(?P<msg>.*)"
)
# A code in brackets first: pylint's ``parseable`` and ``msvs`` formats' ``[C0114(missing-module-docstring),
# ] Missing module docstring`` (the rule its symbol; the object after it, ``msvs`` without a comma),
# ruff's ``pylint`` format's ``[CPY001] …``
_BRACKET_FIRST = re.compile(
    r"\[(?P<code>[A-Z]{1,4}\d{2,5})(?:\((?P<symbol>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)\)(?:,? ?[^\]\n]*))?\] \S"
)
# pylint's message ids say their category (see ``_SEVERITY``)
_PYLINT_CODE = re.compile(r"[FEWRCI]\d{4}\Z")
# How the summaries rank the severities that tools spell their own way; other words are as written.
_SEVERITY = {
    # pylint's message-id letters, and RuboCop's severity letters, which are the same
    "F": "fatal",
    "E": "error",
    "W": "warning",
    "R": "refactor",
    "C": "convention",
    "I": "info",
    # Checkstyle's ``[WARN]`` / ``[ERROR]`` line prefixes
    "ERROR": "error",
    "WARN": "warning",
    "WARNING": "warning",
    "INFO": "info",
    # stylelint's symbols
    "✖": "error",
    "×": "error",
    "⚠": "warning",
    # cppcheck's severities besides error and warning, and pyright's information
    "style": "warning",
    "performance": "warning",
    "portability": "warning",
    "information": "info",
}
_CODE_FIRST = re.compile(r"(?P<code>[A-Z]{1,4}\d{2,4}):? \S")  # ruff ``E501 …``, pylint ``C0114: …``
# A check's name first, dotted or snake_case, after a line and a column: proselint's
# ``typography.symbols.curly_quotes: Use curly quotes …``, ``lexical_illusions: There's …``
_NAME_FIRST = re.compile(r"(?P<code>[a-z][a-z0-9]*(?:[._][a-z0-9]+)+): \S")
# RuboCop: ``C: [Correctable] Style/StringLiterals: Prefer single-quoted strings …``
_RUBOCOP = re.compile(r"(?P<sev>[CWEFRI]): (?:\[Correctable\] )?(?P<code>[A-Z]\w*(?:/[A-Z]\w*)+): \S")
# markdownlint ``README.md:12:81 MD013/line-length Line length …``, hadolint ``Dockerfile:3 DL3008
# warning: Pin versions …``: the rule right after the location, no colon between
_SPACED_CODE = re.compile(
    r"(?P<file>[^\s:][^:\n]{0,250}?):(?P<line>\d+)(?::\d+)? (?:(?P<sev0>error|warning) )?"
    r"(?P<code>[A-Z]{1,4}\d{2,5})(?:/[\w-]+)*(?: (?P<sev>error|warning|info|style))?:? \S"
)
# A problem with a whole file, no line: deptry's ``pyproject.toml: DEP002 'asv' defined as a
# dependency but not used in the codebase`` (its empty severity groups read as ``_SPACED_CODE``'s)
_FILE_CODE = re.compile(
    r"(?P<file>[^\s:][^:\n]{0,250}?\.[A-Za-z0-9]{1,8}): (?P<sev0>)(?P<code>[A-Z]{1,4}\d{2,5})(?P<sev>) \S"
)
# Biome: ``lib/a.js:146:25 lint/style/useTemplate  FIXABLE  ━━━━``; its severity mark (``×``, ``!``,
# ``i``) starts the first line below
_BIOME = re.compile(
    r"(?P<file>[^\s:][^:\n]{0,250}?):(?P<line>\d+):\d+ (?P<code>(?:lint|parse|assist)/[\w/]+)\b.*━"
)
_BIOME_MARK = {"×": "error", "✖": "error", "!": "warning", "⚠": "warning", "i": "info", "ℹ": "info"}
# Bandit: ``>> Issue: [B101:assert_used] …``, then ``   Severity: Low …`` and ``   Location: a.py:3:8``
_BANDIT = re.compile(r">> Issue: \[(?P<code>B\d{3})(?::[\w-]+)?\] \S")
_BANDIT_SEVERITY = re.compile(r"\s+Severity: (?P<sev>\w+)")
_BANDIT_AT = re.compile(r"\s+Location: (?P<file>\S.*?):\d+(?::\d+)?\s*\Z")
_BANDIT_LEVELS = {"High": "error", "Medium": "warning", "Low": "info"}
# SQLFluff: ``== [models/a.sql] FAIL``, then ``L:  47 | P:  10 | LT01 | …`` rows (``PRS``: unparsable)
_SQLFLUFF_FILE = re.compile(r"== \[(?P<file>[^\]\n]+)\] (?:FAIL|PASS)\s*\Z")
_SQLFLUFF_ROW = re.compile(r"L:\s*\d+ \| P:\s*\d+ \|\s+(?P<code>\w+) \| \S")
# Checkstyle: ``[WARN] /src/App.java:12:5: Missing a Javadoc comment. [MissingJavadocMethod]``
_LEVEL_PREFIX = re.compile(r"\[(?P<level>ERROR|WARN|WARNING|INFO)\] ")
_CHECK_NAME = re.compile(r"\s\[(?P<code>[A-Z]\w+)\]\s*\Z")
# mypy's ``[arg-type]``; staticcheck's and go vet's ``(ST1003)``, pylint's ``(missing-docstring)``
# perlcritic: ``Git.pm:16:1: [Modules::ProhibitAutomaticExportation] Symbols are … (Severity: 4)``;
# its severities run from 5 (gentle: the most severe) to 1.
_PERLCRITIC = re.compile(r"\[(?P<code>[A-Z]\w*(?:::[A-Z]\w*)+)\] .*\(Severity: (?P<sev>[1-5])\)\s*\Z")
_CRITIC_LEVELS = {"5": "error", "4": "warning"}
# cpplint: ``a.h:15:  Include the directory when naming header files  [build/include_subdir] [4]``
_CPPLINT = re.compile(r"\s\[(?P<code>[a-z]+/[\w+-]+)\] \[(?P<conf>[1-5])\]\s*\Z")
# A rule in brackets or parentheses at the end: mypy's ``[arg-type]``, gcc's and clang's
# ``[-Wunused-parameter]`` (``[-Werror,-Wunused-variable]``), the clang analyzer's checker
# ``[core.NullDereference]`` and clang-tidy's ``[clang-analyzer-core.…]`` (its packages only: in
# ``return [self.x]`` a dotted name is code), a code ``[E501]`` / ``(W0611)``, ``(no-undef)``.
_ANALYZER_CHECKER = (
    r"(?:clang-analyzer-)?(?:core|alpha|unix|deadcode|cplusplus|optin|security|osx|nullability|valist|fuchsia|webkit)"
    r"(?:\.[A-Za-z]\w*)+"
)
_BRACKET_CODE = re.compile(
    r"\s(?:\[(?P<code>[a-z][\w-]*|[A-Z]{1,4}\d{2,5}|-W[\w=+-]+(?:,-W[\w=+-]+)*|" + _ANALYZER_CHECKER + r")\]"
    r"|\((?P<paren>[A-Z]{1,4}\d{2,4}|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\))\s*\Z"
)
_HEADER = re.compile(
    r"(?P<sev>error|warning|info(?=\[))(?:\[(?P<code>[A-Z]+\d+|[a-z][a-z0-9]*(?:-[a-z0-9]+)*)\])?: "
    r"(?P<msg>.+)"
    r"|(?P<rcode>[A-Z]{1,4}\d{2,4}) (?P<rmsg>.+)"
    # miette's (oxlint, deno lint): ``  ! eslint(no-unused-expressions): Expected …``, ``  × …``
    r"|\s{0,4}(?P<mark>[!×⚠✖]) (?P<mcode>[\w@/-]+(?:\([\w@/-]+\))?): (?P<mmsg>.+)"
)
_MARK_LEVELS = {"!": "warning", "⚠": "warning", "×": "error", "✖": "error"}
# JSHint's default reporter: ``lib/a.js: line 52, col 14, 'i' is already defined. (W004)``; its
# totals line is ``366 errors``.
_JSHINT = re.compile(r"(?P<file>[^\s:][^:\n]*): line \d+, col \d+, \S.*?(?: \((?P<code>[EWI]\d{3})\))?\s*\Z")
_JSHINT_LEVELS = {"E": "error", "W": "warning", "I": "info"}
# luacheck's default report: ``Checking ldoc/builtin/debug.lua      1 error`` (or ``6 warnings``,
# ``3 warnings / 1 error``, ``OK``), then the file's problems indented below it, with a code only
# under ``--codes`` (``(W211)``); without one, the message with its quoted names left out is
# the rule (``unused argument 'f'``: ``unused argument``; ``line is too long (129 > 120)``: ``… (N > N)``)
_LUACHECK_FILE = re.compile(
    r"Checking (?P<file>\S+)\s+(?:OK|(?P<warnings>\d+ warnings?)?(?: / )?(?P<errors>\d+ errors?)?)\s*\Z"
)
_LUACHECK_ROW = re.compile(
    r"\s{2,}(?P<file>[^\s:][^:\n]*):\d+:\d+: (?:\((?P<code>[EW]\d{3})\) )?(?P<msg>\S.*)"
)
_BOLD_NAME = re.compile(r"\x1b\[0m\x1b\[1m([^\x1b]*)\x1b\[0m")
# Dart Sass: ``DEPRECATION WARNING [import]: Sass @import rules are deprecated …`` (or ``WARNING:``,
# ``Error:``), a drawn snippet (``  ╷`` / ``7 │ @import …`` / ``  ╵``), then the stack, its first
# line where the problem is: ``    scss/app.scss 7:9  root stylesheet``
_SASS = re.compile(r"(?:(?P<dep>DEPRECATION )?WARNING|(?P<err>Error))(?: \[(?P<code>[\w-]+)\])?: \S")
_SASS_AT = re.compile(r" {4}(?P<file>[^\s:][^\s]*\.(?:s[ac]ss|css)) \d+:\d+ +\S")
_SASS_REACH = 12  # lines from a header to its stack's first line
_QUOTED = re.compile(r"\s*'[^'\n]*'")
_DIGITS = re.compile(r"\d+")
# Where a two-line header's problem is: rustc's ``--> src/a.rs:4:5``, annotate-snippets' unicode
# ``╭▸ ./tests/a.py:159:31`` (typos), miette's ``,-[lib/a.js:331:1]`` and ``╭─[lib/a.js:331:1]``
_ARROW = re.compile(r"\s*(?:(?:-->|╭▸) |(?:,-|╭─)\[)(?P<file>[^\s:][^:\n]*):(?P<line>\d+)(?::\d+)?")
_LINT_NAME = re.compile(r"#\[(?:warn|deny)\((?P<code>[\w:]+)\)\]|rust-clippy/[^#\s]*#(?P<url>\w+)")
# ESLint stylish rows; stylelint's string format marks the severity with ✖ / ⚠ instead
_STYLISH_ROW = re.compile(
    r"\s+(?P<line>\d+):\d+\s+(?P<sev>error|warning|✖|×|⚠)\s+.*?\S\s{2,}"
    r"(?:(?P<code>[@\w/-]+)|\((?P<pcode>[\w-]+)\))\s*\Z"  # yamllint's rule in parentheses
)
# An ESLint stylish row with no rule: a file that did not parse (``  1:1  error  Parsing error: …``),
# an unused ``eslint-disable`` directive
_STYLISH_BARE = re.compile(r"\s+\d+:\d+\s+(?P<sev>error|warning)\s{2,}(?P<msg>\S)")
# PHP_CodeSniffer's full report: ``  37 | ERROR   | [x] Opening brace should be on a new line``
# under a ``FILE: path`` line, the message wrapped onto ``     |         |     …`` lines, the last of
# them the sniff's code in parentheses with ``-s`` (``(PSR12.Files.OpenTag.NotAlone)``)
PHPCS_ROW = re.compile(r"\s*\d+ \| (?P<sev>ERROR|WARNING)\s*\| (?:\[[x ]\] )?(?P<msg>\S)")
PHPCS_FOUND = re.compile(r"FOUND \d+ (?:ERRORS?|WARNINGS?)\b.* AFFECTING \d+ LINES?\s*\Z")  # per file
PHPCS_MORE = re.compile(r"\s+\|\s+\|\s+(?P<msg>\S.*)")
_PHPCS_SNIFF = re.compile(r"\((?P<code>[A-Z]\w*(?:\.\w+){2,})\)\s*\Z")
# A GitHub Actions annotation, as linters print them for CI (``ruff --output-format github``,
# actionlint, pylint-github): ``::error title=ruff (F401),file=/src/a.py,line=3,col=8::a.py:3:8: F401 …``
ANNOTATION = re.compile(r"::(?P<sev>error|warning|notice)(?: (?P<params>[^:\n]*?))?::(?P<msg>.*)")
_ANNOTATION_PARAM = re.compile(r"(\w+)=([^,]*)")
_TITLE_CODE = re.compile(r"\((?P<code>[A-Z]{1,6}\d{2,5})\)")
MESSAGE_PLACE = re.compile(r"\S+:\d+(?::\d+)?: ")  # a message's own ``a.py:3:8: `` (an annotation's)
_PHPCS_LINES = 6  # wrapped lines a row's message may run over
# mypy --pretty's wrapped message: its last line ends in the code, two spaces before it (or holds
# the code alone), within a few lines
_WRAP_LINES = 3
_WRAPPED_CODE = re.compile(r"(?:\S.*?  )?\[(?P<code>[a-z][a-z0-9-]*)\]\s*\Z")
# A code-first row under a path line: pydoclint's ``    60: DOC203: Method `X.y` …``
# (ruff's ``--output-format grouped``: ``  436:5  D401 First line of docstring …``, no colon)
GROUPED_ROW = re.compile(r"\s+(?P<line>\d+)(?::\d+)?(?:: |\s+)(?P<code>[A-Z]{1,6}\d{2,4}):? \S")
_PATH_ALONE = re.compile(
    r"(?:/|[A-Za-z]:\\|\./)?[\w.@\-/\\]+\.[A-Za-z0-9]{1,8}:?\Z"
)  # ruff's grouped: ``a.py:``
_TOTALS = re.compile(
    # "Found 112 errors.", deptry's "Found 36 dependency issues."
    r"Found \d+ (?:[\w-]+ )?(?:errors?|warnings?|infos?|diagnostics?|issues?|problems?|violations?)\b|"
    r"Diagnostics not shown: \d+|Checked \d+ files? in \d|"  # Biome's: it prints the first 20 only
    r"Found \d+ errors? in \d+ files?|Success: no issues found|"
    r"[✖×x] \d+ problems? \(|\d+ problems? \(\d+ errors?, \d+ warnings?\)|"
    r"(?:warning|error): .* generated \d+ warnings?|error: could not compile|"
    r"All checks passed!|Found \d+ errors? in the same file|\d+ errors?, \d+ warnings?|"
    r"\d+/\d+ files checked \d+% done|\d+ files? inspected, (?:no|\d+) offenses? detected|"
    r"\s*Total issues \(by severity\):|All Finished\b|"  # Bandit's metrics, SQLFluff's last line
    r"Suppressed \d+ warnings \(\d+ in non-user code\)|"  # clang-tidy
    r"\A\d+ errors?\s*\Z|"  # JSHint
    r"\ATotal errors found: \d+|"  # cpplint
    r"A TOTAL OF \d+ (?:ERRORS?|WARNINGS?|SNIFF VIOLATIONS?)\b"  # PHP_CodeSniffer's summary reports
)
# Combined/common access log lines, and nginx / Apache error log lines.
_ACCESS = re.compile(r'\S+ \S+ \S+ \[[^\]\n]{10,40}\] "[^"\n]*" \d{3} ')
_ERROR_LOG = re.compile(r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[\w+\] |\[\w{3} \w{3} [^\]\n]{8,40}\] \[[\w:]+\] ")
_TOTALS_REACH = 20  # last lines where a totals line says the output is lint (cppcheck's whole-program
# findings come after its "34/34 files checked 100% done")
_BANDIT_LINES = 6  # lines below a Bandit issue where its ``Location:`` is
_LOOKAHEAD = 12  # lines below a two-line header where its ``-->`` location may be


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One reported problem: its header line, the line naming its file (often the same; ESLint's path
    line comes before its rows, rustc's ``-->`` after its header), its rule, file and severity."""

    index: int
    location: int
    rule: str
    file: str
    severity: str


def clean_line(line: str) -> str:
    """``line`` without ANSI escape codes and without a leading CI timestamp, for matching only."""
    line = strip_ansi(line)
    if line[:1].isdigit():
        stamp = _CI_STAMP.match(line)
        if stamp:
            line = line[stamp.end() :]
    return line


def clean_lines(lines: Sequence[str], text: str | None = None) -> Sequence[str]:
    """``lines`` through ``clean_line`` when any has a colour code or a CI stamp, else ``lines`` itself.

    ``text``, when given, is the text ``lines`` were split from: a colour code is looked for in
    it in one memchr instead of line by line (ESC breaks no line, so the answer is the same).
    """
    sample = lines[:50]
    coloured = "\x1b" in text if text is not None else any("\x1b" in line for line in lines)
    if coloured or any(line[:1].isdigit() and _CI_STAMP.match(line) for line in sample):
        return [clean_line(line) for line in lines]
    return lines


# ``docker compose logs``: ``db-1        | …``; ``kubectl logs --prefix``: ``[pod/web-7d4b9/app] …``
SERVICE_PREFIX = re.compile(r"[\w.@-]{1,60} +\| |\[pod/[^\]\s]{1,200}\] ")
_PREFIXED_SHARE = 0.9
# Python's exception group: ``  + Exception Group Traceback (most recent call last):``, then each
# line of it and of its sub-exceptions' tracebacks behind a gutter (``  | ``, ``    | ``), the
# sub-exceptions apart by ``  +-+---------------- 1 ----------------``
GROUP_TRACEBACK = re.compile(r"\s*\+ Exception Group Traceback \(most recent call last\):")
_GROUP_GUTTER = re.compile(r"\s*\| ")
_GUTTER_SHARE = 0.6
_CTEST_PREFIX = re.compile(r"\d{1,4}: ")
_CTEST_LINE = re.compile(r"\s*(?:\d+/\d+ Test\s+#\d+: |Start\s+\d+: )")
_CTEST_SHARE = 0.5


def without_service_prefix(lines: Sequence[str]) -> Sequence[str]:
    """``lines`` without their service column (``SERVICE_PREFIX``) when nine in ten non-blank lines of the
    first 200 have one (``docker compose logs``), or without an exception group's gutter (``  |  ``
    before each line of its tracebacks) when most have one, else ``without_test_number(lines)``;
    for matching only."""
    cut = _without_prefix(lines, SERVICE_PREFIX, _PREFIXED_SHARE)
    if cut is None:
        cut = _without_prefix(lines, _GROUP_GUTTER, _GUTTER_SHARE, among=GROUP_TRACEBACK)
    return without_test_number(lines) if cut is None else cut


def without_test_number(lines: Sequence[str]) -> Sequence[str]:
    """``lines`` without CTest's test number (``12: `` before each line a test printed, under
    ``ctest -V``) when half the non-blank lines of the first 200 have one and CTest's own lines
    are there, else ``lines`` itself; for matching and detecting only."""
    cut = _without_prefix(lines, _CTEST_PREFIX, _CTEST_SHARE, among=_CTEST_LINE)
    return lines if cut is None else cut


def _without_prefix(
    lines: Sequence[str], prefix: re.Pattern[str], share: float, among: re.Pattern[str] | None = None
) -> list[str] | None:
    """``lines`` with ``prefix`` cut off where one opens, when ``share`` of the non-blank lines of
    the first 200 open with one (and, given ``among``, one of them matches it); else None."""
    sample = [line for line in lines[:200] if line.strip()]
    prefixed = sum(1 for line in sample if prefix.match(line))
    if (
        not sample
        or prefixed < share * len(sample)
        or among is not None
        and not any(map(among.match, sample))
    ):
        return None
    return [line[match.end() :] if (match := prefix.match(line)) else line for line in lines]


def is_server_log(lines: Sequence[str]) -> bool:
    """Whether most of ``lines`` are web-server access or error log lines (a log, not a table)."""
    content = [line for line in lines if line.strip()]
    hits = sum(1 for line in content if _ACCESS.match(line) or _ERROR_LOG.match(line))
    return len(content) >= 5 and hits * 2 >= len(content)


def lint_totals(line: str) -> bool:
    """Whether ``line`` (cleaned) is a lint or type checker's totals line."""
    return bool(_TOTALS.search(line[:300]))


def find_diagnostics(lines: Sequence[str]) -> list[Diagnostic]:
    """Every diagnostic in ``lines``, in order; see the module docstring for the formats."""
    found: list[Diagnostic] = []
    current_file, file_line = "", -1
    go_package = False
    rules: dict[str, str] = {}  # rustc names a lint only on its first warning: reuse it for repeats
    skip_until = -1
    luacheck: tuple[str, str] | None = None  # the file a luacheck report is checking, its severity
    semgrep: tuple[str, str] | None = None  # the rule a Semgrep finding is under, its severity
    path_line = -1  # Semgrep's last line that may name a file (indented four spaces)
    for index, raw in enumerate(lines):
        if index <= skip_until:
            continue
        line = clean_line(raw)[:1000]
        if "❱" in line[:12]:
            ruled = _SEMGREP_RULE.match(line)
            if ruled:
                if path_line > file_line:  # the file's line is above its first rule only
                    current_file, file_line = lines[path_line].strip(), path_line
                semgrep = (ruled["rule"], _SEMGREP_LEVELS[ruled["marks"]])
                continue
        if semgrep and "┆" in line[:16]:
            finding = _SEMGREP_FINDING.match(line)
            if finding:
                found.append(Diagnostic(index, file_line, semgrep[0], current_file, semgrep[1]))
                continue
        if line.startswith("    ") and line[4:5].strip() and "┆" not in line:
            path_line = index
        match = _TSC.match(line) or (_TSC_PRETTY.match(line) if " - " in line else None)
        if match:
            found.append(Diagnostic(index, index, match["code"], match["file"].strip(), match["sev"]))
            continue
        match = _PYRIGHT.match(line) if " - " in line else None
        if match:
            severity = _severity(match["sev"])
            found.append(Diagnostic(index, index, match["code"] or severity, match["file"], severity))
            continue
        if line.startswith("In ") and line.endswith(":"):
            match = SHELLCHECK_AT.match(line)
            if match:
                current_file, file_line = match["file"], index
                continue
        match = _SHELLCHECK_NOTE.match(line) if "^" in line[:200] else None
        if match and current_file:
            found.append(Diagnostic(index, file_line, match["code"], current_file, match["sev"]))
            continue
        if line.startswith("Checking "):
            checked = _LUACHECK_FILE.match(line)
            if checked:
                luacheck = (
                    checked["file"],
                    "error" if checked["errors"] and not checked["warnings"] else "warning",
                )
                continue
        row = _LUACHECK_ROW.match(line) if luacheck and line[:1].isspace() else None
        if row and luacheck and row["file"] == luacheck[0]:
            message = row["msg"]
            if "\x1b[" in raw:  # in colour, luacheck sets a name in bold, not in quotes
                named = _LUACHECK_ROW.match(clean_line(_BOLD_NAME.sub(r"'\1'", raw)))
                message = named["msg"] if named else message
            code = row["code"] or " ".join(_DIGITS.sub("N", _QUOTED.sub("", message)).split())
            severity = _JSHINT_LEVELS.get(row["code"][:1], "warning") if row["code"] else luacheck[1]
            found.append(Diagnostic(index, index, code, row["file"], severity))
            continue
        sass = _SASS.match(line) if line[:1] in "DWE" else None
        located = _sass_location(lines, index) if sass else None
        if sass and located:
            below, file = located
            rule = sass["code"] or ("deprecation" if sass["dep"] else "error" if sass["err"] else "warning")
            found.append(Diagnostic(index, below, rule, file, "error" if sass["err"] else "warning"))
            continue
        if line.startswith("# ") and _GO_PACKAGE.match(line):
            go_package = True  # ``# example.com/pkg``: the Go compiler's errors for it follow
            continue
        unprefixed = line.removeprefix("vet: ")
        level = _LEVEL_PREFIX.match(unprefixed)
        if level:
            unprefixed = unprefixed[level.end() :]
        spaced = _SPACED_CODE.match(unprefixed) or _FILE_CODE.match(unprefixed)
        if spaced:
            severity = spaced["sev"] or spaced["sev0"] or "warning"  # markdownlint's rules are all style
            found.append(Diagnostic(index, index, spaced["code"], spaced["file"], severity))
            continue
        match = _COLON.match(unprefixed) or (
            _PAREN_PLACE.match(unprefixed) if "(" in unprefixed[:260] else None
        )
        diagnostic = (
            _colon_diagnostic(index, match, level["level"] if level else "")
            if match and not line.startswith(("    ", "\t"))
            else None
        )
        if diagnostic is None and match is not None and go_package and _GO_ERROR.match(unprefixed):
            diagnostic = Diagnostic(index, index, "go", match["file"], "error")
        if diagnostic is not None and match is not None and diagnostic.rule == match["sev"]:
            wrapped = wrapped_code(lines, index)  # mypy --pretty: the code ends the message's next line
            if wrapped:
                diagnostic = Diagnostic(index, index, wrapped, diagnostic.file, diagnostic.severity)
        if diagnostic is not None:
            found.append(diagnostic)
            continue
        critic = _PERLCRITIC.match(line) if line.startswith("[") else None
        if critic:  # perlcritic's default format: one file, so no file on the line
            severity = _CRITIC_LEVELS.get(critic["sev"], "convention")
            found.append(Diagnostic(index, index, critic["code"], "", severity))
            continue
        match = _JSHINT.match(line) if ": line " in line[:300] else None
        if match:
            code = match["code"] or ""
            found.append(
                Diagnostic(
                    index, index, code or "jshint", match["file"], _JSHINT_LEVELS.get(code[:1], "warning")
                )
            )
            continue
        match = _HEADER.match(line)
        if match:
            located = _locate(lines, index)
            if located is not None:
                arrow, file = located
                message = match["msg"] or match["rmsg"] or match["mmsg"]
                rule = match["code"] or match["rcode"] or match["mcode"]
                rule = rule or _rule_below(lines, arrow) or rules.get(message, "")
                rules.setdefault(message, rule)
                rule = rule or match["sev"] or "diagnostic"
                severity = match["sev"] or _MARK_LEVELS.get(match["mark"] or "", "error")
                found.append(Diagnostic(index, arrow, rule, file, severity))
                skip_until = arrow
                continue
        if line.startswith(">> Issue: "):
            diagnostic = _bandit(lines, index, line)
            if diagnostic is not None:
                found.append(diagnostic)
                continue
        match = _BIOME.match(line) if "━" in line else None
        if match:
            # its message is the first line below, led by its severity mark: shown as its location
            below = next((i for i in range(index + 1, min(index + 3, len(lines))) if lines[i].strip()), index)
            severity = _BIOME_MARK.get(clean_line(lines[below]).strip()[:1], "error")
            found.append(Diagnostic(index, below, match["code"], match["file"], severity))
            continue
        annotation = ANNOTATION.match(line) if line.startswith("::") else None
        if annotation:
            found.append(_annotated(index, annotation))
            continue
        if line.startswith("FILE: "):  # PHP_CodeSniffer's full report: the file its rows are in
            current_file, file_line = line[6:].strip(), index
            continue
        match = PHPCS_ROW.match(line) if current_file and " | " in line[:12] else None
        if match:
            severity = match["sev"].lower()
            rule = _phpcs_sniff(lines, index) or severity
            found.append(Diagnostic(index, file_line, rule, current_file, severity))
            continue
        if line.startswith("== ["):
            match = _SQLFLUFF_FILE.match(line)
            if match:
                current_file, file_line = match["file"], index
                continue
        match = _SQLFLUFF_ROW.match(line) if line.startswith("L:") else None
        if match and current_file:
            severity = "error" if match["code"] == "PRS" else "warning"
            found.append(Diagnostic(index, file_line, match["code"], current_file, severity))
            continue
        match = _STYLISH_ROW.match(line)
        if match and current_file:
            severity = _severity(match["sev"])
            rule = match["code"] or match["pcode"]
            found.append(Diagnostic(index, file_line, rule, current_file, severity))
            continue
        match = _STYLISH_BARE.match(line) if current_file else None
        if match:
            rule = "parse" if line[match.start("msg") :].startswith("Parsing error") else match["sev"]
            found.append(Diagnostic(index, file_line, rule, current_file, match["sev"]))
            continue
        match = GROUPED_ROW.match(line) if current_file else None
        if match:
            found.append(Diagnostic(index, file_line, match["code"], current_file, "warning"))
            continue
        if _PATH_ALONE.match(line):
            current_file, file_line = line.removesuffix(":"), index
    return found


def is_lint(lines: Sequence[str]) -> bool:
    """Whether ``lines`` (a sample) read as lint / type-check output rather than a log with a few errors."""
    diagnostics = find_diagnostics(lines)
    if len(diagnostics) < 3:
        return False
    cleaned = [clean_line(line) for line in lines]
    if any(lint_totals(line) for line in cleaned[-_TOTALS_REACH:]):
        return True
    rows = {d.index for d in diagnostics}
    shown = rows | {d.location for d in diagnostics}
    # an indented line is context, unless it is a diagnostic itself (stylish's, pydoclint's rows)
    content = [
        i
        for i, line in enumerate(cleaned)
        if line.strip() and (i in rows or not (_is_context(line) or _above_marker(cleaned, i)))
    ]
    headers = sum(1 for i in content if i in shown)
    return headers * 2 >= len(content)


def _severity(word: str) -> str:
    """``word`` as the summaries rank it: ``⚠`` is ``warning``, pylint's ``C`` is ``convention``."""
    return _SEVERITY.get(word, word)


def _colon_diagnostic(index: int, match: re.Match[str], level: str = "") -> Diagnostic | None:
    """A ``file:line: …`` diagnostic, or None when it names neither severity nor rule (a grep match).

    ``level`` is a ``[WARN]`` / ``[ERROR]`` prefix's (Checkstyle's) when the line had one."""
    message = match["msg"]
    cop = _RUBOCOP.match(message)
    if cop:
        return Diagnostic(index, index, cop["code"], match["file"], _severity(cop["sev"]))
    if level and not match["sev"]:  # Checkstyle: its rule is a CamelCase name in brackets
        named = _CHECK_NAME.search(message)
        rule = named["code"] if named else level.lower()
        return Diagnostic(index, index, rule, match["file"], _severity(level))
    critic = _PERLCRITIC.match(message)
    if critic:
        return Diagnostic(
            index, index, critic["code"], match["file"], _CRITIC_LEVELS.get(critic["sev"], "convention")
        )
    graded = _CPPLINT.search(message)
    if graded:  # cpplint: its category, then its confidence (5: certain)
        return Diagnostic(
            index, index, graded["code"], match["file"], "error" if graded["conf"] == "5" else "warning"
        )
    bracketed = _BRACKET_FIRST.match(message)
    if bracketed:
        code_id = bracketed["code"]
        level = _severity(code_id[0]) if _PYLINT_CODE.match(code_id) else "error"
        return Diagnostic(index, index, bracketed["symbol"] or code_id, match["file"], level)
    code = _BRACKET_CODE.search(message)
    first = _CODE_FIRST.match(message)
    named = _NAME_FIRST.match(message) if match["col"] and not (match["sev"] or code or first) else None
    if named:
        return Diagnostic(index, index, named["code"], match["file"], "warning")
    if not (match["sev"] or code or first):
        return None
    if match["sev"] == "note" and not (code or first):
        return None  # gcc's and cppcheck's notes belong to the diagnostic above them
    rule = (code["code"] or code["paren"]) if code else first["code"] if first else match["sev"]
    severity = _severity(match["sev"] or "") or (
        _severity(first["code"][0]) if first and _PYLINT_CODE.match(first["code"]) else "error"
    )
    return Diagnostic(index, index, rule, match["file"], severity)


def _annotated(index: int, annotation: re.Match[str]) -> Diagnostic:
    """A GitHub Actions annotation as a diagnostic: its rule the code in its title (``ruff
    (F401)``) or at the head of its message, else its title, else its level."""
    params = dict(_ANNOTATION_PARAM.findall(annotation["params"] or ""))
    title = params.get("title", "")
    code = _TITLE_CODE.search(title) or _CODE_FIRST.match(MESSAGE_PLACE.sub("", annotation["msg"], count=1))
    rule = code["code"] if code else title or annotation["sev"]
    severity = "info" if annotation["sev"] == "notice" else annotation["sev"]
    return Diagnostic(index, index, rule, params.get("file", ""), severity)


def wrapped_code(lines: Sequence[str], index: int) -> str:
    """The code of the ``file:line: error: …`` diagnostic at ``index`` when its message wraps onto
    the lines below, the last ending in it (mypy ``--pretty``: ``attribute "_marker"
    [attr-defined]`` under ``a.py:32: error: Module "x" has no``), else ''."""
    for below in range(index + 1, min(len(lines), index + 1 + _WRAP_LINES)):
        line = clean_line(lines[below])
        if line.startswith(("  ", "\t")) or not line.strip() or _COLON.match(line):
            return ""  # the quoted source line, a blank, the next diagnostic: the message has ended
        wrapped = _WRAPPED_CODE.match(line.lstrip())
        if wrapped:
            return wrapped["code"]
    return ""


def _phpcs_sniff(lines: Sequence[str], index: int) -> str:
    """The sniff's code of the PHP_CodeSniffer row at ``index`` (``-s``), on it or on a line its
    message wraps onto, else ''."""
    for below in range(index, min(len(lines), index + 1 + _PHPCS_LINES)):
        line = clean_line(lines[below])
        if below > index and not PHPCS_MORE.match(line):
            break
        sniff = _PHPCS_SNIFF.search(line)
        if sniff:
            return sniff["code"]
    return ""


def _bandit(lines: Sequence[str], index: int, line: str) -> Diagnostic | None:
    """A Bandit issue: its header line, then its severity and location lines a few lines below."""
    match = _BANDIT.match(line)
    if match is None:
        return None
    severity, location, file = "warning", index, ""
    for below in range(index + 1, min(index + 1 + _BANDIT_LINES, len(lines))):
        text = clean_line(lines[below])
        graded = _BANDIT_SEVERITY.match(text)
        if graded:
            severity = _BANDIT_LEVELS.get(graded["sev"], "warning")
        at = _BANDIT_AT.match(text)
        if at:
            location, file = below, at["file"]
            break
    return Diagnostic(index, location, match["code"], file, severity) if file else None


def _sass_location(lines: Sequence[str], index: int) -> tuple[int, str] | None:
    """The first line of the stack under Dart Sass's header at ``index``, and the file it names."""
    for below in range(index + 1, min(index + _SASS_REACH, len(lines))):
        at = _SASS_AT.match(lines[below])
        if at:
            return below, at["file"]
    return None


def _locate(lines: Sequence[str], index: int) -> tuple[int, str] | None:
    for below in range(index + 1, min(index + 1 + 3, len(lines))):
        arrow = _ARROW.match(clean_line(lines[below]))
        if arrow:
            return below, arrow["file"]
    return None


def _rule_below(lines: Sequence[str], start: int) -> str:
    for below in range(start + 1, min(start + 1 + _LOOKAHEAD, len(lines))):
        line = clean_line(lines[below])
        if _HEADER.match(line):
            break
        name = _LINT_NAME.search(line)
        if name:
            return name["code"] or f"clippy::{name['url']}"
    return ""


_MARKER = re.compile(r"\s*[~^][\s~^]*\Z")
_CONTEXT_STARTS = (
    "|",
    "= ",
    "help:",
    "note:",
    "-->",
    "^",
    "Did you mean:",
    "For more information:",
    "More info",  # Dart Sass: ``More info and automated migrator: https://…``
    "Suggestion:",
    # annotate-snippets' and miette's frames
    "╭",
    "│",
    "╰",
    ",-",
    "`-",
)


def _above_marker(lines: Sequence[str], index: int) -> bool:
    """Whether the line below ``index`` only marks columns of it (``~~~~``, ``^^^``): ``index`` is a
    quoted source line (tsc ``--pretty``'s ``16     var copy = …``, its gutter a bare number)."""
    return index + 1 < len(lines) and _MARKER.match(lines[index + 1]) is not None


def _is_context(line: str) -> bool:
    """A snippet, caret, help or note line under a diagnostic (rustc, ruff, tsc continuations)."""
    stripped = line.lstrip()
    return (
        line[:1] in " \t"
        or stripped.startswith(_CONTEXT_STARTS)
        or stripped[:1].isdigit()
        and (" |" in stripped[:8] or " │" in stripped[:8])  # Dart Sass draws its gutter
    )


# A JSON lint record's keys, by what they hold (ruff, pylint, ShellCheck, hadolint ``--format json``)
RECORD_FILE = ("filename", "file", "path", "filePath", "file_path")
RECORD_RULE = (
    "code",
    "rule",
    "ruleId",
    "check_id",
    "symbol",
    "message-id",
    "messageId",
    "test_id",
    "rule_id",
    "category",  # Biome's ``lint/style/useTemplate``
    "check_name",  # Code Climate's and GitLab's code quality report (ruff's, ESLint's ``gitlab``)
)
RECORD_MESSAGE = ("message", "msg", "description", "issue_text", "text")
# Where a record keeps its file when not at its top: Biome's ``location.path``
RECORD_PLACE = "location"


def record_file(item: dict[str, Any]) -> tuple[str, str]:
    """A lint record's file key and path (``("", "")`` if none): one of ``RECORD_FILE`` at its
    top, or in its ``location`` (Biome's ``{"location": {"path": …}}``)."""
    for holder in (item, item.get(RECORD_PLACE)):
        if isinstance(holder, dict):
            for key in RECORD_FILE:
                if isinstance(holder.get(key), str) and holder[key]:
                    return key, holder[key]
    return "", ""


def is_diagnostic_records(value: Any) -> bool:
    """Whether a parsed JSON value is a list of lint diagnostics, one record each (ruff's, pylint's
    or ShellCheck's ``--format json``): nearly every record names a file, a rule and a message."""
    if not isinstance(value, list) or len(value) < 2:
        return False
    head = value[:50]
    named = sum(
        1
        for item in head
        if isinstance(item, dict)
        and record_file(item)[1]
        and any(isinstance(item.get(key), str | int) for key in RECORD_RULE)
        and any(isinstance(item.get(key), str) for key in RECORD_MESSAGE)
    )
    return named * 10 >= len(head) * 9


def diagnostic_records(value: Any) -> list[Any] | None:
    """The diagnostic records a parsed JSON lint report holds (``is_diagnostic_records``): the value
    itself, or the one member of an object that is such a list (pylint's ``json2`` ``messages``,
    pyright's ``generalDiagnostics``, bandit's ``results``), else None."""
    if is_diagnostic_records(value):
        return list(value)
    if not isinstance(value, dict):
        return None
    held = [member for member in value.values() if is_diagnostic_records(member)]
    return list(held[0]) if len(held) == 1 else None


def json_line_records(lines: Sequence[str]) -> list[Any] | None:
    """The records of JSON Lines output whose lines are nearly all one diagnostic record each
    (mypy's ``-O json``, ruff's ``json-lines``), else None: a line that is no JSON object is left
    out (a tool's own message)."""
    records: list[Any] = []
    other = 0
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        value = _json_object(stripped)
        if value is None:
            other += 1
        else:
            records.append(value)
    if other * 10 > len(records) or not is_diagnostic_records(records):
        return None
    return records


def _json_object(line: str) -> dict[str, Any] | None:
    """The JSON object ``line`` is, else None."""
    if not (line.startswith("{") and line.endswith("}")):
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


# Checkstyle's XML report, which ESLint, stylelint, ShellCheck, ktlint, detekt, PHP_CodeSniffer and
# golangci-lint write too: ``<checkstyle version="4.3">``, a ``<file name="…">`` per file holding
# an ``<error line="5" column="1" severity="warning" message="…" source="eslint.rules.no-var"/>`` per
# problem, often all on one line.
_XML_PROLOG = r"\A\s*(?:<\?xml[^>]{0,200}\?>\s*)?"  # an XML report's declaration, if any, before its root
_CHECKSTYLE_ROOT = re.compile(rf"{_XML_PROLOG}<checkstyle\b")
_CHECKSTYLE_ITEM = re.compile(r"<file\b[^>]*+>|<error\b[^>]*?/>|<error\b[^>]*+>.{0,4000}?</error>", re.S)
_XML_ATTRIBUTE = re.compile(r"""\b([\w:-]+)=(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True, slots=True)
class CheckstyleItem:
    """A ``<file>`` start tag or an ``<error>`` element of a Checkstyle report, as written."""

    text: str
    is_file: bool
    attributes: dict[str, str]


def is_checkstyle(text: str) -> bool:
    """Whether ``text`` is a Checkstyle XML report (see ``checkstyle_items``)."""
    return _CHECKSTYLE_ROOT.match(text[:1000]) is not None


def checkstyle_items(text: str) -> list[CheckstyleItem]:
    """A Checkstyle report's ``<file>`` start tags and ``<error>`` elements, in order, each with its
    attributes (entities decoded); linear in ``text``."""
    items: list[CheckstyleItem] = []
    for found in _CHECKSTYLE_ITEM.finditer(text):
        item = found.group()
        attributes = {
            name: html.unescape(double if double or not single else single)
            for name, double, single in _XML_ATTRIBUTE.findall(item[: item.find(">") + 1])
        }
        items.append(CheckstyleItem(item.strip(), item.startswith("<file"), attributes))
    return items


# A linter's report in JUnit's XML (ESLint's ``-f junit``, ruff's ``--output-format junit``): a
# ``<testsuite package="org.eslint" name="src/a.js">`` per file, a ``<testcase name="org.eslint.no-var"
# classname="src/a">`` per problem, named by the suite's package and the rule, its ``<failure
# message="…">`` on its line (ESLint's) or below its ``<properties>`` (ruff's).
_JUNIT_LINT_SUITE = re.compile(r'<testsuite\b[^>\n]*?\bpackage="(?P<package>[\w.-]+)"')
_JUNIT_LINT_HEAD = re.compile(rf"{_XML_PROLOG}<testsuites?\b")
_JUNIT_READ = 65536


def is_junit_lint(text: str) -> bool:
    """Whether ``text`` is a linter's report in JUnit's XML: its test cases named by their suite's
    package and a rule (``org.ruff.E501`` in ``package="org.ruff"``)."""
    head = text[:_JUNIT_READ]
    suite = _JUNIT_LINT_SUITE.search(head) if _JUNIT_LINT_HEAD.match(head) else None
    if suite is None:
        return False
    named = head.count(f' name="{suite["package"]}.')
    return named > 0 and named * 2 >= head.count("<testcase")


def junit_lint_suite(line: str) -> str | None:
    """The package a ``<testsuite …>`` line of a linter's JUnit report names its rules by, if any."""
    found = _JUNIT_LINT_SUITE.search(line)
    return found["package"] if found else None


def is_sarif(value: Any) -> bool:
    """Whether a parsed JSON value is a SARIF log: an object whose ``runs`` each hold a ``tool``
    and a list of ``results``, its ``$schema`` or ``version`` SARIF's."""
    if not isinstance(value, dict) or not isinstance(value.get("runs"), list) or not value["runs"]:
        return False
    schema, version = str(value.get("$schema", "")).lower(), str(value.get("version", ""))
    named = "sarif" in schema or version.startswith("2.1")
    runs = value["runs"][:10]
    return named and all(isinstance(run, dict) and isinstance(run.get("results"), list) for run in runs)


def is_eslint_report(value: Any) -> bool:
    """Whether a parsed JSON value is a report of per-file results, each a file's path and a list
    of its messages (ESLint's ``--format json``: ``filePath`` and ``messages``; stylelint's:
    ``source`` and ``warnings``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and file_results(item) is not None for item in value[:20])
    )


# A per-file result's keys: its file's path, and the list of its messages
RESULT_FILE = ("filePath", "source", "filename", "file", "path")
RESULT_MESSAGES = ("messages", "warnings")


def file_results(item: dict[str, Any]) -> tuple[str, str, list[Any]] | None:
    """A per-file result's path key, path and messages (``is_eslint_report``), else None."""
    path = next((key for key in RESULT_FILE if isinstance(item.get(key), str)), "")
    listed = next((key for key in RESULT_MESSAGES if isinstance(item.get(key), list)), "")
    return (path, item[path], item[listed]) if path and listed else None
