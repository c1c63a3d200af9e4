"""The ``memory:`` settings of session and project memory, checked when they are built.

``MemoryPolicy`` raises ``ValueError`` naming the ``memory.<key>`` and its bound, so a bad config
fails at start-up. ``checked_note`` and ``check_scope`` check a call's note and scope (raising
``EntryError`` / ``MemoryInputError``); ``promotes`` says whether a note joins project memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from context_mode.errors import EntryError, MemoryInputError
from context_mode.memory.protection import DEFAULT_PROTECTED_KEYWORDS

PROMOTE_CHOICES = ("protected", "pinned", "none")
SCOPES = ("session", "project")


@dataclass(frozen=True, slots=True)
class MemoryPolicy:
    """The ``memory:`` settings; each bound is checked here so a bad config fails early."""

    budget: int = 4000  # tokens a context_get snapshot may use
    window: int = 20  # most recent live entries in a snapshot
    max_protected: int = 10
    protected_keywords: tuple[str, ...] = DEFAULT_PROTECTED_KEYWORDS
    compact_keep: int = 5  # most recent live entries a compaction leaves alone
    summary_tokens: int = 600  # the most a compaction summary may use
    summary_ratio: float = 0.35  # ... and at most this share of the notes it folds
    max_entry_chars: int = 20_000
    project_budget: int = 600  # tokens of the From-earlier-sessions block on open
    promote: str = "protected"  # which notes join project memory without scope="project"

    def __post_init__(self) -> None:
        if self.promote not in PROMOTE_CHOICES:
            raise ValueError(
                f"memory.promote must be one of {', '.join(PROMOTE_CHOICES)}, got {self.promote!r}"
            )
        checks = {
            "project_budget": (self.project_budget, 50),
            "budget": (self.budget, 100),
            "window": (self.window, 1),
            "max_protected": (self.max_protected, 0),
            "compact_keep": (self.compact_keep, 0),
            "summary_tokens": (self.summary_tokens, 50),
            "max_entry_chars": (self.max_entry_chars, 100),
        }
        for name, (value, least) in checks.items():
            if value < least:
                raise ValueError(f"memory.{name} must be at least {least}, got {value}")
        if not 0.05 <= self.summary_ratio <= 1.0:
            raise ValueError(f"memory.summary_ratio must be between 0.05 and 1, got {self.summary_ratio}")
        if any(not keyword.strip() for keyword in self.protected_keywords):
            raise ValueError("memory.protected_keywords must not contain empty keywords")


def promotes(policy: MemoryPolicy, reason: str | None, *, pinned: bool, scope: str) -> bool:
    """Whether a note with this protection ``reason`` goes to project memory."""
    if scope == "project":
        return True
    match policy.promote:
        case "protected":
            return reason is not None
        case "pinned":
            return pinned
        case _:
            return False


def check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise MemoryInputError(f"scope must be 'session' or 'project', got {scope!r}")


def checked_note(text: str, policy: MemoryPolicy) -> str:
    """The note as it will be kept: stripped, with lone surrogates replaced; empty or too long raise."""
    # Lone surrogates (possible in JSON strings) cannot be stored as UTF-8: replace them.
    text = text.encode("utf-8", "replace").decode("utf-8").strip()
    if not text:
        raise EntryError("the note is empty (pass the text to remember)")
    if len(text) > policy.max_entry_chars:
        raise EntryError(
            f"the note has {len(text):,} characters, over memory.max_entry_chars "
            f"({policy.max_entry_chars:,}): save the decision and a file path, not the whole output"
        )
    return text
