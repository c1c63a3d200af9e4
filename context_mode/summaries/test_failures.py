"""Test runners' failure blocks: what each failing test expected and got, and where it failed.

RSpec prints each failure as a numbered block::

      1) Hashie::Mash returns the existing value when passed an under bang method
         Failure/Error: expect(subject.name_).to eq 'Bob'

           expected: "Bob"
                got: nil
         # ./spec/hashie/mash_spec.rb:100:in `block (2 levels) in <top (required)>'

``rspec_picks(lines)`` returns, for each block, picks for a log summary: the first line of its
message (``expected …``/``got: …``, or an exception's class and message; below the failing code,
which a multi-line ``Failure/Error:`` runs on to a blank line), ranked with the log's failing
tests so that each message comes beside its test; then the message's next lines, the
``Failure/Error:`` line and the example's own location (the first ``# path:line`` at the block's
indent, not the backtrace of the code under test). Earlier failures rank higher; past the third
example named alike but for digits, a block gives no picks. None for other logs. Linear.

``mocha_picks(text, lines)`` does the same for Mocha's spec reporter, whose failures follow its
``  9 failing`` line as blocks: ``  4) Cart``, the test's title path on more indented lines down to
the one ending in a colon (``       remove``, ``         keeps others:``), then the message (past a
blank line at most) up to a blank line. Each block's header and title path are one pick ranked
with the failing tests (they share a shape, ``  #) Cart``, but each is its own failure), its
message's first line beside it and two more lower (past the third block of one title but for its
digits, none: 23 "parses case N" failures would crowd out the one other); ``headers`` are those
header and title lines,
which name no test of their own (Mocha lists the failing tests by their titles above the blocks).

``junit_picks(lines)`` does the same for a JUnit XML report (Maven Surefire's, Gradle's, pytest's
``--junitxml``): a ``<testcase …>`` element whose first child is a ``<failure`` or ``<error``
(on its line or the next) is a failing test; its line ranks with the failing tests, the child's
(its ``message=`` and type) beside it. pytest's own report has no line breaks but its failures':
a line holding failing test cases inside it ranks likewise, each of them counted. ``failed``
counts them.

``gtest_picks(lines)`` does the same for GoogleTest, whose failures are a ``path:line: Failure``
line with the assertion's lines below it (``Expected: (b) >= (0.0), actual: -113.257 vs 0``,
``Value of: …`` / ``Actual: …`` / ``Expected: …``, a custom message) up to the next ``[ … ]``
line or failure: the first of them ranks with the failing tests, the ``Failure`` line and two
more lower.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from context_mode.summaries.packing import Pick

_HEADER = re.compile(r" {2,4}\d+\) \S")
_FAILURE = re.compile(r"(?P<indent> +)Failure/Error:(?P<code>.*)\Z")
_LOCATION = re.compile(r"(?P<indent> +)# \S+:\d+")
_MESSAGE_LINES = 3  # lines of a message shown (the second and third lower)
_REACH = 60  # lines below a Failure/Error line looked through
_PREFIX = 400


_MOCHA_FAILING = re.compile(r"^  \d+ failing$", re.MULTILINE)
_MOCHA_BLOCK = re.compile(r"  \d{1,4}\) \S")
_TITLE_LINES = 8  # a block's header and its title path, at most
_ALIKE_BLOCKS = 3  # blocks of one title shape (``parses case 7:``, ``parses case 20:``) picked
_DIGITS = re.compile(r"\d+")


_TESTCASE = re.compile(r"\s*<testcase\b[^>]*?(?P<closed>/?)>")
_FAILED_CHILD = re.compile(r"\s*<(?:failure|error)\b")
_INLINE_TESTCASE = re.compile(r"<testcase\b[^>]*+(?<!/)>(?P<failed>\s*<(?:failure|error)\b)?")


class RSpecFailures(NamedTuple):
    picks: list[Pick]


def rspec_picks(lines: Sequence[str]) -> RSpecFailures:
    """Picks for RSpec's failure blocks in ``lines`` (see module doc); none when there are none."""
    picks: list[Pick] = []
    order = 0
    alike: Counter[str] = Counter()
    for index in [i for i, line in enumerate(lines) if "Failure/Error:" in line]:
        found = _FAILURE.match(lines[index][:_PREFIX])
        if found is None or index == 0 or not _HEADER.match(lines[index - 1][:_PREFIX]):
            continue
        # (examples named alike but for digits, ``formats 7 euros``: past the third, their rerun
        # lines' ``[×30]`` says how many)
        if _past_alike(alike, lines[index - 1]):
            continue
        decay = min(order, 20) * 0.2  # as a log's failing tests fall: each message beside its test
        order += 1
        picks.append(Pick(index, index + 1, 70.0 - decay))
        indent = len(found.group("indent"))
        _block_picks(lines, index, indent, not found.group("code").strip(), decay, picks)
    return RSpecFailures(picks)


def _past_alike(alike: Counter[str], title: str) -> bool:
    """Counts ``title`` (digits aside) in ``alike``; whether it is past the ``_ALIKE_BLOCKS``-th."""
    key = _DIGITS.sub("#", title.strip())
    alike[key] += 1
    return alike[key] > _ALIKE_BLOCKS


def _block_picks(
    lines: Sequence[str], start: int, indent: int, code_below: bool, decay: float, picks: list[Pick]
) -> None:
    """The message and location picks of the failure block whose ``Failure/Error:`` is ``start``."""
    stop = min(len(lines), start + _REACH)
    first = start + 1
    if code_below:  # the failing code runs on to a blank line
        while first < stop and lines[first].strip():
            first += 1
    shown = 0
    for position in range(first, stop):
        text = lines[position][:_PREFIX]
        stripped = text.strip()
        if _HEADER.match(text):
            break
        if not stripped:
            continue
        location = _LOCATION.match(text)
        if location is not None:
            if len(location.group("indent")) == indent:
                picks.append(Pick(position, position + 1, 66.0 - decay))
                break
            continue  # a backtrace line of the code under test
        if shown < _MESSAGE_LINES:
            picks.append(Pick(position, position + 1, (91.9 if shown == 0 else 62.0 - shown) - decay))
            shown += 1


_GTEST_FAILURE = re.compile(r"\S+:\d+: Failure\Z")
_GTEST_STATUS = re.compile(r"\[ *[A-Z=-]+ *\]")


def gtest_picks(lines: Sequence[str]) -> list[Pick]:
    """Picks for GoogleTest's failures in ``lines`` (see module doc); none when there are none."""
    picks: list[Pick] = []
    order = 0
    for index in [i for i, line in enumerate(lines) if line.endswith(": Failure")]:
        if not _GTEST_FAILURE.match(lines[index][:_PREFIX]):
            continue
        decay = min(order, 20) * 0.2
        order += 1
        picks.append(Pick(index, index + 1, 70.0 - decay))
        for offset, position in enumerate(range(index + 1, min(len(lines), index + 1 + _MESSAGE_LINES))):
            text = lines[position][:_PREFIX]
            if not text.strip() or _GTEST_STATUS.match(text) or _GTEST_FAILURE.match(text):
                break
            picks.append(Pick(position, position + 1, (91.9 if offset == 0 else 62.0 - offset) - decay))
    return picks


class MochaFailures(NamedTuple):
    picks: list[Pick]
    headers: set[int]  # the blocks' ``N) suite`` lines and their title paths


def mocha_picks(text: str, lines: Sequence[str]) -> MochaFailures:
    """Picks for Mocha's failure blocks (see module doc); none when ``text`` has no ``N failing``."""
    found = _MOCHA_FAILING.search(text)
    if found is None:
        return MochaFailures([], set())
    picks: list[Pick] = []
    headers: set[int] = set()
    order = 0
    alike: Counter[str] = Counter()
    index = text.count("\n", 0, found.start()) + 1
    while index < len(lines):
        leaf = _title_end(lines, index) if _MOCHA_BLOCK.match(lines[index][:_PREFIX]) else -1
        if leaf < 0:
            index += 1
            continue
        headers.update(range(index, leaf + 1))
        if _past_alike(alike, lines[leaf]):
            index = leaf + 1  # (the first's title carries their count, ``[×23]``)
            continue
        decay = min(order, 20) * 0.2  # as a log's failing tests fall: each message beside its test
        order += 1
        picks.append(Pick(index, leaf + 1, 92.0 - decay))
        message = leaf + 1
        if message < len(lines) and not lines[message].strip():
            message += 1  # (some messages come after a blank line)
        shown = 0
        while message < len(lines) and lines[message].strip() and shown < _MESSAGE_LINES:
            picks.append(Pick(message, message + 1, (91.9 if shown == 0 else 62.0 - shown) - decay))
            shown += 1
            message += 1
        index = leaf + 1
    return MochaFailures(picks, headers)


def _title_end(lines: Sequence[str], header: int) -> int:
    """The line ending a Mocha block's title path (the one ending in a colon), or -1."""
    for index in range(header, min(len(lines), header + _TITLE_LINES)):
        line = lines[index][:_PREFIX].rstrip()
        if index > header and (not line or not line.startswith("   ")):
            return -1
        if line.endswith(":"):
            return index
    return -1


class JUnitFailures(NamedTuple):
    picks: list[Pick]
    failed: int


def junit_picks(lines: Sequence[str]) -> JUnitFailures:
    """Picks for a JUnit XML report's failing test cases (see module doc)."""
    picks: list[Pick] = []
    failed = 0
    for index, line in enumerate(lines):
        if "<testcase" not in line:
            continue
        found = _TESTCASE.match(line[:_PREFIX])
        if found is not None:  # one element a line (Surefire's, a pretty-printed report)
            if found.group("closed"):
                continue
            if _FAILED_CHILD.match(line, found.end()):  # ``<testcase …><failure message=…`` (ESLint's)
                child = index
            elif index + 1 < len(lines) and _FAILED_CHILD.match(lines[index + 1][:_PREFIX]):
                child = index + 1
            else:
                continue
            decay = min(failed, 20) * 0.2
            failed += 1
            picks.append(Pick(index, index + 1, 92.0 - decay))
            if child != index:
                picks.append(Pick(child, child + 1, 91.9 - decay))
            continue
        # pytest's ``--junitxml`` writes no line breaks but a failure's own: a test case starts
        # after the one above it, on the line its failure's text ends on
        inline = sum(1 for case in _INLINE_TESTCASE.finditer(line) if case.group("failed"))
        if inline:
            picks.append(Pick(index, index + 1, 92.0 - min(failed, 20) * 0.2))
            failed += inline
    return JUnitFailures(picks, failed)
