"""A payload inside a tool's own framing lines: what the frame says, and the document inside it.

Some MCP servers wrap what they return in a few lines of their own, which keep the document from
parsing as what it is:

- the fetch server, for a response it cannot turn into Markdown::

      Content type application/json cannot be simplified to markdown, but here is the raw content:
      Contents of http://127.0.0.1:8814/api/packages?section=libs:
      [{"id": 3, …}, …]

- Playwright MCP, around what ``browser_evaluate`` returned::

      ### Result
      {"page": 1, …}

      ### Ran Playwright code
      ```js …```

``unframe(text)`` returns a ``Framed`` (the frame's opening lines, the document, what follows
it) when at most ``HEAD_LINES`` short lines open ``text`` and a JSON document (an object or an
array) follows them, up to a Playwright ``### …`` section heading or the end; else None. The
document is returned as written. ``document_start(text, openers)`` finds where any document
(an HTML page: ``"<"``) starts below such lines. Pure; linear in ``text``; never raises on a ``str``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

HEAD_LINES = 3
_HEAD_WIDTH = 400  # a frame's line is short: a longer one is the document's
_SECTION = re.compile(r"^### [A-Z][\w ]{0,40}$", re.M)


class Framed(NamedTuple):
    head: str  # the frame's opening lines, as sent (no newline at the end)
    body: str  # the document
    tail: str  # what follows the document (Playwright's ``### Ran Playwright code`` section), or ""


def document_start(text: str, openers: str = "{[") -> int | None:
    """Where a document opening with one of ``openers`` starts below at most ``HEAD_LINES`` short
    frame lines (the offset of its first character), or None; 0 is never returned (no frame)."""
    if text.lstrip()[:1] in openers:
        return None
    at = 0
    for _ in range(HEAD_LINES):
        end = text.find("\n", at)
        if end < 0 or end - at > _HEAD_WIDTH:
            return None
        at = end + 1
        if text[at : at + 1] in tuple(openers):
            return at
    return None


def unframe(text: str) -> Framed | None:
    """The frame and the JSON document inside ``text`` (see module doc), or None."""
    at = document_start(text)
    if at is None:
        return None
    head = text[: at - 1]
    section = _SECTION.search(text, at)
    stop = section.start() if section else len(text)
    body = text[at:stop].rstrip()
    if not body or body[-1] not in "}]":
        return None
    return Framed(head, body, text[stop:].strip())
