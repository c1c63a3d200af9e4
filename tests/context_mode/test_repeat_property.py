"""Property: what a session is told about a read is what the server returned for it at that moment.

A fake stateful server (files that reads return and writes or outside edits change) behind the
core's repeat logic, driven exactly as ``hub.serve.service`` drives it: ``lookup`` when a read is
sent, ``invalidate`` before a write is sent and when it returns, then for a read's answer
``compare`` (``Unchanged`` -> a pointer to the previous ref, ``Changed`` -> a delta against it,
``None`` -> the full result under a new ref) and ``settle``. Reads may be in flight across writes,
the store may evict refs, and two sessions share everything but what they were shown.

For every answer, the session's view rebuilt from it (the full text, the stored text of the ref a
pointer names, or the delta applied to the stored text of the previous ref) must equal what the
server returned for that read, and a pointer or delta may only name a ref that session was shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.cache import CachedResult, Changed, Lookup, ResultCache, Unchanged, call_key
from context_mode.delta import apply_json, apply_lines, digest

PATHS = ("log", "status")
LINE = st.sampled_from(["ok", "M a.py", "?? b.py", "ERROR x", "{", "}", ""])
FIRST = "".join(f"line {number}: started\n" for number in range(40))


@dataclass
class World:
    files: dict[str, str] = field(default_factory=lambda: dict.fromkeys(PATHS, FIRST))
    stored: dict[str, str] = field(default_factory=dict)  # ref -> full text (the store)
    evicted: set[str] = field(default_factory=set)
    shown: dict[int, set[str]] = field(default_factory=lambda: {0: set(), 1: set()})
    in_flight: list[tuple[int, Lookup, str]] = field(default_factory=list)  # session, lookup, server's text
    clock: list[float] = field(default_factory=lambda: [0.0])

    def holds(self, ref: str) -> bool:
        return ref in self.stored and ref not in self.evicted


def answer(world: World, cache: ResultCache, session: int, lookup: Lookup, text: str) -> None:
    """The hub's answer to a read whose server result is ``text``; checks what the session learns."""
    verdict = cache.compare(lookup, digest=digest(text), text=text, max_delta_bytes=4096, holds=world.holds)
    match verdict:
        case Unchanged(previous):
            assert previous.ref is not None and previous.ref in world.shown[session]
            assert world.holds(previous.ref)
            assert world.stored[previous.ref] == text
            cache.settle(lookup, previous, text=cache.text(lookup.key))
            return
        case Changed(previous, delta):
            assert previous.ref is not None and previous.ref in world.shown[session]
            before = world.stored[previous.ref]
            if delta.kind == "lines":
                assert apply_lines(before, delta.text) == text
            else:
                rebuilt = apply_json(json.loads(before), delta.text)
                assert json.dumps(rebuilt, sort_keys=True) == json.dumps(json.loads(text), sort_keys=True)
        case None:
            pass  # the full result: the session sees exactly what the server returned
    ref = f"r_{len(world.stored)}"
    world.stored[ref] = text
    world.shown[session].add(ref)
    entry = CachedResult(
        tool="ws__read",
        namespace="ws",
        ref=ref,
        stage1="",
        mode="summary",
        original_bytes=len(text),
        created=world.clock[0],
        digest=digest(text),
    )
    cache.settle(lookup, entry, text=text)


STEPS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "read": st.tuples(st.just("read"), st.integers(0, 1), st.sampled_from(PATHS)),
    "start": st.tuples(st.just("start"), st.integers(0, 1), st.sampled_from(PATHS)),
    "finish": st.tuples(st.just("finish"), st.integers(0, 5)),
    "append": st.tuples(st.just("append"), st.sampled_from(PATHS), st.lists(LINE, min_size=1, max_size=3)),
    "edit": st.tuples(st.just("edit"), st.sampled_from(PATHS), st.integers(0, 30), LINE),
    "json": st.tuples(st.just("json"), st.sampled_from(PATHS), st.integers(0, 30), LINE),
    "write": st.tuples(st.just("write"), st.sampled_from(PATHS), st.lists(LINE, max_size=3), st.booleans()),
    "evict": st.tuples(st.just("evict"), st.integers(0, 40)),
    "wait": st.tuples(st.just("wait"), st.floats(0, 200)),
}
KINDS = ["read"] * 5 + ["append", "edit", "json"] * 2 + ["start", "finish", "write", "evict", "wait"]
OPERATIONS = st.lists(st.sampled_from(KINDS).flatmap(STEPS.__getitem__), max_size=50)


@settings(max_examples=300)
@given(OPERATIONS)
def test_a_session_is_only_told_what_the_server_returned(operations: list[tuple[Any, ...]]) -> None:
    world = World()
    cache = ResultCache(ttl=300, maxsize=8, clock=lambda: world.clock[0])

    def lookup(session: int, path: str) -> Lookup:
        key = call_key("ws__read", {"path": path}, session=f"s{session}")
        return cache.lookup(key, "ws", holds=world.holds)

    for operation in operations:
        match operation:
            case ("read", session, path):
                answer(world, cache, session, lookup(session, path), world.files[path])
            case ("start", session, path):  # sent; the server answers now, the hub hears it later
                world.in_flight.append((session, lookup(session, path), world.files[path]))
            case ("finish", index) if world.in_flight:
                session, pending, text = world.in_flight.pop(index % len(world.in_flight))
                answer(world, cache, session, pending, text)
            case ("append", path, lines):  # an outside change (the agent's own editor, a build)
                world.files[path] += "".join(line + "\n" for line in lines)
            case ("edit", path, number, line):
                pieces = world.files[path].split("\n")
                pieces[number % len(pieces)] = line
                world.files[path] = "\n".join(pieces)
            case ("json", path, number, line):  # an outside change to a JSON document
                try:
                    document = json.loads(world.files[path])
                except ValueError:
                    document = None
                if not isinstance(document, dict) or len(document.get("lines", [])) < 30:
                    document = {"lines": [f"entry {index}" for index in range(30)], "total": 30}
                document["lines"][number % 30] = line
                world.files[path] = json.dumps(document)
            case ("write", path, lines, as_json):  # a write through the hub
                cache.invalidate("ws")
                world.files[path] = json.dumps({"lines": lines}) if as_json else "\n".join(lines)
                cache.invalidate("ws")
            case ("evict", number) if world.stored:
                world.evicted.add(f"r_{number % len(world.stored)}")
            case ("wait", seconds):
                world.clock[0] += seconds
    for session, pending, text in world.in_flight:
        answer(world, cache, session, pending, text)
