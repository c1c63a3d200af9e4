"""Structure-aware chunking of a payload into pieces small enough to index and to read back.

``chunk(text, kind, max_chunk_bytes=4096)`` returns ``Chunk``s whose texts, joined in order, give
back ``text`` exactly (character offsets ``start``/``end`` index into ``text``). Contract:

- coverage: ``"".join(c.text for c in chunks) == text``, chunks in order, ``chunks[i].index == i``;
- no empty chunk, except that the empty text gives exactly one empty chunk (so every stored
  document has a chunk 0 to carry its metadata);
- a hard cap: every chunk's UTF-8 size is at most ``max_chunk_bytes`` (lone surrogates counted as
  the 3 bytes ``surrogatepass`` gives). Blocks bigger than the cap are split at line ends, then at
  spaces, then anywhere between two characters;
- linear time in ``len(text)``, whatever the shape (one 1 MB line, 100k short lines, JSON nested
  10k deep): no recursion, no re-scans.

Structure by kind (the units are in ``chunking.lines`` and ``chunking.json_units``):

- MARKDOWN: a chunk never spans two sections; ``heading_path`` is the section's headings
  (``("Install", "Linux")``). Paragraphs and fenced code blocks are never split unless bigger
  than a chunk.
- LOG: records (a line plus its continuation: Python tracebacks with their chained causes, Java
  ``at …``/``Caused by`` frames, compiler errors with their ``note:`` and gutter lines) are packed
  whole into chunks.
- JSON: a value that fits is one piece; a bigger array is cut between element groups and a bigger
  object between members, recursively; ``heading_path`` is the key path of the chunk
  (``("items", "[3] octo/repo", "owner")``, at most 12 deep; an array element that is a record
  is named by its index and its identity field, see ``chunking.json_units``). A chunk never mixes the
  members of a value cut open with its siblings, so a record too big for one chunk starts a
  chunk of its own, its key and opening bracket first (``"chokidar": {``, not at the end of the
  siblings' chunk). Invalid JSON falls back to LOG records. ROWS, TREE and LINT payloads that
  are JSON (a record list, an ESLint report) are cut the same way; a ROWS payload that is a
  Python-repr list of rows (``[('AUS', …), …]``, ``[<Record …>, …]``) is cut between its rows
  (``repr_units``).
- DIFF: a chunk never spans two files; ``heading_path`` is ``(commit, file)`` or ``(file,)``;
  hunks are kept whole, a file's header with its first hunk.
- CODE_SEARCH: grep/ripgrep output, a chunk never spans two files; ``heading_path`` is ``(file,)``.
- TREE (not JSON): a drawn tree's entries; ``heading_path`` is the directories holding the
  chunk's lines (their common prefix: ``("docutils", "parsers", "rst")``). Other listings: LOG.
- SOURCE: paragraphs; of files read together (``--- path contents: ---``, ``==> path <==``), a
  chunk within one file has ``heading_path`` ``(path,)`` (a long path's end), one spanning two
  ``()``.
- TEXT: an indented outline (a manual page as ``man`` prints it: sections at the margin, each
  option's name over its deeper-indented description) is cut at its headings, a chunk never
  spanning two, ``heading_path`` the headings a chunk is under (``("DESCRIPTION",
  "LoginGraceTime")``; ``chunking.lines.outline_units``); other text, and a configuration file
  (``shapes.is_commented_config``: comments wrapped under a setting head nothing), paragraphs.
  TABLE: rows.
  Their ``heading_path`` is ``()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from context_mode.chunking.json_units import json_units
from context_mode.chunking.lines import (
    Unit,
    code_search_units,
    diff_units,
    file_units,
    log_units,
    markdown_units,
    outline_units,
    paragraph_units,
    record_units,
    row_units,
    tree_units,
)
from context_mode.chunking.repr_units import repr_units
from context_mode.framing import unframe
from context_mode.shapes import ROW_BLOCK, is_commented_config, is_repr_rows
from context_mode.types import ContentKind

_CONFIG_READ = 200_000  # characters read to recognise a configuration file

MIN_CHUNK_BYTES = 4  # the largest UTF-8 character: any smaller cap could not make progress
_CHECKPOINT = 256  # characters between the cumulative byte counts kept for non-ASCII text
_SECTIONED = frozenset({ContentKind.MARKDOWN, ContentKind.DIFF, ContentKind.CODE_SEARCH, ContentKind.JSON})


@dataclass(frozen=True, slots=True)
class Chunk:
    """One piece of a payload: ``text == payload[start:end]``; ``heading_path`` locates it."""

    index: int
    start: int
    end: int
    text: str
    heading_path: tuple[str, ...]


def chunk(text: str, kind: ContentKind, *, max_chunk_bytes: int = 4096) -> list[Chunk]:
    """Cut ``text`` into ordered chunks of at most ``max_chunk_bytes`` UTF-8 bytes (see module doc)."""
    if max_chunk_bytes < MIN_CHUNK_BYTES:
        raise ValueError(f"max_chunk_bytes={max_chunk_bytes} is too small; use at least {MIN_CHUNK_BYTES}")
    if not text:
        return [Chunk(0, 0, 0, "", ())]
    sizer = ByteSizer(text)
    units, sectioned = _units(text, kind, sizer, max_chunk_bytes)
    spans = _pack(text, units, sizer, max_chunk_bytes, sections=sectioned or kind in _SECTIONED)
    return [Chunk(i, s, e, text[s:e], path) for i, (s, e, path) in enumerate(spans)]


def _units(text: str, kind: ContentKind, sizer: ByteSizer, cap: int) -> tuple[list[Unit], bool]:
    """The kind's units, and whether their paths section the chunks (JSON units, an outline's)."""
    match kind:
        case ContentKind.MARKDOWN:
            return markdown_units(text), False
        case ContentKind.DIFF:
            return diff_units(text), False
        case ContentKind.CODE_SEARCH:
            return code_search_units(text), False
        case ContentKind.LOG:
            return log_units(text), False
        case ContentKind.TABLE | ContentKind.SNAPSHOT:
            return row_units(text), False
        case ContentKind.JSON | ContentKind.ROWS | ContentKind.TREE | ContentKind.LINT:  # ESLint: JSON
            framed = _framed_units(text, sizer, cap)
            if framed is not None:
                return framed, True
            # A Python-repr list of rows (SQLite's, DuckDB's MCP servers, asyncpg's records) is cut
            # between its rows: read as JSON, its quotes and calls would cut rows apart.
            units = repr_units(text) if kind is ContentKind.ROWS and is_repr_rows(text) else None
            shaped = kind is ContentKind.JSON or text.lstrip()[:1] in "[{"
            if units is None and shaped:
                units = json_units(text, lambda s, e: sizer.size(s, e) <= cap)
            if units is None and kind is ContentKind.ROWS:
                units = record_units(text, ROW_BLOCK)  # vertical records (psql's ``\\x``)
                if units is not None:
                    return units, False
            if units is None and kind is ContentKind.TREE:
                units = tree_units(text)  # a drawn tree's entries under their directories
                if units is not None:
                    return units, False
            return (units, True) if units is not None else (log_units(text), False)
        case ContentKind.SOURCE:
            files = file_units(text)  # files read together: each file's paragraphs, named by its path
            return (files, False) if files is not None else (paragraph_units(text), False)
        case ContentKind.TEXT:
            # a configuration file's comments wrapped under a setting head nothing: its paragraphs
            if is_commented_config(text[:_CONFIG_READ].splitlines()):
                return paragraph_units(text), False
            outline = outline_units(text)  # a manual page: its sections and options head their lines
            return (outline, True) if outline is not None else (paragraph_units(text), False)
        case _:
            return paragraph_units(text), False


def _framed_units(text: str, sizer: ByteSizer, cap: int) -> list[Unit] | None:
    """The JSON units of a document inside a tool's framing lines (``framing.unframe``), the
    frame's lines as syntax around them; None when ``text`` is no such document."""
    framed = unframe(text)
    if framed is None:
        return None
    offset = len(framed.head) + len(framed.joint)
    units = json_units(framed.body, lambda s, e: sizer.size(s + offset, e + offset) <= cap)
    if units is None:
        return None
    end = offset + len(framed.body)
    shifted = [(start + offset, stop + offset, path, structural) for start, stop, path, structural in units]
    head = [(0, offset, (), True)] if offset else []  # a document opening the text has no frame above
    return [*head, *shifted, (end, len(text), (), True)]


class ByteSizer:
    """UTF-8 sizes of slices of one text in O(1) for ASCII text and O(256) otherwise."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._ascii = text.isascii()
        self._checkpoints: list[int] = []
        if not self._ascii:
            total = 0
            for i in range(0, len(text), _CHECKPOINT):
                self._checkpoints.append(total)
                total += len(text[i : i + _CHECKPOINT].encode("utf-8", "surrogatepass"))

    def size(self, start: int, end: int) -> int:
        """UTF-8 bytes of ``text[start:end]``."""
        if self._ascii:
            return end - start
        return self._bytes_before(end) - self._bytes_before(start)

    def _bytes_before(self, position: int) -> int:
        block = position // _CHECKPOINT
        if block >= len(self._checkpoints):
            block = len(self._checkpoints) - 1
        base = block * _CHECKPOINT
        return self._checkpoints[block] + len(self._text[base:position].encode("utf-8", "surrogatepass"))

    def fit(self, start: int, end: int, cap: int) -> int:
        """The largest ``cut <= end`` with ``size(start, cut) <= cap`` (``cut > start`` when cap >= 4)."""
        if self._ascii:
            return min(end, start + cap)
        window = self._text[start : min(end, start + cap)]
        encoded = window.encode("utf-8", "surrogatepass")
        if len(encoded) <= cap:
            return start + len(window)
        cut = cap
        while cut > 0 and encoded[cut] & 0xC0 == 0x80:  # back off to the start of a character
            cut -= 1
        return start + len(encoded[:cut].decode("utf-8", "surrogatepass"))


Span = tuple[int, int, tuple[str, ...]]


def _pack(text: str, units: Iterable[Unit], sizer: ByteSizer, cap: int, *, sections: bool) -> list[Span]:
    """Greedily pack consecutive units into spans of at most ``cap`` bytes.

    With ``sections`` a span never holds content units of two different paths (syntax units,
    such as JSON brackets and keys, join whatever span is open). Otherwise a span's path is the
    longest common prefix of its content units' paths (of all its units if it has no content).
    """
    spans: list[Span] = []
    open_start = open_end = open_size = 0
    content: tuple[str, ...] | None = None
    syntax: tuple[str, ...] | None = None

    def close() -> None:
        path = content if content is not None else syntax
        spans.append((open_start, open_end, path or ()))

    for start, end, path, structural in units:
        if start == end:
            continue
        size = sizer.size(start, end)
        new_section = sections and not structural and content is not None and path != content
        # A value cut open starts with its opening (``"chokidar": {``): the key goes with the
        # members it names, not at the end of the siblings' span before them.
        opens = structural and text[start:end].rstrip().endswith(("{", "[", ":"))
        new_section = new_section or (sections and opens and content is not None)
        if open_end > open_start and (open_size + size > cap or new_section):
            close()
            open_start = open_end
        if size > cap:
            if open_end > open_start:
                close()
            spans.extend((s, e, path) for s, e in split_block(text, start, end, sizer, cap))
            open_start = open_end = end
            continue
        if open_end == open_start:
            open_start, open_size, content, syntax = start, 0, None, None
        if structural:
            syntax = path if syntax is None else _common_prefix(syntax, path)
        else:
            content = path if content is None else _common_prefix(content, path)
        open_end = end
        open_size += size
    if open_end > open_start:
        close()
    return spans


def split_block(text: str, start: int, end: int, sizer: ByteSizer, cap: int) -> Iterator[tuple[int, int]]:
    """Cut ``text[start:end]`` into pieces of at most ``cap`` bytes: at line ends, then spaces, then anywhere.

    A cut at a line end may leave a short piece; a cut at a space must keep at least half the
    window, which bounds the rescanning and keeps the whole walk linear.
    """
    position = start
    while position < end:
        if sizer.size(position, end) <= cap:
            yield position, end
            return
        limit = sizer.fit(position, end, cap)
        cut = text.rfind("\n", position, limit) + 1
        if cut <= position:
            half = position + (limit - position) // 2
            cut = max(text.rfind(" ", half, limit), text.rfind("\t", half, limit)) + 1
            if cut <= half:
                cut = limit
        yield position, cut
        position = cut


def _common_prefix(left: tuple[str, ...], right: tuple[str, ...]) -> tuple[str, ...]:
    if left == right:
        return left
    length = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        length += 1
    return left[:length]
