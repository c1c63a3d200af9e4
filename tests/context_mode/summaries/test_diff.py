"""Diff summaries of `git show` and `git log`: the small changes and the commits stand out."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from context_mode.chunking import chunk
from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy, resolve_style
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.summaries.diff_manifest import entry_lines
from context_mode.summaries.diff_messages import message_end
from context_mode.summaries.diff_parse import is_salient, parse
from context_mode.summaries.diff_paths import is_copied
from context_mode.summaries.diff_remarks import is_comment
from context_mode.types import ContentKind, OutputStyle
from tests.corpora import BENCH_CORPUS, own_summary
from tests.verbatim import clipped_from

DATA = Path(__file__).resolve().parents[2] / "data"

CORPUS = Path(__file__).resolve().parents[3] / "bench" / "corpus"


def routed(text: str, tool: str, style: OutputStyle | None = None) -> Summary:
    chosen = style or resolve_style(tool).style
    decision = route(text, style=chosen, policy=RoutingPolicy(), tool=tool, arguments={})
    assert isinstance(decision, Summary), decision
    return decision


def test_git_show_puts_a_small_change_before_big_files_hunk_headers() -> None:
    # A release commit of 47 files: the one-line version bump was left out for hunk headers.
    text = (CORPUS / "gitlog-git-show-packaging-22.txt").read_text(encoding="utf-8")
    summary = routed(text, "git_show").extract.text
    assert '+__version__ = "22.0"' in summary
    assert "--- a/setup.py" in summary  # a deleted file is named, not "+++ /dev/null"


def test_a_commit_list_without_patches_is_summarised_not_a_bare_directive(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True
        ).stdout

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    for number in range(40):
        (tmp_path / "notes.txt").write_text(f"note {number}\n" * 40)
        git("add", "notes.txt")
        git("commit", "-q", "-m", f"Change number {number} of the notes", "-m", "Longer body text. " * 20)
    text = git("log")
    # Untagged (AUTO), as a shell tool's output is: it was a Directive with no content at all.
    summary = routed(text, "run", OutputStyle.AUTO).extract.text
    assert "Change number 39 of the notes" in summary
    assert summary.count("commit ") >= 3


def test_a_oneline_log_is_a_commit_list_newest_and_oldest_first() -> None:
    # `git log --oneline` was text with nothing standing out: a Directive with no commit.
    text = (Path(__file__).parents[2] / "data" / "git-log-oneline-packaging.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=300)
    lines = extract.text.splitlines()
    assert lines[0] == "* 09cbd84 (HEAD -> main, tag: 26.4) Release packaging 26.4"
    assert lines[-1] == text.splitlines()[-1]  # the oldest commit: where the log ends
    assert extract.outline == "diff: 24 commits (0 merges), one line each"
    assert extract.highlights == 24


def test_a_diff_with_stat_names_its_biggest_files_by_their_stat_lines_and_shows_what_sources_define() -> None:
    # git diff --stat -p between two Flask releases, 53 files: the totals and the biggest files'
    # stat lines (path and size of its change) first; then what the change defines or sets, which
    # the first lines of 30 docs and requirements files used to crowd out, then the other files.
    text = (CORPUS / "diff-git-diff-flask-3-0-3-3-1-0.diff").read_text(encoding="utf-8")
    summary = routed(text, "git_diff").extract.text.split("\n")
    assert " 53 files changed, 977 insertions(+), 467 deletions(-)" in summary
    head = text.split("\ndiff --git ", 1)[0].splitlines()
    stat = [line for line in head if " | " in line]
    assert len(stat) == 53
    biggest = sorted(stat, key=lambda line: -int(line.split("|")[1].split()[0]))[:10]
    assert all(line in summary for line in biggest)
    assert sum(line in summary for line in stat) >= 25
    assert '+version = "3.1.0"' in summary  # pyproject.toml
    assert '+            "SECRET_KEY_FALLBACKS": None,' in summary  # src/flask/app.py
    assert "index " not in "\n".join(summary)  # a file's index and ---/+++ lines are not shown, nor marked


def _file_diff(path: str, hunk: str, removed: list[str], added: list[str]) -> list[str]:
    return [
        f"diff --git a/{path} b/{path}",
        "index 1111111..2222222 100644",
        f"--- a/{path}",
        f"+++ b/{path}",
        hunk,
        "   context line",
        *(f"-{line}" for line in removed),
        *(f"+{line}" for line in added),
        "   context line",
    ]


def test_what_a_change_defines_or_sets_outranks_the_first_lines_of_doc_fixes() -> None:
    lines: list[str] = []
    for number in range(30):  # a docs sweep comes first in path order
        lines += _file_diff(
            f"docs/guide{number:02d}.rst",
            f"@@ -{number + 10},3 +{number + 10},3 @@",
            [f"Teh guide {number} explains the feature in some detail, paragraph {n}." for n in range(8)],
            [f"The guide {number} explains the feature in some detail, paragraph {n}." for n in range(8)],
        )
    lines += _file_diff(
        "pyproject.toml", "@@ -5,3 +5,3 @@", ['requires-python = ">=3.9"'], ['requires-python = ">=3.10"']
    )
    lines += _file_diff(
        "src/client/retry.py",
        "@@ -40,6 +40,12 @@ class Client:",
        [],
        [
            "    def retry_after(self, seconds: int) -> None:",
            "        self._wait(seconds)",
            "",
            "MAX_RETRIES = 5",
        ],
    )
    summary = routed("\n".join(lines), "git_diff").extract.text
    assert '+requires-python = ">=3.10"' in summary
    assert "+    def retry_after(self, seconds: int) -> None:" in summary
    assert "+MAX_RETRIES = 5" in summary


def test_in_a_log_of_many_commits_each_commit_shows_what_it_defines_or_sets() -> None:
    # git log -p of six's last six releases: hunk headers alone before; now the version bump and
    # the version guard of a release's changed lines.
    text = (CORPUS / "gitlog-git-log-p-six.txt").read_text(encoding="utf-8")
    summary = routed(text, "git_log").extract.text.split("\n")
    assert '+__version__ = "1.17.0"' in summary
    assert "+if sys.version_info[:2] < (3, 14):" in summary


def test_the_git_mcp_servers_log_is_a_commit_list_with_every_commit_by_hash_and_subject() -> None:
    # Its unindented commit messages ("... a test that failed before ...") read as a log of
    # errors: the summary showed message lines with "failed" in them and no commit.
    text = (Path(__file__).resolve().parents[2] / "data" / "mcp-git-log-ctxhub.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="git_log") is ContentKind.DIFF
    decision = route(text, tool="git_log", arguments={"repo_path": "."})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("diff: 60 commits")
    lines = decision.extract.text.splitlines()
    entries = text.split("\n\nCommit: ")
    first_hash = entries[0].split("Commit: ")[1].split("\n")[0]
    assert f"Commit: {first_hash}" in lines
    with_subject = [
        line
        for at, line in enumerate(lines[:-1])
        if line.startswith("Commit: ") and lines[at + 1].startswith("Message: ")
    ]
    assert len(with_subject) >= 10


def test_diff_r_names_the_files_only_one_side_has() -> None:
    # ``diff -ru`` of two releases says "Only in attrs-23.2.0: .python-version-default" for a file
    # added or removed: no header and no +/- lines, so no such line was ever shown.
    text = (Path(__file__).parents[2] / "data" / "diff-ru-attrs-23-1-23-2-head.txt").read_text(
        encoding="utf-8"
    )
    lines = summarize(text, ContentKind.DIFF, budget=2500).text.splitlines()
    for only in (
        "Only in attrs-23.1.0/.github: sponsors",
        "Only in attrs-23.2.0: .python-version-default",
        "Only in attrs-23.2.0/docs/_static: social card.png",
    ):
        assert only in lines, only


def test_a_word_diff_is_a_diff_with_its_marked_changes() -> None:
    # ``git diff --word-diff``: its changed lines hold [-old-]{+new+} and no +/- in front, so it
    # read as Markdown (a Directive of 12 kB) with no change shown.
    text = (Path(__file__).parents[2] / "data" / "git-diff-word-diff-attrs-make-head.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=2000)
    lines = extract.text.splitlines()
    assert "{+import contextlib+}" in lines
    # the file by the line naming it once (``diff --git`` names it in both trees compared)
    assert any(line.startswith("+++ b/attrs-23.2.0/src/attr/_make.py") for line in lines)
    assert extract.outline.startswith("diff: 1 file changes")


def test_the_line_a_tool_writes_above_its_diff_is_shown_first() -> None:
    # The git MCP server's git_diff opens with "Diff with 8.1.3:", what the diff compares
    # against; stage 1 elided it ("… 1 line …").
    text = (Path(__file__).parents[2] / "data" / "git-mcp-diff-click-8-1-3-head.txt").read_text(
        encoding="utf-8"
    )
    decision = route(text, tool="git_diff", arguments={"target": "8.1.3"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert lines[0] == "Diff with 8.1.3:"
    assert lines[1].startswith("+++ b/CHANGES.rst")


def test_a_formatters_own_lines_between_and_under_its_diffs_are_kept() -> None:
    # black --check --diff: each file's diff, then "would reformat <file>", and its verdict
    # "18 files would be reformatted." last. Only the diffs were read: neither was in stage 1.
    text = (Path(__file__).parents[2] / "data" / "black-check-diff-pexpect-excerpt.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    body = summarize(text, ContentKind.DIFF, budget=3000).text
    assert body.endswith("Oh no! 💥 💔 💥\n18 files would be reformatted.")
    for name in ("ANSI", "__init__", "_async", "FSM", "_async_pre_await", "_async_w_await"):
        assert f"\nwould reformat /tmp/w/src27/pexpect-4.9.0/pexpect/{name}.py\n" in body, name
    assert len(body.encode()) <= 3000


def test_a_diff_of_many_moved_files_shows_what_changed_and_the_changelogs_release() -> None:
    # 59 files, half of them moved whole: their headers filled stage 1 in path order, and NEWS's
    # new "Version 2.9.0 (2024-02-29)" was not in it.
    text = (Path(__file__).parents[2] / "data" / "git-diff-dateutil-2-8-2-2-9-0-renames.diff").read_text(
        encoding="utf-8"
    )
    body = summarize(text, ContentKind.DIFF, budget=2700).text
    assert "+Version 2.9.0 (2024-02-29)" in body
    assert "+++ b/NEWS [+34 -0]" in body
    assert len(body.encode()) <= 2700


def test_a_log_of_commits_shows_their_dates_and_first_body_lines_when_room_is_left() -> None:
    # The git MCP server's git_log of 27 releases: each commit's hash and subject, and nothing of
    # when it was or what its message says, though room was left.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "gitlog-click-sdist-releases.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.DIFF, budget=4500).text
    assert (
        "Commit: 2b5da86d88fdc61d7371c181061be89fbcba6af5\nDate: 2026-11-06 17:37:01+00:00\n"
        "Message: Release version 8.5.1\n"
    ) in body
    assert "\nUnpacked from the click-8.5.1.tar.gz sdist uploaded to PyPI on 2026-11-06.\n" in body
    assert sum(line.startswith("Commit: ") for line in body.split("\n")) == 27  # every commit first
    assert len(body.encode()) <= 4500


def test_a_config_diff_shows_the_settings_it_changes_before_its_comments() -> None:
    # diff -u of pgcli's pgclirc between 3.0.0 and 4.1.0: the settings set to a word (False) or a
    # list of words were no settings, so the changed comment lines above them filled the room.
    text = (Path(__file__).parents[2] / "data" / "diff-u-pgclirc-300-410.txt").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.DIFF, budget=1100).text
    assert "+destructive_warning = drop, shutdown, delete, truncate, alter" in shown
    assert "+verbose_errors = False" in shown


def test_a_short_logs_commits_each_show_their_date_before_their_stat_lines() -> None:
    # git log --stat --format=fuller of six releases: the dates came after every --stat line, so
    # a 2 kB summary showed the files of the first commits and no commit's date.
    text = (DATA / "git-log-stat-fuller-pyjwt-releases.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.DIFF, budget=2000)
    dates = [line for line in text.splitlines() if line.startswith("AuthorDate: ")]
    assert len(dates) == 6
    for line in dates:
        assert line in extract.text.splitlines()
    assert " 6 files changed, 26 insertions(+), 7 deletions(-)" in extract.text


def test_a_long_logs_newest_and_oldest_commits_show_their_dates() -> None:
    # git log --stat --summary of ini's 29 releases (10.7 kB): its commits' hashes, subjects and
    # stat totals took the room, and no date said when the newest release was made (failed
    # before); the oldest commit's date comes with its hash when that is shown, and the dates in
    # between still give way to more commits.
    commits = []
    for n in range(29):
        commits += [
            f"commit {n:040x}",
            "Author: Lin <lin@example.com>",
            f"Date:   2026-05-{28 - n:02d} 22:36:35 +0000",
            "",
            f"    ini {29 - n}.0.0",
            "",
            " lib/ini.js | 12 ++++++------",
            " 1 file changed, 6 insertions(+), 6 deletions(-)",
            "",
        ]
    shown = summarize("\n".join(commits), ContentKind.DIFF, budget=1500).text.splitlines()
    assert "Date:   2026-05-28 22:36:35 +0000" in shown  # the newest
    assert "Date:   2026-05-14 22:36:35 +0000" not in shown


def test_a_long_fuller_log_is_a_log_of_commits_not_text() -> None:
    # git log -M --stat --summary --format=fuller of 25 chokidar releases: past 20 commits, the
    # AuthorDate / Commit / CommitDate lines outweighed the lines detection knew of a log, and the
    # 16 kB log was "text: 448 lines" with nothing shown (failed before)
    from context_mode.kinds import detect_kind
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "gitlog-capi-git-log-m-stat-summary-fuller-chokidar-218-403.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=2000)
    assert "    chokidar 4.0.3 (npm tarball)" in extract.text.split("\n")
    # a log without patches counts what its --stat totals say ("0 file changes, 0 hunks" before)
    assert extract.outline == "diff: 25 commits (0 merges), --stat: 161 file changes, +9123 -5251 lines"


def test_the_files_a_change_created_deleted_or_renamed_are_shown_with_its_totals() -> None:
    # git diff -M --stat --summary between hosted-git-info 4.1.0 and 5.2.1: the --summary lines
    # under the totals (``rename index.js => lib/index.js (55%)``, ``create mode 100644 …``) ranked
    # as changed lines' context and were left out (failed before)
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "diff-git-diff-m-hosted-git-info-410-521-renames.diff").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.DIFF, budget=2000).text.split("\n")
    assert " rename index.js => lib/index.js (55%)" in shown
    assert " create mode 100644 lib/parse-url.js" in shown


def test_a_long_stat_keeps_its_biggest_files_and_gives_the_rest_of_its_room_to_what_is_set() -> None:
    # git diff --stat -p between two Flask releases: 53 --stat lines ranked above every changed line
    # that sets something, so the new "Werkzeug>=3.1" pin was left out for small files' stat lines
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "diff-git-diff-flask-3-0-3-3-1-0.diff").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.DIFF, budget=5000).text.split("\n")
    assert " requirements/dev.txt                               | 179 +++++++++++----------" in shown
    assert " src/flask/cli.py                                   | 120 ++++++++------" in shown
    assert any(line.strip() == '+    "Werkzeug>=3.1",' for line in shown)


@pytest.mark.parametrize(
    ("name", "tool", "floor"),
    [
        pytest.param(
            "diff-git-diff-pyflakes-3-4-0-to-4-1-0.txt",
            "git_diff",
            "+    python_requires='>=3.11',",
            id="setup-py",
        ),
        pytest.param(
            "diff-git-diff-stat-patch-h11-0140-0160.txt",
            "git_diff",
            '+    python_requires=">=3.8",',
            id="stat-patch",
        ),
        pytest.param(
            "diff-word-diff-schedule-110-122.txt",
            "run_command",
            '    [-python_requires=">=3.6",-]{+python_requires=">=3.7",+}',
            id="word-diff",
        ),
        pytest.param(
            "diff-format-patch-minimatch-903-1001.txt",
            "run_command",
            '+    "node": "20 || >=22"',
            id="engines",
        ),
    ],
)
def test_a_changed_floor_on_the_platform_is_shown_next_to_the_totals(
    name: str, tool: str, floor: str
) -> None:
    # Release diffs of pyflakes, h11, schedule and minimatch: the new minimum Python or Node (who
    # can still upgrade) was one changed line among hundreds and was left out.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert floor in routed(text, tool).extract.text.split("\n")


def test_a_release_logs_commits_show_what_their_messages_say_they_changed() -> None:
    # git log --stat of sixteen python-slugify releases, each message a changelog section: the
    # subjects say only "python-slugify 9.1.0", and the first lines of the message, which say what
    # changed, ranked below every commit's file list.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "gitlog-git-log-stat-python-slugify-releases.txt").read_text(encoding="utf-8")
    # At 2.8 kB: at the 2.6 kB it is routed with, the newest and oldest commits' dates take the
    # room of this one message line (its facts are the same either way).
    shown = summarize(text, ContentKind.DIFF, budget=2800).text.split("\n")
    # 8.0.4's message (8.0.3's "- Fix pattern types." until its stat lines ranked below it too)
    assert "    - Properly handle uppercase special characters (@mib1185 - thx)" in shown
    assert not any(" | " in line for line in shown)  # no file's stat line before the messages
    assert sum(line.startswith("commit ") for line in shown) == 16  # every commit still


def test_a_diff_of_many_hunks_gets_room_for_them_not_only_for_its_files() -> None:
    # filelock 3.12.0 -> 3.16.1 through the git MCP server's git_diff: 16 files, 63 hunks. The
    # budget grew with files and commits only; what the tests and the base class define was left
    # out (the first and a later file's definitions, below their files' lists of changes).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "diff-git-mcp-filelock-3120-to-3161.diff").read_text(encoding="utf-8")
    policy = RoutingPolicy()
    decision = route(
        text, style=resolve_style("git_diff").style, policy=policy, tool="git_diff", arguments={}
    )
    assert isinstance(decision, Summary)
    assert policy.summary_budget < decision.budget <= policy.summary_budget_max
    assert "def is_singleton(self) -> bool:" in decision.extract.text
    assert "def test_subclass_compatibility(tmp_path: Path) -> None:" in decision.extract.text


@pytest.mark.parametrize(
    ("name", "release", "date"),
    [
        ("gitlog-p-itsdangerous-212-220.txt", "+Version 2.2.0", "+Released 2024-04-16"),
        ("diff-git-word-diff-markupsafe-2-1-5-to-3-0-0.diff", "{+Version 3.0.0+}", "{+Released 2024-08-07+}"),
    ],
)
def test_a_changelogs_new_release_comes_with_the_date_below_it(name: str, release: str, date: str) -> None:
    # itsdangerous 2.1.2 -> 2.2.0 as git log -p, MarkupSafe 2.1.5 -> 3.0.0 as git diff --word-diff:
    # CHANGES.rst's date two lines below its release line (after the rule and, in the word diff, a
    # blank line) was not shown.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    assert release in decision.extract.text
    assert date in decision.extract.text


def test_a_dated_diff_u_header_still_names_its_changelog() -> None:
    # ``diff -ru old new``'s headers end in a tab and a date; the path read off them kept the date,
    # so CHANGELOG.md was not known for a changelog and its newest release line was not shown.
    text = (CORPUS / "diff-ru-uuid-npm-832-901.txt").read_text(encoding="utf-8")
    summary = routed(text, "run_command").extract.text
    assert "+## [9.0.1](https://github.com/uuidjs/uuid/compare/v9.0.0...v9.0.1) (2023-09-12)" in summary


def test_lines_a_hunk_only_reformats_or_a_copy_repeats_give_way_to_what_changed() -> None:
    # Koa 2.16.1 -> 3.0.0 as diff -ru: every source file drops its semicolons, so each hunk's
    # first changed lines were a removed block of requires the hunk adds back unchanged but for
    # the ``;``; dayjs 1.11.9 -> 1.11.13 (git diff -- esm): the plugins' locale files repeat one
    # change, and the duration plugin's new constant was left out for them.
    koa = (CORPUS / "diff-ru-koa-2-16-1-to-3-0-0.diff").read_text(encoding="utf-8")
    summary = routed(koa, "run_command").extract.text
    assert "-const debug = require('debug')('koa:application');" not in summary
    assert "+    const fn = this.compose(this.middleware)" in summary
    dayjs = (CORPUS / "diff-git-diff-dayjs-1119-11113-esm.diff").read_text(encoding="utf-8")
    assert (
        "+var MILLISECONDS_A_MONTH = MILLISECONDS_A_YEAR / 12;" in routed(dayjs, "run_command").extract.text
    )


_REWRAPPED = """\
diff --git a/lib/command.js b/lib/command.js
index v12.0.0..v12.1.0 100644
--- a/lib/command.js
+++ b/lib/command.js
@@ -349,6 +356,8 @@
   addArgument(argument) {
     const previousArgument = this.registeredArguments.slice(-1)[0];
     if (previousArgument && previousArgument.variadic) {
-      throw new Error(`only the last argument can be variadic '${previousArgument.name()}'`);
+      throw new Error(
+        `only the last argument can be variadic '${previousArgument.name()}'`,
+      );
     }
diff --git a/typings/index.d.ts b/typings/index.d.ts
index v12.0.0..v12.1.0 100644
--- a/typings/index.d.ts
+++ b/typings/index.d.ts
@@ -40,7 +42,8 @@
 export { InvalidArgumentError as InvalidOptionArgumentError }; // deprecated old name
-export interface ErrorOptions { // optional parameter for error()
+export interface ErrorOptions {
+  // optional parameter for error()
   /** an id string representing the error */
@@ -163,11 +164,6 @@
   env(name: string): this;
   /**
-   * Calculate the full description, including defaultValue etc.
-   */
-  fullDescription(): string;
-
-  /**
    * Set the custom handler for processing CLI option arguments into option values.
"""


def test_a_line_a_formatter_wraps_over_several_lines_or_joins_into_one_is_no_change() -> None:
    # commander 12.0.0 -> 12.1.0 (npm diff): Prettier wraps long calls over three lines and moves
    # a trailing comment to its own line; each hunk's first changed lines (and the error's message)
    # were those rewrapped lines, and the method the typings dropped was left out for them.
    lines = _REWRAPPED.splitlines()
    command, typings = parse(lines)[0].files
    assert command.changed == command.salient == []
    assert [lines[start] for start, _ in typings.changed] == ["-  fullDescription(): string;"]


def test_a_file_rewritten_whole_is_read_by_what_it_adds_not_only_by_what_it_removed() -> None:
    # wheel 0.43 -> 0.44 (the git MCP server's diff): bdist_wheel.py's 600 lines give way to a
    # deprecation shim; the dozen lines a file's summary keeps alone were the first functions it
    # removed, and the warning it now gives (where the command moved) was left out.
    text = (CORPUS / "diff-git-mcp-diff-wheel-0430-0440.txt").read_text(encoding="utf-8")
    summary = routed(text, "git_diff").extract.text
    assert '+    "v70.1 or later which contains an integrated version of this command.",' in summary
    assert "-def safe_name(name):" in summary  # what it removed still has its places


@pytest.mark.parametrize(
    ("name", "tool", "raised"),
    [
        pytest.param(
            "diff-ru-picomatch-231-402.txt",
            "run_command",
            "-          throw new Error('Node.js v10 or higher is required for regex lookbehinds');",
            id="diff-ru-removed-throw",
        ),
        pytest.param(
            "diff-git-mcp-show-peewee-3171.txt",
            "git_show",
            "+            raise ValueError('`default` must be not None/NULL.')",
            id="git-show-added-raise",
        ),
    ],
)
def test_a_changed_line_raising_an_error_with_its_message_is_shown(name: str, tool: str, raised: str) -> None:
    # picomatch 2.3.1 -> 4.0.2 (diff -ru) drops the error old Node versions got; peewee 3.17.1's
    # migrator raises a new one: a message a user sees when it fails, which was not shown.
    text = (CORPUS / name).read_text(encoding="utf-8")
    assert raised in routed(text, tool).extract.text


def test_a_modules_new_version_info_tuple_is_salient() -> None:
    # Python-Markdown 3.4.4 -> 3.5 as diff -ru, 33 files: ``__version_info__`` was not read as a
    # version, so the release's new version tuple was not shown.
    text = (CORPUS / "diff-ru-markdown-344-35.txt").read_text(encoding="utf-8")
    assert "+__version_info__ = (3, 5, 0, 'final', 0)" in routed(text, "run_command").extract.text


def test_a_dependency_pinned_to_an_exact_version_is_salient() -> None:
    # body-parser 1.20.0 -> 1.20.3 as git log -p --stat --format=fuller: package.json pins its
    # dependencies exactly (``"qs": "6.13.0",``), which read as no version spec (no ^, ~ or >=),
    # so the latest release's dependency bump was not shown.
    text = (CORPUS / "gitlog-p-stat-fuller-body-parser-1200-1203.txt").read_text(encoding="utf-8")
    assert '+    "qs": "6.13.0",' in routed(text, "run_command").extract.text


@pytest.mark.parametrize(
    ("name", "tool", "header", "hunk"),
    [
        pytest.param(
            "diff-git-mcp-filelock-3120-to-3161.diff",
            "git_diff",
            "diff --git a/src/filelock/asyncio.py b/src/filelock/asyncio.py",
            "@@ -0,0 +1,342 @@",
            id="git-mcp-diff",
        ),
        pytest.param(
            "diff-git-diff-dayjs-1119-11113-esm.diff",
            "run_command",
            "diff --git a/esm/plugin/negativeYear/index.js b/esm/plugin/negativeYear/index.js",
            "@@ -0,0 +1,36 @@",
            id="git-diff",
        ),
    ],
)
def test_a_file_added_whole_shows_its_length_under_its_header(
    name: str, tool: str, header: str, hunk: str
) -> None:
    # filelock 3.12.0 -> 3.16.1 (git MCP server's git_diff) adds asyncio.py, dayjs 1.11.9 -> 1.11.13
    # a negativeYear plugin: the one hunk's header, the new file's length, was left out as a bare one.
    text = (CORPUS / name).read_text(encoding="utf-8")
    summary = routed(text, tool).extract.text.splitlines()
    assert hunk in summary
    assert any(line.startswith(header) for line in summary)


def test_a_files_biggest_hunk_header_comes_before_its_other_hunk_headers() -> None:
    # debug 4.3.4 -> 4.4.0 as diff -ru: src/common.js rewrites its namespace matching in one hunk
    # of 62 lines among four; its bare header ranked with the others, after every changed line.
    text = (CORPUS / "diff-ru-npm-debug-434-440.txt").read_text(encoding="utf-8")
    assert "@@ -166,24 +166,62 @@" in routed(text, "run_command").extract.text.splitlines()


@pytest.mark.parametrize(
    ("name", "line"),
    [
        pytest.param("diff-word-diff-schedule-110-122.txt", '{+timezone = ["pytz"]+}', id="added-setting"),
        pytest.param(
            "diff-git-word-diff-markupsafe-2-1-5-to-3-0-0.diff",
            "[-def soft_unicode(s: Any)-]{+_escape_inner(s: str, /)+} -> str: ...",
            id="changed-definition",
        ),
    ],
)
def test_a_word_diff_line_that_defines_or_sets_something_is_salient(name: str, line: str) -> None:
    # schedule 1.1.0 -> 1.2.2 and MarkupSafe 2.1.5 -> 3.0.0 as git diff --word-diff: a line was
    # read as if it began with a +/- mark (its first character cut off), so none was salient.
    text = (CORPUS / name).read_text(encoding="utf-8")
    assert line in routed(text, "run_command").extract.text.splitlines()


def test_a_files_header_names_it_once_by_its_new_side() -> None:
    # cookie 0.3.1 -> 0.6.0 as git log -p -n 5: ``diff --git a/x b/x`` names each file twice and
    # ``+++ b/x`` once; the room the second name took held the maxAge check's new error and a
    # dependency bump. A file renamed, added or deleted keeps its ``diff --git`` line.
    text = (CORPUS / "gitlog-p-n5-cookie-031-060.txt").read_text(encoding="utf-8")
    summary = own_summary(text, routed(text, "run_command")).splitlines()  # the diff summary's picks
    assert "+++ b/package.json" in [line.split(" [", 1)[0] for line in summary]
    assert not any(line.startswith("diff --git a/package.json") for line in summary)
    assert "+      throw new TypeError('option maxAge is invalid')" in summary


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param(
            "diff-git-diff-stat-patch-h11-0140-0160.txt",
            [
                "+                raise LocalProtocolError(",
                '+                    f"malformed chunk footer: {data!r} '
                '(expected {self._bytes_to_discard!r})"',
            ],
            id="raise-then-message",
        ),
        pytest.param(
            "diff-word-diff-schedule-110-122.txt",
            [
                "{+                raise ScheduleValueError(+}",
                '{+                    "Timezone must be string or pytz.timezone object"+}',
            ],
            id="word-diff-raise-then-message",
        ),
        pytest.param(
            "diff-ru-koa-2-16-1-to-3-0-0.diff",
            ["-      deprecate('Support for generators will be removed in v3. ' +"],
            id="removed-deprecation",
        ),
    ],
)
def test_an_error_or_warning_shows_its_message_written_below_the_call(name: str, message: list[str]) -> None:
    # h11 0.14.0 -> 0.16.0 (git diff --stat -p) raises a new error whose message is on the line
    # below ``raise LocalProtocolError(``; schedule 1.1.0 -> 1.2.2 (--word-diff) likewise; koa 3
    # drops the deprecation generators got. A call without its message on the line was no setting
    # and no raise with a message, so neither the call nor the message a user sees was shown.
    summary = routed((CORPUS / name).read_text(encoding="utf-8"), "run_command").extract.text.splitlines()
    start = summary.index(message[0])
    assert summary[start : start + len(message)] == message


@pytest.mark.parametrize(
    ("line", "end"),
    [
        pytest.param("+    raise KeyError(", 3, id="raise-without-message"),
        pytest.param("+warnings.warn(", 3, id="warning"),
        pytest.param("-    throw new TypeError('option maxAge is invalid')", 1, id="message-on-the-line"),
        pytest.param("+    count = warn_count(3)", -1, id="no-message-call"),
        pytest.param("     raise KeyError(", -1, id="context-line"),
    ],
)
def test_a_message_is_the_string_lines_below_an_error_or_warning_call(line: str, end: int) -> None:
    lines = [line, '+        f"no key {key!r}"', '+        " in the table"', "+    )", '+    "after"']
    assert message_end(lines, 0) == end


def test_vendored_code_gives_way_to_the_projects_own_files() -> None:
    # chalk 4.1.2 -> 5.3.0 (git MCP server's git_diff --stat -p) vendors ansi-styles and
    # supports-color under source/vendor/: their definitions took the room of the --stat list,
    # whose last files (the vendored browser build among them) were not shown.
    text = (CORPUS / "diff-git-stat-chalk-412-530.txt").read_text(encoding="utf-8")
    summary = routed(text, "git_diff").extract.text.splitlines()
    stat = [line for line in text.splitlines()[:15] if " | " in line]
    assert stat[-1] == " source/vendor/supports-color/index.js     | 182 +++++++++++++"
    assert all(line in summary for line in stat)


@pytest.mark.parametrize(
    ("path", "copied"),
    [
        pytest.param("src/wheel/vendored/packaging/tags.py", True, id="vendored"),
        pytest.param("package/dist/esm-browser/v4.js", True, id="build-output"),
        pytest.param("pyflakes.egg-info/PKG-INFO", True, id="generated"),
        pytest.param("static/app.min.js", True, id="minified"),
        pytest.param("src/flask/app.py", False, id="source"),
        pytest.param("docs/distribution.rst", False, id="a-name-like-a-build-folder"),
    ],
)
def test_build_output_and_vendored_copies_are_told_from_the_projects_files(path: str, copied: bool) -> None:
    assert is_copied(path) is copied


def test_a_hunks_first_changed_lines_start_at_its_code_not_at_the_comment_above_it() -> None:
    # debug 4.3.4 -> 4.4.0 as diff -ru: node.js's log() hunk first rewords its doc comment, then
    # changes the call; the hunk's first changed lines were the comment's, and the new call (what
    # the change does) was not shown.
    text = (CORPUS / "diff-ru-npm-debug-434-440.txt").read_text(encoding="utf-8")
    summary = routed(text, "run_command").extract.text.splitlines()
    assert (
        "+\treturn process.stderr.write(util.formatWithOptions(exports.inspectOpts, ...args) + '\\n');"
        in summary
    )


@pytest.mark.parametrize(
    ("line", "comment"),
    [
        pytest.param("+# Enables context sensitive auto-completion.", True, id="hash-comment"),
        pytest.param("- * Invokes `util.format()` with the specified arguments", True, id="block-comment"),
        pytest.param("+    // keep the old name", True, id="line-comment"),
        pytest.param('{+    """Return the escaped string.+}', True, id="word-diff-docstring"),
        pytest.param("+#include <stdio.h>", False, id="preprocessor"),
        pytest.param("+\t*p = 0;", False, id="pointer"),
        pytest.param("+max_field_width = 500", False, id="setting"),
    ],
)
def test_a_changed_comment_is_told_from_changed_code(line: str, comment: bool) -> None:
    assert is_comment(line) is comment


@pytest.mark.parametrize(
    ("name", "tool", "entries"),
    [
        pytest.param(
            "diff-git-stat-chalk-412-530.txt",
            "git_diff",
            ['+\t"main": "./source/index.js",', '+\t\t"test": "xo && c8 ava && tsd",'],
            id="chalk-module-format",
        ),
        pytest.param(
            "diff-ru-koa-2-16-1-to-3-0-0.diff",
            "run_command",
            ['+    "test": "node --test",'],
            id="koa-test-runner",
        ),
    ],
)
def test_a_manifests_entry_points_and_test_command_come_before_its_repinned_dependencies(
    name: str, tool: str, entries: list[str]
) -> None:
    # chalk 5 became an ES module tested by c8, koa 3 moved from jest to node --test: their
    # package.json lines were lost among dozens of re-pinned devDependencies.
    summary = routed((CORPUS / name).read_text(encoding="utf-8"), tool).extract.text
    for entry in entries:
        assert entry in summary


@pytest.mark.parametrize(
    ("line", "entry"),
    [
        pytest.param('+  "main": "./dist/commonjs/index.js",', True, id="main"),
        pytest.param('-  "type": "module"', True, id="type"),
        pytest.param('+    "test": "tap",', True, id="test-script"),
        pytest.param('+        "types": "./dist/esm/index.d.ts",', False, id="nested-types"),
        pytest.param('+  "module": "./dist/esm/index.js"', False, id="bundler-hint"),
        pytest.param('+  "exports": {', False, id="exports-map"),
        pytest.param('+    "jest": "28.1.3",', False, id="dependency"),
    ],
)
def test_a_manifests_entry_lines_are_its_top_level_entry_points_and_commands(line: str, entry: bool) -> None:
    assert entry_lines(["@@ -1,1 +1,1 @@", line], 0, 2) == ([1] if entry else [])


def test_an_option_default_set_in_an_object_literal_is_shown() -> None:
    # qs 6.13 adds four options to its parser's defaults object, each one line among context
    # lines: only the hunk's first (`allowEmptyArrays: false,`) was shown.
    text = (CORPUS / "diff-git-diff-function-context-qs-6112-6130.diff").read_text(encoding="utf-8")
    summary = routed(text, "run_command").extract.text
    assert "+    duplicates: 'combine'," in summary


@pytest.mark.parametrize(
    ("line", "salient"),
    [
        pytest.param("+    duplicates: 'combine',", True, id="js-option"),
        pytest.param("+  max_connections: 100", True, id="yaml-number"),
        pytest.param("+    strictDepth: false,", True, id="js-flag"),
        pytest.param("+    encoder: utils.encode,", False, id="reference"),
        pytest.param("+    name: string;", False, id="ts-field-type"),
        pytest.param("+    parse_float: ParseFloat = float,", False, id="annotated-parameter"),
    ],
)
def test_an_option_set_to_a_literal_is_salient(line: str, salient: bool) -> None:
    assert is_salient(line) is salient


def test_a_mercurial_log_is_a_log_of_changesets() -> None:
    from tests.corpora import BENCH_CORPUS

    # `hg log -v --stat` of 22 asgiref releases: its `changeset:   20:1899f6b969b2` entries and
    # lower-case fields were no commits, so it read as "log: 351 lines, 0 errors" and showed none
    # of the releases' dates.
    text = (BENCH_CORPUS / "gitlog-capo-hg-log-v-stat-asgiref-380-3130-releases.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=1500)
    assert extract.outline.startswith("diff: 22 commits (0 merges), --stat: 119 file changes")
    shown = extract.text.splitlines()
    at = shown.index("changeset:   20:1899f6b969b2")
    assert "asgiref 3.13.0 (sdist from PyPI)" in shown[at + 1 : at + 3]  # its subject, under its date
    assert " 20 files changed, 1391 insertions(+), 127 deletions(-)" in shown
    # plain `hg log --stat`: the `summary:` line is the subject
    plain = (
        "changeset:   3:968c954732fe\ntag:         tip\nuser:        Dev <dev@example.com>\n"
        "date:        Fri Dec 04 10:00:00 2026 +0000\n"
        "summary:     Added tag v1.3 for changeset 15772d5a8e66\n\n"
        " .hgtags |  1 +\n 1 files changed, 1 insertions(+), 0 deletions(-)\n\n"
        "changeset:   2:15772d5a8e66\ntag:         v1.3\nuser:        Dev <dev@example.com>\n"
        "date:        Thu Dec 03 10:00:00 2026 +0000\nsummary:     Release 1.3: change a and add b3\n\n"
        " a.txt  |  2 +-\n b3.txt |  1 +\n 2 files changed, 2 insertions(+), 1 deletions(-)\n"
    )
    assert detect_kind(plain) is ContentKind.DIFF
    assert (
        "summary:     Release 1.3: change a and add b3" in summarize(plain, ContentKind.DIFF, budget=600).text
    )


def test_a_raw_log_is_commits_with_their_files_by_status() -> None:
    from tests.corpora import BENCH_CORPUS

    # `git log --raw -m --format=fuller` over eight uuid releases: its `:100644 000000 639ca2f
    # 0000000 D\tdist/umd/uuid.min.js` lines read as no diff's, so it was "text: 319 lines".
    text = (BENCH_CORPUS / "gitlog-capq-git-log-raw-m-fuller-uuid-800-901-npm-releases.log").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=2500)
    assert (
        extract.outline
        == "diff: 8 commits (0 merges), --raw: 232 file changes (130 modified, 89 added, 13 deleted)"
    )
    assert "commit 4732ba0564ff5b13ffc3e8891cb0b8558c48475d" in extract.text.splitlines()
    assert ":000000 100644 0000000 5586dd3 A\tdist/commonjs-browser/index.js" in extract.text.splitlines()
    # `git log --raw -M`: a rename carries its similarity after its letter (`R100`)
    renamed = (
        "commit a1b0bdd5f48e8135400325bf9e90072e6f71adde\nAuthor:     a <a@b>\n\n    two\n\n"
        ":100644 100644 587be6b b77b4eb M\tb.txt\n:100644 100644 96cc558 96cc558 R100\ta.txt\tc.txt\n\n"
        "commit 07cbfc60d2e50742f81ec10fc7357ba47d34fa8c\nAuthor:     a <a@b>\n\n    one\n\n"
        ":000000 100644 0000000 96cc558 A\ta.txt\n:000000 100644 0000000 587be6b A\tb.txt\n"
    )
    outline = summarize(renamed, ContentKind.DIFF, budget=800).outline
    assert outline == "diff: 2 commits (0 merges), --raw: 4 file changes (2 added, 1 modified, 1 renamed)"


def test_a_breezy_log_with_patches_is_a_log_of_revisions() -> None:
    # brz log -v -p of six texttable releases: `revno: 7` entries were no commits, so the output
    # was one diff of 37 files under the first revision's header, no later revision's date shown
    # (failed before).
    from tests.corpora import BENCH_CORPUS

    path = BENCH_CORPUS / "gitlog-caps-brz-332-log-v-p-texttable-164-172-sdists.txt"
    extract = summarize(path.read_text(encoding="utf-8"), ContentKind.DIFF, budget=3000)
    assert extract.outline.startswith("diff: 6 commits (0 merges), 37 file changes")
    shown = extract.text.splitlines()
    assert "revno: 6" in shown
    assert "timestamp: Mon 2026-10-12 09:31:00 +0000" in shown
    assert "  Import texttable 1.7.1 sdist from PyPI" in shown


def test_a_name_status_log_is_a_diff_whose_messages_come_before_their_files() -> None:
    # ``git log --name-status`` read as Markdown (its messages' ``* …`` items): "no headings", its
    # bodies cut; once a diff, each commit's ``M\tindex.js`` lines outranked its message's body
    # (failed before).
    from tests.corpora import BENCH_CORPUS

    name = "gitlog-cpc-git-log-all-decorate-name-status-fuller-send-0130-121-npm-releases.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    decision = route(text, tool="run_command", arguments={"command": "git log --all --name-status"})
    assert isinstance(decision, Summary), decision
    assert decision.extract.outline.startswith(
        "diff: 27 commits (0 merges), --name-status: 90 file changes (82 modified, 6 added, 2 deleted)"
    )
    shown = own_summary(text, decision, {"command": "git log --all --name-status"}).split("\n")
    assert "    * Drop support for Node.js <18.0" in shown
    assert "    * Remove link renderization in html while redirecting" in shown
    assert "D\tHISTORY.md" in shown  # a file deleted is worth its line


def _two_trees(root: Path) -> None:
    """Two versions of a tree: a script edited in three places, a file only the old one has."""
    script = (DATA / "git-sh-setup-2395.sh.txt").read_text(encoding="utf-8")
    edited = (
        script.replace(
            'die () {\n\tdie_with_status 1 "$@"\n}\n',
            'die () {\n\tdie_with_status 128 "$@"\n}\n',
        )
        .replace(
            "is_bare_repository () {\n",
            "is_shallow_repository () {\n\tgit rev-parse --is-shallow-repository\n}\n\n"
            "is_bare_repository () {\n",
        )
        .replace('\t\tgettextln "Cannot chdir to \\$cdup, the toplevel of the working tree" >&2\n', "")
    )
    assert edited.count("\n") == script.count("\n") + 3
    for side, text in (("old", script), ("new", edited)):
        (root / side / "lib").mkdir(parents=True)
        (root / side / "lib" / "git-sh-setup.sh").write_text(text, encoding="utf-8")
    (root / "old" / "lib" / "git-sh-i18n.sh").write_text(script[:400], encoding="utf-8")


@pytest.mark.skipif(shutil.which("diff") is None, reason="needs diffutils' diff")
@pytest.mark.parametrize(("flag", "shown"), [("-r", ">"), ("-rc", "+")])
def test_plain_diff_normal_and_context_formats_read_as_diffs(tmp_path: Path, flag: str, shown: str) -> None:
    # ``diff -r old new`` writes the normal format (``47c47``, ``< old``, ``---``, ``> new``) and
    # ``diff -rc`` the context format (``*** 45,51 ****`` over ``! old`` lines, ``--- 45,51 ----``
    # over ``! new`` ones): both read as Markdown (``>`` a quote, ``***`` a rule), so pluggy
    # 1.4.0 -> 1.5.0 as ``diff -rc`` had three "headings" in stage 1 and no file named.
    _two_trees(tmp_path)
    run = subprocess.run(
        ["diff", flag, "old", "new"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert run.returncode == 1, run.stderr
    text = run.stdout
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=1500)
    assert extract.outline == "diff: 1 file changes, 3 hunks, +5 -2 lines"
    lines = extract.text.splitlines()
    # ``-r`` names the file on its ``diff`` line alone; ``-rc`` once more, on its new side's line
    named = (
        "diff -r old/lib/git-sh-setup.sh new/lib/git-sh-setup.sh"
        if flag == "-r"
        else "--- new/lib/git-sh-setup.sh\t"
    )
    assert any(line.startswith(named) and line.endswith(" [+5 -2]") for line in lines)
    assert f"{shown} is_shallow_repository () {{" in lines  # a function it adds
    assert "Only in old/lib: git-sh-i18n.sh" in lines
    written = text.splitlines()
    shown_lines = [re.sub(r" \[\+\d+ -\d+\]\Z", "", line) for line in lines if not line.startswith("…")]
    assert all(clipped_from(line, written) for line in shown_lines)  # verbatim, the file's note aside


def test_a_context_diffs_search_chunks_are_its_files() -> None:
    # pluggy 1.4.0 -> 1.5.0 as ``diff -rc``: read as Markdown, and even as a diff each hunk's new
    # side (``--- 46,52 ----``) was taken for a file header, so hits were named "46,52 ----".
    text = (CORPUS / "diff-capw-diff-rc-context-pluggy-140-150-sdists.diff").read_text(encoding="utf-8")
    kind = detect_kind(text, tool_name="run_command")
    assert kind is ContentKind.DIFF
    named = {piece.heading_path[-1] for piece in chunk(text, kind) if piece.heading_path}
    assert "pluggy-1.5.0/src/pluggy/_hooks.py" in named
    assert all(name.startswith(("pluggy-1.4.0/", "pluggy-1.5.0/")) for name in named), sorted(named)


def _history(root: Path) -> None:
    """A repository of three commits, each changing two of a project's files."""

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    script = (DATA / "git-sh-setup-2395.sh.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    (root / "lib").mkdir()
    for number, subject in enumerate(("Import git-sh-setup", "Add the pager helper", "Drop the i18n hook")):
        (root / "lib" / "setup.sh").write_text("".join(script[: 120 * (number + 1)]), encoding="utf-8")
        (root / "NEWS.md").write_text(f"release {number}\n", encoding="utf-8")
        git("add", "-A")
        git("commit", "-q", "-m", subject)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize(
    ("flags", "outline"),
    [
        (["--numstat"], "diff: 3 commits (0 merges), --numstat: 6 file changes, +360 -2 lines"),
        (["--name-only"], "diff: 3 commits (0 merges), 6 file changes"),
        (["--oneline", "--stat"], "diff: 3 commits (0 merges), --stat: 6 file changes, +360 -2 lines"),
        (["--oneline", "--numstat"], "diff: 3 commits (0 merges), --numstat: 6 file changes, +360 -2 lines"),
        (["--oneline", "--name-only"], "diff: 3 commits (0 merges), 6 file changes"),
    ],
)
def test_a_log_listing_each_commits_files_is_a_commit_log(
    tmp_path: Path, flags: list[str], outline: str
) -> None:
    # ``git log --numstat`` and ``--name-only`` (``12<TAB>3<TAB>path``, a bare path) read as text
    # (40 commits shown as one ``commit …`` line "[×40]"), and ``--oneline`` with ``--stat`` fell
    # to the one-line list, its files left out.
    _history(tmp_path)
    text = subprocess.run(
        ["git", "log", *flags], cwd=tmp_path, check=True, capture_output=True, text=True
    ).stdout
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=1500)
    assert extract.outline == outline
    lines = extract.text.splitlines()
    subjects = [line for line in lines if line.endswith(("Import git-sh-setup", "Drop the i18n hook"))]
    assert len(subjects) == 2, lines  # the newest and the oldest commit
    assert any("lib/setup.sh" in line for line in lines)  # a file it changed


def _svn_log(root: Path) -> str:
    """``svn log -v`` of a repository of three revisions of a script, each adding a file."""
    script = (DATA / "git-sh-setup-2395.sh.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    subprocess.run(["svnadmin", "create", str(root / "repo")], check=True)
    subprocess.run(["svn", "checkout", "-q", f"file://{root}/repo", str(root / "wc")], check=True)
    for number in range(1, 4):
        (root / "wc" / "setup.sh").write_text("".join(script[: 100 * number]), encoding="utf-8")
        (root / "wc" / f"notes{number}.txt").write_text(f"release {number}\n", encoding="utf-8")
        added = ["setup.sh"] if number == 1 else []
        subprocess.run(["svn", "add", "-q", *added, f"notes{number}.txt"], cwd=root / "wc", check=True)
        message = f"Release {number}: the setup script to line {100 * number}"
        subprocess.run(["svn", "commit", "-q", "-m", message], cwd=root / "wc", check=True)
    subprocess.run(["svn", "update", "-q"], cwd=root / "wc", check=True)
    return subprocess.run(
        ["svn", "log", "-v"], cwd=root / "wc", check=True, capture_output=True, text=True
    ).stdout


def _rlog(root: Path) -> str:
    """``rlog`` of an RCS file of three revisions."""
    script = (DATA / "git-sh-setup-2395.sh.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    (root / "RCS").mkdir()
    for number in range(1, 4):
        (root / "setup.sh").write_text("".join(script[: 100 * number]), encoding="utf-8")
        message = f"-mRelease {number}: the setup script to line {100 * number}"
        subprocess.run(["ci", "-q", "-l", message, "-t-setup script", "setup.sh"], cwd=root, check=True)
    return subprocess.run(["rlog", "setup.sh"], cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(
    shutil.which("svn") is None or shutil.which("rlog") is None, reason="needs subversion, rcs"
)
@pytest.mark.parametrize(
    ("log", "entry", "first"), [(_svn_log, "r3 | ", "r1 | "), (_rlog, "revision 1.3", "revision 1.1")]
)
def test_other_version_controls_logs_are_commit_logs(
    tmp_path: Path, log: Any, entry: str, first: str
) -> None:
    # ``svn log -v`` (``r3 | root | 2026-12-06 … | 1 line`` and its ``Changed paths:``), ``rlog`` and
    # ``cvs log`` (``revision 1.3`` over ``date: …;  author: …;  lines: +117 -0``): their rules of
    # dashes made them Markdown ("headings" the lines above each rule), the entries unread.
    text = log(tmp_path)
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=1500)
    assert extract.outline.startswith("diff: 3 commits (0 merges)")
    lines = extract.text.splitlines()
    assert any(line.startswith(entry) for line in lines) and any(line.startswith(first) for line in lines)
    assert "Release 3: the setup script to line 300" in lines  # the newest entry's message


def test_a_cvs_logs_revisions_are_its_commits() -> None:
    text = (CORPUS / "gitlog-capy-cvs-11213-log-appdirs-120-144-sdists.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    assert summarize(text, ContentKind.DIFF, budget=2500).outline.startswith("diff: ")
    assert parse(text.splitlines())[0].line >= 0  # its first revision opens a commit


def test_a_formatters_diff_shows_what_it_reformats_in_the_room_left() -> None:
    # ``ruff format --diff`` (as ``black --diff``, ``shfmt -d``) changes nothing but quotes, spaces
    # and wrapping. Before: every such line was left out as a reformat, and a 3 kB budget showed
    # 1 kB: hunk headers and "… 43 lines …".
    ruff = Path(__file__).parents[3] / ".venv" / "bin" / "ruff"
    ruff = ruff if ruff.exists() else Path(shutil.which("ruff") or "ruff")
    source = (Path(__file__).parents[3] / "tests" / "data" / "apache-license-2.0.txt").read_text(
        encoding="utf-8"
    )
    unquoted = str.maketrans("", "", "'\"\\")  # no quote or backslash in a string literal
    lines = [line.strip().translate(unquoted) for line in source.splitlines() if line.strip()][:40]
    # each badly formatted statement among formatted ones: a hunk each
    program = "".join(
        f"term_{n} = '{line}'\n" + "".join(f"WIDTH_{n}_{k} = {k}\n" for k in range(8))
        for n, line in enumerate(lines)
    )
    out = subprocess.run(
        [str(ruff), "format", "--diff", "--stdin-filename", "terms.py", "-"],
        input=program,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert out.count("\n@@ ") >= 30, out[:400]
    decision = route(out, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    shown = decision.extract.text.split("\n")
    assert sum(line.startswith("-term_") for line in shown) >= 5
    assert sum(line.startswith("+term_") for line in shown) >= 5
    assert len(decision.extract.text.encode()) > decision.budget * 0.6


def test_one_commit_without_its_patch_is_a_commit(tmp_path: Path) -> None:
    # ``git show --stat`` (or ``--name-status``) of one commit. Before: a table of two columns
    # named ``commit`` and the hash, its files as rows.
    git = ["git", "-C", str(tmp_path), "-c", "user.name=A U Thor", "-c", "user.email=author@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    license_lines = (Path(__file__).parents[2] / "data" / "apache-license-2.0.txt").read_text(
        encoding="utf-8"
    )
    for n in range(150):
        named = tmp_path / "license" / "sections" / f"section_of_the_apache_license_{n:03d}.txt"
        named.parent.mkdir(parents=True, exist_ok=True)
        named.write_text(license_lines[n * 60 : (n + 1) * 60] + "\n", encoding="utf-8")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "Split the license into sections"], check=True)
    for option in ("--stat", "--name-status"):
        shown = subprocess.run(
            [*git, "show", option, "HEAD"], capture_output=True, text=True, check=True
        ).stdout
        assert detect_kind(shown, tool_name="run_command") is ContentKind.DIFF, option
        decision = route(shown, tool="run_command", policy=RoutingPolicy())
        assert isinstance(decision, Summary)
        assert decision.extract.outline.startswith("diff: 1 commit (0 merges), "), decision.extract.outline
        assert "    Split the license into sections" in decision.extract.text.split("\n")


def test_hg_export_patches_are_commits_named_by_their_node_ids() -> None:
    # hg export of four changesets (a real capture): each "# HG changeset patch" header was read as
    # lines of one diff ("diff: 19 file changes"), the later changesets' ids and changes cut.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "gitlog-cpw-hg-632-export-git-shortuuid-109-1013-sdists.diff").read_text()
    extract = summarize(text, ContentKind.DIFF, budget=2800)
    assert extract.outline.startswith("diff: 4 commits (0 merges)")
    shown = extract.text.split("\n")
    assert "# Node ID 17358b68b7d10c07cc31638452020ffac95dbd9a" in shown
    assert "# Node ID 89dbb13643372eca4f44d4d7e01164b93a1d0489" in shown  # the last changeset
    assert "#      Thu Nov 11 11:19:00 2021 +0000" in shown  # its date, readable
    assert "# HG changeset patch" not in shown  # says nothing the node id does not


def test_a_diff_of_many_dated_files_shows_each_header_without_its_date() -> None:
    # ``diff -ru`` of two luxon releases (12 files, each header dated 1985-10-26, npm's tarball
    # epoch): each header showed its 36-character date. Failed before: the header was whole.
    text = (CORPUS / "diff-fern-diff-ru-luxon-344-350-src.diff").read_text(encoding="utf-8")
    shown = routed(text, "run_command").extract.text
    assert "+++ luxon-3.5.0/package/src/datetime.js… [+141 -7]" in shown.split("\n")
    assert "1985-10-26" not in shown


def test_a_diff_of_one_or_two_dated_files_keeps_their_dates() -> None:
    # black's ``--diff`` of two files: when each changed is worth its line.
    text = (CORPUS / "diff-cpo-black-24100-diff-docopt-062-sdist.diff").read_text(encoding="utf-8")
    shown = routed(text, "run_command").extract.text
    assert "+++ setup.py\t2026-12-06 09:22:45.142619+00:00 [+17 -17]" in shown.split("\n")


def test_a_file_compared_in_two_trees_is_named_once() -> None:
    # ``diff -rc`` of two pluggy sdists: each file's ``diff -rc pluggy-1.4.0/x pluggy-1.5.0/x`` line
    # named it twice, a hundred bytes a file. Failed before: the header was that line.
    text = (CORPUS / "diff-capw-diff-rc-context-pluggy-140-150-sdists.diff").read_text(encoding="utf-8")
    shown = routed(text, "run_command").extract.text.split("\n")
    assert "--- pluggy-1.5.0/src/pluggy/_hooks.py… [+25 -11]" in shown
    assert not any(line.startswith("diff -rc ") for line in shown)
    # A renamed file keeps the line naming both its names.
    assert (
        parse(["diff --git a/a.py b/b.py", "--- a/a.py", "+++ b/b.py", "@@ -1 +1 @@", "-x", "+y"])[0]
        .files[0]
        .header
        == 0
    )


def test_a_coloured_diff_is_read_through_its_colour_codes_and_shown_as_sent() -> None:
    # ``git diff --color=always`` between CPython 3.11.2's and 3.11.7's csv.py, ipaddress.py and
    # shutil.py (git 2.39). Before: "no diff found", and stage 1 was the text's first lines.
    text = (DATA / "git-diff-color-always-cpython-csv-ipaddress-shutil-3112-3117.txt").read_text(
        encoding="utf-8"
    )
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.kind is ContentKind.DIFF
    assert decision.extract.outline.startswith("diff: 3 file changes, 19 hunks, +58 -115 lines")
    shown = decision.extract.text
    assert "\x1b[1m+++ b/ipaddress.py\x1b[m [+22 -80]" in shown
    assert "\x1b[36m@@ -1575,15 +1548,13 @@\x1b[m \x1b[mclass _IPv4Constants:\x1b[m" in shown
    payload = set(text.splitlines())
    assert all(
        line == "…" or clipped_from(re.sub(r" \[\+\d+ -\d+\]$", "", line), payload)
        for line in shown.splitlines()
    )


def test_a_cvs_revision_is_shown_with_the_file_it_is_of() -> None:
    # ``cvs log`` names each file once (``Working file: CHANGES.rst``), above its revisions; a
    # revision shown without it (``revision 1.7``, ``lines: +9 -0``) said nothing of what changed.
    text = (BENCH_CORPUS / "gitlog-capy-cvs-11213-log-appdirs-120-144-sdists.txt").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.kind is ContentKind.DIFF
    shown = decision.extract.text.splitlines()
    assert "revision 1.7" in shown
    assert shown.index("Working file: CHANGES.rst") < shown.index("revision 1.7")
