"""A JSON payload parsed and outlined: the value, one line describing its shape, its record count.

``analyse(text)`` returns ``(value, outline, records)``, or None when the text is neither JSON nor
a stream of JSON values (at least two objects or arrays one after another: NDJSON's lines, jq's
pretty-printed outputs), which counts as an array of those values.
Nesting too deep for the parser is first cut at ``MAX_DEPTH`` and replaced by ``"…"``. The
outline reads ``json: object of 12 keys, depth 3; arrays: items (258 items); largest objects: …``
(at most three of each, names escaped and clipped to 40 characters); ``records`` is the most
records one container holds: the length of the largest array, or the entries of an object most
of whose members are objects or non-empty arrays (``npm ls``'s packages, keyed by name; PyPI's
``releases``, each version's list of files), 0 if there is none. Past ``_MAX_STATS_NODES`` nodes
the outline counts only what the first ones hold. The last text analysed is remembered by
identity, so a second call with the same string object costs nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from context_mode.shapes import json_values
from context_mode.summaries.reading import LastReading

MAX_DEPTH = 48
_MAX_STATS_NODES = 200_000
_SPECIAL = re.compile(r'["\\\[\]{}]')


# The router summarises a payload more than once: the last parse and outline are kept.
_READINGS: LastReading[tuple[Any, str, int] | None] = LastReading()


def analyse(text: str) -> tuple[Any, str, int] | None:
    """The parsed payload with its outline and record count; None if it is not JSON."""

    def read() -> tuple[Any, str, int] | None:
        parsed = _parse(text)
        return None if parsed is None else (parsed[0], *_outline(parsed[0]))

    return _READINGS.get(text, (), read)


def _parse(text: str) -> tuple[Any] | None:
    """The parsed payload in a 1-tuple, or None if it is neither JSON nor a stream of JSON values."""
    stripped = text.strip().lstrip("\ufeff")
    if not stripped:
        return None
    try:
        return (json.loads(stripped),)
    except RecursionError:
        try:
            return (json.loads(_clip_depth(stripped, MAX_DEPTH)),)
        except (ValueError, RecursionError):
            return None
    except ValueError:
        pass
    # A stream of values, one after another: NDJSON's lines, or jq's pretty-printed outputs.
    rows: list[Any] = []
    try:
        for row in json_values(stripped):
            if not isinstance(row, dict | list):
                return None
            rows.append(row)
    except (ValueError, RecursionError):
        return None
    return (rows,) if len(rows) >= 2 else None


def _clip_depth(text: str, limit: int) -> str:
    """``text`` with every container nested deeper than ``limit`` replaced by ``"…"``."""
    out: list[str] = []
    depth = 0
    last = 0
    cut_from = -1
    in_string = False
    escaped_at = -1
    for match in _SPECIAL.finditer(text):
        at = match.start()
        if at == escaped_at:
            continue
        char = text[at]
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth == limit + 1:
                cut_from = at
        elif char in "]}":
            if depth == limit + 1 and cut_from >= 0:
                out.append(text[last:cut_from])
                out.append('"…"')
                last = at + 1
                cut_from = -1
            depth -= 1
    out.append(text[last:])
    return "".join(out)


def _name(key: str) -> str:
    """A key as it may appear in the one-line outline: escaped (no line breaks) and short."""
    return json.dumps(key[:40], ensure_ascii=False)[1:-1]


def _walk(value: Any) -> tuple[list[tuple[int, str, str]], int]:
    """Every container's (size, name, unit) in depth-first order, and the depth, over the first
    ``_MAX_STATS_NODES`` nodes."""
    largest: list[tuple[int, str, str]] = []
    depth = 0
    visited = 0
    stack: list[tuple[Any, str, int]] = [(value, "$", 0)]
    while stack and visited < _MAX_STATS_NODES:
        current, name, level = stack.pop()
        visited += 1
        depth = max(depth, level)
        if isinstance(current, dict):
            largest.append((len(current), name, "keys"))
            largest.extend(_keyed_records(current, name))
            stack.extend((child, str(key), level + 1) for key, child in current.items())
        elif isinstance(current, list):
            largest.append((len(current), name, "items"))
            stack.extend((child, name + "[]", level + 1) for child in current)
    return largest, depth


def _walk_containers(value: Any) -> tuple[list[tuple[int, str, str]], int] | None:
    """``_walk(value)`` when the payload has at most ``_MAX_STATS_NODES`` nodes (else None).

    Then the walk visits every node, and scalars only count: stacking containers alone keeps
    their depth-first order, and a non-empty container's children sit one level deeper.
    """
    largest: list[tuple[int, str, str]] = []
    depth = 0
    nodes = 1
    stack: list[tuple[Any, str, int]] = [(value, "$", 0)] if isinstance(value, dict | list) else []
    while stack:
        current, name, level = stack.pop()
        depth = max(depth, level + 1 if current else level)
        nodes += len(current)
        if nodes > _MAX_STATS_NODES:
            return None
        if isinstance(current, dict):
            largest.append((len(current), name, "keys"))
            largest.extend(_keyed_records(current, name))
            stack.extend(
                (child, str(key), level + 1)
                for key, child in current.items()
                if isinstance(child, dict | list)
            )
        else:
            largest.append((len(current), name, "items"))
            inner = name + "[]"
            stack.extend((child, inner, level + 1) for child in current if isinstance(child, dict | list))
    return largest, depth


def _keyed_records(value: dict[Any, Any], name: str) -> list[tuple[int, str, str]]:
    """An object most of whose members are objects or non-empty arrays (``dependencies`` of ``npm
    ls``, keyed by package; PyPI's ``releases``, each version's files) holds records as an array
    of them would: ``(count, name, "records")``, else none."""
    inner = sum(
        1 for child in value.values() if isinstance(child, dict) or (isinstance(child, list) and child)
    )
    return [(inner, name, "records")] if inner * 2 > len(value) else []


def _outline(value: Any) -> tuple[str, int]:
    """One line of shape and counts, and the most records one container holds."""
    walked = _walk_containers(value)
    largest, depth = walked if walked is not None else _walk(value)
    records = max((count for count, _, unit in largest if unit != "keys"), default=0)
    kind = "object" if isinstance(value, dict) else "array" if isinstance(value, list) else "scalar"
    head = f"json: {kind}"
    if isinstance(value, dict | list):
        head += f" of {len(value)} {'keys' if isinstance(value, dict) else 'items'}, depth {depth}"
    for unit in ("items", "keys"):
        biggest: dict[str, int] = {}
        for count, name, entry_unit in sorted(largest, key=lambda entry: -entry[0]):
            if entry_unit == unit and name != "$" and name not in biggest and len(biggest) < 3:
                biggest[name] = count
        if biggest:
            label = "arrays" if unit == "items" else "largest objects"
            head += f"; {label}: " + ", ".join(
                f"{_name(name)} ({count} {unit})" for name, count in biggest.items()
            )
    return head, records
