"""Field pruning of JSON tool results: drop the keys a tool's config excludes, keep only those it includes.

Contract: ``FieldPruner(exclude=..., include=..., drop_empty=...)`` compiles path globs once (a bad
glob raises ``PathGlobError`` naming the glob and the fix); ``prune_text(text)`` returns a
``Pruned`` whose text is valid JSON with

- every value whose path matches an ``exclude`` glob removed, at every depth;
- when ``include`` is non-empty, only the values whose path matches one of its globs (with their
  whole subtree) and the containers on the way to them;
- with ``drop_empty``, every object member whose value is ``null``, ``""``, ``[]`` or ``{}`` (after
  pruning, so a member emptied by it goes too) removed; array elements keep their positions.

A path is the chain of object keys and array indices from the top: ``items.0.owner.avatar_url``.
A glob is dot-separated segments: ``**`` matches any number of segments (none included), ``*`` one
key or any index, and a segment may use ``*``, ``?`` and ``[...]`` inside a key (``*_url``). Text that
is not a JSON object or array (plain text, a bare scalar, ``NaN``, too deep) comes back unchanged,
and so does JSON that no rule touched (byte for byte). Pruned JSON keeps the original's layout
(its indentation, or compact separators). Matching runs the globs as one set of states down the
tree, so the cost is linear in the size of the payload times the total length of the globs.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from context_mode.errors import PathGlobError

DEEP = "**"
MAX_DEPTH = 400  # deeper JSON passes unchanged rather than risk the interpreter's recursion limit
_MEMO_LIMIT = 20_000  # state transitions remembered per call (records repeat the same keys)
_MAGIC = re.compile(r"[*?\[]")
_BRACKET_INDEX = re.compile(r"\[(\*|\d*)\]")
_INDENT = re.compile(r"[\[{]\r?\n([ \t]+)\S")

State = frozenset[tuple[int, int]]
_EMPTY: State = frozenset()
_DROP = object()


@dataclass(frozen=True, slots=True)
class Pruned:
    """The outcome of pruning one text: the text to route and how many bytes pruning removed."""

    text: str
    pruned_bytes: int
    removed: int  # values removed (excluded, not included, or empty)
    reason: str


def check_glob(glob: str) -> tuple[str, ...]:
    """The segments of a path glob; ``PathGlobError`` with the fix when it is not a valid one."""
    if not isinstance(glob, str) or not glob.strip():
        raise PathGlobError(f"path glob {glob!r} is empty; write a key path such as 'items.*.node_id'")
    if glob.startswith("$"):
        raise PathGlobError(f"path glob {glob!r} starts with '$'; drop it and write {glob.lstrip('$.')!r}")
    bracket = _BRACKET_INDEX.search(glob)
    if bracket:
        fixed = _BRACKET_INDEX.sub(lambda m: "." + (m.group(1) or "*"), glob).replace("..", ".")
        raise PathGlobError(
            f"path glob {glob!r} uses {bracket.group(0)!r}; array indices are segments: write {fixed!r}"
        )
    segments = tuple(glob.split("."))
    for segment in segments:
        if not segment:
            raise PathGlobError(
                f"path glob {glob!r} has an empty segment; separate keys with single dots ('a.b', '**.id')"
            )
        if DEEP in segment and segment != DEEP:
            fixed = ".".join(_whole_deep(part) for part in segments)
            raise PathGlobError(f"path glob {glob!r}: '**' must be a whole segment (write {fixed!r})")
        if segment.count("[") != segment.count("]"):
            raise PathGlobError(
                f"path glob {glob!r}: '[' in {segment!r} opens a character class that is never closed "
                "(close it, or match the character with '?')"
            )
    return segments


def _whole_deep(segment: str) -> str:
    """The likely intent of a segment with '**' inside it: '**_url' → '**.*_url', 'a**' → 'a*'."""
    if segment == DEEP or DEEP not in segment:
        return segment
    if segment.startswith(DEEP):
        return "**.*" + segment[2:].replace(DEEP, "*")
    return segment.replace(DEEP, "*")


class _Machine:
    """A set of path globs run together: states are (glob, position) pairs."""

    def __init__(self, globs: Iterable[str]) -> None:
        self._globs: list[tuple[str, ...]] = [check_glob(glob) for glob in globs]
        self._matchers: list[list[Callable[[str], bool] | None]] = [
            [None if segment == DEEP else _segment_matcher(segment) for segment in segments]
            for segments in self._globs
        ]
        self.start: State = self._closure((index, 0) for index in range(len(self._globs)))
        self._memo: dict[tuple[State, str], State] = {}

    def __bool__(self) -> bool:
        return bool(self._globs)

    def _closure(self, states: Iterable[tuple[int, int]]) -> State:
        found: set[tuple[int, int]] = set()
        for glob, position in states:
            while True:
                found.add((glob, position))
                segments = self._globs[glob]
                if position < len(segments) and segments[position] == DEEP:
                    position += 1  # '**' may match no segment at all
                else:
                    break
        return frozenset(found)

    def accepts(self, states: State) -> bool:
        return any(position == len(self._globs[glob]) for glob, position in states)

    def step(self, states: State, key: str) -> State:
        if not states:
            return _EMPTY
        memo_key = (states, key)
        known = self._memo.get(memo_key)
        if known is not None:
            return known
        moved: list[tuple[int, int]] = []
        for glob, position in states:
            matchers = self._matchers[glob]
            if position == len(matchers):
                continue
            matcher = matchers[position]
            if matcher is None:
                moved.append((glob, position))  # '**' eats this segment and may eat more
            elif matcher(key):
                moved.append((glob, position + 1))
        result = self._closure(moved) if moved else _EMPTY
        if len(self._memo) >= _MEMO_LIMIT:
            self._memo.clear()
        self._memo[memo_key] = result
        return result


def _segment_matcher(segment: str) -> Callable[[str], bool]:
    if not _MAGIC.search(segment):
        return segment.__eq__
    return re.compile(fnmatch.translate(segment)).match  # type: ignore[return-value]


class _TooDeep(Exception):
    pass


class FieldPruner:
    """Compiled exclude/include path globs and the ``drop_empty`` switch of one tool."""

    def __init__(
        self, *, exclude: Sequence[str] = (), include: Sequence[str] = (), drop_empty: bool = False
    ) -> None:
        self.exclude = tuple(exclude)
        self.include = tuple(include)
        self.drop_empty = drop_empty
        self._exclude = _Machine(self.exclude)
        self._include = _Machine(self.include)

    @property
    def active(self) -> bool:
        return bool(self.exclude or self.include or self.drop_empty)

    def prune_value(self, value: Any) -> tuple[Any, int]:
        """``value`` (parsed JSON) pruned, and how many values were removed (unchanged when too deep)."""
        removed = [0]
        included = not self._include or self._include.accepts(self._include.start)
        try:
            pruned = self._walk(value, self._exclude.start, self._include.start, included, 0, removed)
        except _TooDeep:
            return value, 0
        if pruned is _DROP:  # include mode and nothing matched: an empty container of the same type
            pruned = {} if isinstance(value, dict) else []
        return pruned, removed[0]

    def prune_text(self, text: str) -> Pruned:
        """``text`` pruned when it is a JSON object or array; otherwise ``text`` unchanged."""
        if not self.active:
            return Pruned(text, 0, 0, "no field rules")
        head = text.lstrip()[:1]
        if head not in ("{", "["):
            return Pruned(text, 0, 0, "not a JSON object or array")
        try:
            value = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return Pruned(text, 0, 0, "not valid JSON")
        pruned, removed = self.prune_value(value)
        if not removed:
            return Pruned(text, 0, 0, "no field matched (or nested deeper than MAX_DEPTH)")
        out = _dump_like(pruned, text)
        saved = len(text.encode("utf-8", "surrogatepass")) - len(out.encode("utf-8", "surrogatepass"))
        return Pruned(out, max(0, saved), removed, f"{removed} values pruned")

    def _walk(
        self,
        value: Any,
        excluded: State,
        included_states: State,
        included: bool,
        depth: int,
        removed: list[int],
    ) -> Any:
        if depth > MAX_DEPTH:
            raise _TooDeep
        if isinstance(value, dict):
            items: Iterable[tuple[str, Any]] = value.items()
        elif isinstance(value, list):
            items = ((str(index), item) for index, item in enumerate(value))
        else:
            return value if included else _DROP
        kept: list[tuple[str, Any]] = []
        for key, child in items:
            child_excluded = self._exclude.step(excluded, key)
            if child_excluded and self._exclude.accepts(child_excluded):
                removed[0] += 1
                continue
            child_included = included
            child_states = _EMPTY
            if not included:
                child_states = self._include.step(included_states, key)
                child_included = bool(child_states) and self._include.accepts(child_states)
                if not child_states:
                    removed[0] += 1
                    continue
            result = self._walk(child, child_excluded, child_states, child_included, depth + 1, removed)
            if result is _DROP:
                removed[0] += 1
                continue
            if self.drop_empty and isinstance(value, dict) and _is_empty(result):
                removed[0] += 1
                continue
            kept.append((key, result))
        if not included and not kept:
            return _DROP  # on the way to an include glob, but nothing below matched
        if isinstance(value, dict):
            return dict(kept)
        return [item for _, item in kept]


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str | list | dict) and not value)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _dump_like(value: Any, original: str) -> str:
    """``value`` as JSON laid out like ``original``: the same indentation, or compact separators."""
    options: dict[str, Any] = {"ensure_ascii": False}
    indent = _INDENT.search(original[:4096])
    if indent:
        options["indent"] = indent.group(1)
    elif re.search(r'"\s*:\s', original[:4096]) is None:
        options["separators"] = (",", ":")
    out = json.dumps(value, **options)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates came in as \u escapes: send them out the same way
        out = json.dumps(value, **{**options, "ensure_ascii": True})
    if original.endswith("\n"):
        out += "\n"
    return out
