"""Native doc tools over the spill store: ``doc_search``, ``doc_window``, ``doc_ingest``, ``doc_list``.

``doc_tools(store, ingest_roots=..., max_ingest_bytes=...)`` returns the four ``NativeTool``s. Each
``run(args)`` validates its arguments and returns compact text for the agent (not JSON).
``doc_search`` answers with each hit's chunk id and heading path, then the chunk's lines that best
match the query, verbatim (``render_hits``), in at most ``SEARCH_BUDGET_BYTES``. A search in one
ref names it once, in its first line, and its chunks by number (``#8``); the reply does not echo
the query, which the agent wrote (several queries each answer under their own heading): the bytes
go to lines of the payload. Bad
arguments, refused paths and unknown or evicted refs raise ``ToolInputError`` with one sentence
naming the fix; a closed store raises ``ToolUnavailableError``.

``doc_ingest`` reads files only under ``ingest_roots`` (none configured: inline ``text`` only). A
path is refused when it contains ``..``, resolves (symlinks followed) outside every root, lies in
/proc, /sys or /dev, is not a regular file (FIFOs, devices, directories: opened with O_NONBLOCK so
a FIFO cannot hang the call), has more than one hard link (another link may lie outside the roots;
``allow_hardlinks`` lifts this), is larger than ``max_ingest_bytes``, or is not UTF-8 text. The
file is opened from the root's directory descriptor one component at a time, never following a
symlink (``tools.confined``), so a directory swapped for a symlink between the check and the open
is refused, not followed; the checks above run on the opened descriptor. Every name echoed back
(paths, titles, sources) goes through ``tools.printable``: a newline in a file name cannot forge
a line of the answer.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from context_mode.errors import StoreClosed, StoreError
from context_mode.stage1 import format_size
from context_mode.store import SearchHit, Store, StoredDoc, choose_lines, number_asked
from context_mode.types import ContentKind
from tools.confined import Escape, open_beneath
from tools.errors import ToolInputError, ToolUnavailableError
from tools.printable import printable
from tools.registry import NativeTool, object_schema

WINDOW_BUDGET_BYTES = 6000
SEARCH_BUDGET_BYTES = 1500  # per query; several queries share their sum
MAX_QUERIES = 8
_QUERY_ECHO = 120  # chars of the query repeated in the answer
MAX_OUTLINE_LINES = 20
_SYSTEM_TREES = ("/proc", "/sys", "/dev")
_SUFFIX_KINDS = {
    ".md": ContentKind.MARKDOWN,
    ".markdown": ContentKind.MARKDOWN,
    ".json": ContentKind.JSON,
    ".log": ContentKind.LOG,
    ".diff": ContentKind.DIFF,
    ".patch": ContentKind.DIFF,
    ".csv": ContentKind.TABLE,
    ".tsv": ContentKind.TABLE,
}
_MARKDOWN_HEADING = re.compile(r"^#{1,6} \S", re.MULTILINE)
_DIFF_START = re.compile(r"(?:diff --git |commit [0-9a-f]{7,}|--- \S.*\n\+\+\+ )")

_T = TypeVar("_T")
_REF = {"type": "string", "pattern": "^r_[0-9a-z]+$"}
_INDEX = {"type": "integer", "minimum": 0}


def doc_tools(
    store: Store,
    *,
    ingest_roots: Sequence[Path],
    max_ingest_bytes: int = 10 * 2**20,
    allow_hardlinks: bool = False,
) -> list[NativeTool]:
    """The doc tools bound to ``store``; files may be ingested only from under ``ingest_roots``."""
    roots = tuple(Path(root).expanduser().resolve() for root in ingest_roots)

    def search(args: dict[str, Any]) -> str:
        query, queries, ref, limit = _take(
            args, "doc_search", query=(str, ""), queries=(list, []), ref=(str, ""), limit=(int, 5)
        )
        if "query" not in args and "queries" not in args:
            raise ToolInputError("doc_search needs the argument 'query' (or 'queries', a list of strings)")
        asked = [query] if query else []
        asked += _query_list(queries)
        if not any(text.strip() for text in asked):
            raise ToolInputError("doc_search needs a non-empty query; pass words or identifiers to look for")
        if not 1 <= limit <= 20:
            raise ToolInputError(f"doc_search limit must be between 1 and 20, not {limit}")
        if len(asked) == 1:
            return answer(asked[0], ref, limit, SEARCH_BUDGET_BYTES)
        # One section per question; a question that needs less leaves its bytes to the next ones.
        left = SEARCH_BUDGET_BYTES * len(asked)
        sections: list[str] = []
        for order, text in enumerate(asked):
            heading = f"## {order + 1}. {text[:_QUERY_ECHO]}"
            share = left // (len(asked) - order) - _size_of(heading) - 1
            section = heading + "\n" + answer(text, ref, limit, share)
            left -= _size_of(section) + 1
            sections.append(section)
        return "\n".join(sections)

    def answer(query: str, ref: str, limit: int, budget: int) -> str:
        if not query.strip():
            return "Empty query: nothing searched."
        result = _call(lambda: store.search(query, ref=ref or None, limit=limit + 1))
        scope = f" in {ref}" if ref else ""
        if not result.hits:
            if not result.suggestions:
                return f'No hits for "{query}"{scope}: the store holds nothing matching; see doc_list.'
            terms = ", ".join(result.suggestions)
            where = ref or "recent documents"
            return f'No hits for "{query}"{scope}. Distinctive terms in {where}: {terms}. Retry with some.'
        more = len(result.hits) > limit and limit < 20
        hits = result.hits[:limit]
        return render_hits(query, scope, hits, budget=budget, more=more)

    def window(args: dict[str, Any]) -> str:
        ref, start, end = _take(args, "doc_window", ref=(str, None), start=(int, 0), end=(int, -1))
        if start < 0 or (end != -1 and end <= start):
            raise ToolInputError(f"doc_window needs 0 <= start < end, got start={start} end={end}")
        found = _call(
            lambda: store.window(ref, start, None if end == -1 else end, budget_bytes=WINDOW_BUDGET_BYTES)
        )
        doc = _call(lambda: store.document(ref))
        if not found.chunks:
            return f"{ref} has {found.total} chunks (0 to {found.total - 1}); start={start} is past the end."
        last = found.start + len(found.chunks) - 1
        lines = [f"{ref} · chunks {found.start}-{last} of {found.total} · {_describe(doc)}"]
        for piece in found.chunks:
            heading = f" · {' › '.join(piece.heading_path)}" if piece.heading_path else ""
            lines.append(f"── {piece.chunk_id}{heading}")
            lines.append(piece.text.rstrip("\n"))
        if found.next_start is not None:
            remaining = found.total - found.next_start
            lines.append(f'{remaining} more chunks: call doc_window(ref="{ref}", start={found.next_start})')
        return "\n".join(lines)

    def ingest(args: dict[str, Any]) -> str:
        path, text, title = _take(args, "doc_ingest", path=(str, ""), text=(str, ""), title=(str, ""))
        if bool(path) == bool(text):
            raise ToolInputError(
                "doc_ingest takes exactly one of path (a file under the ingest roots) or text"
            )
        if path:
            text, shown = read_ingest_file(path, roots, max_ingest_bytes, allow_hardlinks=allow_hardlinks)
            kind = _SUFFIX_KINDS.get(Path(shown).suffix.lower(), ContentKind.TEXT)
            title = title or shown
        else:
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > max_ingest_bytes:
                raise ToolInputError(f"text is {size} bytes, over the {max_ingest_bytes}-byte ingest limit")
            kind, shown = _sniff(text), "text"
        doc = _call(lambda: store.put(text, source="doc_ingest", kind=kind, title=title or None))
        outline = _call(lambda: store.outline(doc.ref))
        lines = [
            f"Ingested {printable(shown)} as {doc.ref}: {doc.chunk_count} chunks, "
            f"{_size(doc.bytes)} ({kind.value})."
        ]
        titled = [section for section in outline.sections if section.heading_path]
        if titled:
            lines.append("Outline:")
            lines.extend(
                f"  #{section.first_chunk} {' › '.join(section.heading_path)}"
                for section in titled[:MAX_OUTLINE_LINES]
            )
            if len(titled) > MAX_OUTLINE_LINES or outline.truncated:
                lines.append("  … more sections")
        lines.append(f'Search: doc_search(query, ref="{doc.ref}") · read: doc_window(ref="{doc.ref}")')
        return "\n".join(lines)

    def listing(args: dict[str, Any]) -> str:
        (limit,) = _take(args, "doc_list", limit=(int, 20))
        if not 1 <= limit <= 100:
            raise ToolInputError(f"doc_list limit must be between 1 and 100, not {limit}")
        docs = _call(lambda: store.documents(limit))
        stats = _call(store.stats)
        if not docs:
            return "The store is empty: big tool results land here; doc_ingest adds files or text."
        lines = [
            f"{stats.refs} documents, {_size(stats.bytes)} of {_size(stats.max_bytes)}"
            + (f" (showing {len(docs)} newest):" if len(docs) < stats.refs else ":")
        ]
        lines.extend(f"{doc.ref} · {doc.chunk_count} chunks · {_describe(doc)}" for doc in docs)
        return "\n".join(lines)

    query = {"type": "string"}
    return [
        NativeTool(
            "doc_search",
            "Search stored results and docs (BM25, camelCase-aware). Try it before re-running a big call. "
            "Several questions: queries=[...] answers each under its own heading in one reply.",
            object_schema(
                {
                    "query": query,
                    "queries": {"type": "array", "items": query, "maxItems": MAX_QUERIES},
                    "ref": _REF,
                    "limit": {"type": "integer", "minimum": 1},
                }
            ),
            search,
        ),
        NativeTool(
            "doc_window",
            "Read a stored result chunk by chunk from start; follow the 'more chunks' hint to page on.",
            object_schema({"ref": _REF, "start": _INDEX, "end": _INDEX}, ("ref",)),
            window,
        ),
        NativeTool(
            "doc_ingest",
            "Store a file under the ingest roots, or text, for doc_search and doc_window.",
            object_schema(
                {"path": {"type": "string"}, "text": {"type": "string"}, "title": {"type": "string"}}
            ),
            ingest,
            read_only=False,
        ),
        NativeTool(
            "doc_list",
            "List stored results and docs with their refs, newest first.",
            object_schema({"limit": {"type": "integer", "minimum": 1}}),
            listing,
        ),
    ]


def render_hits(
    query: str,
    scope: str,
    hits: Sequence[SearchHit],
    *,
    budget: int = SEARCH_BUDGET_BYTES,
    more: bool = False,
) -> str:
    """The doc_search answer: each hit's heading, then the verbatim lines that best match the query.

    ``scope`` is ``" in <ref>"`` for a search in one ref, else empty: the hits then name their
    source too. Lines compete across hits for ``budget`` bytes (``store_query.choose_lines``); a hit
    none of whose lines made it is left out, unless no line made it at all: then every hit
    shows its snippet. The hits left out are counted, with the call that shows the best of them;
    ``more`` (the search found more hits than asked for) puts the ``limit`` that shows them in the
    first line, and the whole call below when no hit was left out.
    """
    head = f"{len(hits)} hit{'' if len(hits) == 1 else 's'}{scope}"
    head += f" (more with limit={_next_limit(hits)}):" if more else ":"
    first = hits[0]
    tail = f'Read on: doc_window(ref="{first.ref}", start={first.chunk_id.rsplit("#", 1)[1]})'
    # A heading path a better hit names already (a file's, a section's) is not named again.
    paths = [hit.heading_path for hit in hits]
    scoped = bool(scope)
    headings = [
        _hit_heading(hit, scoped=scoped, named=hit.heading_path in paths[:at]) for at, hit in enumerate(hits)
    ]
    room = budget - _size_of(head) - _size_of(tail) - 2
    reserve = 0
    numeric = number_asked(query)
    while True:  # at most twice: again with room kept for the lines saying what is left
        body, shown = _hit_lines(hits, headings, room - reserve, numeric=numeric)
        rest = left_over(query, scope, hits, shown, more)
        needed = sum(_size_of(line) + 1 for line in rest)
        if needed <= reserve or sum(_size_of(line) + 1 for line in body) + needed <= room:
            break
        reserve = needed
    return "\n".join([head, *body, *rest, tail])


def _hit_lines(
    hits: Sequence[SearchHit], headings: Sequence[str], room: int, *, numeric: bool
) -> tuple[list[str], set[int]]:
    sizes = [_size_of(heading) for heading in headings]
    chosen = choose_lines(hits, room, heading_bytes=sizes, numeric=numeric)
    out: list[str] = []
    if chosen:
        for rank in sorted(chosen):
            out.append(headings[rank])
            out.extend(f"  {line.text}" for line in chosen[rank])
        return out, set(chosen)
    shown: set[int] = set()
    for rank, hit in enumerate(hits):
        lines = (headings[rank], f"  {hit.snippet}")
        room -= sum(_size_of(line) + 1 for line in lines)
        if room < 0 and rank:
            break
        out.extend(lines)
        shown.add(rank)
    return out, shown


def left_over(query: str, scope: str, hits: Sequence[SearchHit], shown: set[int], more: bool) -> list[str]:
    """What the reply leaves out, with the exact call that shows it (at most two short lines)."""
    lines: list[str] = []
    hidden = [hit for rank, hit in enumerate(hits) if rank not in shown]
    if hidden:
        best = hidden[0]
        ids = ", ".join(_chunk_name(hit, scoped=bool(scope)) for hit in hidden[:3])
        ids += ", …" if len(hidden) > 3 else ""
        start = int(best.chunk_id.rsplit("#", 1)[1])
        lines.append(
            f"{len(hidden)} more hit{'' if len(hidden) == 1 else 's'} not shown ({ids}): "
            f'doc_window(ref="{best.ref}", start={start}, end={start + 1})'
        )
    if more and not hidden:  # else the first line says there are more, and the call above shows some
        asked = query if len(query) <= 60 else query[:59] + "…"
        where = f', ref="{scope.removeprefix(" in ")}"' if scope else ""
        lines.append(f'More hits: doc_search(query="{asked}"{where}, limit={_next_limit(hits)})')
    return lines


def _next_limit(hits: Sequence[SearchHit]) -> int:
    """The ``limit`` of the search that shows more hits than ``hits``."""
    return min(20, len(hits) * 2)


def _hit_heading(hit: SearchHit, *, scoped: bool, named: bool = False) -> str:
    """A hit's line above its lines: its chunk, its source (in a search of every ref) and its
    heading path, unless ``named`` (a better hit's heading names it already)."""
    parts = [_chunk_name(hit, scoped=scoped)]
    if not scoped:
        parts.append(printable(hit.source))
    if hit.heading_path and not named:
        parts.append(" › ".join(hit.heading_path))
    return " · ".join(parts)


def _chunk_name(hit: SearchHit, *, scoped: bool) -> str:
    """A hit's chunk id, or in a search of one ref (named in the reply's first line) its ``#N``."""
    return hit.chunk_id[len(hit.ref) :] if scoped and hit.chunk_id.startswith(f"{hit.ref}#") else hit.chunk_id


def _size_of(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def read_ingest_file(
    raw: str, roots: Sequence[Path], max_bytes: int, *, allow_hardlinks: bool = False
) -> tuple[str, str]:
    """The UTF-8 text of a regular file under one of ``roots``, and the path as shown; else ToolInputError."""
    if not roots:
        raise ToolInputError(
            "doc_ingest has no ingest roots configured, so it cannot read files; pass text instead"
        )
    places = ", ".join(str(root) for root in roots)
    candidate = Path(raw)
    if "\x00" in raw or ".." in candidate.parts:
        raise ToolInputError(f"path {raw!r} must not contain '..' (or NUL); give a path under {places}")
    tries = [candidate] if candidate.is_absolute() else [root / candidate for root in roots]
    resolved = None
    for attempt in tries:
        try:
            resolved = attempt.resolve(strict=True)
            break
        except FileNotFoundError:
            continue
        except (OSError, RuntimeError) as exc:
            raise ToolInputError(
                f"cannot resolve {raw!r} ({exc}); give a plain file path under {places}"
            ) from exc
    if resolved is None:
        raise ToolInputError(f"{raw!r} does not exist under {places}; doc_ingest reads only files there")
    root = next((root for root in roots if resolved.is_relative_to(root)), None)
    if root is None or any(resolved.is_relative_to(tree) for tree in _SYSTEM_TREES):
        raise ToolInputError(
            f"{raw!r} resolves to {printable(str(resolved))}, outside the ingest roots ({places}); "
            "it is refused"
        )
    relative = resolved.relative_to(root)
    shown = str(relative) if resolved != root else resolved.name
    named = printable(shown)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY
    try:
        descriptor = open_beneath(root, relative, flags)
    except Escape as exc:
        raise ToolInputError(
            f"{named} changed while it was being opened (a directory on its path is now a symlink); "
            "it is refused, ingest it again once nothing moves it"
        ) from exc
    except OSError as exc:
        raise ToolInputError(
            f"cannot open {named} ({exc.strerror}); check the file and its permissions"
        ) from exc
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ToolInputError(
                f"{named} is not a regular file (directory, FIFO or device); give a text file"
            )
        if info.st_nlink > 1 and not allow_hardlinks:
            raise ToolInputError(
                f"{named} has {info.st_nlink} hard links, and another link may lie outside the ingest "
                "roots, so it is refused; ingest a copy, or set ingest_allow_hardlinks: true in config.yaml"
            )
        if info.st_size > max_bytes:
            raise ToolInputError(f"{named} is {info.st_size} bytes, over the {max_bytes}-byte ingest limit")
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            data = handle.read(max_bytes + 1)
    finally:
        os.close(descriptor)
    if len(data) > max_bytes:
        raise ToolInputError(f"{named} is over the {max_bytes}-byte ingest limit")
    try:
        if b"\x00" in data:
            raise UnicodeError("NUL byte")
        return data.decode("utf-8"), shown
    except UnicodeError as exc:
        raise ToolInputError(f"{named} is not UTF-8 text (binary?); doc_ingest stores text only") from exc


def _query_list(queries: list[Any]) -> list[str]:
    if len(queries) > MAX_QUERIES:
        raise ToolInputError(
            f"doc_search takes at most {MAX_QUERIES} queries, not {len(queries)}; split the call"
        )
    for item in queries:
        if not isinstance(item, str):
            raise ToolInputError(f"doc_search queries must be strings, not {json.dumps(item)[:40]}")
    return list(queries)


def _take(args: dict[str, Any], tool: str, **spec: tuple[type, Any]) -> list[Any]:
    """The arguments in ``spec`` order, type-checked; ``None`` default means required."""
    unknown = sorted(set(args) - set(spec))
    if unknown:
        raise ToolInputError(f"{tool} got unknown argument {unknown[0]!r}; it takes {', '.join(spec)}")
    values = []
    for name, (kind, default) in spec.items():
        value = args.get(name)
        if value is None:
            if default is None:
                raise ToolInputError(f"{tool} needs the argument {name!r}")
            value = default
        elif not isinstance(value, kind) or isinstance(value, bool):
            raise ToolInputError(
                f"{tool} argument {name!r} must be a {kind.__name__}, not {json.dumps(value)[:40]}"
            )
        values.append(value)
    return values


def _call(action: Callable[[], _T]) -> _T:
    """Run a store call, turning store errors into tool errors with the store's message."""
    try:
        return action()
    except StoreClosed as exc:
        raise ToolUnavailableError(str(exc)) from exc
    except (StoreError, ValueError) as exc:
        raise ToolInputError(str(exc)) from exc


def _sniff(text: str) -> ContentKind:
    head = text.lstrip()[:1]
    if head in ("{", "["):
        try:
            json.loads(text)
            return ContentKind.JSON
        except ValueError:
            pass
    if _DIFF_START.match(text.lstrip()):
        return ContentKind.DIFF
    if _MARKDOWN_HEADING.search(text):
        return ContentKind.MARKDOWN
    return ContentKind.TEXT


def _describe(doc: StoredDoc) -> str:
    title = f' · "{printable(doc.title)}"' if doc.title else ""
    return f"{printable(doc.source)} · {doc.kind.value} · {_size(doc.bytes)}{title}"


def _size(count: int) -> str:
    return format_size(count)  # the unit system of every size ctxhub prints (kB = 1000 bytes)
