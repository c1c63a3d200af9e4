"""Lines that sum a run up: a test run's, a build's, a linter's, a diff's totals.

``is_run_summary(lowered)`` is whether a lowercased line is a run's final summary (pytest's
``=== 3 failed, 10 passed in 0.5s ===``, ``Ran 1141 tests in``, Jest's ``Tests: 6 failed, 1045
passed``, ctest's, mocha's, cargo's, minitest's, npm's ``added 63 packages in 6s``, apt's,
terraform's, Maven's reactor rows of a module that failed or was skipped, ESLint's ``✖ 62 problems
(0 errors, 62 warnings)``, pre-commit's
``mypy....Failed``, ``git bisect``'s ``<sha> is the first bad commit``…); the log summaries rank
those lines first. ``is_totals_line(line)`` also takes a linter's totals (``Found 112 errors.``)
and a diff's ``--stat`` totals (``15 files changed, 1268 insertions(+), 781 deletions(-)``), on the
line as printed (ANSI codes and a CI timestamp are read past): what a search for "the totals"
shows; ``stat_counts(line)`` reads that ``--stat`` line's three counts. Pure; each test is one
regex pass on a line.
"""

from __future__ import annotations

import re

from context_mode.diagnostics import clean_line, lint_totals

# Summary lines (on the lowercased line): anchored forms, then word forms behind a substring check.
_SUMMARY_ANCHORED = re.compile(
    r"=+ .*\b(?:passed|failed|errors?|skipped|deselected|no tests ran)\b.* =+$"
    r"|ran \d+ tests? in |ran \d+ tests? across \d+ files?\b"  # unittest's, bun's
    r"|(?:failed|ok)(?: \(.*\))?$"
    r"|tests?:\s+\d+"
    r"|test suites:"
    r"|test result: "
    r"|(?:ok|fail)\s+\S+\s+[\d.]+s$"
    r"|\s*successfully (?:installed|built) "
    r"|# (?:tests|pass|fail) \d+$"  # TAP's totals
    r"|# (?:total|pass|skip|xfail|fail|xpass|error): +\d+$"  # automake's test harness
    r"|\s*\d+ (?:passing|failing|pending)\b"  # mocha's
    r"|\s*\d+ fail$"  # bun's
    r"|\[=+\] \d+ tests? from .* ran\b|\[\s+(?:passed|failed)\s+\] \d+ tests?\b"  # gtest
    r"|summary: \w+sanitizer: "  # ASan's / UBSan's one-line verdict
    r"|found \d+ errors? in \d+ files?\b|found \d+ errors?\.?$|found 1 error in \S"  # tsc's, mypy's
    r"|\d+ warnings? and \d+ errors?$"  # esbuild's
    r"|[✖×x] \d+ problems? \(\d+ errors?, \d+ warnings?\)"  # eslint's (stylelint's), a CI log's lint step
    r"|warning: `[^`]+` \([^)]*\) generated \d+ warnings?"  # cargo's count per target
    r"|\s*failed: \d+\.\s+skipped: \d+\.\s+passed: \d+\."  # EUnit's
    r"|\s*\d+ failed tests?$"
    r"|\d+% tests passed, \d+ tests? failed out of \d+"  # ctest
    r"|\d+ examples?, \d+ failures?"  # rspec
    r"|(?:\[\w+\] )?tests run: \d+, failures: \d+, errors: \d+, skipped: \d+$"  # surefire's totals
    # pre-commit's verdict on a hook that failed (``mypy.............Failed``)
    r"|[^.\n]*[^.\s]\.{4,}failed$"
    # Maven's reactor summary: a module that failed or was skipped (``[INFO] api ..... SKIPPED``)
    r"|\[info\] \S.*? \.{3,} (?:failure|skipped)(?: \[ *[\d.:]+ \w+\])?$"
    r"|\d+ tests completed, \d+ failed"  # gradle
    r"|\s*(?:<\?xml[^>]*>)?\s*<testsuites?\b[^>]*\btests=\"\d+\""  # a JUnit XML report's totals
    r"|(?:failed|passed)!\s+- failed:\s+\d+"  # dotnet test
    r"|\d+ runs, \d+ assertions, \d+ failures, \d+ errors"  # minitest
    r"|\[\s+\d+ tests (?:successful|failed|aborted)\s+\]"  # JUnit 5's console launcher
    r"|webpack [\d.]+ compiled\b"
    r"|✓ built in [\d.]+m?s$"  # vite
    r"|(?:added|removed|changed|up to date)\b.* (?:audited )?\d+ packages? in [\d.]+m?s$"  # npm install
    r"|\d+ upgraded, \d+ newly installed, \d+ to remove and \d+ not upgraded"  # apt-get
    r"|plan: \d+ to add, \d+ to change, \d+ to destroy|(?:apply|destroy) complete! resources:"  # terraform
    r"|[0-9a-f]{7,64} is the first bad commit$|the first bad commit could be any of:$"  # git bisect's verdict
    r"|there are only 'skip'ped commits left to test\."
)
# (not followed by a colon: "recvfrom 13 failed: Connection refused" is an error, not a count)
_SUMMARY_COUNTS = re.compile(r"\d+ (?:passed|failed|tests? (?:passed|failed))\b(?!:)")
_SUMMARY_BUILD = re.compile(r"build (?:success|successful|failed|failure)\b")
_SUMMARY_STARTUP = re.compile(r"startup in \[?\d+")
# a diff's ``--stat`` totals, its counts in groups (either count may be left out)
_STAT_COUNTS = re.compile(r"(\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?")
_STAT_TOTALS = re.compile(rf"\s*{_STAT_COUNTS.pattern}\s*\Z")


def is_run_summary(lowered: str) -> bool:
    """Whether a (lowercased) line is a run's final summary: counts, build result, startup time."""
    return bool(
        _SUMMARY_ANCHORED.match(lowered)
        or (("passed" in lowered or "failed" in lowered) and _SUMMARY_COUNTS.search(lowered))
        or ("build " in lowered and _SUMMARY_BUILD.search(lowered))
        or ("startup in" in lowered and _SUMMARY_STARTUP.search(lowered))
    )


def stat_counts(line: str) -> tuple[int, int, int]:
    """A ``--stat`` totals line's files, insertions and deletions (0 for a count it leaves out)."""
    found = _STAT_COUNTS.search(line)
    return (int(found.group(1)), int(found.group(2) or 0), int(found.group(3) or 0)) if found else (0, 0, 0)


def is_totals_line(line: str) -> bool:
    """Whether ``line`` (as printed) sums a run up: a run's summary, a linter's or a diff's totals."""
    cleaned = clean_line(line[:400]).strip()
    return bool(cleaned) and (
        is_run_summary(cleaned.lower()) or lint_totals(cleaned) or _STAT_TOTALS.match(cleaned) is not None
    )
