"""Masking of high-confidence secrets in text before it is written to disk.

``mask_secrets(text) -> (masked, count)`` replaces each secret value with ``[secret:<kind>]`` and
says how many it replaced. It is pure and idempotent, keeps the line structure (a masked value
never removes a newline, so line numbers still match the original) and runs in linear time:
every pattern starts with a literal, every repeat is bounded, match boundaries are checked in
code, and PEM blocks are paired by one forward scan. A survey first finds where the literals of
each step are (``secret_patterns.SCANS``: ten literal-led searches over the text's ASCII bytes,
each for several steps, a rare first char found by memchr); a step or shape whose literal is
absent is skipped, so ordinary text costs about a dozen C-level passes: 4 ms for a 1 MB pytest
log, 5–10 ms per MB for text full of the scans' first chars, which the regex engine then steps
through (about 0.3 ms per MB a scan). The survey also finds the words ``secrets.named`` looks for.
A shape that is looked for is looked for only inside runs of token chars long enough to hold one.

What counts as a secret (high confidence only; ordinary text must pass unchanged):

- PEM private key blocks (``-----BEGIN … PRIVATE KEY-----`` to its END line; an unterminated
  block to the end of the key lines below its BEGIN line): the body is masked, the BEGIN/END
  lines are kept (a BEGIN line with no key below it masks nothing);
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
  UPPER_CASE key (an environment variable: ``DB_PASSWORD=letmein``); a key or certificate file's
  name (``ssl_private_key = "privkey.pem"``) says where the secret is kept and is left alone too;
- the password of a URL with credentials (``scheme://user:password@host``);
- by rule rather than shape (``secrets.named``): a secret-named key (``*_TOKEN``, ``*Key``,
  ``sessionid``) assigned a high-entropy value, a token as a URL's user (Sentry DSNs), and the
  value of a password flag (``--password X``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from context_mode.secrets.edits import Edit, splice
from context_mode.secrets.named import mask_named
from context_mode.secrets.patterns import (
    ASSIGNED,
    AUTHORIZATION,
    BEARER,
    CODE_WORD,
    HITS,
    KEY_BYTES,
    KEY_PARTS,
    KEYS,
    MAX_VALUE,
    MIN_VALUE,
    NAMED_PARTS,
    PEM_BEGIN,
    PEM_END,
    PLACEHOLDER,
    PROBES,
    SCANS,
    SCHEME_BEFORE,
    SHAPE_CHARS,
    SHAPE_PREFILTER,
    SHAPES,
    TOKEN_CHARS,
    TYPE_NAMES,
    URL_CREDENTIALS,
    URL_REACH,
    URL_SCAN,
    VERSION,
    WORD,
    Shape,
    finditer,
)

__all__ = ["MAX_VALUE", "MIN_VALUE", "mask_secrets"]

Masker = Callable[[str], str]
# Above this many long token runs, scanning the whole text per shape is cheaper than per run.
_MAX_RUNS = 256
_MAX_ATS = 4 * PROBES  # "@"s looked before one by one for URLs, see ``_url_starts``
_RUN_TABLE = bytes(ord("a") if chr(byte) in TOKEN_CHARS else ord(" ") for byte in range(256))
# The only chars whose lower case is not one non-ASCII char ("İ" -> "i̇", Kelvin sign -> "k").
_LOWER_CHANGES = ("\u0130", "\u212a")


def mask_secrets(text: str) -> tuple[str, int]:
    """``text`` with every high-confidence secret replaced by ``[secret:<kind>]``, and the count."""
    count = 0

    def masked(kind: str) -> str:
        nonlocal count
        count += 1
        return f"[secret:{kind}]"

    survey = _survey(text)
    if survey.pem and "PRIVATE KEY" in text:
        text = _mask_pem(text, masked)
    batch: list[Shape] = []
    runs = _RunFinder()
    for index, shape in enumerate(SHAPES):
        if index not in survey.shapes:
            continue  # its literal is nowhere, and masks make none
        if shape[3]:
            batch.append(shape)
            continue
        text = _mask_in_runs(text, batch, runs, masked)
        batch = []
        if _may_contain(text, SHAPE_CHARS[shape[0]]):
            text = splice(text, _shapes(text, *shape[:3], masked))
    text = _mask_in_runs(text, batch, runs, masked)
    for step in (_authorizations, _bearers, _assignments):
        if survey.text is not text:  # masked: look again
            survey = _survey(text)
        text = splice(text, step(text, survey, masked))
    data = survey.data if survey.text is text else text.encode("ascii", "replace")
    text = splice(text, _url_passwords(text, _url_starts(data), masked))
    return mask_named(text, masked, survey.names if survey.text is text else None), count


@dataclass(frozen=True, slots=True)
class _Survey:
    """Where the literals of each step are in ``text`` (one pass of each of the ``SCANS``)."""

    text: str
    data: bytes  # its ASCII bytes, "?" for each other char
    shapes: frozenset[int]  # indices of the ``SHAPES`` whose literal is there
    pem: bool  # whether "private key" is there in some case
    keys: list[tuple[int, int]]  # (start, index) of each occurrence of one of the ``KEYS``
    authorizations: list[int]  # where "authorization" starts, in the lower-cased text
    bearers: list[int]
    # (start, index) of each ``NAMED_WORDS`` word, in order, for ``secrets.named``; None when the
    # lower-cased text is no byte-for-byte lower case of ``data`` (its positions may differ)
    names: list[tuple[int, int]] | None


def _survey(text: str) -> _Survey:
    data = text.encode("ascii", "replace")  # one byte per char
    in_place = _lowers_in_place(text, data)
    if in_place:
        lowered = data.lower()
    else:  # positions in ``text.lower()``, like the searches of the key and authorization steps
        lowered = text.lower().encode("ascii", "replace")
    shapes: set[int] = set()
    pem = False
    keys: list[tuple[int, int]] = []
    names: list[tuple[int, int]] = []
    hits: dict[str, list[int]] = {"authorization": [], "bearer": []}
    for pattern, lower, required in SCANS:
        source = lowered if lower else data
        if not all(char in source for char in required):
            continue
        for found in finditer(pattern, source):
            part = found.group()
            name = NAMED_PARTS.get(part)
            if name is not None:
                names.append((found.start() - name[0], name[1]))
                if found.lastgroup is None:
                    continue  # a named word only: no look-behind for one of the KEYS held
            parts = KEY_PARTS.get(part)
            if parts is not None:
                for offset, index in parts:
                    start = found.start() - offset
                    if start >= 0 and lowered.startswith(KEY_BYTES[index], start):
                        keys.append((start, index))
                continue
            hit = HITS[part]
            if isinstance(hit, int):
                shapes.add(hit)
            elif hit == "pem":
                pem = True
            else:
                hits[hit].append(found.end() - len(hit) if hit == "authorization" else found.start())
    return _Survey(
        text,
        data,
        frozenset(shapes),
        pem,
        sorted(keys),
        hits["authorization"],
        hits["bearer"],
        sorted(names) if in_place else None,
    )


def _lowers_in_place(text: str, data: bytes) -> bool:
    """Whether ``text.lower()`` turns each char into its ASCII lower case or one non-ASCII char.

    Non-ASCII chars are "?" in ``data``: a few "?" are looked at one by one (memchr), far
    cheaper than searching a UCS-2 text for each of ``_LOWER_CHANGES``.
    """
    if text.isascii():
        return True
    position = data.find(b"?")
    for _ in range(4 * PROBES):
        if position < 0:
            return True
        if text[position] in _LOWER_CHANGES:
            return False
        position = data.find(b"?", position + 1)
    return not any(char in text for char in _LOWER_CHANGES)


def _url_starts(data: bytes) -> list[int]:
    """Where ``URL_SCAN`` matches, looked for only before each "@" when there are few.

    A match's "@" is the first after it and at most ``URL_REACH`` chars on, so the matches are
    those found in the spans that end at each "@" (merged where they overlap).
    """
    spans: list[list[int]] = []
    position = data.find(b"@")
    for _ in range(_MAX_ATS):
        if position < 0:
            return [found.start() for start, end in spans for found in URL_SCAN.finditer(data, start, end)]
        start = max(0, position - URL_REACH)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = position + 1
        else:
            spans.append([start, position + 1])
        position = data.find(b"@", position + 1)
    return [found.start() for found in URL_SCAN.finditer(data)]  # many "@": one scan is cheaper


def _shapes(
    text: str, kind: str, pattern: re.Pattern[str], not_before: frozenset[str], masked: Masker
) -> Iterable[Edit]:
    for match in pattern.finditer(text):
        start = match.start()
        if start and text[start - 1] in not_before:
            continue
        yield start, match.end(), masked(kind)


def _mask_in_runs(text: str, shapes: Sequence[Shape], runs: _RunFinder, masked: Masker) -> str:
    """Apply ``shapes`` (all made of ``TOKEN_CHARS`` only) in order, looking only inside long runs.

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
            prefilter = SHAPE_PREFILTER.get(kind)
            if prefilter is None or prefilter.search(text):
                text = splice(text, _shapes(text, kind, pattern, not_before, masked))
        return text
    edits: list[Edit] = []
    for start, end in found:
        piece = text[start:end]
        for kind, pattern, not_before, _ in shapes:
            piece = splice(piece, _shapes(piece, kind, pattern, not_before, masked))
        if len(piece) != end - start or piece != text[start:end]:
            edits.append((start, end, piece))
    return splice(text, edits)


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


def _authorizations(text: str, survey: _Survey, masked: Masker) -> Iterable[Edit]:
    for position in survey.authorizations:
        match = AUTHORIZATION.match(text, position + len("authorization"))
        if match is not None:
            value = match.group("value")
            credential = match.group("scheme") is not None or (
                len(value) >= 16 and any(char.isdigit() for char in value)  # not prose
            )
            if credential and not PLACEHOLDER.fullmatch(value):
                yield match.start("value"), match.end("value"), masked("authorization")


def _bearers(text: str, survey: _Survey, masked: Masker) -> Iterable[Edit]:
    for position in survey.bearers:
        match = BEARER.match(text, position)
        if match is not None and (not position or text[position - 1] not in WORD):
            yield match.start("value"), match.end("value"), masked("bearer-token")


def _may_contain(text: str, chars: str) -> bool:
    """False when one of ``chars`` is absent from ``text`` (one memchr each)."""
    return all(char in text for char in chars)


def _keys(survey: _Survey) -> Iterable[tuple[int, str]]:
    """Start and key of each match of the alternation of ``KEYS`` (leftmost, first listed key wins)."""
    end = 0
    for start, index in survey.keys:  # sorted, so the first at a start is the first listed
        if start >= end:
            end = start + len(KEYS[index])
            yield start, KEYS[index]


def _assignments(text: str, survey: _Survey, masked: Masker) -> Iterable[Edit]:
    for start, key in _keys(survey):
        end = start + len(key)
        before = text[start - 1] if start else ""
        camel = before.islower() or before.isdigit()
        upper = before.isupper() and text[start:end].isupper()  # PGPASSWORD, MYSQLPWD: one env name
        if before == "[" or (before in WORD and not (camel and text[start].isupper()) and not upper):
            continue  # inside a word ("mypassword"), or our own "[secret:…]"
        if end < len(text) and text[end] in TOKEN_CHARS:
            continue  # "password_hash", "secretary"
        if before == "_" and _FLAG_NAME.search(text, max(0, start - _FLAG_REACH), start):
            continue  # a flag's name ("is_secret", "has_password"): what it is set to is no secret
        match = ASSIGNED.match(text, end)
        if match is None:
            continue
        group = "quoted" if match.group("quoted") is not None else "bare"
        hashed = before == "_" and _HASHED_NAME.search(text, max(0, start - _FLAG_REACH), start)
        if hashed and _HEX_DIGEST.fullmatch(match.group(group)):
            continue  # detect-secrets' "hashed_secret": a digest of what it found, kept to compare
        if _is_secret_value(match.group(group), text[start:end], quoted=group == "quoted"):
            kind = "password" if key.startswith("pas") or key == "pwd" else "secret"
            yield match.start(group), match.end(group), masked(kind)


# A flag named for a secret: ``is_secret="DeprecatedArgument"`` (dynaconf), ``has_password = True``.
_FLAG_NAME = re.compile(r"(?i)(?<![A-Za-z0-9_])(?:is|has|use|uses|with|no|require|requires)_\Z")
_FLAG_REACH = 9
_HASHED_NAME = re.compile(r"(?i)(?<![A-Za-z0-9_])hashed_\Z")
_HEX_DIGEST = re.compile(r"[0-9a-f]{32,128}")
_ESCAPES = ("\\n", "\\r", "\\t")  # a bare value that opens with an escape sequence
# A line of a PEM block's body: base64, a header (``DEK-Info: AES-128-CBC,…``) or the blank after one
_KEY_LINE = re.compile(
    r"(?:(?P<base64>[A-Za-z0-9+/=]{4,100})|[A-Z][\w-]{2,30}: [^\n]{1,200}|)[ \t\r]*$", re.MULTILINE
)
# A key's or certificate's file (``privkey.pem``, ``/etc/ssl/private/site.key``): the key is in it.
_KEY_FILE = re.compile(
    r"[\w./~-]{1,200}\.(?:pem|key|crt|cer|der|p12|pfx|jks|keystore|ppk|gpg|asc)", re.IGNORECASE
)
_ABSOLUTE_PATH = re.compile(r"/[\w.+-]+(?:/[\w.+-]+)+/?")  # two segments at least: /bin/kill


def _is_secret_value(value: str, key: str, *, quoted: bool) -> bool:
    # Markdown's emphasis and code marks around a bare value are no part of it: a fetched Sphinx
    # signature's ``*password=None*`` sets no password.
    value = value.strip() if quoted else value.strip().strip("*_`")
    if len(value) < MIN_VALUE or PLACEHOLDER.fullmatch(value) or VERSION.fullmatch(value):
        return False
    if value in TYPE_NAMES or value.lower() == key.lower():
        return False
    if key.lower() == "pwd" and not quoted and value.startswith(("/", "~")):
        return False  # PWD=/home/me/proj, OLDPWD=…: the shell's working directory
    if not quoted and _ABSOLUTE_PATH.fullmatch(value.rstrip(",;")):
        return False  # sudoers' "NOPASSWD: /bin/kill": a path, not a password
    if _KEY_FILE.fullmatch(value):
        return False  # ssl_private_key = "privkey.pem": where the key is kept, not the key
    if not quoted and value.endswith(":") and CODE_WORD.fullmatch(value[:-1]):
        return False  # FreeRADIUS' "rlm_passwd: nfields: 3": a field's name, then its value
    if not quoted and value.startswith(_ESCAPES):
        return False  # "Password:\ninterrupted\n": a prompt in a string literal, then its line break
    if quoted or key.isupper():  # a literal, or an environment variable's value
        return True
    # (Ruby's predicates end in ``?`` or ``!``: ``self.password = defined?(new_password) ? …``;
    # Zig's optional types open with ``?``: ``password: ?Component = null``)
    reads_as_code = CODE_WORD.fullmatch(value.strip("?!")) is not None and (
        "." in value or not any(char.isdigit() for char in value)
    )
    return not reads_as_code


def _url_passwords(text: str, starts: list[int], masked: Masker) -> Iterable[Edit]:
    for position in starts:
        if text.startswith("[secret:", position + 3):
            continue  # a user part masked before (``secrets.named``): "[secret" is no user name
        match = URL_CREDENTIALS.match(text, position + 3)
        scheme = SCHEME_BEFORE.search(text, max(0, position - 22), position)
        if match is not None and scheme is not None:
            value = match.group("value")
            if len(value) >= 1 and not PLACEHOLDER.fullmatch(value):
                yield match.start("value"), match.end("value"), masked("url-password")


def _mask_pem(text: str, masked: Masker) -> str:
    """Mask the body of each PEM private key block, keeping its BEGIN/END lines and line count."""
    if "PRIVATE KEY" not in text:
        return text
    edits: list[Edit] = []
    position = 0
    ended = True  # an END may follow (none after one BEGIN: none after any later one)
    for begin in PEM_BEGIN.finditer(text):
        if begin.start() < position:
            continue  # a BEGIN inside the block just masked
        end = PEM_END.search(text, begin.end()) if ended else None
        ended = end is not None
        body_end = end.start() if end else _key_lines_end(text, begin.end())
        body = text[begin.end() : body_end]
        position = body_end
        if not body.strip():
            continue  # a BEGIN line with no key below it (a page quoting ``b'-----BEGIN …-----'``)
        if body.strip() != "[secret:private-key]":  # masked already: masking is idempotent
            newlines = body.count("\n")
            if body.startswith("\n"):
                replacement = "\n" + masked("private-key") + "\n" * (newlines - 1)
            else:
                replacement = " " + masked("private-key") + "\n" * newlines
            edits.append((begin.end(), body_end, replacement))
    return splice(text, edits)


def _key_lines_end(text: str, start: int) -> int:
    """Where an unterminated PEM block's key ends: after the run of key lines (base64, or a
    ``Proc-Type: 4,ENCRYPTED`` header) below its BEGIN line; ``start`` (no key) when the run holds
    no base64 line. The text after the run is no key (a cut output's ``(truncated``, a page
    going on in prose). Reads the run's lines only."""
    at = text.find("\n", start) + 1
    end = start
    while 0 < at <= len(text):
        line = _KEY_LINE.match(text, at)
        if line is None:
            break
        if line.group("base64"):
            end = line.end()
        at = line.end() + 1
    return end
