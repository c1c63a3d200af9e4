"""ANSI escape sequences (terminal colours, OSC hyperlinks) as CI and test runners print them.

``strip_ansi(text)`` is ``text`` without them: what detection, matching and indexing read, so that
``\\x1b[22mlazy`` is the word ``lazy`` and not ``22mlazy``. What is shown stays as sent. Pure.
"""

from __future__ import annotations

import re

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\n]*\x07")


def strip_ansi(text: str) -> str:
    """``text`` without ANSI escape sequences (unchanged, and not copied, when it holds none)."""
    return ANSI.sub("", text) if "\x1b" in text else text
