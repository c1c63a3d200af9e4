"""Masking of high-confidence secrets in text before it is written to disk.

``mask_secrets(text) -> (masked, count)`` replaces each secret value with ``[secret:<kind>]`` and
says how many it replaced. It is pure and idempotent, keeps the line structure (a masked value
never removes a newline, so line numbers still match the original) and runs in linear time:
every pattern starts with a literal that the regex engine finds by fast search, every repeat is
bounded, boundaries are checked in code rather than by look-behinds, and PEM blocks are paired by
one forward scan. Token shapes are looked for only inside runs of token chars long enough to
hold one (found with one ``bytes.translate`` and substring searches), so ordinary text costs a
handful of C-level passes: about 3–4 ms per MB.

What counts as a secret (high confidence only; ordinary text must pass unchanged):

- PEM private key blocks (``-----BEGIN … PRIVATE KEY-----`` to its END line; an unterminated
  block to the end of the text): the body is masked, the BEGIN/END lines are kept;
- tokens with a recognisable shape: AWS access key ids (``AKIA…``), GitHub (``ghp_``, ``gho_``,
  ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``), GitLab (``glpat-``), Slack (``xox[baprs]-`` and
  webhook URLs), Google API keys (``AIza…``), Stripe (``sk_live_``, ``rk_live_``, ``sk_test_``…),
  OpenAI/Anthropic (``sk-…``, 32+ characters), Hugging Face (``hf_``), npm (``npm_``), PyPI
  (``pypi-AgE…``) and JWTs (``eyJ….eyJ….…``);
- the credential after ``Authorization:`` (Bearer, Basic, token), and after a bare ``Bearer``
  when it is 20+ characters;
- values assigned to password-like keys (``password``, ``passwd``, ``passphrase``, ``pwd``,
  ``secret``, ``client_secret``, ``secret_key``, ``api_key``, ``access_token``, ``auth_token``,
  ``refresh_token``, ``private_key``, ``aws_secret_access_key``, and ``dbPassword``-style camel
  case) as ``key=value``, ``key: value``, ``"key": "value"`` or ``key => value``. A value shorter
  than 4 characters, a placeholder (``***``, ``<password>``, ``${PASSWORD}``, ``null``), a version
  number, or a bare value that reads as code (``password: str``, ``password=self.password``,
  ``password=getpass()``, an identifier without digits) is left alone — except after an
  UPPER_CASE key (an environment variable: ``DB_PASSWORD=letmein``);
- the password of a URL with credentials (``scheme://user:password@host``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

MAX_VALUE = 512  # characters of one assigned value that are looked at
MIN_VALUE = 4

Masker = Callable[[str], str]
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_TOKEN_CHARS = _WORD | {"_", "-"}

# (kind, pattern starting with a literal, characters that must not come just before a match, and
# the shortest run of ``_TOKEN_CHARS`` a match is: 0 for shapes holding other chars, see
# ``_mask_in_runs``). Shapes apply in this order, each to the text the previous ones left.
_SHAPES: tuple[tuple[str, re.Pattern[str], frozenset[str], int], ...] = (
    ("aws-access-key-id", re.compile(r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Z0-9])"), _WORD, 20),
    ("github-token", re.compile(r"gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])"), _TOKEN_CHARS, 40),
    ("github-token", re.compile(r"github_pat_[A-Za-z0-9_]{22,244}(?![A-Za-z0-9_])"), _TOKEN_CHARS, 33),
    ("gitlab-token", re.compile(r"glpat-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])"), _TOKEN_CHARS, 26),
    # Short enough (15) to match common identifiers' runs: one whole-text scan is cheaper.
    ("slack-token", re.compile(r"xox[baprs]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9-])"), _TOKEN_CHARS, 0),
    (
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{16,32}"),
        frozenset(),
        0,
    ),
    ("google-api-key", re.compile(r"AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"), _TOKEN_CHARS, 39),
    ("stripe-key", re.compile(r"[sr]k_(?:live|test)_[0-9A-Za-z]{16,247}(?![A-Za-z0-9_])"), _TOKEN_CHARS, 24),
    ("api-key", re.compile(r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,250}(?![A-Za-z0-9_-])"), _TOKEN_CHARS, 35),
    ("huggingface-token", re.compile(r"hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9_])"), _TOKEN_CHARS, 37),
    ("npm-token", re.compile(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])"), _TOKEN_CHARS, 40),
    ("pypi-token", re.compile(r"pypi-AgE[A-Za-z0-9_-]{50,250}(?![A-Za-z0-9_-])"), _TOKEN_CHARS, 58),
    (
        "jwt",
        re.compile(
            r"eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,1024}(?![A-Za-z0-9_-])"
        ),
        _TOKEN_CHARS,
        0,
    ),
)
Shape = tuple[str, re.Pattern[str], frozenset[str], int]
# Above this many long token runs, scanning the whole text per shape is cheaper than per run.
_MAX_RUNS = 256
# Shapes without a literal prefix scan slowly (about 3 ms/MB): over the whole text they run only
# where this finds a substring every match of theirs contains.
_SHAPE_PREFILTER: dict[str, re.Pattern[str]] = {"stripe-key": re.compile(r"k_(?:live|test)_")}
_RUN_TABLE = bytes(ord("a") if chr(byte) in _TOKEN_CHARS else ord(" ") for byte in range(256))
# Literals whose absence skips a step (a compiled literal searches faster than ``in``).
_LITERALS = {word: re.compile(re.escape(word)) for word in ("authorization", "Bearer", "://")}
# Chars every match of a whole-text shape holds: one missing from the text skips its scan.
_SHAPE_CHARS = {"slack-token": "xox-", "slack-webhook": "https://hooks.slack.com/services/TB", "jwt": "eyJ."}
_AUTHORIZATION = re.compile(
    r"[\"']?[ \t]{0,8}[:=][ \t]{0,8}[\"']?(?P<scheme>(?i:bearer|basic|token|bot)[ \t]{1,8})?"
    r"(?P<value>[A-Za-z0-9._~+/=-]{8,4096})"
)
_BEARER = re.compile(r"Bearer[ \t]{1,8}(?P<value>[A-Za-z0-9._~+/-]{20,4096}=*)")
# Password-like keys, searched in the lower-cased text; longer keys first. Each key holds one of
# the _ANCHORS; the search leaves out the keys whose anchor the text lacks (they cannot match
# anywhere, so the matches are the same), which usually leaves a literal-prefixed pattern.
_KEYS = (
    "aws_secret_access_key secret_access_key client_secret client-secret secret_key secret-key "
    "password passwd passphrase pwd secret api_key api-key apikey access_token access-token "
    "auth_token auth-token refresh_token private_key private-key"
).split()
_ANCHORS = ("secret", "pass", "pwd", "api", "token", "private")
_ANCHOR_PATTERNS = tuple((anchor, re.compile(anchor)) for anchor in _ANCHORS)
_ASSIGNED = re.compile(
    r"[\"']?[ \t]{0,8}(?::=|=>|[:=])(?![=>])[ \t]{0,8}"
    rf"(?:(?P<quote>[\"'])(?P<quoted>[^\"'\r\n]{{1,{MAX_VALUE}}})(?P=quote)"
    rf"|(?P<bare>[^\s\"',;&<>(){{}}\[\]]{{1,{MAX_VALUE}}}))"
)
_URL_CREDENTIALS = re.compile(r"[^\s:/@\"'<>]{1,256}:(?P<value>[^\s/@\"'<>]{1,256})@")
_SCHEME_BEFORE = re.compile(r"(?:^|[^A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}$")
_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PLACEHOLDER = re.compile(
    r"(?i)\*+|x{3,}|\.{3,}|-+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{.*\}\}|%\(?\w*\)?s|\[secret:[a-z-]+\]"
    r"|null|nil|none|undefined|true|false|redacted|hidden|masked|secret|password|changeme|example"
)
_VERSION = re.compile(r"[\^~>=<v]{0,3}\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?")
_CODE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_TYPE_NAMES = frozenset(
    "str string String bytes int bool Any object Optional SecretStr None null undefined text varchar".split()
)


def mask_secrets(text: str) -> tuple[str, int]:
    """``text`` with every high-confidence secret replaced by ``[secret:<kind>]``, and the count."""
    count = 0

    def masked(kind: str) -> str:
        nonlocal count
        count += 1
        return f"[secret:{kind}]"

    lowered = text.lower()
    anchors = _anchors(lowered)
    if "private" in anchors:  # "PRIVATE KEY" lowers to it
        text = _mask_pem(text, masked)
    batch: list[Shape] = []
    runs = _RunFinder()
    for shape in _SHAPES:
        if shape[3]:
            batch.append(shape)
            continue
        text = _mask_in_runs(text, batch, runs, masked)
        batch = []
        if _may_contain(text, _SHAPE_CHARS[shape[0]]):
            text = _splice(text, _shapes(text, *shape[:3], masked))
    text = _mask_in_runs(text, batch, runs, masked)
    if count:  # masks add text ("[secret:api-key]"): look again
        lowered = text.lower()
        anchors = _anchors(lowered)
    unmasked = text
    if _found(lowered, "authorization"):
        text = _splice(text, _authorizations(text, lowered, masked))
    if _found(text, "Bearer"):
        text = _splice(text, _bearers(text, masked))
    if text is not unmasked:
        lowered = text.lower()
        anchors = _anchors(lowered)
    text = _splice(text, _assignments(text, lowered, anchors, masked))
    if _found(text, "://"):
        text = _splice(text, _url_passwords(text, masked))
    return text, count


Edit = tuple[int, int, str]  # replace text[start:end] with the string


def _splice(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits given in text order (an edit overlapping the previous is dropped)."""
    parts: list[str] = []
    position = 0
    for start, end, replacement in edits:
        if start < position:
            continue
        parts.append(text[position:start])
        parts.append(replacement)
        position = end
    if not parts:
        return text
    parts.append(text[position:])
    return "".join(parts)


def _shapes(
    text: str, kind: str, pattern: re.Pattern[str], not_before: frozenset[str], masked: Masker
) -> Iterable[Edit]:
    for match in pattern.finditer(text):
        start = match.start()
        if start and text[start - 1] in not_before:
            continue
        yield start, match.end(), masked(kind)


def _mask_in_runs(text: str, shapes: Sequence[Shape], runs: _RunFinder, masked: Masker) -> str:
    """Apply ``shapes`` (all made of ``_TOKEN_CHARS`` only) in order, looking only inside long runs.

    A match of such a shape lies inside one maximal run of token chars at least its shortest
    length, and its boundary checks only look at token chars, which a run's neighbours are not:
    applying the shapes run by run gives what whole-text scans give (a mask's brackets never
    join two runs). Most text has no run that long, and its scans are skipped altogether.
    """
    if not shapes:
        return text
    found = runs.find(text, min(shape[3] for shape in shapes))
    if found is None:
        for kind, pattern, not_before, _ in shapes:
            prefilter = _SHAPE_PREFILTER.get(kind)
            if prefilter is None or prefilter.search(text):
                text = _splice(text, _shapes(text, kind, pattern, not_before, masked))
        return text
    edits: list[Edit] = []
    for start, end in found:
        piece = text[start:end]
        for kind, pattern, not_before, _ in shapes:
            piece = _splice(piece, _shapes(piece, kind, pattern, not_before, masked))
        if len(piece) != end - start or piece != text[start:end]:
            edits.append((start, end, piece))
    return _splice(text, edits)


class _RunFinder:
    """Runs of token chars in a text; the text's byte map is kept while the text stays the same."""

    def __init__(self) -> None:
        self.text: str | None = None
        self.data = b""

    def find(self, text: str, shortest: int) -> list[tuple[int, int]] | None:
        """Maximal runs of ``shortest``+ token chars with a letter or digit; None if too many."""
        if text is not self.text:
            self.text = text
            self.data = text.encode("ascii", "replace").translate(_RUN_TABLE)  # one byte per char
        data = self.data
        needle = b"a" * shortest
        runs: list[tuple[int, int]] = []
        position = data.find(needle)
        while position >= 0:  # searching from a non-token char, a find lands on a run's start
            end = data.find(b" ", position + shortest)
            end = len(data) if end < 0 else end
            if text[position:end].strip("_-"):  # a rule of dashes or underscores holds no token
                if len(runs) == _MAX_RUNS:
                    return None
                runs.append((position, end))
            position = data.find(needle, end)
        return runs


def _authorizations(text: str, lowered: str, masked: Masker) -> Iterable[Edit]:
    position = lowered.find("authorization")
    while position >= 0:
        match = _AUTHORIZATION.match(text, position + len("authorization"))
        if match is not None:
            value = match.group("value")
            credential = match.group("scheme") is not None or (
                len(value) >= 16 and any(char.isdigit() for char in value)  # not prose
            )
            if credential and not _PLACEHOLDER.fullmatch(value):
                yield match.start("value"), match.end("value"), masked("authorization")
        position = lowered.find("authorization", position + 1)


def _bearers(text: str, masked: Masker) -> Iterable[Edit]:
    position = text.find("Bearer")
    while position >= 0:
        match = _BEARER.match(text, position)
        if match is not None and (not position or text[position - 1] not in _WORD):
            yield match.start("value"), match.end("value"), masked("bearer-token")
        position = text.find("Bearer", position + 1)


@lru_cache(maxsize=64)
def _keyword_pattern(anchors: tuple[str, ...]) -> re.Pattern[str]:
    """The alternation of the ``_KEYS`` that hold one of ``anchors``, in key order."""
    return re.compile("|".join(key for key in _KEYS if any(anchor in key for anchor in anchors)))


def _anchors(lowered: str) -> tuple[str, ...]:
    """The ``_ANCHORS`` found in the lower-cased text."""
    return tuple(
        anchor
        for anchor, pattern in _ANCHOR_PATTERNS
        if _may_contain(lowered, anchor) and pattern.search(lowered)
    )


def _may_contain(text: str, chars: str) -> bool:
    """False when one of ``chars`` is absent from ``text``: one memchr each, far cheaper than a
    substring search, and a rare char (``J``, ``z``, ``B``) is often absent."""
    return all(char in text for char in chars)


def _found(text: str, literal: str) -> bool:
    """Whether ``text`` holds ``literal`` (one of ``_LITERALS``)."""
    return _may_contain(text, literal) and _LITERALS[literal].search(text) is not None


def _assignments(text: str, lowered: str, anchors: tuple[str, ...], masked: Masker) -> Iterable[Edit]:
    if not anchors:
        return
    for found in _keyword_pattern(anchors).finditer(lowered):
        start, end = found.span()
        before = text[start - 1] if start else ""
        camel = before.islower() or before.isdigit()
        if before == "[" or (before in _WORD and not (camel and text[start].isupper())):
            continue  # inside a word ("mypassword"), or our own "[secret:…]"
        if end < len(text) and text[end] in _TOKEN_CHARS:
            continue  # "password_hash", "secretary"
        match = _ASSIGNED.match(text, end)
        if match is None:
            continue
        group = "quoted" if match.group("quoted") is not None else "bare"
        if _is_secret_value(match.group(group), text[start:end], quoted=group == "quoted"):
            kind = "password" if found.group().startswith("pas") or found.group() == "pwd" else "secret"
            yield match.start(group), match.end(group), masked(kind)


def _is_secret_value(value: str, key: str, *, quoted: bool) -> bool:
    value = value.strip()
    if len(value) < MIN_VALUE or _PLACEHOLDER.fullmatch(value) or _VERSION.fullmatch(value):
        return False
    if value in _TYPE_NAMES or value.lower() == key.lower():
        return False
    if quoted or key.isupper():  # a literal, or an environment variable's value
        return True
    reads_as_code = _CODE_WORD.fullmatch(value) is not None and (
        "." in value or not any(char.isdigit() for char in value)
    )
    return not reads_as_code


def _url_passwords(text: str, masked: Masker) -> Iterable[Edit]:
    position = text.find("://")
    while position >= 0:
        match = _URL_CREDENTIALS.match(text, position + 3)
        scheme = _SCHEME_BEFORE.search(text, max(0, position - 22), position)
        if match is not None and scheme is not None:
            value = match.group("value")
            if len(value) >= 1 and not _PLACEHOLDER.fullmatch(value):
                yield match.start("value"), match.end("value"), masked("url-password")
        position = text.find("://", position + 3)


def _mask_pem(text: str, masked: Masker) -> str:
    """Mask the body of each PEM private key block, keeping its BEGIN/END lines and line count."""
    if "PRIVATE KEY" not in text:
        return text
    edits: list[Edit] = []
    position = 0
    for begin in _PEM_BEGIN.finditer(text):
        if begin.start() < position:
            continue  # a BEGIN inside the block just masked
        end = _PEM_END.search(text, begin.end())
        body_end = end.start() if end else len(text)
        body = text[begin.end() : body_end]
        position = body_end
        if body.strip() != "[secret:private-key]":  # masked already: masking is idempotent
            newlines = body.count("\n")
            if body.startswith("\n"):
                replacement = "\n" + masked("private-key") + "\n" * (newlines - 1)
            else:
                replacement = " " + masked("private-key") + "\n" * newlines
            edits.append((begin.end(), body_end, replacement))
        if end is None:
            break  # no END after this BEGIN, so none after any later one: stop scanning
    return _splice(text, edits)
