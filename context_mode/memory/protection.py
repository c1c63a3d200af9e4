"""Which notes are protected (always in the window, never folded), and why.

Contract: ``protection_reason(text, pinned=..., keywords=...)`` returns the first reason that applies,
or ``None``: ``"pinned"``; ``"keyword:<word>"`` when a configured keyword occurs (ASCII keywords as
whole words, allowing a plural or past-tense ending; other keywords such as 记住 as substrings);
``"api-signature"`` when the note states a function, class or HTTP endpoint signature;
``"file-plan"`` when it names a file path together with a plan verb (create, edit, move, ...) or
lists two or more paths as items. The reason is decided once, when the note is appended.
"""

from __future__ import annotations

import re
from functools import lru_cache

from context_mode.memory.summary import PATH_PATTERN

DEFAULT_PROTECTED_KEYWORDS: tuple[str, ...] = (
    "remember",
    "must",
    "never",
    "always",
    "fixed",
    "constraint",
    "decision",
    "decided",
    "记住",
    "务必",
    "禁止",
    "必须",
)

_API_SIGNATURE = re.compile(
    r"^\s*(?:export\s+|pub(?:\(crate\))?\s+)?(?:async\s+)?(?:def|fn|func|function)\s+[A-Za-z_]\w*\s*[(<]"
    r"|^\s*(?:export\s+)?(?:class|interface|struct|trait|protocol)\s+[A-Z]\w*"
    r"|\b[A-Za-z_][\w.]*\([^()\n]*\)\s*(?:->|=>)\s*[\w\[\]<>.,| ]*\w"
    r"|\b[A-Za-z_][\w.]*\([^()\n]*\)\s*:\s*[A-Z][\w\[\]<>.,| ]*$"
    r"|\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+/[\w/{}:.-]*",
    re.MULTILINE,
)
_PLAN_VERB = re.compile(
    r"\b(?:plan|create|creating|add|adding|edit|editing|modify|modifying|update|updating|write|writing|"
    r"change|changing|move|moving|rename|renaming|delete|deleting|remove|removing|refactor|refactoring|"
    r"touch|implement|implementing|split|extract|will|then)\b|->|→|计划|修改|新建|创建",
    re.IGNORECASE,
)
_LISTED_PATH = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+`?(?:[\w.-]+/)*[\w.-]+\.\w+", re.MULTILINE)


@lru_cache(maxsize=32)
def _keyword_pattern(keywords: tuple[str, ...]) -> re.Pattern[str] | None:
    alternatives = []
    for keyword in keywords:
        escaped = re.escape(keyword)
        if keyword.isascii():
            alternatives.append(rf"(?<!\w){escaped}(?:s|es|d|ed)?(?!\w)")
        else:
            alternatives.append(escaped)
    if not alternatives:
        return None
    return re.compile("|".join(f"({alternative})" for alternative in alternatives), re.IGNORECASE)


def protection_reason(text: str, *, pinned: bool, keywords: tuple[str, ...]) -> str | None:
    """The reason ``text`` is protected, or ``None``."""
    if pinned:
        return "pinned"
    pattern = _keyword_pattern(keywords)
    if pattern is not None and (match := pattern.search(text)) is not None:
        assert match.lastindex is not None
        return f"keyword:{keywords[match.lastindex - 1]}"
    if _API_SIGNATURE.search(text):
        return "api-signature"
    paths = PATH_PATTERN.findall(text)
    if paths and (_PLAN_VERB.search(text) or len(_LISTED_PATH.findall(text)) >= 2):
        return "file-plan"
    return None
