"""Changed lines of a diff's code that remark on a change rather than make it: its comments.

``is_comment(line)`` reads a changed line (``+``/``-`` first, or a ``--word-diff`` side whole)
and says whether it is a comment (``# …``, ``// …``, ``/* …``, a block comment's `` * …``, a
docstring's opening quotes). A hunk's first changed lines are what a reviewer reads of it: in
code they start at the first line that makes the change (a setting, a statement), not at the
comment above it. A preprocessor line (``#include``, ``#define``) and a pointer (``*p = 0;``) are
code. Documents are not read this way: a heading (``## 9.0.1``) or a bullet (``* Fixed …``) is
what a changelog or a manual changes.
"""

from __future__ import annotations

import re

from context_mode.summaries.diff_messages import changed_content

_COMMENT = re.compile(r"""#(?:\s|#|\Z)|//|/\*|\*(?:\s|/|\Z)|\"\"\"|'''""")


def is_comment(line: str) -> bool:
    """Whether the changed ``line`` of a source or config file is a comment."""
    side, content = changed_content(line)
    return bool(side) and _COMMENT.match(content.lstrip()) is not None
