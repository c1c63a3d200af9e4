"""Where a framework's error page holds its traceback as plain text.

A web framework's debug page (Django's technical 500 page, Werkzeug's debugger behind Flask)
renders the traceback as markup (frames in ``<div>``s, library source in ``<pre>`` lines, the
values in tables) and also as plain text for copying: Django's "copy-and-paste view" (a
``<textarea>`` with the environment, the request, the traceback and ``Exception Value: …``),
Werkzeug's ``<textarea>`` and the same traceback in an HTML comment at the page's end. Read as a
page, the markup's table cells and library source crowd out the exception; read as a log, the
plain text shows it as any traceback is shown.

``traceback_block(lines, title)`` is the range of ``lines`` (the page's lines as sent) holding
the last such plain text, on a page whose ``title`` names an exception (``TypeError at
/orders/1/``, ``DoesNotExist at /x/``, ``StopIteration // Werkzeug Debugger``) or a server
error: a page documenting tracebacks (a tutorial's ``<pre>`` examples) is no error page. The
range runs from the line under its opening ``<textarea>``, ``<pre>`` or ``<!--`` (within
``_OPENING_REACH`` lines above the traceback's first line; the opening tag's own line when text
follows the tag on it) to the line before its closing tag (the closing tag's own line when text
comes before it). ``None`` when no line opens a Python traceback. Linear; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_HEADER = "Traceback (most recent call last):"
# A title naming an exception (Django's "<type> at <path>"), a debugger or a server error.
_ERROR_TITLE = re.compile(
    r"^\S+ at /|\b[A-Z]\w*(?:Error|Exception|Iteration|Exit|Interrupt|DoesNotExist)\b|Debugger|Server Error"
)
_OPENING = re.compile(r"<(?:textarea|pre)\b[^>]*>|<!--", re.IGNORECASE)
_CLOSING = re.compile(r"</(?:textarea|pre)>|-->", re.IGNORECASE)
_OPENING_REACH = 40  # lines above the traceback where its block may open (Django's environment)
_BLOCK_REACH = 2000  # lines below it where its block may close


def traceback_block(lines: Sequence[str], title: str) -> range | None:
    """The lines of the page's last plain-text traceback block (module doc), or ``None``."""
    if not _ERROR_TITLE.search(title):
        return None
    header = next((index for index in range(len(lines) - 1, -1, -1) if _HEADER in lines[index]), None)
    if header is None:
        return None
    start = header
    for index in range(header, max(header - _OPENING_REACH, -1), -1):
        opening = _OPENING.search(lines[index])
        if opening is not None:
            start = index if lines[index][opening.end() :].strip() else index + 1
            break
        if index < header and _CLOSING.search(lines[index]):
            break  # a block closed above the traceback: it opens on its own
    stop = min(len(lines), header + _BLOCK_REACH)
    for index in range(header, stop):
        closing = _CLOSING.search(lines[index])
        if closing is not None:
            stop = index + 1 if lines[index][: closing.start()].strip() else index
            break
    return range(start, stop) if stop > start else None
