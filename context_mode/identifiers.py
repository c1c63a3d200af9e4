"""Splitting code identifiers into words, so a search for "user by id" finds ``getUserById``.

``split_identifiers(text)`` returns ``text`` with a space inserted at every identifier boundary
and every underscore turned into a space:

    getUserById    -> get User By Id        camelCase
    HTTPResponse   -> HTTP Response         an acronym followed by a word
    snake_case     -> snake case            underscores
    Request2       -> Request 2             letters followed by digits (and digits by letters)
    libsqlite3     -> lib sqlite 3          a C library's ``lib`` before its name and version

Everything else is kept as is. ``identifier_words(text)`` returns only the split words of the
compound identifiers in ``text`` (``getUserById``, ``max_retries``, ``utf8``), which is what the
store indexes next to the plain text: plain words are indexed already; ``escaped_words(text)`` the
words glued to a string's escape (``hook`` of ``"%r\\nhook"``), which a tokenizer reads as ``nhook``
(``ESCAPE`` is that escape, for line matching to skip). All run in linear time
(a few C-level regex passes); case boundaries are ASCII only, other scripts pass through.
"""

from __future__ import annotations

import re

# One simple pass per boundary is several times faster than one pass with four alternatives; each
# inserts a space between two characters, so no pass can hide a boundary from a later one.
_LOWER_UPPER = re.compile(r"(?<=[a-z])(?=[A-Z])")  # getUser -> get User
_ACRONYM_WORD = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")  # HTTPResponse -> HTTP Response
_LETTER_DIGIT = re.compile(r"(?<=[A-Za-z])(?=[0-9])")  # Request2 -> Request 2
_DIGIT_LETTER = re.compile(r"(?<=[0-9])(?=[A-Za-z])")  # 2fa -> 2 fa
# A C library's file or package name: ``lib`` before its name and version (libsqlite3 -> lib sqlite3).
_LIBRARY = re.compile(r"(?<=\blib)(?=[a-z]{2,}[0-9])")
_WORDLIKE = re.compile(r"[A-Za-z0-9_]{2,}")
# A string's escape right before a word (``\nhook``, ``\tname`` in JSON or in code): no part of it.
ESCAPE = re.compile(r"\\[nrt](?=[A-Za-z])")
_ESCAPED_WORD = re.compile(r"\\[nrt]([A-Za-z][A-Za-z0-9]+)")


def split_identifiers(text: str) -> str:
    """Return ``text`` with camelCase, acronym, digit and snake_case boundaries turned into spaces."""
    text = text.replace("_", " ")
    for boundary in (_LIBRARY, _LOWER_UPPER, _ACRONYM_WORD, _LETTER_DIGIT, _DIGIT_LETTER):
        text = boundary.sub(" ", text)
    return text


def escaped_words(text: str) -> str:
    """The words right after a string's escape in ``text`` (``historic`` of ``\\nhistoric``), which
    a tokenizer reads glued to the escape's letter; space-separated."""
    return " ".join(_ESCAPED_WORD.findall(text))


def identifier_words(text: str) -> str:
    """The words inside the compound identifiers of ``text``, space-separated, identifier by identifier."""
    compound = [
        word
        for word in _WORDLIKE.findall(text)
        if not word.isdigit()
        and ("_" in word or not word.isalpha() or not (word.islower() or word.isupper() or word.istitle()))
    ]
    return split_identifiers(" ".join(compound))
