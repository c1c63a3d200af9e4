"""The routing decision: Direct, Summary or Directive, with the reason.

Contract: ``route`` is a pure function of (tag, text, call arguments, policy). Exactly one mode per
result. Rules, with bytes meaning UTF-8 bytes of the text:

- small = at most ``direct_max_bytes`` and at most ``direct_max_code_lines`` code lines
  (see ``context_mode.codelines``). Small results are Direct for every tag.
- ``DIRECT`` tag: Direct up to ``direct_hard_cap`` characters, Summary above. An ``AUTO`` tool
  that reads one file (``read_file``, ``read_text_file``, ``get_file_contents``) is treated the
  same: the agent asked to see that file.
- ``DIRECTIVE`` tag: Directive whenever not small.
- ``SUMMARY`` tag: Summary whenever not small.
- ``AUTO``: Summary. Plain text above ``TEXT_AS_LOG_BYTES`` in which nothing stands out (no
  errors, failures, matches or records) is read as a log (a daemon's messages without levels):
  its summary when something stands out there. Only when ``directive_threshold`` is set does a
  result above it in which nothing stands out become a Directive: by default it is a Summary,
  which keeps its first and last lines (its command, version and totals) where a Directive
  would show none.
- ``pass_whole`` (a retention floor of 1.0, ``context_mode.budgets``): Direct, whatever the size.
- an error result (``isError``) keeps its text: Direct up to ``error_cap`` bytes, else a log
  Summary with ``error_cap`` as its budget.

The stage-1 budget is a range: ``summary_budget`` at least, growing with the salient items the
summariser found, or with the payload's distinct lines when those say more (``summary_budget()``,
``DISTINCT_PER_HIGHLIGHT``), up to ``summary_budget_max``; the decision carries the
budget used. The budget given to the summariser leaves room for the header and footer that
``context_mode.stage1`` adds, so the whole stage-1 text fits that budget. Below the kind's
summary come the payload's last lines it does not show (``summaries.ending``: up to 200 bytes,
taken from its budget), but for a snapshot, whose summary keeps its footer itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from context_mode.codelines import count_code_lines
from context_mode.kinds import detect_kind
from context_mode.line_groups import distinct_lines
from context_mode.policy import RoutingPolicy
from context_mode.shapes import is_file_read
from context_mode.summaries import Extract, summarize, summarize_for_intent, with_ending
from context_mode.types import ContentKind, OutputStyle

# Room kept for stage-1's header and footer lines (ref, spill path, next calls).
FRAME_BYTES = 420
# The same without the outline, for refs, spill paths and tool names of usual length.
FRAME_WITHOUT_OUTLINE = 260
QUERY_KEYS = (
    "pattern",
    "query",
    "q",
    "name",
    "search",
    "term",
    "terms",
    "keyword",
    "keywords",
    "regex",
    "grep",
    "filter",
    "text",
    "symbol",
)
MAX_TERM_CHARS = 64
# A value longer than this is the call's data (a document to echo, write or type), not what it
# looks for: its every word would "match" the payload's lines and outrank what the kind shows.
MAX_QUERY_CHARS = 500
# How the stage-1 budget grows with salient content (``summary_budget``).
BYTES_PER_HIGHLIGHT = 160
FREE_HIGHLIGHTS = 3
# Distinct lines (``line_groups.distinct_lines``) that count as one salient item when the
# summariser found fewer: a page of prose, a table of named rows, a listing of keys hold their
# answers in lines no rule marks (``sysctl -a``, 658 keys, had the minimum), a repetitive log
# in few. Per 20, 10, 5: stage 1 on dev +11, +19, +24 facts (of 4,297), at +0.17, +0.28, +0.32
# points of raw bytes (holdout +15, +31, +45).
DISTINCT_PER_HIGHLIGHT = 5
# Past this many, distinct lines would ask for more than 32 kB, above any budget: not counted.
_ENOUGH_DISTINCT = DISTINCT_PER_HIGHLIGHT * (FREE_HIGHLIGHTS + 32_768 // BYTES_PER_HIGHLIGHT)
MAX_SHARE = 0.06
SMALL_CAP = 3000  # what a small payload's budget may grow to…
SMALL_SHARE = 0.25  # …at most this share of it
# Plain text above this in which nothing stands out is read as a log too (``route``).
TEXT_AS_LOG_BYTES = 8192
INTENT_ROOM = 1500  # bytes an intent adds to the stage-1 budget: about one doc_search reply
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{1,}")
# A database tool's ``query`` is a statement, not a search: its keywords and column names are in
# every row it returns, so none of its words picks out a row or a line.
_SQL = re.compile(
    r"\s*(?:with\b.*\bselect\b|select\b.*\bfrom\b|insert\s+into\b|update\b.*\bset\b|delete\s+from\b"
    r"|pragma\s+[\w.]+\s*[(=;]|explain\s+(?:analy[sz]e\s+|query\s+plan\s+)?(?:select|with)\b"
    r"|(?:create|alter|drop)\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?"
    r"(?:table|view|index|schema|database|function|trigger|type|sequence)\b)",
    re.I | re.S,
)


@dataclass(frozen=True, slots=True)
class Direct:
    reason: str


@dataclass(frozen=True, slots=True)
class Summary:
    reason: str
    kind: ContentKind
    extract: Extract
    budget: int = 0  # the stage-1 budget spent on this result (see ``summary_budget``)


@dataclass(frozen=True, slots=True)
class Directive:
    reason: str
    kind: ContentKind
    extract: Extract  # used only for its outline: a Directive shows no raw payload lines
    budget: int = 0


Decision = Direct | Summary | Directive


@dataclass(frozen=True, slots=True)
class Measure:
    """The size facts the rules look at."""

    size: int
    chars: int
    code_lines: int


def measure(text: str, policy: RoutingPolicy) -> Measure:
    size = len(text.encode("utf-8", "surrogatepass"))
    # Counting code lines is only needed near the Direct limit; skip the scan for big payloads.
    code = count_code_lines(text) if size <= policy.direct_max_bytes else policy.direct_max_code_lines + 1
    return Measure(size=size, chars=len(text), code_lines=code)


def query_terms(arguments: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Search words found in a call's arguments (``pattern``, ``query``, ``q``, ``name``, …)."""
    terms: list[str] = []
    for key, value in (arguments or {}).items():
        if key.lower() not in QUERY_KEYS:
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, str) and len(item) <= MAX_QUERY_CHARS and not _SQL.match(item):
                terms.extend(word.strip(".-") for word in _WORD.findall(item))
    # A "word" longer than MAX_TERM_CHARS is data, not a search term (and a regex of it is slow).
    return tuple(dict.fromkeys(term for term in terms if 2 <= len(term) <= MAX_TERM_CHARS))


def route(
    text: str,
    *,
    style: OutputStyle = OutputStyle.AUTO,
    policy: RoutingPolicy | None = None,
    tool: str = "",
    arguments: Mapping[str, Any] | None = None,
    is_error: bool = False,
    intent: str = "",
) -> Decision:
    """Decide how one result reaches the agent; ``intent`` aims the summary (``summarize_for_intent``)."""
    policy = policy or RoutingPolicy()
    facts = measure(text, policy)
    if policy.pass_whole:
        return Direct(f"retention floor 1.0: {facts.size} B passed whole")
    if is_error:
        if facts.size <= policy.error_cap:
            return Direct(f"error result of {facts.size} B kept as sent (error cap {policy.error_cap} B)")
        extract = _summarize(text, ContentKind.LOG, policy.error_cap, arguments)
        return Summary(
            f"error result of {facts.size} B is over the error cap {policy.error_cap} B",
            extract.kind,
            extract,
        )
    small = facts.size <= policy.direct_max_bytes and facts.code_lines <= policy.direct_max_code_lines
    if small:
        return Direct(
            f"{facts.size} B ≤ {policy.direct_max_bytes} B and {facts.code_lines} code lines "
            f"≤ {policy.direct_max_code_lines}"
        )
    over = (
        f"{facts.size} B > {policy.direct_max_bytes} B"
        if facts.size > policy.direct_max_bytes
        else f"{facts.code_lines} code lines > {policy.direct_max_code_lines}"
    )
    single_file = style is OutputStyle.AUTO and is_file_read(tool)
    if style is OutputStyle.DIRECT or single_file:
        why = "tagged DIRECT" if style is OutputStyle.DIRECT else "a single-file read"
        if facts.chars <= policy.direct_hard_cap:
            return Direct(f"{why} and {facts.chars} chars ≤ hard cap {policy.direct_hard_cap}")
        kind = detect_kind(text, tool_name=tool, arguments=arguments)
        distinct = _distinct_items(text)
        extract, budget = _sized_summary(text, kind, policy, facts.size, arguments, intent, distinct)
        return Summary(
            f"{why} but {facts.chars} chars > hard cap {policy.direct_hard_cap}",
            extract.kind,
            extract,
            budget,
        )
    kind = detect_kind(text, tool_name=tool, arguments=arguments)
    distinct = _distinct_items(text)  # once: a text read again as a log has the same lines
    extract, budget = _sized_summary(text, kind, policy, facts.size, arguments, intent, distinct)
    if style is OutputStyle.DIRECTIVE:
        return Directive(f"tagged DIRECTIVE and {over}", kind, extract, budget)
    if style is OutputStyle.SUMMARY:
        return Summary(f"tagged SUMMARY and {over}", kind, extract, budget)
    if facts.size > TEXT_AS_LOG_BYTES and extract.highlights == 0 and kind is ContentKind.TEXT:
        # Plain text in which nothing stands out may be a daemon's messages without levels or
        # timestamps (sshd -e, apt-cache depends, luacheck): read as a log, its failures and
        # repeated lines do.
        as_log, log_budget = _sized_summary(
            text, ContentKind.LOG, policy, facts.size, arguments, intent, distinct
        )
        if as_log.highlights:
            return Summary(f"{over}; text read as a log", ContentKind.LOG, as_log, log_budget)
    threshold = policy.directive_threshold
    if threshold is not None and facts.size > threshold and extract.highlights == 0 and not intent:
        return Directive(
            f"{facts.size} B > directive threshold {threshold} B and nothing stands out "
            f"in this {kind.value} output",
            kind,
            extract,
            budget,
        )
    return Summary(f"{over}; {kind.value} summary", kind, extract, budget)


def summary_budget(policy: RoutingPolicy, size: int, highlights: int) -> int:
    """The stage-1 budget for a payload of ``size`` bytes with ``highlights`` salient items.

    From ``summary_budget`` up by ``BYTES_PER_HIGHLIGHT`` per salient item past the first few,
    never above ``summary_budget_max`` nor (past the minimum) ``MAX_SHARE`` of the payload, so
    big outputs with many distinct failures get room and the total stays a small share of raw. A
    small payload (a 12 kB test log with six failures) may grow to ``SMALL_CAP`` bytes, at most
    ``SMALL_SHARE`` of it: six per cent of it would never pass the minimum.
    """
    low, high = policy.summary_budget, max(policy.summary_budget, policy.summary_budget_max)
    wanted = low + BYTES_PER_HIGHLIGHT * max(highlights - FREE_HIGHLIGHTS, 0)
    share = max(int(size * MAX_SHARE), min(SMALL_CAP, int(size * SMALL_SHARE)))
    return max(low, min(high, wanted, share))


def _sized_summary(
    text: str,
    kind: ContentKind,
    policy: RoutingPolicy,
    size: int,
    arguments: Mapping[str, Any] | None,
    intent: str,
    distinct: int,
) -> tuple[Extract, int]:
    """The summary and its budget: grown with the summariser's salient items, or with
    ``distinct`` (``_distinct_items``) when those are more."""
    if intent:
        # The intent's passages come on top of the summary the kind would get without one, so
        # what stage 1 shows anyway is not pushed out by them (within ``summary_budget_max``).
        plain = _summarize(text, kind, policy.summary_budget, arguments, ended=False)
        high = max(policy.summary_budget, policy.summary_budget_max)
        budget = min(high, summary_budget(policy, size, max(plain.highlights, distinct)) + INTENT_ROOM)
        return _summarize(text, kind, budget, arguments, intent), budget
    # Made once without the payload's ending, to count its salient items; at the budget they
    # give, with it (from that extract when the budget stays: the summariser runs once less).
    extract = _summarize(text, kind, policy.summary_budget, arguments, ended=False)
    budget = summary_budget(policy, size, max(extract.highlights, distinct))
    first = extract if budget == policy.summary_budget else None
    return _summarize(text, kind, budget, arguments, first=first), budget


def _distinct_items(text: str) -> int:
    """Salient items by distinct lines: one per ``DISTINCT_PER_HIGHLIGHT`` of them."""
    return distinct_lines(text, _ENOUGH_DISTINCT) // DISTINCT_PER_HIGHLIGHT


def _summarize(
    text: str,
    kind: ContentKind,
    budget: int,
    arguments: Mapping[str, Any] | None,
    intent: str = "",
    *,
    ended: bool = True,
    first: Extract | None = None,
) -> Extract:
    """The summary in ``budget`` bytes less the frame's; ``ended``: with the payload's ending below
    it (``summaries.ending``); ``first``: the summary at that budget, when it is made already."""
    room = max(128, budget - FRAME_BYTES)
    terms = query_terms(arguments)
    summarise: Callable[[int], Extract] = (
        (
            lambda part: summarize_for_intent(
                text, kind, budget=part, terms=terms, intent=intent, room=INTENT_ROOM
            )
        )
        if intent
        else (lambda part: _framed(text, kind, part, terms))
    )
    try:
        if not ended or kind is ContentKind.SNAPSHOT:  # a snapshot's footer is its own pick (dev +4 so)
            return first if first is not None else summarise(room)
        return with_ending(text, room, summarise, first=first)
    except Exception:  # a summariser bug must never lose the result: fall back to head and tail
        return head_and_tail(text, kind, room)


def _framed(text: str, kind: ContentKind, room: int, terms: tuple[str, ...]) -> Extract:
    """The kind's summary in ``room`` bytes, smaller when its outline is too long for the frame."""
    extract = summarize(text, kind, budget=room, terms=terms)
    # The header repeats the outline: an unusually long one (JSON keys can be long) takes
    # room from the body, so the body is made again, smaller (outlines do not depend on it).
    framed = FRAME_WITHOUT_OUTLINE + len(extract.outline.encode("utf-8", "surrogatepass"))
    if framed > FRAME_BYTES:
        extract = summarize(text, kind, budget=max(128, room + FRAME_BYTES - framed), terms=terms)
    return extract


def head_and_tail(text: str, kind: ContentKind, budget: int) -> Extract:
    """The first and last lines of ``text`` that fit ``budget`` bytes, with an elision marker."""
    lines = text.splitlines()
    half = budget // 2
    head: list[str] = []
    used = 0
    for line in lines:
        cost = len(line.encode("utf-8", "surrogatepass")) + 1
        if used + cost > half:
            break
        head.append(line)
        used += cost
    tail: list[str] = []
    for line in reversed(lines[len(head) :]):
        cost = len(line.encode("utf-8", "surrogatepass")) + 1
        if used + cost > budget - 40:
            break
        tail.append(line)
        used += cost
    tail.reverse()
    skipped = len(lines) - len(head) - len(tail)
    middle = [f"… {skipped} lines …"] if skipped else []
    body = "\n".join([*head, *middle, *tail])
    return Extract(text=body, kind=kind, outline=f"{kind.value}: {len(lines)} lines", highlights=0)
