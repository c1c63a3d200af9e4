"""The answer to a call of a tool the hub does not expose: the closest exposed names, and where to list them.

Contract: ``unknown_tool_message(name, exposed)`` is one sentence naming ``name``, up to
``MAX_SUGGESTIONS`` exposed names it most likely meant (first those whose tool part, after the
``<namespace>__`` prefix, is ``name`` itself; then the closest by spelling, prefixed or not), and
``ctxhub tools`` / ``tools/list`` as the way to see them all.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

MAX_SUGGESTIONS = 3


def unknown_tool_message(name: str, exposed: Iterable[str]) -> str:
    names = sorted(set(exposed))
    bare = {candidate: candidate.split("__", 1)[-1] for candidate in names}
    chosen = [candidate for candidate in names if bare[candidate] == name and candidate != name]
    by_tool = difflib.get_close_matches(
        name.split("__", 1)[-1], list(bare.values()), n=MAX_SUGGESTIONS, cutoff=0.7
    )
    chosen += [candidate for tool in by_tool for candidate in names if bare[candidate] == tool]
    chosen += difflib.get_close_matches(name, names, n=MAX_SUGGESTIONS, cutoff=0.6)
    suggestions = list(dict.fromkeys(chosen))[:MAX_SUGGESTIONS]
    hint = f"did you mean {' or '.join(repr(item) for item in suggestions)}? " if suggestions else ""
    return (
        f"ctxhub has no tool named {name!r}; {hint}exposed names are '<server>__<tool>': "
        "run `ctxhub tools` to see them all (or list the tools again)"
    )
