"""Content-aware summaries: a short, verbatim, budgeted extract of a big tool result.

``summarize(text, kind, budget=..., terms=...)`` dispatches to one summariser per ``ContentKind``
(``log``, ``json_summary``, ``code_search``, ``markdown``, ``diff``, ``table``, ``snapshot``,
``rows``, ``tree``, ``source`` (or ``blame``), ``lint``, ``text``; the shared budget packing is
``packing``; a profiler's report, a SQL script, a binary's symbol table, a hex dump, a ``diff
-q`` of two trees or a listing of entries with bracketed states taken for a log, a table or text
is read as what it is: ``profile``, ``sql_script``, ``symbols``, ``hexdump``, ``brief_diff``,
``tagged_listing``; Markdown or text held in a few very long lines is read as its pieces:
``long_lines``; binary data printed as text is left out: ``unreadable``; JSON whose strings hold
whole documents shows each document's lines: ``json_documents``) and returns an ``Extract``:

- ``text``: only verbatim lines of the payload (or verbatim prefixes ending in ``…``; of a few very
  long lines, their verbatim pieces: ``long_lines``; of a JSON string holding a document, its
  lines as the payload escapes them: ``json_documents``), some with
  an annotation (``[×37]`` fold count, ``[+12 -3]`` diff count), plus elision markers
  (a bare ``…``); snapshot lines lose their indentation. For JSON, instead, a valid-JSON
  skeleton of the payload with sample values (valid for any budget of at least 64 bytes); for
  ROWS and TREE a small table or listing whose cells and names are verbatim values of the
  payload. Never more than ``budget`` UTF-8 bytes.
- ``outline``: one line saying what the payload is, with counts; no payload lines.
- ``highlights``: how many salient items were found (errors and failing tests, matches, records,
  headings, rows, changed files…); 0 means nothing stood out.
- ``kind``: the kind actually summarised: ``TEXT`` when the payload is not of the kind asked for
  (JSON that does not parse, a "diff" without hunks).

``with_ending(text, budget, summarise)`` (``ending``) puts the payload's last lines that a summary
lacks below it, within the same budget; the router does so for every stage 1 but a snapshot's.

``terms`` (search words from the call's arguments) make lines that mention them preferred. A
tool's note on the payload's last line that it cut the content (the fetch server's
``<error>Content truncated. Call the fetch tool with a start_index of … </error>``) is the
summary's last line, whatever the kind. Summaries are pure, linear in the input, and never raise
on a ``str``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from context_mode.framing import shown_head, unframe
from context_mode.summaries.aimed import aim
from context_mode.summaries.brief_diff import summarize_brief_diff
from context_mode.summaries.code_search import summarize_code_search
from context_mode.summaries.coverage import summarize_coverage
from context_mode.summaries.diff import summarize_diff
from context_mode.summaries.ending import truncation_note, with_ending
from context_mode.summaries.extract import Extract
from context_mode.summaries.hexdump import summarize_hexdump
from context_mode.summaries.json_documents import summarize_documents
from context_mode.summaries.json_summary import summarize_json
from context_mode.summaries.lint import summarize_lint
from context_mode.summaries.log import summarize_log
from context_mode.summaries.long_lines import pieces
from context_mode.summaries.markdown import summarize_markdown
from context_mode.summaries.markdown_structure import is_numbered_document
from context_mode.summaries.packing import size
from context_mode.summaries.profile import summarize_profile
from context_mode.summaries.rows import summarize_rows
from context_mode.summaries.snapshot import summarize_snapshot
from context_mode.summaries.source import summarize_source
from context_mode.summaries.sql_script import summarize_sql_script
from context_mode.summaries.symbols import summarize_symbols
from context_mode.summaries.table import summarize_table
from context_mode.summaries.tagged_listing import summarize_tagged_listing
from context_mode.summaries.text import summarize_text
from context_mode.summaries.tree import summarize_tree
from context_mode.summaries.unreadable import readable
from context_mode.types import ContentKind

__all__ = ["Extract", "summarize", "summarize_for_intent", "with_ending"]


class _Summarizer(Protocol):
    def __call__(self, text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract: ...


_PROSE_KINDS = frozenset((ContentKind.MARKDOWN, ContentKind.TEXT))
_PLAIN_KINDS = frozenset((ContentKind.LOG, ContentKind.TEXT, ContentKind.MARKDOWN, ContentKind.TABLE))
_JSON_KINDS = frozenset((ContentKind.JSON, ContentKind.ROWS, ContentKind.TREE, ContentKind.LINT))
# Kinds a profiler's report, a SQL script, a symbol table or a hex dump is taken for: read as what
# it is instead.
_REPORTED = frozenset((ContentKind.LOG, ContentKind.TABLE, ContentKind.TEXT))
_READINGS = (
    summarize_profile,
    summarize_sql_script,
    summarize_symbols,
    summarize_coverage,
    summarize_hexdump,
    summarize_brief_diff,
    summarize_tagged_listing,
)
_BY_KIND: dict[ContentKind, _Summarizer] = {
    ContentKind.LOG: summarize_log,
    ContentKind.JSON: summarize_json,
    ContentKind.CODE_SEARCH: summarize_code_search,
    ContentKind.MARKDOWN: summarize_markdown,
    ContentKind.DIFF: summarize_diff,
    ContentKind.TABLE: summarize_table,
    ContentKind.SNAPSHOT: summarize_snapshot,
    ContentKind.ROWS: summarize_rows,
    ContentKind.TREE: summarize_tree,
    ContentKind.SOURCE: summarize_source,
    ContentKind.LINT: summarize_lint,
    ContentKind.TEXT: summarize_text,
}


def summarize(text: str, kind: ContentKind, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Summarise ``text`` as ``kind`` in at most ``budget`` UTF-8 bytes, preferring lines with ``terms``.

    A JSON document (or the rows, tree or diagnostics it holds) inside a tool's framing lines
    (``framing.unframe``) is summarised alone, after the frame's opening lines; one with a
    command's last lines below it and no frame above, alone (``summaries.ending`` shows them)."""
    note = truncation_note(text)
    if note is not None and size(note) + 1 < budget:  # said last, whatever the kind shows
        inner = summarize(
            text[: text.rstrip().rfind("\n") + 1], kind, budget=budget - size(note) - 1, terms=terms
        )
        return replace(inner, text=f"{inner.text}\n{note}")
    if kind in _REPORTED:
        for reading in _READINGS:
            report = reading(text, kind=kind, budget=max(budget, 0), terms=tuple(terms))
            if report is not None:
                return report
    binary = readable(text) if kind in _PLAIN_KINDS else None
    if binary is not None:  # bytes printed as text: summarised without them
        inner = summarize(binary.text, kind, budget=budget, terms=terms)
        said = f"{binary.emptied} unreadable line{'' if binary.emptied == 1 else 's'} of binary data left out"
        return replace(inner, outline=f"{inner.outline} ({said})")
    if kind is ContentKind.TEXT and is_numbered_document(text):
        kind = ContentKind.MARKDOWN  # an RFC, a PDF's text, a spec: read by its numbered outline
    summarizer = _BY_KIND.get(kind, summarize_text)
    broken = pieces(text) if kind in _PROSE_KINDS else None
    if broken is not None:  # a few very long lines: read as their pieces
        inner = summarizer(broken.text, budget=max(budget, 0), terms=tuple(terms))
        said = f"{broken.lines} long line{'' if broken.lines == 1 else 's'} read as {broken.pieces} pieces"
        return replace(inner, outline=f"{inner.outline} ({said})")
    held = (  # a lint report's long messages (pylint's duplicate-code) are no documents
        summarize_documents(text, budget=budget, terms=terms, summarize=summarize)
        if kind in _JSON_KINDS and kind is not ContentKind.LINT
        else None
    )
    if held is not None:  # a JSON whose strings hold whole documents: each read as what it is
        return held
    framed = unframe(text) if kind in _JSON_KINDS else None
    if framed is not None and not framed.head.strip():  # a command's last lines below its document
        return summarizer(framed.body, budget=max(budget, 0), terms=tuple(terms))  # (the ending shows them)
    if framed is not None:
        head = shown_head(framed.head)
        room = budget - size(head) - 1
        if room > 0:
            inner = summarizer(framed.body, budget=room, terms=tuple(terms))
            return replace(inner, text=head + framed.joint + inner.text)
    return summarizer(text, budget=max(budget, 0), terms=tuple(terms))


def summarize_for_intent(
    text: str,
    kind: ContentKind,
    *,
    budget: int,
    terms: Sequence[str] = (),
    intent: str,
    room: int | None = None,
) -> Extract:
    """``summarize``, with the lines that best match ``intent`` first, in at most ``room`` bytes
    of ``budget`` (see ``summaries.aimed``)."""
    return aim(summarize, text, kind, budget=max(budget, 0), terms=tuple(terms), intent=intent, room=room)
