"""Errors raised by the pure core; each message is one sentence naming the thing and the fix.

    ContextModeError            base of every error raised by ``context_mode``
    └── StoreError              the spill store could not serve the call
        ├── RefNotFound         the caller's fault: a ref or chunk id the store never held
        ├── RefEvicted          the caller's state: the ref was dropped (LRU, age, damage); re-run the tool
        ├── RefPending          still being indexed after the read timeout; retry shortly
        ├── DocumentTooLarge    one payload is bigger than the whole store budget
        ├── StoreLocked         another Store (this or another process) owns the directory
        ├── StoreClosed         the Store was closed; the hub is shutting down
        └── StoreCorrupt        the directory or a stored document failed a consistency check
    └── MemoryInputError        a session-memory call's arguments are at fault (also a ValueError)
        ├── SessionIdError      the session id is not a safe file name
        ├── UnknownSessionError the session was never opened
        └── EntryError          the note is empty or too large
    └── PathGlobError           a field-pruning path glob is malformed (also a ValueError)

Tools translate the ref errors into ``tools.errors.ToolInputError`` with the same message.
"""

from __future__ import annotations


class ContextModeError(Exception):
    """Base of the core's errors; the message says what failed and how to fix it."""


class StoreError(ContextModeError):
    """The spill store could not serve the call."""


class RefNotFound(StoreError):
    """A ref or chunk id that this store never held (or that is malformed)."""


class RefEvicted(StoreError):
    """The ref existed but was dropped (least recently used, too old, or damaged)."""


class RefPending(StoreError):
    """The ref is still being indexed and the read timed out waiting for it."""


class DocumentTooLarge(StoreError):
    """A single payload is larger than the store's whole byte budget."""


class StoreLocked(StoreError):
    """Another Store, in this process or another, owns the store directory."""


class StoreClosed(StoreError):
    """The Store was closed and no longer serves calls."""


class StoreCorrupt(StoreError):
    """The store directory or one stored document failed a consistency check."""


class MemoryInputError(ContextModeError, ValueError):
    """A memory call's arguments are at fault; the message names the value and the fix."""


class SessionIdError(MemoryInputError):
    """The session id is not a safe file name."""


class UnknownSessionError(MemoryInputError):
    """The session was never opened."""


class EntryError(MemoryInputError):
    """The note is empty or too large."""


class PathGlobError(ContextModeError, ValueError):
    """A field-pruning path glob is malformed; the message shows the glob and how to write it."""
