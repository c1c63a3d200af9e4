"""Secrets found by their name rather than their shape: ``*_TOKEN=``, ``AccountKey=``, ``--password X``.

``mask_named(text, masked)`` is the last step of ``mask_secrets`` (before URL passwords) and
returns ``text`` with three more kinds of value masked, each by a rule, not a list of vendors:

- **a secret-named key assigned a high-entropy value**: an identifier ending in ``token``,
  ``key``, ``sessionid``/``session_id`` or ``session`` (``GITHUB_TOKEN``, ``VAULT_TOKEN``,
  ``CI_JOB_TOKEN``, ``"token"``, ``AccountKey``, ``Cookie: sessionid=…``) followed by ``=``,
  ``:``, ``:=`` or ``=>`` and a value that ``high_entropy`` accepts. The key must end at a word
  boundary and start one (``_TOKEN``, ``Token`` in camel case, or the whole word), so ``monkey``
  and ``tokenizer`` are not keys. A ``…key`` value made of hex digits only is left alone (cache
  keys and digests are hex; a token named ``…token`` may be hex, like old GitHub tokens);
- **a URL's user part that is a high-entropy token** (``https://<key>@o1.ingest.sentry.io/2``,
  ``https://<token>@github.com/…``): the user part is masked;
- **a password flag and its value** (``--password X``, ``--passwd``, ``--token``, ``--secret``,
  ``--api-key``, ``--client-secret``…, separated by blanks; ``--password=X`` is an assignment,
  masked before): the value unless it is a placeholder, a metavariable (``PASSWORD``,
  ``<pw>``), an environment reference or one lower-case word (help text: ``--password file``).

``high_entropy(value)``: 16 to ``MAX_VALUE`` characters from ``[A-Za-z0-9+/=_.~-]``, a letter and
a digit, at least 10 distinct characters, a Shannon entropy of at least 85 % of the most its
length and alphabet allow, and a character class change (lower/upper/digit/other) at 30 % of its
positions or more: random tokens pass (about 0.9 and 0.5), paths, words with separators, dates
and versions do not; nor do slugs, three or more words or numbers joined by separators (an SPDX
id as a ``license_key``'s value: ``AGPL-1.0-or-later``). Every search is a literal-led regex or
``bytes.find``; a key found inside the value just looked at is skipped, so the whole step is
linear.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable

from context_mode.secrets.edits import Edit, splice
from context_mode.secrets.patterns import ASSIGNED, MAX_VALUE, NAMED_WORDS, PLACEHOLDER, finditer

Masker = Callable[[str], str]

_TOKENISH = re.compile(r"[A-Za-z0-9+/=_.~-]+")
_HEX = re.compile(r"[0-9a-fA-F]+")
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")
_CLASSES = str.maketrans(
    {
        **dict.fromkeys(map(ord, "abcdefghijklmnopqrstuvwxyz"), "a"),
        **dict.fromkeys(map(ord, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "A"),
        **dict.fromkeys(map(ord, "0123456789"), "0"),
        **dict.fromkeys(map(ord, "+/=_.~-"), "."),
    }
)
_CLASS_RUN = re.compile(r"a+|A+|0+|\.+")
_SEPARATED = re.compile(r"[-._/~+=]")
_SLUG_PIECE = re.compile(r"[a-z]+|[A-Z]+|(?:[A-Z][a-z]+)+|[0-9]+")
_URL_USER = re.compile(r"://(?P<value>[A-Za-z0-9_.~+-]{16,256})@(?=[A-Za-z0-9])")
_FLAG = re.compile(
    r"--(?:password|passwd|pass|token|secret|api-key|apikey|access-token|auth-token|client-secret)"
    rf"[ \t]{{1,8}}(?:(?P<quote>[\"'])(?P<quoted>[^\"'\r\n]{{1,{MAX_VALUE}}})(?P=quote)"
    rf"|(?P<bare>[^\s\"'`;&|<>(){{}}\[\]]{{1,{MAX_VALUE}}}))"
)
_METAVAR = re.compile(r"[A-Z][A-Z0-9_-]*|<[^>]*>|\[[^\]]*\]|\$\{?\w+\}?|[a-z]+|-.*")
_IDENTIFIER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def mask_named(text: str, masked: Masker, places: list[tuple[int, int]] | None = None) -> str:
    """``text`` with the values of secret-named keys, token URL users and password flags masked.

    ``places`` are the (start, index) of each ``NAMED_WORDS`` word in ``text`` in any case, in
    order, when the caller has them (``masking``'s survey); else they are looked for here.
    """
    text = splice(text, _named_values(text, _key_places(text) if places is None else places, masked))
    if "@" in text and "://" in text:  # "@" first: one memchr
        text = splice(text, _url_users(text, masked))
    text = splice(text, _flags(text, masked))
    return text


def high_entropy(value: str, *, hex_allowed: bool = True) -> bool:
    """Whether ``value`` reads as a random token (see the module docstring for the measure)."""
    size = len(value)
    if not 16 <= size <= MAX_VALUE or _TOKENISH.fullmatch(value) is None:
        return False
    if _DIGIT.search(value) is None or _LETTER.search(value) is None:
        return False
    is_hex = _HEX.fullmatch(value) is not None
    if is_hex and not hex_allowed:
        return False
    counts = Counter(value)
    if len(counts) < 10:
        return False
    entropy = -sum(n / size * math.log2(n / size) for n in counts.values())
    if entropy < 0.85 * math.log2(min(size, 16 if is_hex else 64)):
        return False
    changes = len(_CLASS_RUN.findall(value.translate(_CLASSES))) - 1
    return changes >= 0.3 * (size - 1) and not _is_slug(value)


def _is_slug(value: str) -> bool:
    """Whether ``value`` is words and numbers joined by separators (an SPDX id ``AGPL-1.0-or-later``,
    ``LicenseRef-scancode-gnu-emacs-gpl-1985``, ``copyleft-next-0.3.0``): three pieces or more,
    each a word in one case (or capitalised words run together) or digits. A token's pieces mix
    letters and digits, or cases at random (``IYVmOZzffvinsRoU.19``)."""
    pieces = _SEPARATED.split(value)
    return len(pieces) >= 3 and all(_SLUG_PIECE.fullmatch(piece) for piece in pieces)


def _key_places(text: str) -> list[tuple[int, int]]:
    """(start, index) of each ``NAMED_WORDS`` word in any case, in text order (``bytes.find`` passes)."""
    lowered = text.encode("ascii", "replace").lower()  # one byte per char: positions match
    places: list[tuple[int, int]] = []
    for index, (word, _) in enumerate(NAMED_WORDS):
        needle = word.encode()
        position = lowered.find(needle)
        while position >= 0:
            places.append((position, index))
            position = lowered.find(needle, position + len(needle))
    places.sort()
    return places


def _named_values(text: str, places: list[tuple[int, int]], masked: Masker) -> Iterable[Edit]:
    looked_until = 0
    for start, index in places:
        if start < looked_until:
            continue  # inside the value just looked at: not a key
        word, kind = NAMED_WORDS[index]
        end = start + len(word)
        if kind == "session":  # session, sessionid, session_id
            for tail in ("id", "_id", "ID", "_ID", "Id"):
                if text.startswith(tail, end):
                    end += len(tail)
                    break
        if end < len(text) and text[end] in _IDENTIFIER:
            continue  # "tokenizer", "keys", "session_start"
        if not _starts_a_word(text, start):
            continue  # "monkey", "mytoken"
        match = ASSIGNED.match(text, end)
        if match is None:
            continue
        group = "quoted" if match.group("quoted") is not None else "bare"
        looked_until = match.end()
        value = match.group(group)
        if high_entropy(value.strip(), hex_allowed=kind != "secret"):
            yield match.start(group), match.end(group), masked(kind)


def _starts_a_word(text: str, start: int) -> bool:
    """Whether the key at ``start`` begins a word: the text's start, after a non-letter, or camel case."""
    if start == 0:
        return True
    before = text[start - 1]
    if not before.isalnum():
        return True
    return text[start].isupper() and (before.islower() or before.isdigit())  # AccountKey, accessToken


def _url_users(text: str, masked: Masker) -> Iterable[Edit]:
    for match in _URL_USER.finditer(text):
        if high_entropy(match.group("value")):
            yield match.start("value"), match.end("value"), masked("url-token")


def _flags(text: str, masked: Masker) -> Iterable[Edit]:
    for match in finditer(_FLAG, text):
        if match.start() and text[match.start() - 1] not in " \t\"'=(":
            continue  # not a flag of its own ("x--token y")
        quoted = match.group("quoted") is not None
        value = match.group("quoted" if quoted else "bare")
        if len(value.strip()) < 4 or PLACEHOLDER.fullmatch(value.strip()):
            continue
        if not quoted and _METAVAR.fullmatch(value):
            continue
        group = "quoted" if quoted else "bare"
        yield match.start(group), match.end(group), masked("password")
