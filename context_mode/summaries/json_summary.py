"""Summary of a JSON payload as a smaller, valid JSON document: its skeleton with samples.

The payload is parsed and outlined by ``json_outline.analyse`` (an NDJSON stream counts as an array
of its lines; nesting deeper than ``MAX_DEPTH`` becomes ``"…"``); text that is not JSON gets the
plain-text summary, its outline prefixed with ``not JSON; ``; a Jupyter notebook, its errors,
outline and cells (``summaries.notebook``). Then a best-first walk picks members
while they fit the budget: top-level scalars first (they are often the answer: ``total_count``,
``dist-tags``), identity fields (id, name, version, status…), the first items of each array and its
last, then the rest. Objects with many keys (maps such as a version→date table) are sampled like
arrays; a map keyed by versions or dates shows its newest keys first (the newest release, the first
of each major line, the newest of each minor line, then the others, then pre-releases); an array of
versions (``pip index versions``, ``npm view``'s ``versions``) shows the ends of its release lines
first, the newest of each major line, then each minor line's last and first releases, in the
array's order (``"1.33.0", "1.32.117"``), past its thousandth item too. In an array of records (or
a map's entries), the first shows its fields and the others only their identity fields (names,
states, dates, who made them), and so does everything inside them, so samples go before structure;
a field of one value in all of an array's first records (``"type": "relation"``, an Elasticsearch
hit's ``"_index"``) tells none apart and goes last (``json_siblings``), also where the records
differ only inside (``"_source"``). A record holding a rare value of a field most records
share one value of (``"licenses": "UNLICENSED"`` among hundreds of ``"MIT"``) is an exception: it
ranks with the first records, wherever it is, and shows that field; a record whose status says it
failed (an HTTP status of 400 or more, ``"state": "failure"``) ranks so too, and shows all it holds
as the first record does (the 404's ``"message"``). What a package requires
(``requires_dist``, ``dependencies``, ``dependsOn``…) is sampled further than other lists, as far
as records are: it is what is asked of a package. Long strings are clipped with ``…``; NaN and
infinities become ``null``.

The chosen members print as ``json_skeleton`` prints them. Left-out members are counted in place:
``"… +258 items"`` inside an array, ``"…": "+288 keys"`` in an object. The body is valid JSON for
any budget of at least ``MIN_BUDGET`` bytes (below that it may be empty). Top-level containers are
printed one member per line, deeper ones inline, with the payload's spacing: a payload that writes
no space after its colons and commas (``{"name":"bstr","version":"0.2.17"}``) gets none in its
skeleton either.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

from context_mode.summaries.extract import IDENTITY_KEYS, Extract, term_matcher
from context_mode.summaries.json_outline import MAX_DEPTH, analyse
from context_mode.summaries.json_releases import VERSION, line_ends
from context_mode.summaries.json_siblings import (
    failed_records,
    rare_keys,
    repeats_another_identity,
    same_keys,
)
from context_mode.summaries.json_skeleton import (
    STRING_WIDTH,
    TOP_STRING_WIDTH,
    Node,
    key_text,
    marker_reserve,
    minimal,
    render,
    scalar_size,
    spacing,
)
from context_mode.summaries.notebook import is_notebook, summarize_notebook
from context_mode.summaries.packing import size
from context_mode.summaries.reading import LastReading
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

MIN_BUDGET = 64
_MAP_KEYS = 24  # an object with more keys than this is data (a map), sampled like an array
_MAX_CANDIDATES = 1000  # children offered per container; the rest are only counted
_SMALL_OBJECT = 6  # an object of this few keys is worth showing whole before a big one's samples
_SMALL_OBJECT_BONUS = 4.0
# In a record, an object under one of these keys says who (``user``: its ``login``).
_WHO = frozenset("user owner author creator assignee committer uploader publisher".split())
_DATE_KEY = re.compile(r"\d{4}-\d{2}-\d{2}")
_LINK = re.compile(r"(?:https?|git|ssh)://|git@")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_]*\Z")
# Keys under which a package lists what it needs: its requirements are what is asked of it.
_DEPENDS = frozenset(
    "requires_dist requires dependencies devdependencies peerdependencies optionaldependencies "
    "dev_dependencies build_dependencies install_requires requirements deps dependson".split()
)
_ODD_POSITION = 2  # a record holding a rare value ranks like the third record


def summarize_json(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """A valid-JSON skeleton of ``text`` with samples, in at most ``budget`` bytes."""
    analysis = analyse(text)
    if analysis is None:
        fallback = summarize_text(text, budget=budget, terms=terms)
        return Extract(fallback.text, ContentKind.TEXT, "not JSON; " + fallback.outline, fallback.highlights)
    value, outline, records = analysis
    if is_notebook(value):  # a Jupyter notebook: its errors and outline, not its JSON skeleton
        return summarize_notebook(value, budget=budget, terms=terms)
    # The cost model is an upper bound (every container reserves room for its "…" marker), so
    # a first pass leaves slack; later passes hand the slack back, keeping the best that fits.
    body = ""
    target = budget
    memo = _READINGS.get(value, terms, dict)  # keyed by the parsed value: the memo holds its ids
    spaced = spacing(text)
    for _ in range(4):
        candidate = render(_select(value, target, memo, terms), _root_width(value), spaced=spaced)
        spare = budget - size(candidate)
        if spare >= 0 and size(candidate) > size(body):
            body = candidate
        if spare < 0:
            target += spare - 16
        elif spare > 24:
            target += spare
        else:
            break
    if not body:
        body = minimal(value, budget)
    # Records are what stands out (an array's, an object's keyed by name); in a plain object, its
    # top-level fields are, whichever are more: a small nested array or object takes nothing away.
    highlights = max(records, len(value) if isinstance(value, dict) else 0)
    return Extract(text=body, kind=ContentKind.JSON, outline=outline, highlights=highlights)


def _root_width(value: Any) -> int:
    return TOP_STRING_WIDTH if not isinstance(value, dict | list) else STRING_WIDTH


# A container's offered children, as (score less the parent's priority, position, key, child,
# cost), by what they depend on: the container and its node's depth and flags. The summary walks
# the same tree several times (``summarize_json``'s passes, the router's budgets): each
# container's children are scored once per text and terms.
_Offers = list[tuple[float, int, str | None, Any, int]]
_OfferMemo = dict[tuple[int, int, bool, bool], _Offers]
_READINGS: LastReading[_OfferMemo] = LastReading()


def _select(value: Any, budget: int, memo: _OfferMemo, terms: Sequence[str]) -> Node:
    """Best-first choice of members under a pessimistic byte cost; returns the chosen tree.

    ``memo`` holds the offers of containers already scored (``_Offers``): the same for every
    budget, given the same ``value`` and ``terms``."""
    matches = term_matcher(terms)
    root = Node(value, 0)
    used = 2 + marker_reserve(value)
    queue: list[tuple[float, int, Node, int, str | None, Any, int]] = []
    counter = itertools.count()
    shared: dict[int, frozenset[str]] = {}  # an array's keys of one value in all its records

    def offer(parent: Node, priority: float) -> None:
        key_of = (id(parent.value), parent.depth, parent.record, parent.in_list)
        offers = memo.get(key_of)
        if offers is None:
            offers = [
                (
                    _score(parent, position, key, child, matches),
                    position,
                    key,
                    child,
                    _entry_cost(parent, key, child),
                )
                for position, key, child in _children(parent.value)
            ]
            memo[key_of] = offers
        for score, position, key, child, cost in offers:
            heapq.heappush(queue, (-(priority + score), next(counter), parent, position, key, child, cost))

    offer(root, 100.0)
    while queue:
        negative, _, parent, position, key, child, cost = heapq.heappop(queue)
        if used + cost > budget:
            continue
        used += cost
        in_list = isinstance(parent.value, list)
        # After the first item of an array or entry of a map, a member shows who it is (its
        # identity fields), and so does everything inside it.
        later = position > 0 and (in_list or (isinstance(child, dict | list) and _parent_is_map(parent)))
        if later and isinstance(child, dict):
            _odd_records(parent)
            later = position not in (parent.failed or ())  # a failed record shows what it said
        same: frozenset[str] = frozenset()
        if in_list and isinstance(child, dict):
            if id(parent.value) not in shared:
                shared[id(parent.value)] = same_keys(parent.value)
            same = shared[id(parent.value)]
        rare = _odd_records(parent).get(position, frozenset()) if isinstance(child, dict) else frozenset()
        node = Node(
            child,
            parent.depth + 1,
            record=parent.record or later,
            in_list=in_list,
            same=same,
            rare=rare,
            depends=key is not None and key.lower().replace("-", "_") in _DEPENDS,
        )
        parent.members[position] = (key, node)
        if isinstance(child, dict | list) and node.depth < MAX_DEPTH:
            offer(node, -negative)
    return root


def _children(value: Any) -> list[tuple[int, str | None, Any]]:
    if isinstance(value, dict):
        ordered = _newest_first(value) if len(value) > _MAP_KEYS else None
        if ordered is not None:
            items = [(key, value[key]) for key in ordered[:_MAX_CANDIDATES]]
        else:
            items = list(itertools.islice(value.items(), _MAX_CANDIDATES))
        return [(position, str(key), child) for position, (key, child) in enumerate(items)]
    if isinstance(value, list):
        chosen = list(range(min(len(value), _MAX_CANDIDATES)))
        if len(value) > _MAX_CANDIDATES:
            chosen.extend(
                sorted(
                    position
                    for position in line_ends(value, least=_MAP_KEYS + 1)
                    if position >= _MAX_CANDIDATES
                )
            )
            if chosen[-1] != len(value) - 1:
                chosen.append(len(value) - 1)
        return [(position, None, value[position]) for position in chosen]
    return []


def _score(parent: Node, position: int, key: str | None, child: Any, matches: Callable[[str], bool]) -> float:
    """A child's worth, less its parent's priority (which ``_select`` adds)."""
    container = isinstance(child, dict | list)
    score = -10.0
    siblings = len(parent.value)
    if isinstance(parent.value, list):
        # Records (objects) are cheap to list by identity, so their order matters less.
        step = 1.5 if isinstance(child, dict) or parent.depends else 4.0
        last = position == siblings - 1 and siblings > 2
        ranks = _release_ranks(parent)
        if ranks:
            score -= 12.0 if last else step * ranks.get(position, len(ranks) + min(position, 40))
        else:
            score -= 12.0 if last else step * min(position, _odd_position(parent, position, 40))
    elif _parent_is_map(parent):
        # a map: its keys are data, sampled like items
        score -= 2.5 * min(position, _odd_position(parent, position, 40))
    else:
        score -= 0.5 * min(position, 60)
        if siblings <= _SMALL_OBJECT and not parent.record:
            score += _SMALL_OBJECT_BONUS  # a few members say all of it: ``dependencies`` of four
    link = isinstance(child, str) and _LINK.match(child) is not None
    if not container:
        score += 6.0
        if isinstance(child, str) and not link and matches(child):
            score += 10.0
    if key is not None:
        name = key.lower()
        identity = name in IDENTITY_KEYS or name.endswith("_id")
        if parent.record and key in parent.rare:
            score += 8.0  # "licenses": "UNLICENSED" among hundreds of "MIT": the exception is the news
        elif parent.record and key in parent.same:
            score -= 60.0  # "type": "relation" in every record tells one from none
        elif identity:
            score += 8.0
            if parent.record and repeats_another_identity(parent.value, key, child):
                score -= 20.0  # "name": "grip" next to "full_name": "joeyespo/grip" adds nothing
        elif parent.record and not (name in _WHO and isinstance(child, dict)):
            score -= 15.0  # later records show who they are, not everything they hold
        elif parent.depth >= 1 and isinstance(parent.value, dict) and parent.in_list:
            score -= 4.0  # the first record's details compete with the other records' names
        if (name.endswith("url") or link) and not identity:
            score -= 8.0  # links are long and rarely the answer
        if matches(key):
            score += 10.0
    if child in (None, "", [], {}):
        score -= 4.0 if parent.depth == 0 else 12.0  # a nested null says little
    return score - scalar_size(child, STRING_WIDTH) / 20.0 if not container else score


def _release_ranks(parent: Node) -> dict[int, int]:
    """For an array of version strings (``pip index versions``, ``npm view``'s ``versions``), the
    rank of each release that ends or starts a line, by position: the newest release of each major
    line first, then of each minor line with the line's first release beside the previous line's
    last (``"1.33.0", "1.32.117"``, in the array's order: what "the last 1.32" asks for); the
    other items keep their position as their rank."""
    if parent.ranks is None:
        parent.ranks = line_ends(parent.value, least=_MAP_KEYS + 1) if isinstance(parent.value, list) else {}
    return parent.ranks


def _odd_position(parent: Node, position: int, cap: int) -> int:
    """A record's position for its score: an odd record (one holding a rare value) ranks near
    the first records, wherever it is."""
    return _ODD_POSITION if position in _odd_records(parent) else cap


def _odd_records(parent: Node) -> dict[int, frozenset[str]]:
    """The positions of a container's records that hold a rare value, with those values' keys."""
    if parent.odd is None:
        value = parent.value
        if isinstance(value, list):
            records = list(itertools.islice(value, _MAX_CANDIDATES))
        elif isinstance(value, dict) and _parent_is_map(parent):
            ordered = _newest_first(value) or value
            records = [value[key] for key in itertools.islice(ordered, _MAX_CANDIDATES)]
        else:
            records = []
        failed = failed_records(records)
        parent.odd = rare_keys(records) | failed
        parent.failed = frozenset(failed)
    return parent.odd


def _newest_first(value: dict[Any, Any]) -> list[Any] | None:
    """The keys of a map keyed by versions or dates, newest first; None for other objects.

    Other keys (npm's ``created``, ``modified``) come first. For versions, the newest release
    comes first, then the first release of each major line (``9.0.0, 8.0.0``: when a line began),
    then the newest release of each minor line (``5.9.3, 5.8.3, …, 4.9.5``: what "the last 4.9"
    asks for), then the other releases, newest first, then pre-releases (``-beta``,
    ``-dev.2026…``), newest first.
    """
    keys = list(value)
    sample = keys[:: max(len(keys) // 50, 1)]
    if sum(1 for key in sample if isinstance(key, str) and _DATE_KEY.match(key)) * 5 >= len(sample) * 4:
        dated = [key for key in keys if isinstance(key, str) and _DATE_KEY.match(key)]
        return [key for key in keys if key not in set(dated)] + sorted(dated, reverse=True)
    parsed = {key: VERSION.match(key) for key in keys if isinstance(key, str)}
    versions = {key: match for key, match in parsed.items() if match is not None}
    if len(versions) * 5 < len(keys) * 4:
        return None

    def order(key: str) -> tuple[int, int, int]:
        match = versions[key]
        return int(match[1]), int(match[2]), int(match[3] or 0)

    stable = sorted((key for key, match in versions.items() if not match[4]), key=order, reverse=True)
    lines: dict[tuple[int, int], str] = {}
    firsts: dict[int, str] = {}
    for key in stable:
        lines.setdefault(order(key)[:2], key)
        firsts[order(key)[0]] = key  # newest first: the last one written is the line's first
    newest = list(dict.fromkeys([*stable[:1], *firsts.values(), *lines.values()]))
    chosen = set(newest)
    rest = [key for key in stable if key not in chosen]
    pre = sorted(
        (key for key, match in versions.items() if match[4]), key=lambda k: (order(k), k), reverse=True
    )
    return [key for key in keys if key not in versions] + newest + rest + pre


def _parent_is_map(parent: Node) -> bool:
    if parent.map_like is None:
        parent.map_like = _is_map(parent.value)
    return parent.map_like


def _is_map(value: dict[Any, Any]) -> bool:
    """Whether an object is a map (many keys that are data: versions, ids, dates) not a record."""
    if len(value) <= _MAP_KEYS:
        return False
    keys = list(itertools.islice(value, 50))
    return sum(1 for key in keys if not _IDENTIFIER.match(str(key))) * 2 >= len(keys)


def _entry_cost(parent: Node, key: str | None, child: Any) -> int:
    """Upper bound on the bytes this member adds: key, value stub, separator and indentation."""
    cost = 2 + (parent.depth + 1 if parent.depth <= 1 else 0)
    if key is not None:
        cost += size(key_text(key)) + 2
    if isinstance(child, dict | list):
        return cost + 2 + marker_reserve(child)
    width = TOP_STRING_WIDTH if parent.depth == 0 else STRING_WIDTH
    return cost + scalar_size(child, width)
