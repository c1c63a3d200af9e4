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

- an HTTP response as ``curl -i`` and HTTPie print it: the status line and the headers (one head
  per redirect with ``curl -iL``), a blank line, then the body;
- an exchange as ``curl -v`` prints it (its standard error before its output): what it does
  (``* Connected to …``), the request (``> GET /api HTTP/1.1``), the response's head (``< HTTP/1.1
  200 OK``, ``< Content-Type: …``) and its data counts (``{ [1340 bytes data]``), the body below,
  and its last lines after it (``* Connection #0 to host … left intact``; or inside it, where
  ``2>&1`` wrote them between two chunks of a long body: they are taken out of it, and follow it);
- a line that names what follows and opens it (Ansible's ad-hoc ``localhost | SUCCESS => {``);
- Chrome DevTools MCP, around what ``evaluate_script`` returned: ``Script ran on page and
  returned:`` and a fence (```` ```json ````), which closes below the document;
- a command's last lines after its JSON (its standard error read with it): pip's ``[notice] A new
  release of pip is available`` lines, gcc's ``compilation terminated.``; no frame opens it.

``unframe(text)`` returns a ``Framed`` (the frame's opening lines, the document, what follows
it) when at most ``HEAD_LINES`` short lines (or an HTTP response's head, ``curl -v``'s lines with a
response's status among them, or a line ending in the document's opening bracket) open ``text``
and a JSON document (an object or an array) follows them, up to a Playwright ``### …`` section
heading, ``curl -v``'s last lines or the end; or when the document opens ``text`` and at most
``HEAD_LINES`` short lines that no JSON document ends with follow it (its head is then blank, its
``joint`` empty); else None. The document is
returned as written; ``shown_head(head)`` is the frame as a summary shows it (an HTTP head's
status lines and the headers that describe the body or the next call, the others counted; of
``curl -v``'s, the request line too).
``document_start(text, openers)`` finds where any document (an HTML page: ``"<"``) starts below
such lines. Pure; linear in ``text``; never raises on a ``str``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

HEAD_LINES = 3
_HEAD_WIDTH = 400  # a frame's line is short: a longer one is the document's
# A line a JSON document may hold or end with: a bracket, a string, a number, a literal, blank
# (not ``[notice]``: a word in brackets).
_LITERAL = r"(?:true|false|null)"
_JSON_LINE = re.compile(rf"\s*(?:[\]{{}}\",\d-]|\[(?:[\s\[\]{{}}\"\d-]|{_LITERAL}|\Z)|{_LITERAL}\b|\Z)")
_SECTION = re.compile(r"^### [A-Z][\w ]{0,40}$", re.M)
# Chrome DevTools MCP's ``evaluate_script``: ``Script ran on page and returned:`` over a fence
_FENCE_OPENS = re.compile(r"(?:\A|\n)```[\w-]*\Z")
_FENCE_CLOSES = re.compile(r"\n```[ \t]*$", re.M)
_HTTP_STATUS = re.compile(r"HTTP/\d(?:\.\d)? \d{3}\b")
_HEAD_END = re.compile(r"\r?\n\r?\n")
_HTTP_HEAD_LINES = 100  # more header lines than this are no response's head
# ``curl -v``'s own lines: ``* Trying …``, ``> GET …``, ``< HTTP/1.1 200 OK``, ``{ [1340 bytes data]``
_VERBOSE = re.compile(r"(?:[*<>] |[<>]\r?$|[{}] \[)")
CURL_STATUS = re.compile(rf"< {_HTTP_STATUS.pattern}")  # ``curl -v``'s response status line
CURL_REQUEST = re.compile(r"> [A-Z]+ \S+ HTTP/\d")  # and its request line
# ``curl -v``'s last lines as ``2>&1`` may write them inside a long body, between two of its
# chunks: ``"version": "1.27* Closing connection 0`` over ``9.0",``
_CURL_INTERLEAVED = re.compile(
    r"\* (?:Closing connection #?\d+|Connection #\d+ to host \S+ left intact)\r?\n"
)
# A first line that opens the document at its end (``localhost | SUCCESS => {``).
_OPENING_LINE = re.compile(rf"[^\n{{\[]{{1,{_HEAD_WIDTH}}}?[ \t]([{{\[])[ \t\r]*\n")
# The headers worth showing over the body: what it is, where the rest is, what a client may do next.
_SHOWN_HEADERS = re.compile(
    r"(?i)(?:content-type|content-range|location|link|retry-after|www-authenticate"
    r"|x-ratelimit-[\w-]+|ratelimit[\w-]*|x-total[\w-]*|x-(?:next-)?page[\w-]*|x-per-page):"
)


class Framed(NamedTuple):
    head: str  # the frame's opening lines, as sent (no newline at the end)
    body: str  # the document
    tail: str  # what follows the document (Playwright's ``### Ran Playwright code`` section), or ""
    joint: str = "\n"  # what stands between the head and the document: " " after ``SUCCESS =>``


def document_start(text: str, openers: str = "{[") -> int | None:
    """Where a document opening with one of ``openers`` starts below at most ``HEAD_LINES`` short
    frame lines (the offset of its first character), or None; 0 is never returned (no frame)."""
    if text.lstrip()[:1] in openers:
        return None
    if _HTTP_STATUS.match(text):
        at = _http_body(text)
        return at if at is not None and text[at : at + 1] in tuple(openers) else None
    if _VERBOSE.match(text):
        at = _verbose_body(text)
        return at if at is not None and text[at : at + 1] in tuple(openers) else None
    opening = _OPENING_LINE.match(text) if "{" in openers else None
    if opening is not None:
        return opening.start(1)
    at = 0
    for _ in range(HEAD_LINES):
        end = text.find("\n", at)
        if end < 0 or end - at > _HEAD_WIDTH:
            return None
        at = end + 1
        if text[at : at + 1] in tuple(openers):
            return at
    return None


def _http_body(text: str) -> int | None:
    """Where the body starts below an HTTP response's head (heads, with ``curl -iL``), or None."""
    at = 0
    while _HTTP_STATUS.match(text, at):
        end = _HEAD_END.search(text, at)
        if end is None or text.count("\n", at, end.start()) > _HTTP_HEAD_LINES:
            return None
        at = end.end()
    return at


def _verbose_body(text: str) -> int | None:
    """Where the body starts below ``curl -v``'s lines (a response's status among them), or None."""
    at = 0
    status = False
    for _ in range(_HTTP_HEAD_LINES):
        if not _VERBOSE.match(text, at):
            return at if status and at < len(text) else None
        status = status or CURL_STATUS.match(text, at) is not None
        end = text.find("\n", at)
        if end < 0:
            return None
        at = end + 1
    return None


def _verbose_tail(text: str, start: int) -> int:
    """Where ``curl -v``'s last lines start below the body that starts at ``start`` (``* Connection
    #0 to host … left intact``), or the end."""
    stop = len(text.rstrip())
    while stop > start:
        line_start = text.rfind("\n", start, stop - 1) + 1
        if line_start <= start or not _VERBOSE.match(text, line_start):
            break
        stop = line_start
    return stop


def shown_head(head: str) -> str:
    """The frame as a summary shows it: as sent, but for an HTTP response's head, its status lines
    and ``_SHOWN_HEADERS``, the other headers counted (of ``curl -v``'s lines, the request line
    too, the others counted)."""
    verbose = _VERBOSE.match(head) is not None
    if not _HTTP_STATUS.match(head) and not verbose:
        return head
    kept: list[str] = []
    left = 0
    for line in head.splitlines():
        line = line.rstrip("\r")
        header = line[2:] if verbose and line.startswith("< ") else line
        if (
            _HTTP_STATUS.match(header)
            or (_SHOWN_HEADERS.match(header) and (not verbose or line.startswith("< ")))
            or (verbose and CURL_REQUEST.match(line))
        ):
            kept.append(line)
        elif line.strip(" <>*"):
            left += 1
    if left:
        kept.append(f"({left} more {'line' if verbose else 'header'}{'' if left == 1 else 's'})")
    return "\n".join(kept)


def unframe(text: str) -> Framed | None:
    """The frame and the JSON document inside ``text`` (see module doc), or None."""
    at = document_start(text)
    if at is None:
        return _trailed(text)
    head = text[: at - 1]
    section = _SECTION.search(text, at)
    stop = section.start() if section else _verbose_tail(text, at) if _VERBOSE.match(text) else len(text)
    if _FENCE_OPENS.search(head):  # a fenced document: it ends at its closing fence
        closing = _FENCE_CLOSES.search(text, at, stop)
        stop = closing.start() + 1 if closing else stop
    body, tail = text[at:stop].rstrip(), text[stop:].strip()
    if _VERBOSE.match(text) and (interleaved := _CURL_INTERLEAVED.findall(body)):
        # curl's standard error line written into its output, as ``2>&1`` interleaves them
        body = _CURL_INTERLEAVED.sub("", body)
        tail = "\n".join([*(line.strip() for line in interleaved), tail]).strip()
    if not body or body[-1] not in "}]":
        return None
    return Framed(head, body, tail, text[at - 1])


def _trailed(text: str) -> Framed | None:
    """A document that opens ``text`` and at most ``HEAD_LINES`` short lines after it that no JSON
    document ends with (pip's ``[notice] A new release of pip is available`` on standard error,
    gcc's ``compilation terminated.``), as a ``Framed`` with no head; else None."""
    start = len(text) - len(text.lstrip())
    if text[start : start + 1] not in ("{", "["):
        return None
    stop = len(text.rstrip())
    for _ in range(HEAD_LINES):
        line_start = text.rfind("\n", start, stop) + 1
        line = text[line_start:stop]
        if line_start <= start or len(line) > _HEAD_WIDTH or _JSON_LINE.match(line):
            return None
        stop = line_start
        while stop > start and text[stop - 1].isspace():  # past blank lines, which no line counts
            stop -= 1
        if text[stop - 1 : stop] in ("}", "]"):
            return Framed(text[:start], text[start:stop], text[stop:].strip(), "")
    return None
