"""The level words logs write (``ERROR``, ``WARN``, ``INFO`` …) and the severity each stands for.

``LEVELS`` maps an uppercase level word to ``"error"``, ``"warning"`` or ``"info"``: the log
summariser reads a line's declared level by it, and shape detection knows that a line led by
one (``ERROR: …``) is a log line, not a YAML key. ``FINE_RANKS`` orders the "info" words a
service's verbosity chooses among (``summaries.log_levels``: NOTICE above INFO above DEBUG).
``PASSING`` matches a line saying a test passed or started (``--- PASS``, ``=== RUN``, ``… ok``,
pytest's ``PASSED`` and a subtest's ``SUBPASSED(n=3)``, mocha's ``✓``; not a build's ``✓ 423
modules transformed``): it tells no failure, so neither a search's passage nor a log summary's
context around a failure is worth it. ``RAISED_NAME`` matches the line a Python traceback's frames
end with, its exception, whatever the class is called (``StopIteration``, ``DisallowedHost: …``,
``werkzeug.exceptions.NotFound: 404 Not Found``): a dotted name at the line's start, alone or
before a colon (``During handling of the above exception, …`` is none).
Pure data.
"""

from __future__ import annotations

import re

LEVELS: dict[str, str] = {
    **dict.fromkeys(
        ("ERROR", "ERR", "FATAL", "CRITICAL", "CRIT", "SEVERE", "PANIC", "EMERG", "ALERT"), "error"
    ),
    **dict.fromkeys(("WARN", "WARNING"), "warning"),
    **dict.fromkeys(
        ("INFO", "DEBUG", "TRACE", "FINE", "FINER", "FINEST", "NOTICE", "VERBOSE", "CONFIG"), "info"
    ),
}
# The "info" levels a log's verbosity chooses among, lowest first (lowercase, as matched).
FINE_RANKS: dict[str, int] = {"trace": 0, "debug": 0, "verbose": 0, "info": 1, "notice": 2}
PASSING = re.compile(
    r"\s*+(?:=== (?:RUN|PAUSE|CONT|NAME)\b|--- PASS\b|PASS(?:ED)?\b|ok +\S|[✓√](?! ?\d)"
    r"|\S.* \.\.\. ok$|\S.* (?:SUB)?PASSED\b)"
)
RAISED_NAME = re.compile(r"[A-Za-z_][\w.]*(?::|$)")
