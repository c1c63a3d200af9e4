"""Plain ``diff``'s normal and context formats read line for line as a unified diff."""

from __future__ import annotations

from context_mode.classic_diff import as_unified

NORMAL = """diff -r old/a.sh new/a.sh
49c49
< \tdie_with_status 1 "$@"
---
> \tdie_with_status 128 "$@"
164a165,166
> is_shallow () {
> }
172d173
< \t\tgettextln "Cannot chdir" >&2
\\ No newline at end of file
Only in old: b.sh
""".splitlines()

CONTEXT = """*** old/a.sh\t2026-12-06 07:12:39 +0000
--- new/a.sh\t2026-12-06 07:12:39 +0000
***************
*** 46,48 ****
  die () {
! \tdie_with_status 1 "$@"
  }
--- 46,48 ----
  die () {
! \tdie_with_status 128 "$@"
  }
***************
*** 162,163 ****
--- 162,164 ----
  }
+ is_shallow () {
  is_bare () {
""".splitlines()


def test_normal_hunks_are_counted_so_they_span_their_lines() -> None:
    assert as_unified(NORMAL) == [
        "diff --git a/old/a.sh b/new/a.sh",
        "@@ -49,2 +49,2 @@",
        '-\tdie_with_status 1 "$@"',
        " ",
        '+\tdie_with_status 128 "$@"',
        "@@ -164,0 +165,2 @@",
        "+is_shallow () {",
        "+}",
        "@@ -172,1 +173,0 @@",
        '-\t\tgettextln "Cannot chdir" >&2',
        "\\ No newline at end of file",
        "Only in old: b.sh",
    ]


def test_context_hunks_read_old_then_new_side() -> None:
    assert as_unified(CONTEXT) == [
        "--- old/a.sh\t2026-12-06 07:12:39 +0000",
        "+++ new/a.sh\t2026-12-06 07:12:39 +0000",
        "",
        "@@ -46,6 +46,6 @@",
        " die () {",
        '-\tdie_with_status 1 "$@"',
        " }",
        " ",
        " die () {",
        '+\tdie_with_status 128 "$@"',
        " }",
        "",
        "@@ -162,3 +162,4 @@",
        " ",
        " }",
        "+is_shallow () {",
        " is_bare () {",
    ]


def test_other_text_is_left_alone() -> None:
    quoted = ["Release notes", "1a2", "> a quoted line", "> another", "", "*** bold rule ***"]
    assert as_unified(quoted[:2] + ["plain text"]) is None  # no hunk: a line reading "1a2"
    unified = ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old", "+new", "*** 1,2 ****", "5c5", "< a"]
    assert as_unified(unified) is None  # a unified diff is read as it is
    assert as_unified([]) is None
