"""Summaries of the shared corpus of real tool outputs keep the facts an agent needs.

The corpus lives beside the clone (``../shared/corpus``); these tests are skipped without it
(``test_real_outputs.py`` runs the properties of these checks on ``bench/corpus`` too).
The summarisers are generic: these are regression checks on real outputs, not special cases.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from context_mode.framing import shown_head, unframe
from context_mode.kinds import detect_kind
from context_mode.shapes import is_html
from context_mode.summaries import Extract, summarize
from context_mode.summaries.html_page import html_pieces
from context_mode.summaries.long_lines import pieces
from context_mode.summaries.packing import is_marker, size, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import SHARED_CORPUS, items_of
from tests.verbatim import clipped_from

CORPUS = SHARED_CORPUS
BUDGET = 1500
TERM_KEYS = frozenset({"pattern", "query", "q", "name", "search", "regex"})

pytestmark = pytest.mark.skipif(
    not (CORPUS / "corpus.yaml").is_file(), reason=f"the shared corpus is not at {CORPUS}"
)


@functools.cache
def _items() -> dict[str, dict[str, Any]]:
    if not (CORPUS / "corpus.yaml").is_file():
        return {}
    items = items_of(CORPUS)
    return {item["id"]: item for item in items}


@functools.cache
def _summary(item_id: str) -> tuple[str, Extract]:
    return summary_of(CORPUS, _items()[item_id])


def summary_of(corpus: Path, item: dict[str, Any]) -> tuple[str, Extract]:
    """The payload of ``item`` and its summary, as the hub makes it (kind, terms from the arguments)."""
    text = (corpus / item["file"]).read_text(encoding="utf-8")
    terms = [
        word
        for key, value in (item.get("args") or {}).items()
        if key in TERM_KEYS and isinstance(value, str)
        for word in value.split()
    ]
    kind = detect_kind(text, tool_name=item["tool"], arguments=item.get("args") or {})
    return text, summarize(text, kind, budget=BUDGET, terms=terms)


ITEM_IDS = [
    "log-pytest-more-itertools",
    "log-pip-install-requirements-pyyaml",
    "log-cmake-build-cjson",
    "log-tomcat-startup",
    "log-redis-server",
    "json-npm-view-express",
    "json-github-search-repositories",
    "code-rg-flask-request",
    "code-gitgrep-flask-teardown",
    "diff-gitlog-flask",
    "md-express-history",
    "table-dpkg-list",
]


@pytest.mark.parametrize("item_id", ITEM_IDS)
def test_a_corpus_summary_fits_is_of_its_kind_and_is_verbatim_or_json(item_id: str) -> None:
    text, extract = _summary(item_id)
    assert extract.kind.value == _items()[item_id]["kind"]
    assert_fits_and_is_verbatim_or_json(text, extract)


def _leaves(value: Any) -> list[str]:
    """The strings of a JSON value (keys and counts of what was left out aside), ``…`` clipped off."""
    if isinstance(value, dict):
        return [leaf for inner in value.values() for leaf in _leaves(inner)]
    if isinstance(value, list):
        return [leaf for inner in value for leaf in _leaves(inner)]
    if isinstance(value, str) and not value.startswith("… +"):
        return [value.removesuffix("…")]
    return []


def _escaped(leaf: str) -> str:
    """``leaf`` as a JSON document spells it inside a string."""
    return json.dumps(leaf, ensure_ascii=False)[1:-1]


def assert_fits_and_is_verbatim_or_json(text: str, extract: Extract) -> None:
    """The summary fits ``BUDGET``; a JSON one parses (below the frame a tool put around the
    document: ``framing.unframe``), any other is lines of ``text`` (or markers)."""
    assert size(extract.text) <= BUDGET
    if extract.outline.startswith("notebook: "):  # a notebook's cells and outputs, a JSON piece each
        for line in extract.text.split("\n"):
            assert is_marker(line) or all(_escaped(leaf) in text for leaf in _leaves(json.loads(line))), line
        return
    if extract.kind == ContentKind.JSON:
        framed = unframe(text)
        if framed is not None and _parses(framed.body):
            head = shown_head(framed.head) + framed.joint
            assert extract.text.startswith(head)
            json.loads(extract.text[len(head) :])
        else:
            json.loads(extract.text)
        return
    if extract.kind in (ContentKind.ROWS, ContentKind.TREE):
        assert_values_verbatim(extract.text, text, extract.kind)
        return
    if extract.kind == ContentKind.TABLE:
        assert_table_verbatim(extract.text, text)
        return
    if extract.kind == ContentKind.LINT and text.lstrip()[:1] in ("[", "{"):  # a JSON report (SARIF too)
        for line in extract.text.split("\n"):
            piece = strip_annotation(line).removesuffix("…")
            assert is_marker(line) or piece in text or _json_piece_of(piece, text), line
        return
    if " in its strings (" in extract.outline:  # documents a JSON holds, lines as the payload escapes them
        for line in extract.text.split("\n"):
            parts = [part for part in strip_annotation(line).split("…") if part]
            assert is_marker(line) or all(part in text for part in parts), line
        return
    source_lines = set(text.splitlines())
    # snapshot and HTML page lines are shown without their indentation
    if extract.kind == ContentKind.SNAPSHOT or extract.kind == ContentKind.MARKDOWN and is_html(text):
        source_lines |= {line.strip() for line in source_lines}
    if extract.kind == ContentKind.MARKDOWN and is_html(text):  # a long line of markup, cut at its blocks
        source_lines |= {piece for line in text.splitlines() for piece in html_pieces(line.strip())}
    broken = pieces(text)  # a few very long lines are shown as their pieces (``summaries.long_lines``)
    if broken is not None and extract.outline.endswith(" pieces)"):
        source_lines |= set(broken.text.split("\n"))
    for line in extract.text.split("\n"):
        stripped = strip_annotation(line)
        assert is_marker(line) or clipped_from(line, source_lines) or clipped_from(stripped, source_lines), (
            line
        )


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _json_piece_of(piece: str, text: str) -> bool:
    """Whether ``piece`` is compact JSON of some members of a record of ``text`` (pretty-printed
    there): every value in it is written in ``text`` (a file's ``{"filename": …`` opening too)."""
    value = _parsed_record(piece)
    if value is None:
        return False
    leaves = [value]
    while leaves:
        leaf = leaves.pop()
        if isinstance(leaf, dict):
            leaves.extend(leaf.values())
        elif isinstance(leaf, list):  # a nested place's items (oxlint's ``labels``)
            leaves.extend(leaf)
        elif json.dumps(leaf, ensure_ascii=False) not in text:
            return False
    return isinstance(value, dict)


def _parsed_record(piece: str) -> object:
    """The JSON object ``piece`` opens (its members through the last whole one, when it was
    clipped inside a member), or None."""
    ends = [len(piece)] + [m.start() for m in reversed(list(_JSON_MEMBER_START.finditer(piece)))]
    for end in ends:
        try:
            return json.loads(piece[:end] if piece[:end].endswith("}") else piece[:end] + "}")
        except ValueError:
            continue
    return None


_JSON_MEMBER_START = re.compile(r", ?(?=[\"'][^\"'\n]{1,80}[\"']\s*:)")  # between two members of a row
# between two members of a vertical record's row: ``a: 1; b: 2``, psql's ``a  | 1; b  | 2``, ``a = 1``
_BLOCK_MEMBER_START = re.compile(r"; (?=[^;:|=\n]{1,80}(?:: | \| | = | =;| =\Z))")  # ``y1864 =``: a NULL


_NESTED_MEMBER = re.compile(r"""["'][^"'\n]{1,80}["']\s*:\s*[\[{]""")
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _top_level_members(row: str) -> list[str]:
    """A record's members (``row`` without its braces) split where ``_JSON_MEMBER_START`` matches
    outside the brackets and strings of a nested value."""
    members: list[str] = []
    depth, start, quote = 0, 0, ""
    for at, char in enumerate(row):
        if quote:
            quote = "" if char == quote and row[at - 1] != "\\" else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0 and (between := _JSON_MEMBER_START.match(row, at)):
            members.append(row[start:at])
            start = between.end()
    return [*members, row[start:]]


def assert_values_verbatim(summary: str, text: str, kind: ContentKind = ContentKind.TREE) -> None:
    """Row cells, rows' members and tree names are values of the payload (clipped ones end in …
    or keep their start and their end around it)."""
    for line in summary.split("\n") if summary else []:
        if (
            kind is ContentKind.ROWS
            and _BLOCK_MEMBER_START.search(line)
            and not line[:1].isdigit()
            and not (" | " in line and all(map(_is_value(text), line.split(" | "))))
        ):  # a vertical record's row as its field lines, unless its cells are values ("BSD; GPL")
            values = _BLOCK_MEMBER_START.split(line)
        elif " | " in line:
            values = line.split(" | ")
        elif kind is ContentKind.ROWS and line.startswith("{") and line.endswith("}"):
            values = _top_level_members(line[1:-1].strip())  # a row as its members, as spelled
            for nested in [value for value in values if _NESTED_MEMBER.match(value)]:
                values.remove(nested)  # a nested list or record, written compact: its strings
                quoted = _QUOTED.findall(nested.removesuffix("…"))
                assert all(piece in text for piece in quoted), f"not payload strings: {nested!r} in {line!r}"
        elif kind is ContentKind.TREE and "): " in line:
            values = line.split("): ", 1)[1].split(", ")
        else:
            continue
        for cell in values:
            assert _is_value(text)(cell), f"not a payload value: {cell!r} in {line!r}"


def _is_value(text: str) -> Callable[[str], bool]:
    """Whether a shown cell is a value of ``text``: in it, or clipped (``…`` at its end, or
    between its start and its end: ``columns.clip``'s path or URL)."""

    def held(cell: str) -> bool:
        value = cell.rstrip("/")
        if not value or value.startswith("…"):
            return True
        head, cut, tail = value.rstrip("…").partition("…")
        return head in text and (not cut or tail in text)

    return held


def assert_table_verbatim(summary: str, text: str) -> None:
    """A table summary's rows are spans of payload lines or cells of the payload; the rest is
    its count line, the header under it (a headerless table's columns are ``column N``), column
    lines (``columns: …``, ``- name: …``) and markers."""
    lines = summary.split("\n") if summary else []
    if len(lines) > 1 and _COUNT.match(lines[0]):
        lines = [lines[0], *lines[2:]]
    assert_values_verbatim("\n".join(lines), text, ContentKind.TABLE)
    source_lines = set(text.splitlines())
    for line in lines:
        if " | " in line or is_marker(line) or line.startswith(("columns: ", "- ")) or _COUNT.match(line):
            continue
        # a long line above or below the table (isql's ``SQL> SELECT …``) keeps its start and end
        verbatim = line.removesuffix("…") in text or clipped_from(line, source_lines)
        assert verbatim, f"not in the payload: {line!r}"


_COUNT = re.compile(r"\d+ rows × \d+ columns(?: \(columns described .*\))?\Z")


def test_the_corpus_shrinks_to_under_a_tenth() -> None:
    raw = sum(len(_summary(item_id)[0].encode()) for item_id in ITEM_IDS)
    kept = sum(size(_summary(item_id)[1].text) for item_id in ITEM_IDS)
    assert kept <= raw / 10


@pytest.mark.parametrize(
    ("item_id", "answer"),
    [
        # logs: failing test ids, assertion and exception lines, compiler errors, final counts
        pytest.param(
            "log-pytest-more-itertools",
            "tests/test_more.py::SlicedTests::test_odd_and_strict",
            id="pytest-id-1",
        ),
        pytest.param(
            "log-pytest-more-itertools",
            "tests/test_more.py::PaddedTest::test_next_multiple",
            id="pytest-id-2",
        ),
        pytest.param(
            "log-pytest-more-itertools", "AssertionError: ValueError not raised", id="pytest-assertion"
        ),
        pytest.param("log-pytest-more-itertools", "tests/test_more.py:2044", id="pytest-location"),
        pytest.param(
            "log-pytest-more-itertools", "2 failed, 763 passed, 21194 subtests passed", id="pytest-counts"
        ),
        pytest.param(
            "log-pip-install-requirements-pyyaml",
            "AttributeError: 'build_ext' object has no attribute 'cython_sources'",
            id="pip-exception",
        ),
        pytest.param(
            "log-pip-install-requirements-pyyaml",
            "Collecting PyYAML==5.4.1 (from -r requirements.txt (line 7))",
            id="pip-failing-step",
        ),
        pytest.param(
            "log-pip-install-requirements-pyyaml",
            'File "<string>", line 201, in get_source_files',
            id="pip-frame",
        ),
        pytest.param(
            "log-cmake-build-cjson",
            "error: too many arguments to function ‘decode_pointer_inplace’",
            id="cc-error",
        ),
        pytest.param("log-cmake-build-cjson", "cJSON_Utils.c:359:13: note: declared here", id="cc-note"),
        pytest.param(
            "log-cmake-build-cjson",
            "[CMakeFiles/Makefile2:192: CMakeFiles/cjson_utils.dir/all] Error 2",
            id="make",
        ),
        pytest.param(
            "log-tomcat-startup",
            "java.lang.ClassNotFoundException: com.acme.inventory.web.InventoryServlet",
            id="tomcat-exception",
        ),
        pytest.param(
            "log-tomcat-startup",
            "Context [/reports] startup failed due to previous errors",
            id="tomcat-severe",
        ),
        pytest.param("log-tomcat-startup", "Server startup in [2736] milliseconds", id="tomcat-startup"),
        pytest.param(
            "log-redis-server",
            "Error moving temp DB file temp-4845.rdb on the final destination dump.rdb",
            id="redis-error",
        ),
        pytest.param("log-redis-server", "Redis version=7.0.15", id="redis-version"),
        pytest.param(
            "log-redis-server", "Background saving terminated with success", id="redis-one-off-event"
        ),
        # JSON: top-level scalars and identity fields
        pytest.param("json-npm-view-express", '"latest": "5.3.0"', id="npm-dist-tag"),
        pytest.param("json-npm-view-express", '"node": ">= 18"', id="npm-engines"),
        pytest.param("json-npm-view-express", "ab72dace89c50c8417bd3f865dad0b4fd1ca1c73", id="npm-shasum"),
        pytest.param("json-github-search-repositories", '"total_count": 2723', id="github-total"),
        pytest.param("json-github-search-repositories", '"id": 331547', id="github-record-id"),
        # code search: definitions
        pytest.param("code-rg-flask-request", "src/flask/globals.py:57:", id="rg-global-definition"),
        pytest.param(
            "code-gitgrep-flask-teardown",
            "src/flask/sansio/scaffold.py:508:    def teardown_request",
            id="gg-def",
        ),
        pytest.param(
            "code-gitgrep-flask-teardown",
            'collect_errors.raise_any("Errors during request teardown")',
            id="gg-raise",
        ),
        # diff: newest commits with subjects; markdown: the skeleton's first headings
        pytest.param(
            "diff-gitlog-flask", "commit 2ac89889f4cc330eabd50f295dcef02828522c69", id="diff-newest"
        ),
        pytest.param(
            "diff-gitlog-flask", "c34d6e81fd8e405e6d4178bf24b364918811ef17", id="diff-merge-with-subject"
        ),
        pytest.param("md-express-history", "4.18.0 / 2022-04-25", id="md-heading"),
        pytest.param("md-express-history", "CVE-2024-51999", id="md-first-sentence"),
        # table: the header
        pytest.param(
            "table-dpkg-list", "Version                        Architecture Description", id="dpkg-header"
        ),
    ],
)
def test_key_facts_survive_in_the_summary(item_id: str, answer: str) -> None:
    assert answer in _summary(item_id)[1].text


@pytest.mark.parametrize(
    ("item_id", "outline"),
    [
        pytest.param("log-pytest-more-itertools", "log: 898 lines, 2 failed tests, ", id="pytest"),
        pytest.param("log-cmake-build-cjson", "exit status 2", id="cmake"),
        pytest.param("code-rg-flask-request", "code search: 1237 matches in 89 files", id="rg"),
        pytest.param("diff-gitlog-flask", "diff: 30 commits (13 merges), 63 file changes", id="git-log"),
        pytest.param(
            "table-dpkg-list",
            "table: 726 rows × 5 columns (||/, Name, Version, Architecture, Description)",
            id="dpkg",
        ),
        pytest.param("json-github-search-repositories", "arrays: items (30 items)", id="github"),
    ],
)
def test_outlines_count_what_the_payload_holds(item_id: str, outline: str) -> None:
    assert outline in _summary(item_id)[1].outline
