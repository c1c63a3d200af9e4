"""Classifying log lines: severity, test results, summaries, exit status, traceback frames.

``scan_log(lines)`` makes one linear pass. Every regex sees at most ``PREFIX`` chars of a line,
and the costlier ones run only behind a substring check (most lines mention no error word), so
100k lines take a fraction of a second. A declared level (``INFO``, ``level=debug``) outranks
words in the message; errors are strong (``error:``, ``SEVERE``, an exception line, ``make:
***``) or weak (a bare "failed"), and weak ones in a family of routine lines are set apart by
``routine_errors``. A line's shape is the line with its numbers masked: lines of one shape are
"the same" for folding and rarity.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# Regexes only ever see this many leading chars of a line: enough for any marker, and it keeps
# a 1 MB single-line payload linear.
PREFIX = 400
# A family (lines sharing their first two words) this big, mostly not errors, is routine.
ROUTINE = 5

_UPPER_WORD = re.compile(r"\b[A-Z]{3,8}\b")
_LEVELS = {
    **dict.fromkeys(
        ("ERROR", "ERR", "FATAL", "CRITICAL", "CRIT", "SEVERE", "PANIC", "EMERG", "ALERT"), "error"
    ),
    **dict.fromkeys(("WARN", "WARNING"), "warning"),
    **dict.fromkeys(
        ("INFO", "DEBUG", "TRACE", "FINE", "FINER", "FINEST", "NOTICE", "VERBOSE", "CONFIG"), "info"
    ),
}
_STRUCTURED_LEVEL = re.compile(r"""\blevel["']?\s*[=:]\s*["']?(\w+)""", re.IGNORECASE)
EXCEPTION = re.compile(
    r"^\s*(?:Caused by: |E\s+)?(?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt|Failure|Fault)\b"
    r"(?::|;|$)"
)
# The case-insensitive patterns run on the lowercased line (faster than re.IGNORECASE).
# No leading \b: a literal first char lets the regex engine skip ahead (several times faster).
_STRONG_ERROR_LOWER = re.compile(r"(?:error(?:\[\w+\]| \w+)?:|fatal:|npm err!|panic:|traceback \()")
_STRONG_ERROR_EXACT = re.compile(r"(?:FATAL|FAILED|FAIL)\b|^\s*× |\*\*\* ")
_WEAK_ERROR = re.compile(r"\berror\b|\bfatal\b|\bfail(?:ed|ure)?\b|\bpanicked\b|\bnot remade\b")
_WARNING_WORD = re.compile(r"\bwarn(?:ing)?\b|\wwarning\b|\bdeprecated\b")
_PY_FRAME = re.compile(r'^\s*File "(?P<file>[^"]*)", line \d+')
_JAVA_FRAME = re.compile(r"^\s+at (?P<where>[\w$.<>/]+?)(?:\.[\w$<>]+)?\(")
LIBRARY_FRAME = re.compile(
    r"^(?:[\w.]+/)?(?:java|javax|jdk|sun|com\.sun|kotlin|scala)\.|site-packages|dist-packages|/lib/python\d"
)
COMPILER = re.compile(r"^(?:[^\s:]+):\d+(?::\d+)?: (?P<what>(?:fatal )?error|warning|note)\b")
CODE_CONTEXT = re.compile(r"^\s*(?:\d+\s*)?\|")
IN_FUNCTION = re.compile(r"^[^\s:]+: (?:In (?:function|member function|constructor)|At top level)")
PYTEST_LOCATION = re.compile(r"^[\w./\\-]+:\d+: \w+$")
PYTEST_E = re.compile(r"^E\s{2,}\S")
SECTION = re.compile(r"^(?:_{3,} .+ _{3,}|={3,} .+ ={3,}|-{3,} .+ -{3,})$")

_TEST_RESULT = re.compile(
    r"^(?P<id>\S+::\S+)(?: \S+)? (?P<status>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b"
    r"|^(?P<status2>FAILED|ERROR) (?P<id2>\S+::\S*)"
    r"|^(?P<status3>FAIL|ERROR): (?P<id3>\w+ \([\w.]+\))"
    r"|^\s*--- (?P<status4>FAIL|PASS): (?P<id4>\S+)"
    r"|^test (?P<id5>\S+) \.\.\. (?P<status5>FAILED|ok|ignored)$"
    r"|^\s*(?P<status6>✕|✗) (?P<id6>.+?)(?: \(\d+ ?m?s\))?$"
    r"|^(?P<id7>\w+ \([\w.]+\)) \.\.\. (?P<status7>FAIL|ERROR|ok)$"
)
_FAILING = frozenset({"FAILED", "ERROR", "FAIL", "XPASS", "✕", "✗"})

# Summary lines (on the lowercased line): anchored forms, then word forms behind a substring check.
_SUMMARY_ANCHORED = re.compile(
    r"=+ .*\b(?:passed|failed|errors?|skipped|deselected|no tests ran)\b.* =+$"
    r"|ran \d+ tests? in "
    r"|(?:failed|ok)(?: \(.*\))?$"
    r"|tests?:\s+\d+"
    r"|test suites:"
    r"|test result: "
    r"|(?:ok|fail)\s+\S+\s+[\d.]+s$"
    r"|\s*successfully (?:installed|built) "
)
_SUMMARY_COUNTS = re.compile(r"\d+ (?:passed|failed|tests? (?:passed|failed))\b")
_SUMMARY_BUILD = re.compile(r"build (?:success|successful|failed|failure)\b")
_SUMMARY_STARTUP = re.compile(r"startup in \[?\d+")
_EXIT = re.compile(  # on the lowercased line
    r"\bexit(?:ed)?(?: with)?(?: code| status)[:= ]+(?P<a>-?\d+)"
    r"|\bnon-zero exit status (?P<b>\d+)"
    r"|^make: \*\*\* .*error (?P<c>\d+)$"
)
# Substrings every match of the regex above them contains (lowercased): a fast prefilter.
_ERROR_WORDS = ("err", "fatal", "fail", "panic", "traceback", "×", "***", "not remade")
_WARNING_WORDS = ("warn", "deprecated")
_EXIT_WORDS = ("exit", "make")
_SHAPE = re.compile(r"[0-9a-fA-F]{8,}|\d+")
# For ASCII text, ``_SHAPE`` in two cheap steps: long hex runs (rare: found by marking hex chars
# and one substring search), then digit runs, collapsed by str.replace rather than a regex match
# per number. "\x01" marks a char; text already holding one takes the regex path.
_HEX_RUN = re.compile(r"[0-9a-fA-F]{8,}")
_MARK = "\x01"
_HEX_MARKS = str.maketrans(dict.fromkeys("0123456789abcdefABCDEF", _MARK))
_DIGIT_MARKS = str.maketrans(dict.fromkeys("0123456789", _MARK))
_FAMILY = re.compile(r"\s*(\S+)\s+(\S+)")
_ASCII_DIGIT = re.compile(r"[0-9]")


@dataclass(frozen=True, slots=True)
class LogScan:
    """What the classifying pass found; every int is a line index."""

    errors: list[int]  # strong and weak errors, in order
    weak: set[int]
    notes: list[int]  # compiler notes
    warnings: list[int]
    summaries: list[int]
    failing: dict[str, int]  # test id -> its last mention
    exit_status: str
    frames: list[tuple[int, str, bool]]  # (line, class or file, is JVM) inside tracebacks
    shapes: list[str]


def scan_log(lines: Sequence[str]) -> LogScan:
    """Classify every line once; see the module docstring for what counts as what."""
    scan = LogScan([], set(), [], [], [], {}, "", [], [])
    exit_status = ""
    scan.shapes.extend(shapes(lines))
    for index, full in enumerate(lines):
        line = full[:PREFIX]
        if not line.strip():
            continue
        test = _TEST_RESULT.match(line)
        if test is not None:
            status, test_id = _status_and_id(test)
            if status in _FAILING:
                scan.failing.pop(test_id, None)  # keep the last mention: the summary's
                scan.failing[test_id] = index
            elif status:
                continue  # a passing test is never an error, whatever its name says
        lowered = line.lower()
        exit_match = _EXIT.search(lowered) if _mentions(lowered, _EXIT_WORDS) else None
        if exit_match is not None or _is_summary(lowered):
            scan.summaries.append(index)
        if exit_match is not None:
            exit_status = exit_match.group("a") or exit_match.group("b") or exit_match.group("c") or ""
        java = _JAVA_FRAME.match(line)
        python = _PY_FRAME.match(line) if java is None else None
        if java is not None or python is not None:
            where = java.group("where") if java is not None else python.group("file") if python else ""
            scan.frames.append((index, where, java is not None))
            continue
        severity = _severity(line, lowered)
        if severity in {"error", "weak"}:
            scan.errors.append(index)
            if severity == "weak":
                scan.weak.add(index)
        elif severity == "note":
            scan.notes.append(index)
        elif severity == "warning":
            scan.warnings.append(index)
    return LogScan(
        scan.errors,
        scan.weak,
        scan.notes,
        scan.warnings,
        scan.summaries,
        scan.failing,
        exit_status,
        scan.frames,
        scan.shapes,
    )


def shapes(lines: Sequence[str]) -> list[str]:
    """Each line's shape: its first ``PREFIX`` chars with hex runs (8+) and numbers masked as ``#``."""
    if not lines:
        return []
    joined = "\n".join([line[:PREFIX] for line in lines])
    if joined.isascii() and _MARK not in joined:
        if _MARK * 8 in joined.translate(_HEX_MARKS):
            joined = _HEX_RUN.sub("#", joined)
        marked = joined.translate(_DIGIT_MARKS)
        while _MARK * 2 in marked:  # runs are at most PREFIX long: a bounded number of passes
            marked = marked.replace(_MARK * 2, _MARK)
        joined = marked.replace(_MARK, "#")
    else:
        joined = _SHAPE.sub("#", joined)  # never matches across a newline
    result = joined.split("\n")
    if len(result) != len(lines):  # a line held a newline itself
        return [_SHAPE.sub("#", line[:PREFIX]) for line in lines]
    return result


def _status_and_id(match: re.Match[str]) -> tuple[str, str]:
    for number in ("", "2", "3", "4", "5", "6", "7"):
        test_id = match.group(f"id{number}")
        if test_id:
            return match.group(f"status{number}") or "", test_id
    return "", ""


def _is_summary(lowered: str) -> bool:
    """Whether a (lowercased) line is a run's final summary: counts, build result, startup time."""
    return bool(
        _SUMMARY_ANCHORED.match(lowered)
        or (("passed" in lowered or "failed" in lowered) and _SUMMARY_COUNTS.search(lowered))
        or ("build " in lowered and _SUMMARY_BUILD.search(lowered))
        or ("startup in" in lowered and _SUMMARY_STARTUP.search(lowered))
    )


def _mentions(lowered: str, words: tuple[str, ...]) -> bool:
    """A cheap substring prefilter: most lines mention none of ``words`` and skip the regexes."""
    return any(word in lowered for word in words)


def _severity(line: str, lowered: str) -> str:
    """'error', 'weak' (error words only), 'warning', 'note' or '' for one line."""
    compiler = COMPILER.match(line)
    if compiler is not None:
        what = compiler.group("what")
        return what if what in {"warning", "note"} else "error"
    declared = next((_LEVELS[w] for w in _UPPER_WORD.findall(line, 0, 120) if w in _LEVELS), "")
    structured = _STRUCTURED_LEVEL.search(line) if "level" in lowered else None
    if structured is not None:
        name = structured.group(1).lower()
        declared = (
            "error"
            if name in {"error", "err", "fatal", "critical"}
            else "warning"
            if name.startswith("warn")
            else "info"
        )
    if declared:
        # A declared level wins over words in the message ("... debugging of ClassNotFoundException").
        return "" if declared == "info" else str(declared)
    if EXCEPTION.match(line) or PYTEST_E.match(line):
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
    return "warning" if _mentions(lowered, _WARNING_WORDS) and _WARNING_WORD.search(lowered) else ""


def routine_errors(lines: Sequence[str], scan: LogScan) -> set[int]:
    """Weak errors that belong to a family of lines which mostly are not errors."""
    if not scan.weak:
        return set()
    families = [_family(line) for line in lines]
    members = Counter(families)
    failing = Counter(families[i] for i in scan.weak)
    return {
        i
        for i in scan.weak
        if families[i] and members[families[i]] >= ROUTINE and failing[families[i]] * 2 < members[families[i]]
    }


def _family(line: str) -> str:
    """The first two words of a line, if neither holds a digit (timestamps make no family)."""
    match = _FAMILY.match(line, 0, 80)
    if match is None:
        return ""
    words = match.group(0)
    if _ASCII_DIGIT.search(words) if words.isascii() else any(ch.isdigit() for ch in words):
        return ""
    return f"{match.group(1)} {match.group(2)}"


def count_runs(indexes: Sequence[int]) -> int:
    """How many runs of near-consecutive line numbers ``indexes`` holds (an error and its lines = 1)."""
    return sum(1 for order, index in enumerate(indexes) if order == 0 or indexes[order - 1] < index - 3)
