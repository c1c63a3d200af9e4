"""What changed between two results of the same call: a line diff, or for JSON the changed paths.

Contract: ``compare(previous, current, max_bytes=...)`` returns a ``Delta`` whose ``text`` the agent
reads instead of the new result, or ``None`` when the change is not small: when its text would be
over ``max_bytes`` or over ``MAX_FRACTION`` of the new result (then the new result is routed as
usual). Two forms, the shorter wins:

- lines (``kind="lines"``): unified-diff-like hunks ``@@ -a,b +c,d @@`` (1-based line numbers; a
  count of 0 follows the unified-diff rule: the hunk sits after line ``a``) whose lines start with
  ``" "`` (context, ``CONTEXT`` lines either side), ``"-"`` (removed) or ``"+"`` (added). A text is
  its ``"\\n"``-separated pieces: a trailing newline is an empty last piece, so every byte is
  accounted for; ``apply_lines(previous, delta.text) == current`` always holds.
- JSON (``kind="json"``, when both results are JSON objects or arrays): one line per change,
  ``- PATH: OLD`` then ``+ PATH: NEW`` for a changed value, ``+ PATH: NEW`` for a new key or array
  element, ``- PATH: OLD`` for a dropped one (array tails dropped from the end). ``PATH`` is ``$``
  then ``.key`` (identifier keys), ``["key"]`` (others, JSON-quoted) or ``[index]``; values are
  compact JSON. ``apply_json(json.loads(previous), delta.text)`` equals ``json.loads(current)``
  (values compared strictly: ``1``, ``1.0`` and ``true`` differ).

``digest(text)`` is the SHA-256 a repeat is compared by. Everything here is pure and synchronous.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

CONTEXT = 2  # unchanged lines shown either side of a change
MAX_FRACTION = 0.5  # a delta is sent only when it is at most this share of the new result
MAX_DIFF_LINES = 5000  # beyond this many differing lines on either side, no line diff is tried
MAX_JSON_CHANGES = 500
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_PART = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


class DeltaError(ValueError):
    """A delta text that does not fit the text it is applied to (a bug, or the wrong previous text)."""


@dataclass(frozen=True, slots=True)
class Delta:
    """The change from one result to the next, as the agent reads it."""

    kind: Literal["lines", "json"]
    text: str
    added: int  # lines (or JSON values) added
    removed: int  # lines (or JSON values) removed; a changed value counts once in each

    def summary(self) -> str:
        unit = "lines" if self.kind == "lines" else "JSON values"
        return f"{self.added} {unit} added, {self.removed} removed"


def digest(text: str) -> str:
    """The SHA-256 (hex) of ``text``'s UTF-8 bytes (lone surrogates kept)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def compare(
    previous: str, current: str, *, max_bytes: int, max_fraction: float = MAX_FRACTION
) -> Delta | None:
    """The smaller of the line and JSON deltas, if it is small enough to send instead of ``current``."""
    if previous == current:
        return None
    limit = min(max_bytes, int(size(current) * max_fraction))
    candidates = [found for found in (line_delta(previous, current), json_delta(previous, current)) if found]
    small = [found for found in candidates if size(found.text) <= limit]
    return min(small, key=lambda found: size(found.text)) if small else None


# ---------------------------------------------------------------------------------------- lines


def line_delta(previous: str, current: str, *, context: int = CONTEXT) -> Delta | None:
    """Unified-diff-like hunks from ``previous`` to ``current``; None when too large to compute."""
    old, new = previous.split("\n"), current.split("\n")
    # Trim the common ends first: a growing log or a one-line change leaves a tiny middle to match.
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    if max(len(old), len(new)) - head - tail > MAX_DIFF_LINES:
        return None
    start = max(0, head - context)
    old_end, new_end = len(old) - max(0, tail - context), len(new) - max(0, tail - context)
    matcher = difflib.SequenceMatcher(None, old[start:old_end], new[start:new_end], autojunk=False)
    out: list[str] = []
    added = removed = 0
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        old_from, old_to = start + first[1], start + last[2]
        new_from, new_to = start + first[3], start + last[4]
        out.append(f"@@ -{_range(old_from, old_to)} +{_range(new_from, new_to)} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(" " + line for line in old[start + i1 : start + i2])
                continue
            if tag in ("replace", "delete"):
                out.extend("-" + line for line in old[start + i1 : start + i2])
                removed += i2 - i1
            if tag in ("replace", "insert"):
                out.extend("+" + line for line in new[start + j1 : start + j2])
                added += j2 - j1
    if not added and not removed:
        return None
    return Delta("lines", "\n".join(out), added, removed)


def _range(begin: int, end: int) -> str:
    count = end - begin
    return f"{begin if count == 0 else begin + 1},{count}"


def apply_lines(previous: str, delta_text: str) -> str:
    """``previous`` with a lines delta applied; ``DeltaError`` when it does not fit."""
    old = previous.split("\n")
    result: list[str] = []
    position = 0  # next unconsumed line of old
    lines = delta_text.split("\n")
    index = 0
    while index < len(lines):
        header = _HUNK.fullmatch(lines[index])
        if header is None:
            raise DeltaError(f"line {index + 1} of the delta is not a hunk header: {lines[index][:80]!r}")
        old_start, old_count = int(header.group(1)), int(header.group(2) or 1)
        begin = old_start if old_count == 0 else old_start - 1
        if begin < position or begin > len(old):
            raise DeltaError(f"hunk {lines[index]!r} does not fit a text of {len(old)} pieces")
        result.extend(old[position:begin])
        position = begin
        index += 1
        while index < len(lines) and not _HUNK.fullmatch(lines[index]):
            line = lines[index]
            mark, body = line[:1], line[1:]
            if mark in (" ", "-"):
                if position >= len(old) or old[position] != body:
                    raise DeltaError(f"delta line {index + 1} ({line[:80]!r}) does not match the text")
                if mark == " ":
                    result.append(body)
                position += 1
            elif mark == "+":
                result.append(body)
            else:
                raise DeltaError(f"delta line {index + 1} starts with {mark!r}, not ' ', '-' or '+'")
            index += 1
    result.extend(old[position:])
    return "\n".join(result)


# ----------------------------------------------------------------------------------------- JSON


def json_delta(previous: str, current: str) -> Delta | None:
    """Changed paths and values when both texts are JSON objects or arrays; None otherwise."""
    old, new = _container(previous), _container(current)
    if old is None or new is None or type(old) is not type(new):
        return None
    changes: list[str] = []
    counts = [0, 0]
    if not _walk(old, new, "$", changes, counts):
        return None
    if not changes:
        return None
    return Delta("json", "\n".join(changes), counts[0], counts[1])


def _container(text: str) -> dict[str, Any] | list[Any] | None:
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict | list) else None


def _walk(old: Any, new: Any, path: str, changes: list[str], counts: list[int]) -> bool:
    """Append the changes from ``old`` to ``new`` under ``path``; False when there are too many."""
    if len(changes) > MAX_JSON_CHANGES:
        return False
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            child = _child(path, key)
            if key not in new:
                changes.append(f"- {child}: {_dump(old[key])}")
                counts[1] += 1
            elif not _walk(old[key], new[key], child, changes, counts):
                return False
        for key in new:
            if key not in old:
                changes.append(f"+ {_child(path, key)}: {_dump(new[key])}")
                counts[0] += 1
        return len(changes) <= MAX_JSON_CHANGES
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        for index in range(common):
            if not _walk(old[index], new[index], f"{path}[{index}]", changes, counts):
                return False
        for index in range(len(old) - 1, common - 1, -1):  # from the end, so each drop is the last element
            changes.append(f"- {path}[{index}]: {_dump(old[index])}")
            counts[1] += 1
        for index in range(common, len(new)):
            changes.append(f"+ {path}[{index}]: {_dump(new[index])}")
            counts[0] += 1
        return len(changes) <= MAX_JSON_CHANGES
    if not _same(old, new):
        changes.append(f"- {path}: {_dump(old)}")
        changes.append(f"+ {path}: {_dump(new)}")
        counts[0] += 1
        counts[1] += 1
    return True


def _same(old: Any, new: Any) -> bool:
    """Strict JSON equality: ``1``, ``1.0`` and ``true`` differ (Python's ``==`` says they do not)."""
    if type(old) is not type(new):
        return False
    if isinstance(old, dict):
        return old.keys() == new.keys() and all(_same(old[key], new[key]) for key in old)
    if isinstance(old, list):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new, strict=True))
    return bool(old == new)


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENTIFIER.fullmatch(key) else f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def apply_json(previous: Any, delta_text: str) -> Any:
    """The JSON value ``previous`` with a JSON delta applied; ``DeltaError`` when it does not fit."""
    root: list[Any] = [previous]
    lines = delta_text.split("\n")
    index = 0
    while index < len(lines):
        mark, parts, value = _parse_change(lines[index])
        if mark == "-" and index + 1 < len(lines):
            next_mark, next_parts, next_value = _parse_change(lines[index + 1])
            if next_mark == "+" and next_parts == parts:  # a changed value: replace in place
                parent, last = _locate(root, parts)
                parent[last] = next_value
                index += 2
                continue
        parent, last = _locate(root, parts)
        if mark == "-":
            if isinstance(parent, list) and last != len(parent) - 1:
                raise DeltaError(f"delta line {index + 1} drops {last}, not the last element")
            del parent[last]
        elif isinstance(parent, list):
            if last != len(parent):
                raise DeltaError(f"delta line {index + 1} adds element {last} to a list of {len(parent)}")
            parent.append(value)
        else:
            parent[last] = value
        index += 1
    return root[0]


def _parse_change(line: str) -> tuple[str, list[str | int], Any]:
    mark = line[:2]
    if mark not in ("- ", "+ ") or line[2:3] != "$":
        raise DeltaError(f"delta line {line[:80]!r} does not start with '- $' or '+ $'")
    position = 3
    parts: list[str | int] = []
    while not line.startswith(": ", position):
        found = _PATH_PART.match(line, position)
        if found is None:
            raise DeltaError(f"delta line {line[:80]!r} has an unreadable path at column {position}")
        name, number, quoted = found.groups()
        parts.append(name if name is not None else int(number) if number is not None else json.loads(quoted))
        position = found.end()
    try:
        value = json.loads(line[position + 2 :])
    except ValueError as exc:
        raise DeltaError(f"delta line {line[:80]!r} has an unreadable value ({exc})") from exc
    return mark[0], parts, value


def _locate(root: list[Any], parts: list[str | int]) -> tuple[Any, Any]:
    """The container holding the last part of the path, and that part (index 0 of ``root`` is ``$``)."""
    parent: Any = root
    last: str | int = 0
    for part in parts:
        parent = parent[last]
        last = part
    return parent, last
