"""A log's raised lines: those declaring a level above the level most of its lines declare.

A service run at debug verbosity writes hundreds of ``DEBUG`` lines; its few ``INFO`` ones are
what happened (``passwd-file(bob,…): Password mismatch``, ``Logged out in=80 … expunged=1``). A
server logging at info marks its events ``NOTICE`` (fail2ban's ``[sshd] Ban 127.0.0.41``).
``raised_lines(lines, groups)`` finds them: each line's first declared fine level (``TRACE``/``DEBUG``,
``INFO``, ``NOTICE``: an uppercase word, a capitalised one before a colon as Dovecot writes
``Info:``, a bracketed lowercase one as nginx writes ``[notice]``, or a ``level=`` key) in its
first ``_REACH`` characters; the level most lines declare is the bulk; the lines above it are
raised. Warnings and errors are not fine levels (the log summariser has them already). A log with
fewer than ``_MIN_LEVELED`` lines declaring a fine level has none. The regex names no digit, so
one sample line per ``LineGroups`` key is searched and its verdict holds for the key's lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.levels import FINE_RANKS
from context_mode.line_groups import LineGroups

_REACH = 120
_MIN_LEVELED = 20
_FINE = re.compile(
    r"\b(TRACE|DEBUG|INFO|NOTICE|VERBOSE)\b|\b(Trace|Debug|Info|Notice):"
    r"|\[(trace|debug|info|notice)\]|\blevel[=:]\s*\"?(trace|debug|info|notice)\b"
)


def raised_lines(lines: Sequence[str], groups: LineGroups) -> dict[int, int]:
    """The lines whose fine level is above the bulk's (see the module doc), in order: by index,
    how many levels above it (1 or 2). ``groups`` are ``lines`` grouped by key."""
    by_key: dict[str, int] = {}
    for key, sample in groups.samples.items():
        found = _FINE.search(lines[sample], 0, _REACH)
        if found is not None:
            by_key[key] = FINE_RANKS[next(word for word in found.groups() if word).lower()]
    if sum(groups.sizes[key] for key in by_key) < _MIN_LEVELED:
        return {}
    levels: Counter[int] = Counter()
    for key, rank in by_key.items():
        levels[rank] += groups.sizes[key]
    bulk = levels.most_common(1)[0][0]
    raised = {key: rank - bulk for key, rank in by_key.items() if rank > bulk}
    return {index: raised[groups.keys[index]] for index in groups.members(set(raised))}
