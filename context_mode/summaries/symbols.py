"""Symbol tables (``nm``, ``readelf -s`` / ``--dyn-syms``, ``objdump -T`` / ``-t``): what a binary
defines and what it needs, whatever kind they were taken for.

Three formats are read from their own lines (the tool's name does not matter):

- ``nm`` (``-D``, ``-S``, ``--defined-only``): ``0000000000024f80 T curl_easy_perform@@CURL_OPENSSL_4``
  (an address, with ``-S`` a size, a type letter, the name with its version after ``@`` or ``@@``),
  an undefined symbol with blanks for its address (``                 U free@GLIBC_2.2.5``), a
  version node an absolute one (``0000000000000000 A ZLIB_1.2.0``);
- ``readelf -s`` / ``--dyn-syms``: ``Symbol table '.dynsym' contains 314 entries:``, the ``Num:
  Value  Size Type  Bind  Vis  Ndx Name`` header, then ``  242: 00000000000191b0   392 FUNC
  GLOBAL DEFAULT   12 jq_format_error``; ``UND`` for an undefined symbol, ``ABS`` for a version node;
- ``objdump -T`` / ``-t``: ``0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.3.4)
  __snprintf_chk``: flags, the section (``*UND*`` undefined), the size, the version, the name.

A log reads such a table as a few hundred lines with an "error" in some names, a table as rows of
one column of names; an agent opens it for what the binary exports (the biggest functions, a
symbol's address and size), what it imports from which library and at which version (the highest
GLIBC it needs), and the versions it defines. ``summarize_symbols(text, kind=, budget=, terms=)``
returns None unless most of the first ``_SAMPLE_LINES`` non-blank lines are symbols of one
format; else, verbatim and within ``budget`` bytes: a label counting the symbols, defined and
undefined, and the versions needed per library with their range (``== 314 symbols · 203 defined ·
111 undefined · needs GLIBC_2.2.5…GLIBC_2.29 ×80, OPENSSL_3.0.0 ×12 · 9 unversioned ==``); the
table's own lines (its title, the column header) and its last line; lines naming the call's terms;
per library the symbol needing its highest version; then in turns the defined symbols (the
biggest first when sizes are printed, else in the table's order), the undefined ones (each
library's first before any library's second) and the version nodes. ``Extract.kind`` is the kind
asked for. A text's reading is kept for its next summary (``reading``). Linear in the text, but
for sorting the symbols.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, clip, first_lines, in_turns, split_lines
from context_mode.summaries.reading import Labelled, LastReading
from context_mode.types import ContentKind

# Each format's symbol line: its name and version in one match (``name@VERSION``, ``name@@VERSION``)
_NAME = r"(?P<name>[^\s@]+(?: [^@\n]*?)?)(?:@@?(?P<version>[\w.]+))?"
_NM = re.compile(
    r"(?:[0-9a-f]{8,16}|(?P<blank> {8,16})) (?:(?P<size>[0-9a-f]{8,16}) )?(?P<type>[A-Za-z?]) "
    + _NAME
    + r"\s*\Z"
)
_READELF = re.compile(
    r"\s*\d+: [0-9a-f]{8,16}\s+(?P<size>\d+|0x[0-9a-f]+)\s+[A-Z_]+\s+[A-Z_]+\s+[A-Z_]+"
    r"(?:\s+\[[^\]\n]*\])?\s+(?P<ndx>\w+)(?:\s+" + _NAME + r")?(?:\s+\(\d+\))?\s*\Z"
)
_OBJDUMP = re.compile(
    r"[0-9a-f]{8,16} [ !\w]{7} (?P<section>\S+)\s+(?P<size>[0-9a-f]{8,16})"
    r"(?:\s+\((?P<hidden>[^)\s]*)\)|\s+(?P<version>[\w.]+)(?=\s+\S))?\s+(?P<name>\S.*?)\s*\Z"
)
_VERSION = re.compile(r"(?P<library>.*?)_?(?P<number>\d+(?:\.\d+)*)\Z")
_UNVERSIONED = ("", "Base")
_NM_UNDEFINED = frozenset("Uwv")
_SYMBOLS: LastReading[Labelled | None] = LastReading()  # the last text's reading (read per summary)
_SAMPLE_LINES = 200
_HEAD = 32768  # chars the sample is taken from
_MIN_SHARE = 0.6  # of the sample's non-blank lines, symbols of one format
_MIN_SYMBOLS = 20
_WIDTH = 200
_LIBRARIES_LABELLED = 5
_OWN = 90.0  # the table's title and header lines (the first ``_OWN_LINES`` not symbols)
_OWN_LINES = 12
_LAST = 85.0
_TERM = 75.0
_HIGHEST = 68.0  # per library, the symbol needing its highest version
_TURNS = 60.0  # the r-th of each queue: ``_TURNS - r`` plus the queue's offset
_QUEUE_OFFSET = (0.5, 0.3, 0.2)  # defined, undefined, version nodes
_HIGHLIGHTS = 20
_MAX_RANK = 400  # picks per queue: no budget shows more lines


class _Symbol(NamedTuple):
    line: int  # its index in the text's lines
    version: str  # "" when none
    size: int  # -1 when the table prints none
    defined: bool
    node: bool  # a version node, not a symbol of code or data


def summarize_symbols(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The symbols a binary defines and needs, in ``budget`` bytes; None if ``text`` is no table of them."""
    reading = _SYMBOLS.get(text, tuple(terms), lambda: _read(text, terms))
    return None if reading is None else reading.extract(kind, budget, width=_WIDTH)


def _read(text: str, terms: Sequence[str]) -> Labelled | None:
    head = first_lines(text, _SAMPLE_LINES, _HEAD)
    parse = next((p for p in _FORMATS if _is_table(p, head)), None)
    if parse is None:
        return None
    lines = split_lines(text)
    symbols: list[_Symbol] = []
    own: list[int] = []
    pattern, read = parse
    for index, match in enumerate(map(pattern.match, lines)):
        if match is not None:
            symbol = read(index, match)
            if symbol is not None:
                symbols.append(symbol)
        elif len(own) < _OWN_LINES and lines[index].strip():
            own.append(index)
    if not symbols:
        return None
    wanted = term_matcher(terms)
    picks = [Pick(i, i + 1, _OWN) for i in own]
    last = next(i for i in range(len(lines) - 1, -1, -1) if lines[i].strip())
    picks.append(Pick(last, last + 1, _LAST))
    named = [s.line for s in symbols if wanted(lines[s.line])][:_MAX_RANK]
    picks += [Pick(i, i + 1, _TERM) for i in named]
    defined = [s for s in symbols if s.defined and not s.node]
    nodes = [s.line for s in symbols if s.node]
    undefined = [s for s in symbols if not s.defined]
    libraries = _by_library(undefined)
    for rank, (_, needing) in enumerate(libraries):
        top = max({s.version for s in needing}, key=_number)
        highest = next(s.line for s in needing if s.version == top)
        picks.append(Pick(highest, highest + 1, _HIGHEST - 0.01 * rank))
    biggest = sorted((-s.size, s.line) for s in defined)  # in the table's order without sizes
    unversioned = [s.line for s in undefined if s.version in _UNVERSIONED]
    by_library = [[s.line for s in needing] for _, needing in libraries]
    queues = (
        [i for _, i in biggest[:_MAX_RANK]],
        in_turns(*by_library, unversioned)[:_MAX_RANK],
        nodes[:_MAX_RANK],
    )
    for offset, queue in zip(_QUEUE_OFFSET, queues, strict=True):
        picks += [Pick(i, i + 1, _TURNS - rank + offset) for rank, i in enumerate(queue)]
    needs = [f"{_span(needing)} ×{len(needing)}" for _, needing in libraries[:_LIBRARIES_LABELLED]]
    if len(libraries) > _LIBRARIES_LABELLED:
        needs.append(f"… {len(libraries) - _LIBRARIES_LABELLED} more")
    parts = [f"{len(symbols)} symbols", f"{len(defined)} defined", f"{len(undefined)} undefined"]
    if needs:
        parts.append("needs " + ", ".join(needs))
    if unversioned and libraries:
        parts.append(f"{len(unversioned)} unversioned")
    if nodes:
        parts.append(f"{len(nodes)} version nodes")
    label = clip(f"== {' · '.join(parts)} ==", _WIDTH)
    outline = f"symbol table, {len(symbols)} symbols ({len(defined)} defined, {len(undefined)} undefined)"
    return Labelled(lines, label, tuple(picks), outline, min(len(libraries) + len(defined), _HIGHLIGHTS))


def _is_table(parse: _Format, sample: Sequence[str]) -> bool:
    """Whether most of ``sample`` is symbols in ``parse``'s format."""
    found = sum(1 for line in sample if parse[0].match(line) is not None)
    return found >= _MIN_SYMBOLS and found >= len(sample) * _MIN_SHARE


def _nm(index: int, match: re.Match[str]) -> _Symbol:
    blank, width, letter, name, version = match.groups()  # the pattern's groups, in its order
    node = letter == "A" and not version and _VERSION.match(name) is not None
    defined = blank is None or letter not in _NM_UNDEFINED
    return _Symbol(index, version or "", int(width, 16) if width else -1, defined, node)


def _readelf(index: int, match: re.Match[str]) -> _Symbol | None:
    name = match["name"]
    if not name:
        return None  # the table's first entry, a nameless local, says nothing
    width = int(match["size"], 0)
    node = match["ndx"] == "ABS" and width == 0 and _VERSION.match(name) is not None
    return _Symbol(index, match["version"] or "", width, match["ndx"] != "UND", node)


def _objdump(index: int, match: re.Match[str]) -> _Symbol:
    version = match["hidden"] or match["version"] or ""
    width = int(match["size"], 16)
    node = match["section"] == "*ABS*" and width == 0 and match["name"] == version
    return _Symbol(index, version, width, match["section"] != "*UND*", node)


_Format = tuple[re.Pattern[str], Callable[[int, re.Match[str]], "_Symbol | None"]]
_FORMATS: tuple[_Format, ...] = ((_NM, _nm), (_READELF, _readelf), (_OBJDUMP, _objdump))


def _by_library(undefined: Sequence[_Symbol]) -> list[tuple[str, list[_Symbol]]]:
    """The undefined symbols with a version, per library (GLIBC for GLIBC_2.29), the most first."""
    groups: dict[str, list[_Symbol]] = {}
    for symbol in undefined:
        if symbol.version in _UNVERSIONED:
            continue
        match = _VERSION.match(symbol.version)
        groups.setdefault(match["library"] if match else symbol.version, []).append(symbol)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[1][0].line))


def _number(version: str) -> tuple[int, ...]:
    match = _VERSION.match(version)
    return tuple(int(part) for part in match["number"].split(".")) if match else ()


def _span(needing: Sequence[_Symbol]) -> str:
    versions = sorted({s.version for s in needing}, key=_number)
    return versions[0] if len(versions) == 1 else f"{versions[0]}…{versions[-1]}"
