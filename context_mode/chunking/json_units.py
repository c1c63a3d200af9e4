"""JSON units for the chunker, cut on the text itself (never re-serialised, so byte-exact).

``json_units(text, fits)`` returns ``(start, end, key_path, structural)`` units covering ``text``, or
``None`` when ``text`` is not one JSON value (the chunker then falls back to log records). A value
for which ``fits(start, end)`` holds is one unit; a bigger array or object becomes its opening
bracket, one unit per element or member (a member's key goes with its value, and its trailing
comma and whitespace with it), and its closing bracket; members that do not fit are opened the same
way, with the key (``"name"``) or index (``"[3]"``) appended to the path; an array element that
is an object is named by its index and the value of its first identity field (``full_name``,
``name``, ``title``, ``id``…: ``"[3] octo/repo"``), so every chunk of a big record says whose it
is. A scalar that does not fit (a long string) is one unit that the chunker splits.

One regex pass finds strings, brackets, commas and colons; the walk uses an explicit stack, so
nesting depth costs neither recursion nor rescans. Paths are capped at ``MAX_PATH_DEPTH`` keys.
Structure is checked (brackets match, strings end, one top-level value), scalars are not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from context_mode.chunking.lines import Unit

MAX_PATH_DEPTH = 12
MAX_KEY_CHARS = 80

_TOKEN = re.compile(r'"[^"\\]*(?:\\[\s\S][^"\\]*)*"|[{}\[\],:]|"')
_NON_SPACE = re.compile(r"\S")
_SPACE = " \t\r\n"
_SYNTAX, _CONTENT, _VALUE = 0, 1, 2
_Task = tuple[int, int, int, tuple[str, ...]]
# The fields that name a record, best first; only the record's first keys are looked at.
_IDENTITY_KEYS = (
    "full_name",
    "name",
    "title",
    "login",
    "key",
    "slug",
    "tag_name",
    "version",
    "id",
    "sha",
    "number",
)
_MAX_IDENTITY_KEYS = 64


@dataclass(slots=True)
class _Container:
    open: int
    close: int = -1
    commas: list[int] = field(default_factory=list)
    colons: list[int] = field(default_factory=list)
    keys: list[tuple[int, int]] = field(default_factory=list)


def _scan(text: str) -> tuple[dict[int, _Container], int, int] | None:
    """Containers by opening offset, and the span of the single top-level value; None if not JSON."""
    containers: dict[int, _Container] = {}
    stack: list[_Container] = []
    last_string = (0, 0)
    first = _NON_SPACE.search(text)
    if first is None:
        return None
    root_start, root_end = first.start(), -1
    for match in _TOKEN.finditer(text, root_start):
        position = match.start()
        if root_end >= 0:
            return None  # a second top-level value (JSON lines) or trailing junk
        char = text[position]
        if char == '"':
            if match.end() == position + 1:
                return None  # an unterminated string
            last_string = (position, match.end())
            if not stack:
                root_end = match.end()
        elif char in "{[":
            container = _Container(position)
            containers[position] = container
            stack.append(container)
        elif char in "}]":
            if not stack or "{[".index(text[stack[-1].open]) != "}]".index(char):
                return None
            stack.pop().close = position
            if not stack:
                root_end = position + 1
        elif not stack:
            return None
        elif char == ",":
            stack[-1].commas.append(position)
        elif text[stack[-1].open] == "{":
            stack[-1].colons.append(position)
            stack[-1].keys.append(last_string)
        else:
            return None  # a colon in an array
    if stack:
        return None
    if root_end < 0:  # a bare scalar: it runs to the last non-space character
        root_end = len(text.rstrip(_SPACE))
    elif text[root_end:].strip(_SPACE):
        return None
    return containers, root_start, root_end


def json_units(text: str, fits: Callable[[int, int], bool]) -> list[Unit] | None:
    """Units of one JSON value (see module doc), or None when ``text`` is not one JSON value."""
    scanned = _scan(text)
    if scanned is None:
        return None
    containers, root_start, root_end = scanned
    units: list[Unit] = []
    # Tasks run last-in first-out: (kind, start, end, path), kind being _SYNTAX, _CONTENT or _VALUE
    # (a value still to open when it does not fit).
    tasks: list[_Task] = [
        (_SYNTAX, root_end, len(text), ()),
        (_VALUE, root_start, root_end, ()),
        (_SYNTAX, 0, root_start, ()),
    ]
    while tasks:
        kind, start, end, path = tasks.pop()
        if start >= end:
            continue
        container = containers.get(start) if kind == _VALUE else None
        if container is None or fits(start, end):
            units.append((start, end, path, kind == _SYNTAX))
            continue
        tasks.extend(reversed(_open(text, containers, container, path, fits)))
    return units


def _open(
    text: str,
    containers: dict[int, _Container],
    container: _Container,
    path: tuple[str, ...],
    fits: Callable[[int, int], bool],
) -> list[_Task]:
    """The tasks for a container too big to be one unit, in text order."""
    is_object = text[container.open] == "{"
    member_starts = [_skip_space(text, container.open + 1, container.close)]
    member_starts.extend(_skip_space(text, comma + 1, container.close) for comma in container.commas)
    bounds = [*container.commas, container.close]  # each member's value ends before its bound
    tasks: list[_Task] = [(_SYNTAX, container.open, member_starts[0], path)]
    for index, member_start in enumerate(member_starts):
        member_end = member_starts[index + 1] if index + 1 < len(member_starts) else container.close
        if member_start >= member_end or fits(member_start, member_end):
            tasks.append((_CONTENT, member_start, member_end, path))
            continue
        value_start = member_start
        label = f"[{index}]"
        record = containers.get(member_start)
        if not is_object and record is not None:
            label = _record_label(text, record, label)
        if is_object and index < len(container.colons):
            value_start = _skip_space(text, container.colons[index] + 1, bounds[index])
            label = _key(text, *container.keys[index])
        value_end = _trim_space(text, value_start, bounds[index])
        child = path if len(path) >= MAX_PATH_DEPTH else (*path, label)
        if len(child) == MAX_PATH_DEPTH and len(path) < MAX_PATH_DEPTH:
            child = (*path, "…")
        tasks.append((_SYNTAX, member_start, value_start, child))
        tasks.append((_VALUE, value_start, value_end, child))
        tasks.append((_SYNTAX, value_end, member_end, child))
    tasks.append((_SYNTAX, container.close, container.close + 1, path))
    return tasks


def _record_label(text: str, record: _Container, label: str) -> str:
    """``label`` (``[3]``) with the record's identity (``[3] octo/repo``), if it is an object with one."""
    if text[record.open] != "{":
        return label
    found: dict[str, str] = {}
    bounds = [*record.commas, record.close]
    for index, (start, end) in enumerate(record.keys[:_MAX_IDENTITY_KEYS]):
        name = _key(text, start, end)
        if name not in _IDENTITY_KEYS or name in found or index >= len(bounds):
            continue
        raw = text[record.colons[index] + 1 : bounds[index]].strip(_SPACE)
        if not raw or raw[0] in "{[" or len(raw) > MAX_KEY_CHARS:
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
            found[name] = " ".join(str(value).split())
    for name in _IDENTITY_KEYS:
        if name in found:
            return f"{label} {found[name]}"[:MAX_KEY_CHARS]
    return label


def _skip_space(text: str, position: int, limit: int) -> int:
    found = _NON_SPACE.search(text, position, limit)
    return found.start() if found else limit


def _trim_space(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in _SPACE:
        end -= 1
    return end


def _key(text: str, start: int, end: int) -> str:
    raw = text[start:end]
    try:
        key = json.loads(raw)
    except ValueError:
        key = raw.strip('"')
    return str(key)[:MAX_KEY_CHARS]
