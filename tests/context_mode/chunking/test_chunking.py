"""chunk(): every character exactly once and in order, a hard byte cap, structure kept.

Speed on pathological shapes is measured in ``bench/pathological.py``, not asserted here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.chunking.split import Chunk, chunk
from context_mode.types import ContentKind

ALL_KINDS = list(ContentKind)


def checked(text: str, kind: ContentKind, cap: int = 4096) -> list[Chunk]:
    """chunk() plus the invariants every result must satisfy."""
    chunks = chunk(text, kind, max_chunk_bytes=cap)
    assert "".join(piece.text for piece in chunks) == text
    if not text:
        assert chunks == [Chunk(0, 0, 0, "", ())]
        return chunks
    position = 0
    for index, piece in enumerate(chunks):
        assert piece.index == index
        assert piece.start == position
        assert piece.text == text[piece.start : piece.end]
        assert piece.text, "no empty chunk"
        assert len(piece.text.encode("utf-8", "surrogatepass")) <= cap
        position = piece.end
    assert position == len(text)
    return chunks


# --- properties -----------------------------------------------------------------------------------

STRUCTURAL = st.text(
    alphabet=st.sampled_from([*'ab #`~{}[],:"\\\n\t -+@|=0123456789', "é", "😀", "\u2028", "\r", "\ud800"]),
    max_size=300,
)
LINES = st.lists(
    st.sampled_from(
        [
            "# Title",
            "## Sub",
            "```",
            "~~~",
            "text line",
            "",
            "Traceback (most recent call last):",
            '  File "a.py", line 1',
            "ValueError: boom",
            "\tat com.x.Y(Y.java:1)",
            "Caused by: x",
            "commit 0123456789abcdef",
            "diff --git a/x b/x",
            "--- a/x",
            "+++ b/x",
            "@@ -1,2 +1,2 @@",
            "@@ -1 +1 @@",
            " ctx",
            "-old",
            "+new",
            "src/a.py:12:hit",
            "src/b.py-13-ctx",
            "14:heading hit",
            "---",
            "===",
            "x" * 70,
            "é" * 30,
        ]
    ),
    max_size=60,
).map("\n".join)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(
    text=STRUCTURAL | LINES | st.text(max_size=200), kind=st.sampled_from(ALL_KINDS), cap=st.integers(4, 120)
)
def test_chunks_cover_the_text_in_order_within_the_cap(text: str, kind: ContentKind, cap: int) -> None:
    checked(text, kind, cap)


@settings(max_examples=200, deadline=None)
@given(value=JSON_VALUES, indent=st.sampled_from([None, 0, 1, 2]), cap=st.integers(4, 200))
def test_json_chunks_are_byte_exact_slices_of_valid_json(value: Any, indent: int | None, cap: int) -> None:
    checked(json.dumps(value, indent=indent, ensure_ascii=False), ContentKind.JSON, cap)


def test_empty_text_is_one_empty_chunk() -> None:
    assert chunk("", ContentKind.TEXT) == [Chunk(0, 0, 0, "", ())]


def test_a_cap_below_one_character_is_refused() -> None:
    with pytest.raises(ValueError, match="max_chunk_bytes=3"):
        chunk("abc", ContentKind.TEXT, max_chunk_bytes=3)


def test_a_long_line_of_multibyte_characters_is_split_between_characters() -> None:
    text = "日本語のテキスト😀" * 500
    chunks = checked(text, ContentKind.LOG, 1000)
    assert len(chunks) > 10
    assert all(len(piece.text.encode()) > 990 for piece in chunks[:-1])


def test_oversized_blocks_split_at_line_ends_first() -> None:
    text = "".join(f"line {i:04d} " + "w" * 80 + "\n" for i in range(200))
    chunks = checked(text, ContentKind.TEXT, 1000)
    assert all(piece.text.endswith("\n") for piece in chunks)


# --- markdown -------------------------------------------------------------------------------------


def test_markdown_chunks_carry_their_heading_path() -> None:
    text = "intro\n\n# Install\n\nsteps\n\n## Linux\n\napt\n\n## macOS\n\nbrew\n\n# Use\n\nrun it\n"
    chunks = checked(text, ContentKind.MARKDOWN)
    assert [piece.heading_path for piece in chunks] == [
        (),
        ("Install",),
        ("Install", "Linux"),
        ("Install", "macOS"),
        ("Use",),
    ]
    assert chunks[2].text == "## Linux\n\napt\n\n"


def test_setext_headings_and_front_matter_are_understood() -> None:
    text = "---\ntitle: x\n---\nTitle\n=====\n\nbody\n\nPart\n----\n\nmore\n"
    chunks = checked(text, ContentKind.MARKDOWN)
    assert [piece.heading_path for piece in chunks] == [(), ("Title",), ("Title", "Part")]


def test_a_fenced_code_block_stays_whole_and_hides_its_hash_lines() -> None:
    fence = "```python\n" + "".join(f"# not a heading {i}\nx = {i}\n" for i in range(40)) + "```\n"
    text = "# Code\n\n" + "prose line\n" * 30 + "\n" + fence + "\nafter\n"
    chunks = checked(text, ContentKind.MARKDOWN, 1200)
    assert any(fence in piece.text for piece in chunks)
    assert all(piece.heading_path == ("Code",) for piece in chunks)


def test_paragraphs_are_not_split_when_they_fit() -> None:
    paragraphs = [f"paragraph {i} " + "word " * 40 for i in range(30)]
    text = "# Notes\n\n" + "\n\n".join(paragraphs) + "\n"
    chunks = checked(text, ContentKind.MARKDOWN, 700)
    assert len(chunks) > 5
    for paragraph in paragraphs:
        assert any(paragraph in piece.text for piece in chunks)


# --- logs -----------------------------------------------------------------------------------------

PYTHON_TRACEBACK = """2024-05-01 12:00:03 ERROR request failed
Traceback (most recent call last):
  File "/srv/app/handlers.py", line 88, in handle
    return self.dispatch(request)
  File "/srv/app/handlers.py", line 120, in dispatch
    raise KeyError(name)
KeyError: 'user'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/server.py", line 12, in serve
    handler.handle(request)
RuntimeError: handler crashed
"""
JAVA_TRACE = """Exception in thread "main" java.lang.IllegalStateException: bad state
\tat com.example.Service.run(Service.java:42)
\tat com.example.Main.main(Main.java:7)
Caused by: java.io.IOException: disk full
\tat com.example.Store.write(Store.java:99)
\t... 2 more
"""
COMPILER_ERRORS = """main.c:5:3: error: 'count' undeclared (first use in this function)
    5 |   count = 1;
      |   ^~~~~
main.c:5:3: note: each undeclared identifier is reported only once
error[E0308]: mismatched types
 --> src/main.rs:4:18
  |
4 |     let x: u32 = "text";
  |            ---   ^^^^^^ expected `u32`, found `&str`
  |
  = note: expected type `u32`
"""


def log_around(block: str) -> str:
    before = "".join(f"2024-05-01 12:00:{i % 60:02d} INFO step {i} done\n" for i in range(150))
    after = "".join(f"2024-05-01 12:01:{i % 60:02d} INFO next {i}\n" for i in range(150))
    return before + block + after


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(PYTHON_TRACEBACK, id="python-chained"),
        pytest.param(JAVA_TRACE, id="java"),
        pytest.param(COMPILER_ERRORS.split("error[")[0], id="gcc"),
        pytest.param("error[" + COMPILER_ERRORS.split("error[")[1], id="rustc"),
    ],
)
def test_a_traceback_stays_in_one_chunk(block: str) -> None:
    for cap in (800, 1024, 1500):
        chunks = checked(log_around(block), ContentKind.LOG, cap)
        assert any(block in piece.text for piece in chunks), cap


def test_log_chunks_end_at_line_ends() -> None:
    chunks = checked(log_around(PYTHON_TRACEBACK), ContentKind.LOG, 600)
    assert all(piece.text.endswith("\n") for piece in chunks)
    assert all(piece.heading_path == () for piece in chunks)


# --- json -----------------------------------------------------------------------------------------


def test_json_arrays_are_cut_between_elements() -> None:
    items = [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(200)]
    text = json.dumps(items, indent=2)
    chunks = checked(text, ContentKind.JSON, 512)
    assert len(chunks) > 10
    for piece in chunks:
        inner = piece.text.strip()
        inner = inner.removeprefix("[").removesuffix("]").strip().strip(",")
        assert isinstance(json.loads(f"[{inner}]"), list)


def test_json_objects_are_cut_by_key_path() -> None:
    servers = {f"server{i}": {"command": "run", "args": ["--port", str(8000 + i)]} for i in range(60)}
    text = json.dumps({"config": {"servers": servers, "version": 3}, "name": "hub"}, indent=1)
    chunks = checked(text, ContentKind.JSON, 400)
    inside = [piece for piece in chunks if '"command"' in piece.text]
    assert len(inside) > 5
    assert all(piece.heading_path == ("config", "servers") for piece in inside)
    # A value cut open never shares a chunk with its siblings: "version" starts a chunk of its own.
    (version,) = [piece for piece in chunks if '"version"' in piece.text]
    assert version.heading_path == ("config",) and '"command"' not in version.text
    assert chunks[-1].heading_path == ()


def test_json_records_too_big_for_a_chunk_start_one_and_are_named_by_their_identity() -> None:
    records = [{"id": i, "full_name": f"octo/repo{i}", "url": "https://x.test/" * 20} for i in range(12)]
    text = json.dumps({"total_count": 12, "items": records}, indent=2)
    chunks = checked(text, ContentKind.JSON, 256)
    for i in range(12):
        mine = [piece for piece in chunks if f"repo{i}/" in piece.text or f'repo{i}"' in piece.text]
        assert mine and all(piece.heading_path == ("items", f"[{i}] octo/repo{i}") for piece in mine)


@pytest.mark.parametrize("kind", [ContentKind.ROWS, ContentKind.TREE, ContentKind.LINT])
def test_json_record_sets_routed_as_rows_never_mix_two_records_in_a_chunk(kind: ContentKind) -> None:
    # A GitHub issue list is routed as ROWS: its records were packed across record bounds, so the
    # first fields of one issue (title, closed_at) sat in a chunk named by no record.
    records = [
        {
            "number": i,
            "title": f"issue {i}",
            "closed_at": f"2014-09-{i:02d}",
            "html": "a " * 90,
            "body": "b " * 90,
        }
        for i in range(1, 9)
    ]
    chunks = checked(json.dumps(records, separators=(",", ":")), kind, 300)
    for i in range(1, 9):
        mine = [piece for piece in chunks if f'"number":{i},' in piece.text]
        assert [piece.heading_path for piece in mine] == [(f"[{i - 1}] issue {i}",)]
        assert f'"closed_at":"2014-09-{i:02d}"' in mine[0].text


def test_json_keeps_escapes_and_whitespace_byte_exact() -> None:
    text = '  {"a\\u00e9\\"" :\t["x\\\\", "\\ud83d\\ude00" , 1e5 ,null]  ,\n"b":{}}\n'
    for cap in (4, 8, 16, 4096):
        checked(text, ContentKind.JSON, cap)


def test_json_lines_fall_back_to_line_records() -> None:
    text = "".join(json.dumps({"n": i, "msg": "event " * 5}) + "\n" for i in range(300))
    chunks = checked(text, ContentKind.JSON, 1024)
    assert all(piece.text.endswith("\n") for piece in chunks)


def test_json_paths_stop_growing_at_twelve_keys() -> None:
    value: Any = "leaf " * 400
    for depth in range(30):
        value = {f"k{depth}": value}
    chunks = checked(json.dumps(value), ContentKind.JSON, 256)
    assert max(len(piece.heading_path) for piece in chunks) == 12
    assert any(piece.heading_path[-1:] == ("…",) for piece in chunks)


# --- diffs and code search ------------------------------------------------------------------------

DIFF = """commit 1111111111111111111111111111111111111111
Author: A <a@example.com>

    first change

diff --git a/src/app.py b/src/app.py
index 1..2 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 import os
--- not a header, a removed line
+++ not a header, an added line
@@ -10,2 +10,2 @@ def main():
-    run()
+    run(fast=True)
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-old
+new
commit 2222222222222222222222222222222222222222

    second

diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -5 +5 @@
-a
+b
"""


def test_diffs_are_cut_by_commit_and_file() -> None:
    chunks = checked(DIFF, ContentKind.DIFF)
    assert [piece.heading_path for piece in chunks] == [
        ("111111111111",),
        ("111111111111", "src/app.py"),
        ("111111111111", "README.md"),
        ("222222222222",),
        ("222222222222", "src/app.py"),
    ]
    assert "--- not a header" in chunks[1].text


def test_a_plain_unified_diff_is_cut_by_file() -> None:
    text = (
        "--- a/x.txt\t2024-01-01\n+++ b/x.txt\n@@ -1 +1 @@\n-1\n+2\n"
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n"
    )
    chunks = checked(text, ContentKind.DIFF)
    assert [piece.heading_path for piece in chunks] == [("x.txt",), ("new.txt",)]


def test_a_files_header_starts_the_chunk_of_its_first_hunk_however_big() -> None:
    # filelock 3.12.0 -> 3.16.1 (git diff): src/filelock/asyncio.py is new, one 342-line hunk.
    # Its header (diff --git … +++ b/…) was a chunk of its own, the hunk's "@@ -0,0 +1,342 @@"
    # (the new file's size) and first lines in the next: a search for the module found the header
    # without a line of it.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "diff-git-mcp-filelock-3120-to-3161.diff").read_text(encoding="utf-8")
    chunks = checked(text, ContentKind.DIFF)
    header = next(piece for piece in chunks if "+++ b/src/filelock/asyncio.py" in piece.text)
    assert "@@ -0,0 +1,342 @@" in header.text
    assert header.heading_path == ("src/filelock/asyncio.py",)
    small = "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n" + "".join(f"-{n}\n+{n + 1}\n" for n in range(300))
    first = checked(small, ContentKind.DIFF, cap=512)[0]
    assert first.text.startswith("--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-0\n")


def test_code_search_results_are_grouped_by_file() -> None:
    text = (
        "src/a.py:3:def getUser():\nsrc/a.py-4-    pass\n--\nsrc/a.py:9:getUser()\n"
        "src/b.py:1:import a\n"
        "docs/c.md\n12:getUser is documented\n13-more\n"
    )
    chunks = checked(text, ContentKind.CODE_SEARCH)
    assert [piece.heading_path for piece in chunks] == [("src/a.py",), ("src/b.py",), ("docs/c.md",)]


# --- pathological shapes (their timing is measured in bench/pathological.py, not here) ------------

NESTED_OBJECT = '{"k":' * 10_000 + '"' + "v" * 50_000 + '"' + "}" * 10_000

PATHOLOGICAL_SHAPES = [
    pytest.param("x" * 1_000_000, ContentKind.LOG, id="1MB-one-line"),
    pytest.param("é" * 500_000, ContentKind.TEXT, id="1MB-one-line-multibyte"),
    pytest.param('["' + "y" * 1_000_000 + '"]', ContentKind.JSON, id="1MB-json-string"),
    pytest.param("INFO short line\n" * 100_000, ContentKind.LOG, id="100k-log-lines"),
    pytest.param("para\n\n" * 100_000, ContentKind.MARKDOWN, id="100k-markdown-paragraphs"),
    pytest.param("a | b | c\n" * 100_000, ContentKind.TABLE, id="100k-rows"),
    pytest.param("@@ -1,100000 +1,100000 @@\n" + " context\n" * 100_000, ContentKind.DIFF, id="100k-hunk"),
    pytest.param(
        "".join(f"f{i // 7}.py:{i}:hit\n" for i in range(100_000)),
        ContentKind.CODE_SEARCH,
        id="100k-grep",
    ),
    pytest.param("[" * 10_000 + "1" + "]" * 10_000, ContentKind.JSON, id="json-10k-deep-arrays"),
    pytest.param(NESTED_OBJECT, ContentKind.JSON, id="json-10k-deep-objects"),
    pytest.param(json.dumps([{"id": i} for i in range(100_000)]), ContentKind.JSON, id="json-100k-elements"),
]


@pytest.mark.parametrize(("text", "kind"), PATHOLOGICAL_SHAPES)
def test_pathological_shapes_are_chunked_whole_and_capped(text: str, kind: ContentKind) -> None:
    chunks = chunk(text, kind)
    assert "".join(piece.text for piece in chunks) == text
    assert all(len(piece.text.encode()) <= 4096 for piece in chunks)


def test_a_value_cut_open_starts_its_chunk_with_its_key() -> None:
    # npm ls --all --json: a package too big for a chunk was cut open with its key ('"chokidar": {')
    # left at the end of its siblings' chunk; its members, the version among them, were in the next
    # one under a path naming it, and a search for the package showed the key alone
    siblings = {f"dep{i}": {"version": f"1.0.{i}", "overridden": False} for i in range(30)}
    big = {"version": "2.1.8", "dependencies": {f"sub{i}": {"version": f"3.{i}.0"} for i in range(40)}}
    text = json.dumps({"dependencies": {**siblings, "chokidar": big}}, indent=2)
    chunks = checked(text, ContentKind.JSON, 1024)
    (opening,) = [piece for piece in chunks if '"chokidar": {' in piece.text]
    assert opening.text.lstrip().startswith('"chokidar": {')
    assert '"version": "2.1.8"' in opening.text and opening.heading_path[:2] == ("dependencies", "chokidar")


def test_a_headings_link_to_itself_is_not_in_its_path() -> None:
    # Sphinx's pages fetched as Markdown end every heading with [¶](#id "Permalink to this
    # heading"): every hit's path repeated it, and "permalink" and "heading" were in every path.
    text = (
        '## 7.5. Virtual packages - `Provides`[¶](#virtual-packages-provides "Permalink to this heading")\n'
        "As well as the names of actual packages…\n"
        "### Options [#](#options)\n"
        "--force\n"
    )
    paths = [piece.heading_path for piece in chunk(text, ContentKind.MARKDOWN, max_chunk_bytes=60)]
    assert ("7.5. Virtual packages - `Provides`",) in paths
    assert ("7.5. Virtual packages - `Provides`", "Options") in paths


def test_a_drawn_trees_chunks_carry_the_directories_holding_their_lines() -> None:
    tree = "\n".join(
        [
            "[4.0K]  .",
            "├── [4.0K]  docs",
            "│   └── [ 120]  index.rst",
            "└── [4.0K]  src",
            "    └── [4.0K]  parsers",
            "        ├── [4.0K]  rst",
            "        │   └── [133K]  states.py",
            "        └── [ 300]  __init__.py",
        ]
    )
    chunks = chunk(tree, ContentKind.TREE, max_chunk_bytes=40)
    assert "".join(piece.text for piece in chunks) == tree
    path_of = {line.split()[-1]: piece.heading_path for piece in chunks for line in piece.text.splitlines()}
    assert path_of["index.rst"] == ("docs",)
    assert path_of["states.py"] == ("src", "parsers", "rst")
    assert path_of["__init__.py"] == ("src", "parsers")


def test_a_real_drawn_trees_deep_file_is_in_a_chunk_named_by_its_directories() -> None:
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "tree-s-docutils-0212-sdist.txt").read_text(encoding="utf-8")
    holding = [piece for piece in chunk(text, ContentKind.TREE) if "]  admonitions.py\n" in piece.text]
    rst = ("docutils-0.21.2", "docutils", "parsers", "rst")
    assert [piece.heading_path[:4] for piece in holding] == [rst]


MANUAL = """SSHD_CONFIG(5)              File Formats Manual              SSHD_CONFIG(5)

NAME
     sshd_config - OpenSSH daemon configuration file

DESCRIPTION
     sshd(8) reads configuration data from /etc/ssh/sshd_config (or the file
     specified with -f on the command line).

     ListenAddress
             Specifies the local addresses sshd(8) should listen on.  The
             default is to listen on all local addresses.

     LoginGraceTime
             The server disconnects after this time if the user has not
             successfully logged in.  The default is 120 seconds.

     MaxStartups
             Specifies the maximum number of concurrent unauthenticated
             connections to the SSH daemon.  The default is 10:30:100.

FILES
     /etc/ssh/sshd_config
             Contains configuration data for sshd(8).  This file should be
             writable by root only.
"""


def test_a_manual_page_is_cut_at_its_sections_and_options_each_chunk_under_its_headings() -> None:
    # A man page as ``man`` prints it: an option's description sits under its name, which is the
    # heading a search matches (failed before: one paragraph chunk with heading path ()).
    chunks = checked(MANUAL, ContentKind.TEXT, cap=256)
    paths = {piece.heading_path for piece in chunks}
    assert ("DESCRIPTION", "LoginGraceTime") in paths
    grace = next(piece for piece in chunks if "120 seconds" in piece.text)
    assert grace.heading_path == ("DESCRIPTION", "LoginGraceTime")
    assert "MaxStartups" not in grace.text  # a chunk never spans two options
    files = next(piece for piece in chunks if "writable by root" in piece.text)
    assert files.heading_path[-1] == "/etc/ssh/sshd_config"  # a section at the margin ends the last
    assert "DESCRIPTION" not in files.heading_path


def test_data_indented_under_a_line_is_no_outline() -> None:
    # ``openssl x509 -text``: fields indented under ``Validity`` are data, not a description.
    text = "Certificate:\n    Data:\n        Validity\n            Not After : Jun  4 11:04:38 2035 GMT\n" * 4
    assert {piece.heading_path for piece in checked(text, ContentKind.TEXT)} == {()}


def test_files_read_together_name_each_chunk_by_its_files_path() -> None:
    # Desktop Commander's ``read_multiple_files`` of three MCP SDK modules. A search hit named no
    # file: "#5", then lines of some module.
    from tests.searching import search

    text = (
        Path(__file__).parents[2] / "data" / "desktop-commander-read-multiple-files-mcp-client.txt"
    ).read_text(encoding="utf-8")
    chunks = chunk(text, ContentKind.SOURCE, max_chunk_bytes=2048)
    assert "".join(piece.text for piece in chunks) == text
    named = {piece.heading_path for piece in chunks}
    assert named >= {("…/mcp/client/stdio.py",), ("…/mcp/client/sse.py",), ("…/mcp/shared/_httpx_utils.py",)}
    for piece in chunks:  # a chunk named by a file holds no other file's lines
        headers = piece.text.count(" contents: ---\n") - int(piece.text.startswith("--- "))
        assert headers == 0 if piece.heading_path else headers == 1
    reply = search(text, ContentKind.SOURCE, {"query": "read timeout seconds"})
    named = [line.split(" · ")[-1] for line in reply.splitlines() if line.startswith("#") and " · " in line]
    assert "…/mcp/client/sse.py" in named, reply
