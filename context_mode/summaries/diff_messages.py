"""A diff's changed lines that give a user a message: an error raised or a warning given.

``message_end(lines, index)`` reads the changed line at ``index`` (``+``/``-`` first, or a
``--word-diff`` line that is one side whole, ``{+…+}`` or ``[-…-]``) and, when it raises an
error or gives a warning (``raise X(``, ``throw new X(``, ``warnings.warn(``, ``deprecate(``,
``console.warn(``…), returns the index past its message: the line itself when the message starts
on it (``deprecate('… removed in v3. ' +``), else the string lines below it on the same side
(``raise X(`` then ``f"malformed chunk footer: …"``, a deprecation's sentence over three lines).
A call with no string in reach gives none (-1). What a user reads when the code fails or warns is
what a reviewer looks for first in a change to its error handling.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PREFIX = 400
_MESSAGE_LINES = 4  # string lines below a call that are its message, at most
# A call that stops the program with a message or tells the user of something: an error raised,
# thrown or returned, a warning, a deprecation.
_CALL = re.compile(
    r"""(?:\braise \w[\w.]*|\bthrow new \w+|\bnew \w*Error|\berrors\.New|\bfmt\.Errorf|\bpanic!?"""
    r"""|\b(?:\w+\.)*(?:warn|warning|deprecate|deprecated)|\bconsole\.(?:warn|error))\("""
)
_INLINE = re.compile(r"""[^\n]{0,120}?["'`]\w""")  # a message on the call's line
_STRING = re.compile(r"""\s*[fFrRbBuU]{0,2}["'`]""")  # a line that is a string literal (its first part)


def message_end(lines: Sequence[str], index: int) -> int:
    """The index past the message that the changed line at ``index`` raises or warns with
    (``index + 1`` when the message is on the line), or -1 when it gives none."""
    side, content = changed_content(lines[index][:_PREFIX])
    call = _CALL.search(content) if side else None
    if call is None:
        return -1
    if _INLINE.match(content, call.end()):
        return index + 1
    end = index + 1
    while end < len(lines) and end - index <= _MESSAGE_LINES:
        below, text = changed_content(lines[end][:_PREFIX])
        if below != side or not _STRING.match(text):
            break
        end += 1
    return end if end > index + 1 else -1


def changed_content(line: str) -> tuple[str, str]:
    """A changed line's side (``+`` or ``-``) and its content; ``("", "")`` for any other line."""
    if line[:1] in ("+", "-") and not line.startswith(("+++", "---")):
        return line[:1], line[1:]
    whole = line.rstrip()
    for side, opening, closing in (("+", "{+", "+}"), ("-", "[-", "-]")):
        if whole.startswith(opening) and whole.endswith(closing) and whole.count(opening) == 1:
            return side, whole[2:-2]
    return "", ""
