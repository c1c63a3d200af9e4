"""The payload's last lines, shown below whatever the kind's summariser picked.

Head+tail truncation reaches facts a summary drops at its end: an output's last lines are its
totals, the last record or row of a listing, the last file of a multi-file read, the last entry
of a log, what a command printed last. On ``bench/corpus``, the last 300 bytes of the payloads held
88 of the dev facts stage 1 left out (94 on the holdout).

- ``ending(text, limit)``: the payload's last lines that say something (a letter or a digit: not
  a lone ``}``, ``]``, fence, HTML tag or colour code, which are passed over), each cut to ``ENDING_WIDTH``
  characters (a verbatim prefix ending in ``…``), taken from the last up while they fit ``limit``
  UTF-8 bytes with their line breaks (a line that does not fit ends them: cut shorter, it lost
  facts); none when the tool cut the payload short (its last line says so, ``truncation_note``):
  there the end is where the tool stopped, not the output's.
- ``with_ending(text, budget, summarise)``: ``summarise(budget)`` when it shows those lines (each
  found in its text, without its indentation) already, or its end in its own terms
  (``Extract.ends_shown``: a notebook's last cell, not the metadata below it); else ``summarise``
  of the budget less their bytes, with the lines it still lacks below an ``…`` (with the
  summary's own last lines when they are among the payload's last lines, all in the payload's
  order). At most ``budget`` bytes when ``summarise(n)`` keeps within ``n``: the ending takes at
  most ``ENDING_SHARE`` of it.

``truncation_note(text)``: the payload's last line when it says the content was cut (the fetch
server's ``<error>Content truncated. Call the fetch tool with a start_index of …</error>``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from context_mode.ansi import strip_ansi
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import says_something, size

# 150, 200 and 250 bytes on dev: stage 1 +13, +23, +11 facts (the bytes come out of the kind's
# own summary, which loses some); 300 with lines of brackets counted: +7; 7% and 10% of the
# budget: +14, +11.
ENDING_BYTES = 200
ENDING_WIDTH = 200
ENDING_SHARE = 0.25
_ELISION = "\n…\n"
# A tool's note on its last line that it cut the content, and how to get the rest: the fetch
# server's ``<error>Content truncated. Call the fetch tool with a start_index of 100000 to get
# more content.</error>``, others' "… truncated …" lines.
_TRUNCATED = re.compile(r"(?i)\s*(?:<error>)?[^\n]{0,80}\btruncated\b[^\n]{0,240}\s*\Z")
_MARKUP = re.compile(r"<[^<>\n]*>")  # a line of tags alone (``</script>``) says nothing
_REGION = 40  # the payload's last lines a summary's own last lines are looked for in
_REACH = 64 * 1024  # characters from the end looked through: past that, the lines are long ones


def truncation_note(text: str) -> str | None:
    """The last line of ``text`` when it says the content was cut (``_TRUNCATED``), else None."""
    tail = text[-400:].rstrip()
    cut = tail.rfind("\n")
    if cut < 0 or len(text) <= len(tail):
        return None
    last = tail[cut + 1 :]
    return last.strip() if _TRUNCATED.fullmatch(last) else None


def ending(text: str, limit: int = ENDING_BYTES) -> list[str]:
    """The last lines of ``text`` that say something, first to last, within ``limit`` bytes."""
    if truncation_note(text) is not None:
        return []
    found: list[str] = []
    used = 0
    for line in reversed(text[-_REACH:].rstrip().splitlines()):
        line = line.rstrip()
        if not says_something(_MARKUP.sub("", strip_ansi(line) if "\x1b" in line else line)):
            continue
        if len(line) > ENDING_WIDTH:
            line = line[:ENDING_WIDTH] + "…"
        cost = size(line) + 1
        if used + cost > limit:
            break
        found.append(line)
        used += cost
    return found[::-1]


def with_ending(
    text: str, budget: int, summarise: Callable[[int], Extract], *, first: Extract | None = None
) -> Extract:
    """``summarise``'s extract with the payload's ``ending`` below it (see the module doc);
    ``first``: ``summarise(budget)`` when the caller has made it already."""
    extract = first if first is not None else summarise(budget)
    if extract.ends_shown:
        return extract
    wanted = ending(text, min(ENDING_BYTES, int(budget * ENDING_SHARE)))
    lacking = _lacking(wanted, extract)
    if not lacking:
        return extract
    # The smaller summary may drop an ending line the first one showed (Maven's ``-rf :module``
    # under the line that announces it): what it lacks is looked for again, among all of them, and
    # when that is more than was paid for, the room of them all is paid.
    for paid in (lacking, wanted):
        extract = summarise(budget - _size(paid))
        lacking = _lacking(wanted, extract)
        if _size(lacking) <= _size(paid):
            break
    if not lacking:
        return extract
    # The summary's own last lines, when they are among the payload's last lines, go below the
    # lines it lacks, all in the payload's order (a result set's closing tag, a run's count last).
    shown = extract.text.split("\n")
    while shown and shown[-1] == "…":  # the summary's own mark that it stops short of the end
        shown.pop()
    region = text[-_REACH:].rstrip().splitlines()[-_REGION:]
    order = {line.strip(): at for at, line in enumerate(region)}
    kept = len(shown)
    while kept > 0 and shown[kept - 1].strip() in order:
        kept -= 1
    # (an ending line above those last lines, when they are many short ones, comes first)
    block = _in_payload_order(region, [*shown[kept:], *lacking])
    joint = [] if kept == 0 or shown[kept - 1].startswith("…") else ["…"]  # one elision marker
    return replace(extract, text="\n".join([*shown[:kept], *joint, *block]))


def _in_payload_order(region: list[str], lines: list[str]) -> list[str]:
    """``lines`` (each a region line, stripped, perhaps cut short with ``…``) in the order the
    region holds them, each matched to the latest region line not matched yet: a line said twice
    near the end (pip-compile's ``    # via uvicorn`` under two pins) keeps each of its places."""
    pending = list(lines)
    placed: list[tuple[int, str]] = []
    for at in range(len(region) - 1, -1, -1):
        held = region[at].strip()
        for index in range(len(pending) - 1, -1, -1):  # the last of the lines first
            line = pending[index].strip()
            if held == line or (line.endswith("…") and held.startswith(line[:-1])):
                placed.append((at, pending.pop(index)))
                break
        if not pending:
            break
    return [*pending, *(line for _, line in sorted(placed, key=lambda found: found[0]))]


def _lacking(lines: list[str], extract: Extract) -> list[str]:
    return [line for line in lines if line.strip() not in extract.text]


def _size(lines: list[str]) -> int:
    return size(_ELISION + "\n".join(lines))
