"""A JSON-lines log record cut to what it says: its level, message and codes, not its envelope.

Structured loggers (pino, bunyan, PostgreSQL's ``jsonlog``, python-json-logger, Docker's and
Kubernetes' JSON logs) write one JSON object per line, the message late in it: a PostgreSQL
error is 400 characters of timestamp, pid, session, transaction ids and backend type around
``"message":"duplicate key value …","detail":"Key (email)=(…) already exists."``. Cut by its
start and end, such a line shows the envelope and loses the message.

``clip_record(line, width)`` keeps a record's top-level members by what they tell, in their order,
within ``width`` characters: the message's members (``msg``, ``message``, ``error``, ``detail``,
``statement``…) first, then the level's, then codes, names and addresses (``state_code``, ``status``,
``logger``, ``address``), then the time; members not kept are marked by one ``…`` per run, and a member too
long for the room left is cut with ``…`` (a traceback or stack member in its middle: what was
raised is at its end). Every piece between two ``…`` is verbatim, in the line's order. It
returns ``None`` for a line that is not one JSON object of members (the caller cuts it as any
line). Linear in the line; never raises on a ``str``.
"""

from __future__ import annotations

import re

ELLIPSIS = "…"  # as ``packing`` marks a cut

# What a member tells, by its key (lowercased, ``_``/``-``/``.`` removed), most telling first.
_MESSAGE = frozenset(
    "msg message error err errormessage exception exc excinfo detail hint reason event description "
    "statement query cause context stack stacktrace errorstack".split()
)
_LEVEL = frozenset("level lvl severity levelname errorseverity loglevel".split())
_CODE = frozenset(
    "statecode code status statuscode errno errorcode logger name component module caller "
    "method url path service address addr host port".split()
)
# Members holding a traceback or stack: what was raised is at their end
_TRACE = frozenset("exc excinfo exception stack stacktrace errorstack traceback trace".split())
_TIME = frozenset("time timestamp ts asctime datetime date".split())
_KEY = re.compile(r'\s*"((?:[^"\\]|\\.){1,80})"\s*:')
_MIN_CUT = 24  # a member is cut only if this much of it can still be shown
_CUTTABLE = (0, 2)  # the message's members may be cut; a level, code or time is shown whole or not
_TIME_RANK = 4


def clip_record(line: str, width: int) -> str | None:
    """``line``, a JSON object of members, cut to its telling members within ``width`` (see module doc)."""
    text = line.strip()
    spans = _members(text)
    if spans is None or len(spans) < 2:
        return None
    ranks = _ranks([key for key, _, _ in spans])
    kept: dict[int, str] = {}
    for index in sorted(range(len(spans)), key=lambda i: (ranks[i], i)):
        if ranks[index] > _TIME_RANK:
            break
        _, start, stop = spans[index]
        whole = text[start:stop]
        room = width - (len(_render(text, spans, {**kept, index: whole})) - len(whole))
        if len(whole) <= room:
            kept[index] = whole
        elif ranks[index] in _CUTTABLE and room >= _MIN_CUT:
            name = re.sub(r"[_\-.@]", "", spans[index][0].lower())
            if name in _TRACE and room >= 2 * _MIN_CUT:
                # A traceback ends with what was raised: its start and its end, cut in between.
                tail = room // 2
                kept[index] = text[start : start + room - tail - 1] + ELLIPSIS + text[stop - tail : stop]
            else:
                kept[index] = text[start : start + room - 1] + ELLIPSIS
    if not any(ranks[i] == 0 for i in kept):
        return None  # no message to show: the caller's cut keeps the line's start and end
    return _render(text, spans, kept)


def _members(text: str) -> list[tuple[str, int, int]] | None:
    """The top-level members of a one-line JSON object: (key, start, stop) in ``text``, in order."""
    if len(text) < 2 or text[0] != "{" or text[-1] != "}":
        return None
    members: list[tuple[str, int, int]] = []
    position = 1
    end = len(text) - 1
    while position < end:
        match = _KEY.match(text, position)
        if match is None:
            return None
        stop = _value_end(text, match.end(), end)
        if stop is None:
            return None
        start = match.start() + len(match.group()) - len(match.group().lstrip())
        members.append((match.group(1), start, len(text[:stop].rstrip())))
        position = stop + 1  # past the comma (or onto the closing brace)
    return members


def _value_end(text: str, start: int, end: int) -> int | None:
    """Where the value starting at ``start`` ends: the index of the comma after it, or ``end``."""
    depth = 0
    in_string = False
    escaped = False
    for index in range(start, end):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth < 0:
                return None
        elif char == "," and depth == 0:
            return index
    return end if depth == 0 and not in_string else None


def _ranks(keys: list[str]) -> list[int]:
    """Each member's rank: the first message 0, the level 1, more message 2, codes 3, the time 4."""
    ranks: list[int] = []
    for key in keys:
        name = re.sub(r"[_\-.@]", "", key.lower())
        if name in _MESSAGE:
            ranks.append(2 if 0 in ranks else 0)
        elif name in _LEVEL:
            ranks.append(1)
        elif name in _CODE:
            ranks.append(3)
        else:
            ranks.append(_TIME_RANK if name in _TIME else _TIME_RANK + 1)
    return ranks


def _render(text: str, spans: list[tuple[str, int, int]], kept: dict[int, str]) -> str:
    """The kept members (a cut one ends in ``…``): a run of neighbours as the line spells it, with
    ``…`` for each run left out; ``{`` and ``}`` as the line's own ends."""
    out = ""
    previous, previous_stop, after_cut = -1, 0, False
    for index in sorted(kept):
        _, start, stop = spans[index]
        if index == previous + 1 and not after_cut:
            out += text[previous_stop:start]  # the line's own "{" or separator
        elif not after_cut:
            out += ("{" if not out else "") + ELLIPSIS
        out += kept[index]
        previous, previous_stop = index, stop
        # a member cut at its end already ends in "…" (a traceback cut in its middle does not)
        after_cut = len(kept[index]) != stop - start and not kept[index].endswith(text[stop - 1 : stop])
    if previous == len(spans) - 1 and not after_cut:
        return out + text[previous_stop:]
    return out + ("" if after_cut else ELLIPSIS) + "}"
