"""The patterns ``context_mode.secrets`` masks with, and the scans that find where they can match.

The shapes, keys and value checks say what a secret is (see ``context_mode.secrets``). ``SCANS``
says where to look: a handful of literal-led byte searches, each finding the literals of several
steps at once, so that ordinary text costs about one C-level pass per scan. A scan runs over the
text's ASCII bytes (one byte per char, so positions match; a non-ASCII char becomes ``?``, which
no literal holds) or over their lower-cased copy; a named group says which step a hit is for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import AnyStr

MAX_VALUE = 512  # characters of one assigned value that are looked at
MIN_VALUE = 4

WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
TOKEN_CHARS = WORD | {"_", "-"}

Shape = tuple[str, re.Pattern[str], frozenset[str], int]
# (kind, pattern starting with a literal, characters that must not come just before a match, and
# the shortest run of ``TOKEN_CHARS`` a match is: 0 for shapes holding other chars, see
# ``_mask_in_runs``). Shapes apply in this order, each to the text the previous ones left.
SHAPES: tuple[Shape, ...] = (
    ("aws-access-key-id", re.compile(r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Z0-9])"), WORD, 20),
    ("github-token", re.compile(r"gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])"), TOKEN_CHARS, 40),
    ("github-token", re.compile(r"github_pat_[A-Za-z0-9_]{22,244}(?![A-Za-z0-9_])"), TOKEN_CHARS, 33),
    ("gitlab-token", re.compile(r"glpat-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])"), TOKEN_CHARS, 26),
    # Short enough (15) to match common identifiers' runs: one whole-text scan is cheaper.
    ("slack-token", re.compile(r"xox[baprs]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9-])"), TOKEN_CHARS, 0),
    (
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{16,32}"),
        frozenset(),
        0,
    ),
    ("google-api-key", re.compile(r"AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"), TOKEN_CHARS, 39),
    ("stripe-key", re.compile(r"[sr]k_(?:live|test)_[0-9A-Za-z]{16,247}(?![A-Za-z0-9_])"), TOKEN_CHARS, 24),
    ("api-key", re.compile(r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,250}(?![A-Za-z0-9_-])"), TOKEN_CHARS, 35),
    ("huggingface-token", re.compile(r"hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9_])"), TOKEN_CHARS, 37),
    ("npm-token", re.compile(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])"), TOKEN_CHARS, 40),
    ("pypi-token", re.compile(r"pypi-AgE[A-Za-z0-9_-]{50,250}(?![A-Za-z0-9_-])"), TOKEN_CHARS, 58),
    (
        "jwt",
        re.compile(
            r"eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,1024}(?![A-Za-z0-9_-])"
        ),
        TOKEN_CHARS,
        0,
    ),
)
# Shapes without a literal prefix scan slowly (about 3 ms/MB): over the whole text they run only
# where this finds a substring every match of theirs contains.
SHAPE_PREFILTER: dict[str, re.Pattern[str]] = {"stripe-key": re.compile(r"k_(?:live|test)_")}
# Chars every match of a whole-text shape holds: one missing from the text skips its scan.
SHAPE_CHARS = {"slack-token": "xox-", "slack-webhook": "https://hooks.slack.com/services/TB", "jwt": "eyJ."}

# Password-like keys, searched in the lower-cased text; at one place the first listed key wins.
KEYS = (
    "aws_secret_access_key secret_access_key client_secret client-secret secret_key secret-key "
    "password passwd passphrase pwd secret api_key api-key apikey access_token access-token "
    "auth_token auth-token refresh_token private_key private-key"
).split()
KEY_BYTES = tuple(key.encode() for key in KEYS)
# The keys found by the "ken" and "key" hits of the "k" scan (the others by "secret", ...).
_TOKEN_KEYS = [key for key in KEYS if key.endswith("token")]
_KEY_KEYS = [key for key in KEYS if key.startswith(("api", "private"))]

# The words ``secrets.named`` looks for in any case (a key ending in one), each with its kind, and
# the hits that find them (the "k" scan's "ken" after "to" and every "key", the "se" scan's
# "session"): a hit's text -> (its offset in the word, the word's index). A "key" or "ken" hit is
# also a ``KEYS`` hit only when its empty group (a look-behind for those keys) took part.
NAMED_WORDS = (("token", "token"), ("key", "secret"), ("session", "session"))
NAMED_PARTS: dict[bytes, tuple[int, int]] = {b"ken": (2, 0), b"key": (0, 1), b"session": (0, 2)}

# Each scan: a bytes pattern, whether it searches the lower-cased bytes, and chars every hit holds
# (one missing from the text skips the scan). ``HITS`` says what a hit's text is for: the index of
# a shape in ``SHAPES`` (a literal every match of it holds and no mask does: masks are
# ``[secret:<kind>]``; lower-cased scans and the look-aheads only find a superset of its places),
# ``key`` (a part of some ``KEYS``, see ``KEY_PARTS``, or of a ``NAMED_WORDS`` word, see
# ``NAMED_PARTS``), ``pem`` (maybe a PEM block), ``authorization`` (7 chars into it) or ``bearer``.
# A first char that is rare, with a look-behind after it, searches fastest; groups and
# alternations that share no first char slow it down.
SCANS: tuple[tuple[re.Pattern[bytes], bool, bytes], ...] = (
    (
        re.compile(
            rb"p(?:ass(?:word|wd|phrase)|wd|rivate key|at-(?<=glpat-)(?=[a-z0-9_-]{20})"
            rb"|m_(?<=npm_)(?=[a-z0-9]{36})|ypi-age(?=[a-z0-9_-]{50}))"
        ),
        True,
        b"p",
    ),
    (re.compile(rb"se(?:cret|ssion)"), True, b"se"),
    (
        re.compile(
            rb"k(?:e(?:y(?P<key>"
            + "|".join(f"(?<={key})" for key in _KEY_KEYS).encode()
            + rb")?|n(?<=token)(?P<token>"
            + "|".join(f"(?<={key})" for key in _TOKEN_KEYS).encode()
            + rb")?)|_(?:live|test)_(?=[a-z0-9]{16})|-(?<=sk-)(?=[a-z0-9_-]{32})"
            rb"|(?<=https://hook)s\.slack\.com/services/t)"
        ),
        True,
        b"k",
    ),
    (re.compile(rb"z(?<=authoriz)ation"), True, b"authoriz"),
    (re.compile(rb"A(?:KIA|SIA|BIA|CCA|Iza)"), False, b"A"),
    (
        re.compile(
            rb"h(?:f_(?=[a-z0-9]{34})|[pousr]_(?<=gh[pousr]_)(?=[a-z0-9]{36})"
            rb"|ub_pat_(?<=github_pat_)(?=[a-z0-9_]{22}))"
        ),
        True,
        b"h_",
    ),
    (re.compile(rb"xox[baprs]-"), False, b"xo-"),
    (re.compile(rb"J(?<=eyJ)(?=[A-Za-z0-9_-]{8})"), False, b"eyJ."),
    (re.compile(rb"Bearer"), False, b"Bearer"),
)
# "://" where ``URL_CREDENTIALS`` may match after it (a superset: ``\s`` is narrower in bytes);
# the "@" it needs is at most ``URL_REACH`` chars after the ":".
URL_SCAN = re.compile(rb"://(?=[^\s:/@\"'<>]{1,256}:[^\s/@\"'<>]{1,256}@)")
URL_REACH = 3 + 256 + 1 + 256
HITS: dict[bytes, int | str] = {
    **dict.fromkeys((b"AKIA", b"ASIA", b"ABIA", b"ACCA"), 0),
    **{b"h" + bytes([char]) + b"_": 1 for char in b"pousr"},
    b"hub_pat_": 2,
    b"pat-": 3,
    **{b"xox" + bytes([char]) + b"-": 4 for char in b"baprs"},
    b"ks.slack.com/services/t": 5,
    b"AIza": 6,
    b"k_live_": 7,
    b"k_test_": 7,
    b"k-": 8,
    b"hf_": 9,
    b"pm_": 10,
    b"pypi-age": 11,
    b"J": 12,
    b"private key": "pem",
    b"zation": "authorization",
    b"Bearer": "bearer",
}
# A ``key`` hit's text -> (its offset in the key, the key's index) for each key holding it.
KEY_PARTS: dict[bytes, tuple[tuple[int, int], ...]] = {
    part.encode(): tuple((key.index(part), KEYS.index(key)) for key in keys)
    for part, keys in (
        ("secret", [key for key in KEYS if "secret" in key]),
        ("ken", _TOKEN_KEYS),
        ("key", _KEY_KEYS),
        *((key, [key]) for key in ("password", "passwd", "passphrase", "pwd")),
    )
}

AUTHORIZATION = re.compile(
    r"[\"']?[ \t]{0,8}[:=][ \t]{0,8}[\"']?(?P<scheme>(?i:bearer|basic|token|bot)[ \t]{1,8})?"
    r"(?P<value>[A-Za-z0-9._~+/=-]{8,4096})"
)
BEARER = re.compile(r"Bearer[ \t]{1,8}(?P<value>[A-Za-z0-9._~+/-]{20,4096}=*)")
ASSIGNED = re.compile(
    r"[\"']?[ \t]{0,8}(?::=|=>|[:=])(?![=>])[ \t]{0,8}"
    rf"(?:(?P<quote>[\"'])(?P<quoted>[^\"'\r\n]{{1,{MAX_VALUE}}})(?P=quote)"
    # a bare value ends at a string's escape too (``YOUR_SECRET\\n\\nThen`` in JSON is YOUR_SECRET)
    rf"|(?P<bare>(?:[^\s\"',;&<>(){{}}\[\]\\]|\\(?![nrt])){{1,{MAX_VALUE}}}))"
)
URL_CREDENTIALS = re.compile(r"[^\s:/@\"'<>\[\]]{1,256}:(?P<value>[^\s/@\"'<>\[\]]{1,256})@")
SCHEME_BEFORE = re.compile(r"(?:^|[^A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}$")
PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
PLACEHOLDER = re.compile(
    r"(?i)\*+|x{3,}|\.{3,}|-+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{.*\}\}|%\(?\w*\)?s|\[secret:[a-z-]+\]"
    r"|null|nil|none|undefined|true|false|redacted|hidden|masked|secret|password|changeme|example"
    r"|your[_-]?[a-z_-]*"  # documentation's YOUR_SECRET, your-api-key
)
VERSION = re.compile(r"[\^~>=<v]{0,3}\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?")
CODE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
TYPE_NAMES = frozenset(
    "str string String bytes int bool Any object Optional SecretStr None null undefined text varchar".split()
)


PROBES = 64  # places of a pattern's first char tried one by one, see ``finditer``


def finditer(pattern: re.Pattern[AnyStr], source: AnyStr) -> Iterator[re.Match[AnyStr]]:
    """``pattern.finditer(source)`` for a pattern whose matches start with its first char.

    The regex engine looks for that char one by one, ``find`` by memchr (many times faster):
    its first ``PROBES`` places are tried one by one, the rest by the engine.
    """
    first = pattern.pattern[:1]
    position = source.find(first)
    for _ in range(PROBES):
        if position < 0:
            return
        found = pattern.match(source, position)
        if found is None:
            position = source.find(first, position + 1)
        else:
            yield found
            position = source.find(first, found.end())
    if position >= 0:
        yield from pattern.finditer(source, position)
