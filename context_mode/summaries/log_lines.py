"""Classifying log lines: severity, test results, summaries, exit status, traceback frames.

``scan_log(lines)`` classifies every line; ``line_groups`` keeps it fast. Every regex sees at most
``PREFIX`` chars of a line, and the costlier ones run only behind a substring check. A declared
level (``INFO``, ``level=debug``, a JSON-lines record's ``"level":50`` or ``"severity":"ERROR"``)
outranks words in the message (an info or debug line with error words is *muted*: a handled failure,
no error); errors are strong (``error:``, ``SEVERE``, an exception line, ``make: ***``) or weak (a
bare "failed", a refusal: "rejected", "blocked", "could not"), and weak ones in a family of routine
lines are set apart by ``routine_errors``. A summary is a run's (``totals.is_run_summary``) or a
step's totals as a package manager or build tool states them (uv's ``Resolved 18 packages in
309ms``). A line's shape is the line with its numbers masked: lines of one shape are "the same" for
folding and rarity.

Lines whose prefixes differ only in the values of their ASCII digits (same length, digits at the
same places) get the same verdict from every classifying regex here: none of them names a
particular digit or counts positions differently for different digits. So the scan groups lines
by that *key*, classifies one line per key, and classifies line by line only the groups whose
sample holds a value that differs from line to line (a failing test's id, an exit status, a
frame's file); a group whose sample is only an error, a warning or a summary says the same on
every line. A 1 MB log of 12k lines thus costs a few whole-text C passes plus one
classification per distinct key; a log of all-distinct lines costs what a plain per-line pass
does. ``tests/context_mode/summaries/test_log_lines.py`` checks that
the grouped scan equals the per-line scan.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from context_mode.levels import LEVELS, RAISED_NAME
from context_mode.line_groups import LineGroups, group_lines, shapes
from context_mode.totals import is_run_summary

# Regexes only ever see this many leading chars of a line: enough for any marker, and it keeps
# a 1 MB single-line payload linear.
PREFIX = 400
# A family (lines sharing their first two words) this big, mostly not errors, is routine.
ROUTINE = 5

_UPPER_WORD = re.compile(r"\b[A-Z]{3,8}\b")
_BRACKET_LEVEL = re.compile(r"\[(?:\w+:)?(emerg|alert|crit|error|warn|notice|info|debug)\]")
# ``level=warn``, ``"level":"error"``, pino's and bunyan's ``"level":50``, ``"severity":"ERROR"``,
# PostgreSQL jsonlog's ``"error_severity":"LOG"``, python-json-logger's ``"levelname"``.
# The key opens a record field (after a blank, ``{`` or ``,``): ``log_level: x`` in a message is
# a setting, not the record's level.
_STRUCTURED_LEVEL = re.compile(
    r"""(?:^|[\s{,])["']?(?:level|lvl|severity|levelname|error_severity)["']?\s*[=:]\s*["']?(\w+)""",
    re.IGNORECASE,
)
# A JSON-lines record's error field with a value. (Not its HTTP status: verdicts never depend on
# which digits a line holds, see the module doc.)
_RECORD_FAILED = re.compile(r'"(?:err|error|exception)"\s*:\s*(?:\{\s*"|"[^"])')
# Redis marks its levels with a character: ``.`` debug, ``-`` verbose, ``*`` notice, ``#``
# warning, its highest (a Sentinel's ``+sdown`` / ``+switch-master`` events, a failed sync):
# ``10:M 02 Dec 2026 06:21:26.405 # Server initialized``. Error words still make an error.
_REDIS_WARNING = re.compile(r"\d+:[XCMS] \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d\.\d{3} # ")
_NUMERIC_LEVELS = ((50, "error"), (40, "warning"))  # pino / bunyan: 60 fatal, 50 error, 40 warn
# An exception's line; Node's ``AssertionError [ERR_ASSERTION]: …``, Rails' ``A::RoutingError (…):``
EXCEPTION = re.compile(
    r"^\s*(?:Caused by: |E\s+)?(?:[\w$]+(?:\.|::))*[A-Z][\w$]*"
    r"(?:Error|Exception|Exit|Interrupt|Failure|Fault)\b(?: \[[A-Z][A-Z0-9_]+\])?(?::|;|$| \()"
)
# Sinatra's and Rack's error line: ``2026-12-05 20:53:40 - KeyError - key not found: "member":``
_DASHED_EXCEPTION = re.compile(r" - (?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception) - ")
# The case-insensitive patterns run on the lowercased line (faster than re.IGNORECASE).
# No leading \b: a literal first char lets the regex engine skip ahead (several times faster).
# A debugger's or a shell's word for a crash: ``Program received signal SIGSEGV, Segmentation fault.``
_STRONG_ERROR_LOWER = re.compile(
    r"(?:error(?:\[\w+\]| \w+)?:|fatal:|npm err!|panic:|traceback \(|received signal sig|segmentation fault"
    r"|undefined reference to |multiple definition of |cannot find -l)"  # the linker's (ld's) errors
)
_STRONG_ERROR_EXACT = re.compile(r"(?:FATAL|FAILED|FAIL)\b|^\s*× |\*\*\* ")
# Weak: a bare "failed", a name that ends in error (``SERVER_ERROR``; ``error_log`` is a setting),
# what services write when a peer or a resource is gone ("Connection refused", "is DOWN",
# "no server available", "timed out", errno names such as ``ECONNREFUSED``), and what they
# refused to do or could not do (exim's ``rejected RCPT <x>: Unrouteable address``, Privoxy's
# ``Crunch: Blocked: http://…``, ``Can not resolve …``, ProFTPD's ``no such user found``,
# Dovecot's ``Password mismatch``).
_WEAK_ERROR = re.compile(
    r"(?:\b|_)error\b|\bfatal\b|\bfail(?:ed|ure)?\b|\bpanicked\b|\bnot remade\b"
    r"|\b(?:refused|unreachable|unavailable|timed out|denied|is down|no server available|unable to"
    r"|too large|out of memory|reset by peer|broken pipe"
    r"|rejected|blocked|forbidden|not (?:allowed|permitted)|cannot|can ?not|could not|no such|mismatch)\b"
    r"|\be(?:connrefused|connreset|timedout|notfound|addrinuse|acces|noent|hostunreach|netunreach)\b"  # errno
    # a result with an error's text (slapd's ``RESULT tag=105 err=65 … text=object class …``; a
    # success's ``text=`` is empty: which digits the code has is never looked at, see above)
    r"|\berr=\d+ .*\btext=\S"
)
_WARNING_WORD = re.compile(r"\bwarn(?:ing)?\b|\wwarning\b|\bdeprecated\b")
_PY_FRAME = re.compile(r'^\s*File "(?P<file>[^"]*)", line \d+')
# PHP's frames, innermost first: an exception's ``#0 /var/www/app/Db.php(42): PDO->__construct(…)``
# and PHP-FPM's slow log ``[0x00007f3e414143c0] pg_connect() /usr/share/adminer/adminer.php:404``
_PHP_FRAME = re.compile(
    r"^\s*(?:#\d+ (?P<where>[^\s(]+\.php)\(\d+\): |\[0x[0-9a-f]{8,16}\] \S+\(\) (?P<slow>\S+\.php):\d+$)"
)
# Ruby's ``/app/models/user.rb:12:in `save!'`` (``'save!'`` since 3.4), under a ``from`` in an
# uncaught exception's report, innermost first. The innermost frame followed by ``: message
# (ErrorClass)`` is the exception's line, an error.
_RUBY_FRAME = re.compile(r"^\s*(?:from )?(?P<where>[^\s:]+):\d+:in [`'][^`'\n]*'(?P<said>: \S)?")
_JAVA_FRAME = re.compile(r"^\s+at (?P<where>[\w$.<>/]+?)(?:\.[\w$<>]+)?\(")
# Node's ``    at fn (path/file.js:188:22)`` / ``    at path/file.js:12:5``: where is the function
# and its file (two frames of one test file are two places)
_JS_FRAME = re.compile(
    r"^\s+at (?P<where>(?:(?:async |new )?[^\s()]+(?: \[as [^\]\s]+\])? \()?[^\s()]+?):\d+:\d+\)?\s*$"
)
LIBRARY_FRAME = re.compile(
    r"^(?:[\w.]+/)?(?:java|javax|jdk|sun|com\.sun|kotlin|scala)\.|site-packages|dist-packages|/lib/python\d"
    r"|/gems/|/lib/ruby/\d|/rubygems-integration/"  # Ruby's gems and standard library
    r"|node_modules|^node:|^internal/"
    r"|^/rustc/[0-9a-f]{7,}/library/|\.cargo/registry/"  # Rust's std and crates.io's sources
)
# A compiler's diagnostic; clang's optimisation remarks (``-Rpass``: "remark: loop not vectorized:
# could not determine …") are notes, whatever words they hold.
COMPILER = re.compile(r"^(?:[^\s:]+):\d+(?::\d+)?: (?P<what>(?:fatal )?error|warning|note|remark)\b")
CODE_CONTEXT = re.compile(r"^\s*(?:\d+\s*)?\|")
# GCC's line naming where its next diagnostics are: ``../src/backup.cc: In static member function
# ‘static void Backup::Error(T*)’:``, ``… In instantiation of ‘…’:``, ``At top level:``.
IN_FUNCTION = re.compile(
    r"^[^\s:]+: (?:In (?:(?:static )?member function|function|constructor|destructor|copy constructor"
    r"|lambda function|instantiation of|substitution of)|At top level)"
)
# A compiler's or a test runner's quote of the source under a diagnostic (GCC's and rustc's
# ``   37 |     DEFINE_CONSTANT_INTEGER(target, SQLITE_ERROR, ERROR);``, Jest's ``> 12 |``,
# Vitest's ``  5| ``), or its gutter of carets (``      |     ^~~~``): the program's own text,
# whatever words it holds, and no level. Not ``| ERROR |`` at a line's start: a table's row.
_QUOTED_CODE = re.compile(r"\s*>?\s*\d+\s*\|(?: |$)|\s+\|(?: |$)")
# A pytest node id alone on its line (``tests/test_more.py::IterSuppressTests::test_no_error``).
_NODE_ID = re.compile(r"\S+\.py::\S+ ?$")
PYTEST_LOCATION = re.compile(r"^[\w./\\-]+:\d+: (?:in test\w*|\w+)$")
# An assertion's values (Jest, Vitest, Chai, node:assert): ``Expected: 8`` / ``Received: 9`` (Jest's
# ``Expected constructor: TypeError``, ``Received message: "…"``, a word between); RSpec's
# ``expected: 2`` / ``got: 1``; xdoctest's ``got  = "[1, 2]"`` / ``want = "[1, 2, 3]"``.
_EXPECTED = re.compile(
    r"^\s*(?:(?:Expected|Received)(?: [a-z]+)?:|(?:Actual|expected|got)(?: value)?:|got +=|want +=)\s+\S"
)
PYTEST_E = re.compile(r"^E\s{2,}\S")
# Memcheck's error headlines (its frames, ``at 0x…`` / ``by 0x…``, are the lines below them)
_VALGRIND_ERROR = re.compile(
    r"==\d+== (?:Invalid (?:read|write|free|delete)|Conditional jump or move depends|Use of uninitialised "
    r"|Syscall param |Mismatched free|Source and destination overlap|Process terminating"
    r"|[\d,]+ (?:\([^)\n]*\) )?bytes in [\d,]+ blocks are (?:definitely|possibly) lost)"
)
SECTION = re.compile(r"^(?:_{3,} .+ _{3,}|={3,} .+ ={3,}|-{3,} .+ -{3,})$")

_TEST_RESULT = re.compile(
    r"^(?P<id>\S+::\S+)(?: \S+)? (?P<status>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b"
    r"|^(?P<status2>FAILED|ERROR) (?P<id2>\S+::\S*)"
    # unittest's ``FAIL: test_parse (pkg.tests.create_testcase.<locals>.TestTime.test_parse)``, a
    # subtest's parameters after it (``… (tests.SieveTests.test_counts) (n=100)``)
    r"|^(?P<status3>FAIL|ERROR): (?P<id3>\w+ \([\w.<>]+\)(?: \([^()\n]*\))?)"
    r"|^\s*--- (?P<status4>FAIL|PASS): (?P<id4>\S+)"
    r"|^test (?P<id5>\S+) \.\.\. (?P<status5>FAILED|ok|ignored)$"
    # Playwright Test's list reporter: ``  ✘   3 [chromium] › tests/a.spec.js:7:3 › book › heading
    # (1.9s)`` (the run's number and the duration no part of the name), then each failure's block
    # under ``  1) [chromium] › tests/a.spec.js:7:3 › book › heading ─────``: one test, said twice
    r"|^\s*(?P<status29>✘|✓|-|\d{1,4}\))\s+(?:\d+ )?(?P<id29>\[[^\]\n]+\] › \S.*?)"
    r"(?: \(\d+(?:\.\d+)?m?s\)| ─+)?$"
    # ✘: PHPUnit's --testdox; ×: Vitest's ``   × Cart > total 6ms`` (its duration no part of the name);
    # ✖: node:test's spec reporter, ``  ✖ discount needs five items (0.88147ms)`` (not its heading
    # ``✖ failing tests:``, nor ESLint's totals ``✖ 62 problems (0 errors, 62 warnings)``, nor
    # Cucumber's failed step ``✖ Then the total is 605 # features/step_definitions/steps.js:11``)
    r"|^\s*(?P<status6>✕|✗|✘|×|✖) (?P<id6>(?!\d+ problems? \(|(?:Given|When|Then|And|But) )"
    r".+?(?<!:))(?: \(\d+(?:\.\d+)? ?m?s\)| \d+(?:\.\d+)?m?s)?$"
    r"|^(?P<id7>\w+ \([\w.<>]+\)) \.\.\. (?P<status7>FAIL|ERROR|ok)$"
    # TAP: the number is the test's identity (tape names assertions alike: "should be equal")
    r"|^\s*(?P<status8>not ok|ok) (?P<id8>\d+ (?:- )?[^#\n]+?)(?: # (?:SKIP|TODO)\b.*)?$"
    # mocha's spec reporter: ``  3) name`` (minitest's ``  3) Failure:`` heads a failure: no name)
    r"|^\s{2,}(?P<status9>\d{1,4}\)) (?P<id9>(?!(?:Failure|Error):$)\S.*?):?$"
    # mocha / jest passing (vite's "✓ built in 6.65s", "✓ 423 modules transformed." are no tests)
    r"|^\s*(?P<status10>[✔✓]) (?P<id10>(?!built in |\d+ modules transformed).+?)(?: \(\d+ ?m?s\))?$"
    r"|^\s+(?P<status11>●) (?P<id11>\S.*)$"  # Jest's failure header: ``  ● suite › test``
    # GoogleTest: ``[  FAILED  ] FormatTest.Precision (0 ms)`` / ``[       OK ] …``
    # (busted's ``-o gtest``: ``[  FAILED  ] spec/a_spec.lua @ 195: Suite checks near() (0.40 ms)``)
    r"|^\[\s+(?P<status12>FAILED|OK)\s+\] (?P<id12>[A-Za-z_][\w/<>:,.-]*\.[\w/<>:,.-]+(?: @ \d+: .+?)?)"
    r"(?: \([\d.]+ ms\))?$"
    # CTest: ``19/20 Test #19: format-test ......***Failed    0.02 sec``
    r"|^\s*\d+/\d+ Test\s+#\d+: (?P<id13>\S+) \.*\s*\**"
    r"(?P<status13>Passed|Failed|Not Run|Timeout|Exception)\b"
    # RSpec's rerun list of failed examples (by id, ``./spec/a_spec.rb[2:23]``, when examples share a line)
    r"|^(?P<status14>rspec) (?P<id14>\./\S+?(?::\d+|\[[\d:,]+\]) # .+)$"
    # Maven Surefire: ``[ERROR] org.x.ParserTest.parsesDates  Time elapsed: 0.005 s  <<< FAILURE!``;
    # since 3.0 ``[ERROR] org.x.PriceTest.formats(long, String)[2] -- Time elapsed: 0.003 s <<< FAILURE!``
    r"|^\[ERROR\] (?P<id15>[\w.$]+(?:\([^()\n]*\))?(?:\[\d+\])?)\s+(?:-- )?Time elapsed: .*<<< "
    r"(?P<status15>FAILURE|ERROR)!"
    r"|^(?P<status16>\d{1,4}\)) (?P<id16>[\w\\]+::\w+)"  # PHPUnit: ``1) Tests\StringTest::testSlug``
    r"|^(?P<id17>\S+ > .+?) (?P<status17>FAILED|PASSED|SKIPPED)$"  # Gradle: ``ParserTest > parses() FAILED``
    # dotnet test: ``  Failed Tests.ParserTests.ParsesDates [12 ms]``
    r"|^\s+(?P<status18>Failed|Passed|Skipped) (?P<id18>[\w.+`<>,-]+) \[\d+ m?s\]$"
    # JUnit 5's console launcher, a drawn tree: ``│  ├─ testIsSetInt() ✘ expected: <false> …``
    r"|^[│├└─╷ ]*[├└]─ (?P<id19>\S.*?) (?P<status19>✘|✔)(?: |$)"
    # Minitest -v: ``TestMarkup#test_escaping = 0.00 s = F`` (F a failure, E an error)
    r"|^(?P<id20>[\w:]+#\w+) = [\d.]+ s = (?P<status20>[.FES])$"
    # Robot Framework: ``Sibilant Plurals                                 | FAIL |``
    r"|^(?P<id21>\S.{0,120}?)\s+\| (?P<status21>FAIL|PASS|SKIP) \|$"
    # meson test: `` 5/8 UTF-8_persian     FAIL            0.31s   exit status 1``, names with
    # spaces and a suite (``1/1 My Signal Test FAIL  0.02s``, ``4/10 test_features / xpass …``)
    r"|^\s*\d+/\d+ (?P<id22>\S.*?)\s+"
    r"(?P<status22>OK|FAIL|SKIP|TIMEOUT|ERROR|EXPECTEDFAIL|UNEXPECTEDPASS)\s+\d+\.\d+s"
    # stestr / subunit-trace: ``{0} pkg.tests.test_a.TestX.test_y [0.002523s] ... FAILED``
    r"|^\{\d+\} (?P<id23>\S+) \[[\d.]+s\] \.\.\. (?P<status23>ok|FAILED|SKIPPED)\b"
    # xdoctest: ``* FAILURE: pkg/sortedlist.py::SortedList.irange:0``
    r"|^\* (?P<status24>FAILURE): (?P<id24>\S+::\S+)"
    # R's testthat: ``Failure ('test-collapse.R:15'): glue_collapse truncates`` (3rd edition: framed
    # by ``── `` and a rule), an ``Error (…)`` likewise; ``Skip (…)`` is a skipped test
    r"|^(?:── )?(?P<status25>Failure|Error|Skip) (?P<id25>\('[^'\n]+:\d+(?::\d+)?'\): .+?)(?: ─+)?$"
    # Automake's test harness (``make check``): ``FAIL: sodium_utils``, ``XFAIL: t/x.sh 3 - name``
    r"|^(?P<status26>PASS|FAIL|ERROR|SKIP|XFAIL|XPASS): (?P<id26>[\w./+-]+)(?: \d+\b.*)?$"
    # pytest 9's subtests: ``SUBFAILED(n=100) tests/test_r.py::SieveTests::test_counts - …``, each
    # subtest a failure of its own (its parameters part of its name)
    r"|^SUB(?P<status27>FAILED)(?P<id27>\([^)\n]*\) \S+::\S*)"
    # bun test: ``(fail) cart totals > discount needs five items [0.20ms]`` (its duration no part of
    # its name; bun lists each failed test again under ``4 tests failed:``)
    r"|^\((?P<status30>fail|pass|skip|todo)\) (?P<id30>\S.*?)(?: \[[\d.]+m?s\])?$"
    # deno test: ``cart totals: discount needs five items ... FAILED (576µs)`` (a test's steps,
    # indented below it, are no tests of their own: deno counts the test)
    r"|^(?P<id31>\S.*?) \.\.\. (?P<status31>FAILED|ok|ignored)(?: \(due to \d+ failed steps?\))?"
    r" \(\d+(?:\.\d+)?(?:µs|ms|s)\)$"
    # pytest-xdist's -v: ``[gw1] [ 71%] PASSED tests/test_more.py::IterSuppressTests::test_no_error``;
    # a subtest's ``[gw1] [ 30%] SUBPASSED(slice_args='(8, 5, -2)') tests/…::test_all``, its
    # parameters part of its name
    r"|^\[gw\d+\] \[\s*\d+%\] (?P<status32>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (?P<id32>\S+::\S*)"
    r"|^\[gw\d+\] \[\s*\d+%\] SUB(?P<status33>PASSED|FAILED|SKIPPED)(?P<id33>\(.*?\) \S+::\S*)"
    # Cucumber's failures: ``3) Scenario: Zero quantity is rejected # features/cart.feature:13``
    # (an outline's examples share a name: its line tells them apart)
    r"|^(?P<status28>\d{1,4}\)) (?P<id28>Scenario(?: Outline)?: .+? # \S+:\d+)$"
)
_FAILING = frozenset(
    {
        "FAILED",
        "ERROR",
        "FAIL",
        "FAILURE",
        "XPASS",
        "✕",
        "×",
        "✖",
        "fail",
        "✗",
        "not ok",
        "●",
        "Failed",
        "Not Run",
        "Timeout",
        "Exception",
        "rspec",
        "✘",
        "F",
        "E",
        "TIMEOUT",
        "UNEXPECTEDPASS",
        "Failure",
        "Error",
    }
)

_EXIT = re.compile(  # on the lowercased line
    r"\bexit(?:ed)?(?: with)?(?: code| status)[:= ]+(?P<a>-?\d+)"
    r"|\bnon-zero exit status (?P<b>\d+)"
    r"|^make: \*\*\* .*error (?P<c>\d+)$"
)
# Substrings every match of the regex above them contains (lowercased): a fast prefilter.
_ERROR_WORDS = (
    *("err", "fatal", "fail", "panic", "traceback", "×", "***", "not remade", "refused", "unreachable"),
    *("unavailable", "timed out", "denied", "is down", "no server", "unable to", "too large"),
    *("out of memory", "reset by peer", "broken pipe", "econn", "etimedout", "enotfound", "eaddrinuse"),
    *("eacces", "enoent", "ehostunreach", "enetunreach", "received signal sig", "segmentation fault"),
    *("undefined reference", "multiple definition", "cannot find -l"),
    *("rejected", "blocked", "forbidden", "not allowed", "not permitted", "cannot", "can not", "could not"),
    *("no such", "mismatch"),
)
_WARNING_WORDS = ("warn", "deprecated")
# A step's totals, as a package manager or a build tool states each of its phases: uv's ``Resolved
# 18 packages in 309ms`` and ``Installed 18 packages in 26ms``, apt's ``Fetched 1,234 kB in 2s``,
# ``Compiled 42 files in 1.2s`` (on the lowercased line; npm's lowercase ``added 590 packages in
# 31s`` is ``totals.is_run_summary``'s already).
_STEP_TOTALS = re.compile(
    r"\s*[a-z]+ed (?:\d[\d,.]* ?[kmg]i?b|\d[\d,]*(?: [a-z][\w-]*){1,2})"
    r" in \d[\d.]* ?(?:ms|s|secs?|seconds|m|min)\b"
)
_EXIT_WORDS = ("exit", "make")
_FAMILY = re.compile(r"\s*(\S+)\s+(\S+)")
_ASCII_DIGIT = re.compile(r"[0-9]")
# Test-result alternatives by the name of their last group: (id group, status group), read off
# the regex itself (``id7`` / ``status7`` -> ``("id7", "status7")``), so a new alternative needs no entry.
_RESULT_GROUPS = {
    name: (f"id{number}", f"status{number}")
    for name in _TEST_RESULT.groupindex
    for number in [name.removeprefix("status").removeprefix("id")]
}


@dataclass(frozen=True, slots=True)
class LogScan:
    """What the classifying pass found; every int is a line index."""

    errors: list[int]  # strong and weak errors, in order
    weak: set[int]
    notes: list[int]  # compiler notes
    warnings: list[int]
    muted: list[int]  # failures said at an info or debug level (``DEBUG Failed to reflink …``)
    summaries: list[int]
    failing: dict[str, int]  # test id -> its last mention
    exit_status: str
    frames: list[tuple[int, str, bool]]  # (line, class or file, is JVM) inside tracebacks
    shapes: list[str]
    groups: LineGroups


@dataclass(frozen=True, slots=True)
class _Facts:
    """What one line says; a line that says nothing has no ``_Facts``."""

    failing: str  # the id of a failing test, or ""
    summary: bool
    exit_status: str | None
    frame: tuple[str, bool] | None  # (class or file, is JVM)
    severity: str


def scan_log(lines: Sequence[str]) -> LogScan:
    """Classify every line (one sample per key, then each line of the keys that said something)."""
    groups = group_lines(lines, PREFIX)
    said = {key: _facts(lines[index][:PREFIX]) for key, index in groups.samples.items()}
    telling = {key for key, facts in said.items() if facts is not None}
    # Verdicts hold for a whole key; values (a test id, an exit status, a frame's file) are read
    # from each line. A key whose sample holds none of those says the same on every line.
    verdicts = {
        key: facts
        for key, facts in said.items()
        if facts is not None and not facts.failing and facts.exit_status is None and facts.frame is None
    }

    def found() -> Iterator[tuple[int, _Facts]]:
        # Lines repeated word for word (a warning printed per package, a retried step) say the same.
        known: dict[str, _Facts | None] = {}
        keys = groups.keys
        for index in groups.members(telling):
            verdict = verdicts.get(keys[index])
            if verdict is not None:
                yield index, verdict
                continue
            line = lines[index][:PREFIX]
            if line in known:
                facts = known[line]
            else:
                facts = known[line] = _facts(line)
            if facts is not None:
                yield index, facts

    return fold_facts(found(), shapes(groups), groups)


def fold_facts(found: Iterable[tuple[int, _Facts]], line_shapes: list[str], groups: LineGroups) -> LogScan:
    """The ``LogScan`` of the lines that said something, given in order as (index, facts)."""
    scan = LogScan([], set(), [], [], [], [], {}, "", [], line_shapes, groups)
    exit_status = ""
    for index, facts in found:
        if facts.failing:
            scan.failing.pop(facts.failing, None)  # keep the last mention: the summary's
            scan.failing[facts.failing] = index
        if facts.summary:
            scan.summaries.append(index)
        if facts.exit_status is not None:
            exit_status = facts.exit_status
        if facts.frame is not None:
            scan.frames.append((index, *facts.frame))
        elif facts.severity in {"error", "weak"}:
            scan.errors.append(index)
            if facts.severity == "weak":
                scan.weak.add(index)
        elif facts.severity == "note":
            scan.notes.append(index)
        elif facts.severity == "warning":
            scan.warnings.append(index)
        elif facts.severity == "muted":
            scan.muted.append(index)
    return dataclasses.replace(scan, exit_status=exit_status)


def _facts(line: str) -> _Facts | None:
    """Classify one line (at most ``PREFIX`` chars); None when it says nothing."""
    if not line.strip():
        return None
    failing = ""
    test = _TEST_RESULT.match(line)
    if test is not None:
        status, test_id = _status_and_id(test)
        if status in _FAILING:
            failing = test_id
        elif status:
            return None  # a passing test is never an error, whatever its name says
    lowered = line.lower()
    exit_match = _EXIT.search(lowered) if _mentions(lowered, _EXIT_WORDS) else None
    if exit_match is not None and _declared_level(line, lowered) == "info":
        exit_match = None  # "[notice] worker process 10332 exited with code 0": an event of a server
    summary = exit_match is not None or is_run_summary(lowered) or _states_step_totals(lowered)
    exit_status = None
    if exit_match is not None:
        exit_status = exit_match.group("a") or exit_match.group("b") or exit_match.group("c") or ""
    frame: tuple[str, bool] | None = None
    severity = ""
    java = _JAVA_FRAME.match(line) or _JS_FRAME.match(line)
    if java is None and ":in " in line:
        ruby = _RUBY_FRAME.match(line)
        java = ruby if ruby is not None and ruby.group("said") is None else None
    php = _PHP_FRAME.match(line) if java is None and ".php" in line else None
    python = _PY_FRAME.match(line) if java is None and php is None else None
    if java is not None:  # all print the innermost frame first
        frame = (java.group("where"), True)
    elif php is not None:
        frame = (php.group("where") or php.group("slow"), True)
    elif python is not None:
        frame = (python.group("file"), False)
    else:
        severity = _severity(line, lowered)
    if not (failing or summary or exit_status is not None or frame is not None or severity):
        return None
    return _Facts(failing, summary, exit_status, frame, severity)


def _states_step_totals(lowered: str) -> bool:
    """Whether a (lowercased) line states a step's totals: ``Resolved 18 packages in 309ms``."""
    return "ed " in lowered and " in " in lowered and _STEP_TOTALS.match(lowered) is not None


def is_test_line(line: str) -> bool:
    """Whether ``line`` reports a test's result (passing or not), as ``scan_log`` reads them."""
    return _TEST_RESULT.match(line[:PREFIX]) is not None


def _status_and_id(match: re.Match[str]) -> tuple[str, str]:
    names = _RESULT_GROUPS.get(match.lastgroup or "")
    if names is None:
        return "", ""
    status = match.group(names[1]) or ""
    if status.endswith(")"):  # mocha numbers its failures: ``  3) keeps unicode names``
        status = "FAIL"
    return status, match.group(names[0]) or ""


def _mentions(lowered: str, words: tuple[str, ...]) -> bool:
    """A cheap substring prefilter: most lines mention none of ``words`` and skip the regexes. One
    alternation of the words, searched: on a line of a few hundred characters three times as fast
    as testing each word in turn (80k lines of a word list: 0.2 s to 0.07 s for the error words)."""
    return _alternation(words).search(lowered) is not None


@functools.cache
def _alternation(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, words)))


def _declared_level(line: str, lowered: str) -> str:
    """The level a line declares ('error', 'warning', 'info') or '': ``ERROR``, ``level=warn``,
    or a bracketed lowercase one as nginx and Apache write them (``[error]``, ``[core:warn]``)."""
    declared = next((LEVELS[w] for w in _UPPER_WORD.findall(line, 0, 120) if w in LEVELS), "")
    keyed = "level" in lowered or "severity" in lowered or "lvl" in lowered
    structured = _STRUCTURED_LEVEL.search(line) if keyed else None
    if structured is not None:
        name = structured.group(1).lower()
        if name.isdigit():
            declared = next((level for floor, level in _NUMERIC_LEVELS if int(name) >= floor), "info")
        else:
            declared = (
                "error"
                if name in {"error", "err", "fatal", "critical", "panic"}
                else "warning"
                if name.startswith("warn")
                else "info"
            )
    if not declared and "[" in line[:80]:
        bracketed = _BRACKET_LEVEL.search(lowered, 0, 80)
        if bracketed is not None:
            declared = LEVELS.get(bracketed.group(1).upper(), "")
    return str(declared)


def _severity(line: str, lowered: str) -> str:
    """'error', 'weak' (error words only), 'warning', 'note' or '' for one line."""
    compiler = COMPILER.match(line)
    if compiler is not None:
        what = compiler.group("what")
        return "note" if what == "remark" else what if what in {"warning", "note"} else "error"
    if "|" in line[:12] and _QUOTED_CODE.match(line) or ": In " in line and IN_FUNCTION.match(line):
        return ""  # what the code says, and where: the diagnostic is the line above or below
    if ".py::" in line and _NODE_ID.match(line):
        return ""  # a test's name, announced before its result (pytest-xdist's -v): ``…::test_no_error``
    declared = _declared_level(line, lowered)
    if declared:
        # A declared level wins over words in the message ("... debugging of ClassNotFoundException"),
        # but not over a record's own fields: an ``"err": {…}`` or ``"error": "…"`` makes a
        # request logged at an ``http`` or ``info`` level a failed one.
        if declared == "info":
            if line.startswith("{") and _RECORD_FAILED.search(line):
                return "weak"
            return "muted" if _mentions(lowered, _ERROR_WORDS) and _WEAK_ERROR.search(lowered) else ""
        return str(declared)
    if EXCEPTION.match(line) or PYTEST_E.match(line) or _EXPECTED.match(line):
        return "error"
    if " - " in line and _DASHED_EXCEPTION.search(line):
        return "error"
    if ":in " in line and (ruby := _RUBY_FRAME.match(line)) is not None and ruby.group("said"):
        return "error"  # an uncaught exception's line: its innermost frame, its message and class
    if line.startswith("==") and _VALGRIND_ERROR.match(line):
        return "error"
    if _mentions(lowered, _ERROR_WORDS):
        strong = _STRONG_ERROR_LOWER.search(lowered)
        if strong is not None and (strong.start() == 0 or not lowered[strong.start() - 1].isalnum()):
            return "error"
        exact = _STRONG_ERROR_EXACT.search(line) if ("FA" in line or "×" in line or "***" in line) else None
        if exact is not None and (exact.start() == 0 or not line[exact.start() - 1].isalnum()):
            return "error"
        if _WEAK_ERROR.search(lowered):
            return "weak"
    if _mentions(lowered, _WARNING_WORDS) and _WARNING_WORD.search(lowered):
        return "warning"
    return "warning" if line[:1].isdigit() and _REDIS_WARNING.match(line) else ""


_FRAME_RUN = 10_000  # lines read below a frame for the end of its traceback, at most


def raised_after_frames(lines: Sequence[str], frames: Sequence[tuple[int, str, bool]]) -> list[int]:
    """The line each run of Python frames (``scan_log``'s ``frames``) ends with, when it names an
    exception (``levels.RAISED_NAME``): the first line below them that is not indented. Each line is
    read once."""
    found: list[int] = []
    read_to = -1
    for index, _where, jvm in frames:
        if jvm or index <= read_to:
            continue
        end = index + 1
        stop = min(len(lines), index + _FRAME_RUN)
        while end < stop and lines[end][:1] in (" ", "\t"):
            end += 1
        read_to = end
        if end < len(lines) and RAISED_NAME.match(lines[end]):
            found.append(end)
    return found


def shape_counts(scan: LogScan) -> Counter[str]:
    """How many lines have each shape (``Counter(scan.shapes)``), added up by key: the lines of a
    key share its shape, so this costs a step a key, not a line."""
    counts: Counter[str] = Counter()
    shapes, firsts = scan.shapes, scan.groups.firsts
    for key, size in scan.groups.sizes.items():  # in first-seen order, as the lines count them
        counts[shapes[firsts[key]]] += size
    return counts


def routine_errors(scan: LogScan) -> set[int]:
    """Weak errors that belong to a family of lines which mostly are not errors."""
    if not scan.weak:
        return set()
    mark = scan.groups.mark
    members: Counter[str] = Counter()
    for key, size in scan.groups.sizes.items():
        members[_family(key, mark)] += size
    families = {i: _family(scan.groups.keys[i], mark) for i in scan.weak}
    failing = Counter(families.values())
    return {
        i
        for i, family in families.items()
        if family and members[family] >= ROUTINE and failing[family] * 2 < members[family]
    }


def _family(key: str, mark: str) -> str:
    """A line's first two words, read from its key, if neither holds a digit (timestamps make none)."""
    match = _FAMILY.match(key, 0, 80)
    if match is None:
        return ""
    words = match.group(0)
    if mark and mark in words:
        return ""
    if _ASCII_DIGIT.search(words) if words.isascii() else any(ch.isdigit() for ch in words):
        return ""
    return f"{match.group(1)} {match.group(2)}"


def count_runs(indexes: Sequence[int]) -> int:
    """How many runs of near-consecutive line numbers ``indexes`` holds (an error and its lines = 1)."""
    return sum(1 for order, index in enumerate(indexes) if order == 0 or indexes[order - 1] < index - 3)
