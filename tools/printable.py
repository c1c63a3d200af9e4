"""Names shown to the agent, made safe to print: a file name cannot forge a line of a tool's answer.

Contract: ``printable(text)`` returns ``text`` with every control or format character escaped the
way ``repr`` writes it (``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u2028``, ``\\u202e``…) and
everything else unchanged, so an ordinary name prints as itself and no name can start a new
line, move the cursor or reorder the text around it. Used for every name the hub echoes: file
paths and titles in ``doc_ingest``/``doc_list``/``doc_window``/``doc_search``, server errors in
``hub_status``.
"""

from __future__ import annotations

import re
import unicodedata

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """``text`` with control, line-separator and bidi characters escaped (linear time)."""
    if _UNSAFE.search(text) is None and text.isprintable():
        return text
    return "".join(_escape(char) for char in text)


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    if _UNSAFE.match(char) or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn"):
        code = ord(char)
        if code < 0x100:
            return f"\\x{code:02x}"
        return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
    return char
