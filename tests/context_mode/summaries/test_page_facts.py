"""Stage 1 of a web page (markdown) keeps the lines that state facts, beside its outline.

On a real fetched page (``tests/data/fetch-sqlite-pragma-head.md``): "The default … is …" lines,
and the sections a converted page opens with a rule instead of a heading (``**PRAGMA** …``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.summaries.changes import change_lines
from context_mode.summaries.markdown import is_badges
from context_mode.summaries.packing import size
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS, bench_stage1

PAGE = Path(__file__).resolve().parents[2] / "data" / "fetch-sqlite-pragma-head.md"


def _stage1() -> str:
    decision = route(PAGE.read_text(encoding="utf-8"), tool="fetch", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert size(decision.extract.text) <= decision.budget
    return decision.extract.text


def test_a_fetched_page_keeps_its_the_default_is_lines() -> None:
    lines = _stage1().split("\n")
    assert 'The default setting for auto-vacuum is 0 or "none",' in lines
    assert "The default suggested cache size is -2000, which means the cache size" in lines


def test_a_section_opened_by_a_rule_shows_its_first_line() -> None:
    lines = _stage1().split("\n")
    assert "**PRAGMA** *schema.***auto\\_vacuum;  " in lines
    assert "**PRAGMA** *schema.***cache\\_size;" in lines


def test_front_matter_opens_the_summary() -> None:
    text = (
        "---\ntitle: Spec\nversion: '0.31.2'\n---\n\n# Intro\n\n" + "Some text.\n\n## Part\n\nMore.\n" * 300
    )
    body = summarize(text, ContentKind.MARKDOWN, budget=600).text
    assert body.startswith("---\ntitle: Spec\nversion: '0.31.2'\n---\n")


def test_a_page_without_headings_is_summarised_by_its_list_of_linked_questions() -> None:
    # SQLite's FAQ as `fetch` returns it: no heading, questions as a numbered list of links,
    # answers in blockquotes. It was read as text with nothing standing out: a Directive.
    text = (Path(__file__).parents[2] / "data" / "fetch-sqlite-faq-head.md").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.MARKDOWN
    extract = summarize(text, ContentKind.MARKDOWN, budget=900)
    assert extract.highlights > 0  # so the router sends a summary, not a Directive
    lines = extract.text.splitlines()
    assert lines[0] == "Contents of http://127.0.0.1:8765/sqlite3/faq.html:"
    assert "1. [How do I create an AUTOINCREMENT field?](#q1)" in lines
    assert "9. [What is the maximum size of a VARCHAR in SQLite?](#q9)" in lines
    assert extract.outline == "markdown: 150 lines, no headings, 27 list links"


def test_a_reference_page_of_definition_lists_shows_terms_and_their_defaults() -> None:
    # git-config(1) as `fetch` returns it (266 kB): six headings, then hundreds of variables
    # as a definition list (term, then ":   definition"). Stage 1 was 648 bytes of headings with
    # one default a section; each term is now a section of its own, a late default ranks nearly
    # as an early one, and a default is shown under its term.
    text = (BENCH_CORPUS / "webpage-fetch-git-config.md").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="fetch", arguments={})
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert decision.extract.highlights > 30 and size(body) > 4000
    assert decision.extract.outline.endswith(", 726 defined terms")
    lines = body.splitlines()
    # diff.autoRefreshIndex, near a third of the way down, with its term above its default (the
    # page's lead above its first heading, shown since, took diff.renameLimit's default's room)
    at = lines.index("diff.autoRefreshIndex")
    assert lines[at + 2] == "    index. This option defaults to true. Note that this"


def test_a_page_that_is_mostly_a_table_shows_its_header_and_rows() -> None:
    # A Datasette page fetched as markdown: two headings and a table of 100 rows. Stage 1 was
    # the two headings, 489 bytes of a 1.5 kB budget, and none of the table.
    page = PAGE.with_name("fetch-datasette-diabetes-page.md").read_text(encoding="utf-8")
    decision = route(page, tool="fetch", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert decision.extract.outline.endswith(", 1 table (100 rows)")
    shown = decision.extract.text
    assert "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" in shown
    # Each row's link to its page is left out: the page has a hundred (``link_targets``).
    assert "| [257](…) | 257 | 256 | 35.0 | 1.0 | 41.3 | 81.0 | 168.0 |" in shown
    assert sum(line.startswith("| [") for line in shown.split("\n")) >= 8  # its rows fill the room
    assert size(shown) <= decision.budget


def test_room_left_after_the_outline_goes_to_each_sections_next_lines() -> None:
    # openssl s_client's "---" separators read as setext headings: stage 1 was the ten "headings"
    # and their first lines, 868 bytes of a 2.4 kB budget, without the certificate's validity,
    # the handshake's cipher or the verification result.
    page = PAGE.with_name("openssl-s-client-local-tls.txt").read_text(encoding="utf-8")
    decision = route(page, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    shown = decision.extract.text
    assert "   v:NotBefore: Dec  3 05:13:54 2026 GMT; NotAfter: Jan  4 05:13:54 2028 GMT" in shown
    assert "New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384" in shown
    assert size(shown) <= decision.budget


def test_a_fetched_pages_lead_above_its_first_heading_is_shown() -> None:
    # mcp-server-fetch's Markdown of tornado.web's page has no title heading: the lead sentence
    # ("`tornado.web` provides a simple web framework …") stood above the first "##" heading, in
    # no section, and stage 1 left it out.
    text = (Path(__file__).parents[2] / "data" / "fetch-tornado-web-head.md").read_text(encoding="utf-8")
    summary = summarize(text, ContentKind.MARKDOWN, budget=1200).text
    assert "`tornado.web` provides a simple web framework with asynchronous" in summary


def test_a_long_pages_last_lines_are_shown_below_its_last_heading() -> None:
    # Failed before: GNU parallel's 3,600-line tutorial ended its stage 1 at the last heading;
    # its last line, the copyright and licence, was not in it (nor curl's closing advice).
    for name, last in (
        ("webpage-fetch-gnu-parallel-tutorial.md", "(C) 2013-2022 Ole Tange, GFDLv1.3+"),
        ("markdown-zcat-curl-art-of-http-scripting.md", "HTTPS forces you to use `SSLKEYLOGFILE`"),
    ):
        assert last in bench_stage1(name, "fetch")


def test_a_headings_link_to_itself_is_left_out_of_stage_1() -> None:
    # psycopg2's NEWS page fetched as Markdown: every release heading ended in a Sphinx permalink
    # (`[¶](#… "Permalink to this heading")`), a third of each heading line's bytes.
    stage1 = bench_stage1("webpage-fetch-psycopg2-2-9-5-news.txt", "fetch")
    assert "Permalink" not in stage1
    assert "Add support for Python 3.11." in stage1


def test_a_defined_terms_link_to_itself_is_left_out_of_stage_1() -> None:
    # Sphinx's configuration reference: each option is a term ending in `[¶](#confval-… "Permalink
    # to this definition")`, about as long as the term itself.
    stage1 = bench_stage1("webpage-fetch-sphinx-configuration.md", "fetch")
    assert "Permalink to this definition" not in stage1
    assert "project…" in stage1.splitlines()


def test_a_reference_pages_deprecation_notes_are_shown() -> None:
    # Failed before: GIO's GSettings reference (79 kB) showed its outline and defaults, but not
    # that the `schema` property "has been deprecated since version 2.32", which is what an agent
    # about to use it needs; nor did trio's history show which APIs were removed and when.
    stage1 = bench_stage1("webpage-fetch-gio-gsettings.md", "fetch")
    assert "`GSettings:schema` has been deprecated since version 2.32 and should not be used" in stage1
    history = bench_stage1("webpage-fetch-trio-0270-history.md", "fetch")
    assert "* Remove `BlockingTrioPortal`: it was deprecated in 0.12.0." in history


@pytest.mark.parametrize(
    ("line", "noted"),
    [
        pytest.param("Changed in version 5.0: No longer validates the code", True, id="changed-in"),
        pytest.param("Starting with version 4.0, `nano` no longer hard-wraps", True, id="starting"),
        pytest.param("The `tz` module is deprecated and scheduled to be dropped", True, id="deprecated"),
        pytest.param("Option `-z` (`--suspendable`) has been removed.", True, id="removed"),
        pytest.param("When needed, use `unset breaklonglines` instead.", True, id="use-instead"),
        pytest.param("* Dropped support for Python 2.7, 3.4, 3.5.", True, id="dropped-support"),
        pytest.param("- **Remove Python 2 support** (#2740)", True, id="remove-support"),
        pytest.param("- Black no longer supports running with Python 3.8", True, id="no-longer-supports"),
        pytest.param("* Added support for Python 3.12.", False, id="added-support"),
        pytest.param("New in version 3.2.", False, id="new-in-version"),
        pytest.param("fish no longer crashes when the history file is empty.", False, id="a-fix"),
    ],
)
def test_a_change_note_is_a_deprecation_removal_replacement_or_version_change(line: str, noted: bool) -> None:
    assert change_lines(f"# Title\n{line}\nmore text") == ([1] if noted else [])


def test_a_changelogs_dropped_support_is_shown() -> None:
    # Failed before: Black's CHANGES.md showed its releases' first items, not that the newest
    # release no longer runs on Python 3.8 nor which release removed Python 2 support.
    stage1 = bench_stage1("markdown-cat-black-24100-changes.md")
    assert "- Black no longer supports running with Python 3.8 (#4452)" in stage1
    assert "- **Remove Python 2 support** (#2740)" in stage1


def test_a_term_or_statement_said_again_gives_way_to_new_ones() -> None:
    # Failed before: tornado.web's reference said "If default is not provided, the argument is
    # considered to be" under three methods and showed it three times, "Parameters:" twice; Ant's
    # junit page showed the nested elements' repeated `filtertrace` row, not the task's own `fork`
    # default.
    # At the 4.8 kB it had: a larger budget has room for a repeat after every new line.
    page = (BENCH_CORPUS / "webpage-fetch-tornado-web.md").read_text(encoding="utf-8")
    tornado = summarize(page, ContentKind.MARKDOWN, budget=4400).text
    assert tornado.count("If default is not provided") == 1
    assert tornado.count("Parameters:") == 1
    junit = bench_stage1("webpage-fetch-ant-junit.md", "fetch")
    assert '| fork | Run the tests in a separate JVM. | No; default is "off" |' in junit


def test_a_default_stated_late_in_a_long_line_is_shown_through_its_sentence() -> None:
    # Failed before: fish's release notes give each change as one line of 424 chars; the line
    # stating the new default was shown to its 200th char, before "The new default is …".
    stage1 = bench_stage1("webpage-fetch-fish-360-relnotes.md", "fetch")
    assert (
        "The new default is `exclusive`; use `set fish_cursor_selection_mode inclusive` to get the "
        "previous behavior back"
    ) in stage1
    item = (
        "* A new option, `--tabsize`, can be used to configure how wide a tab is shown on the screen "
        "and in the file browser, so that projects with their own style can set it in their own rc "
        "file. The default is 8 columns, as it was before. Other text follows here.\n"
    )
    text = "# Notes\n\nFirst words.\n\n" + item
    shown = summarize(text, ContentKind.MARKDOWN, budget=600).text
    assert "The default is 8 columns, as it was before.…" in shown


def test_release_notes_show_the_newest_releases_lines() -> None:
    # Failed before: psycopg2's NEWS page showed 2.9.5's first item and then every older release's
    # heading, not the wheel's OpenSSL and libpq versions two items below; date-fns's changelog
    # not the newest release's advice to upgrade `TZDate`.
    news = bench_stage1("webpage-fetch-psycopg2-2-9-5-news.txt", "fetch")
    assert "* Wheel package compiled against OpenSSL 1.1.1r and PostgreSQL 15 libpq." in news
    changelog = bench_stage1("markdown-changelog-date-fns.md")
    assert "Make sure also upgrade `TZDate` to v1.0.2" in changelog


def test_a_changelogs_repeated_section_headings_give_way_to_its_versions() -> None:
    # Failed before: a Keep a Changelog file's "### Added" / "### Fixed" under every release took
    # a tight budget's room: 22 of its 30 releases were in stage 1.
    releases = "".join(
        f"## v1.{minor}.0 - 2021-04-{minor + 1:02d}\n\n### Added\n\n- Add option {minor}.\n\n"
        f"### Fixed\n\n- Fix bug {minor}.\n\n"
        for minor in range(30, 0, -1)
    )
    text = "# Changelog\n\n" + releases
    shown = summarize(text, ContentKind.MARKDOWN, budget=1000).text.splitlines()
    assert sum(line.startswith("## v1.") for line in shown) == 30


def test_a_man_pages_terms_over_a_hard_break_show_their_defaults() -> None:
    # Failed before: pandoc's Markdown of rsyncd.conf(5) writes each parameter as a line ending in
    # a hard break ("port  ") over its paragraph; the page's two parameter sections showed one
    # default each, not the daemon's port or the lock file's path.
    stage1 = bench_stage1("webpage-pandoc-rsyncd-conf-5.md").splitlines()
    assert "port  " in stage1
    assert "specifying this value (defaults to 873). This is ignored if the daemon" in stage1
    assert "modules sharing the lock file. The default is **/var/run/rsyncd.lock**." in stage1


def test_a_default_in_emphasis_is_a_stated_default() -> None:
    # Failed before: rsyslog's imfile reference says "the **default** is 10240"; the emphasis hid
    # the statement from the default finder.
    stage1 = bench_stage1("webpage-fetch-rsyslog-8-2302-imfile.md", "fetch").splitlines()
    assert "*polling* mode, the **default** is 10240." in stage1
    assert "batch size that imfile can generate. The **default** is 1024, which" in stage1


def test_a_tables_default_column_or_default_row_is_shown_as_a_stated_default() -> None:
    # Failed before: rsyslog's parameters each have a one-row table under a "default" column; only
    # the first tables' rows were shown, below every heading and defined term.
    rsyslog = bench_stage1("webpage-fetch-rsyslog-8-2302-imfile.md", "fetch").splitlines()
    assert "| string | none | no | `$InputFileStateFile` |" in rsyslog
    # A directive's quick reference (Apache's) names its default in a row of its own.
    text = (
        "# Module\n\n"
        + "".join(f"Some words on part {n} of the module.\n\n" for n in range(40))
        + "## KeepAlive Directive\n\n|  |  |\n| --- | --- |\n"
        "| [Description:](directive-dict.html#Description) | Enables HTTP persistent connections |\n"
        "| [Syntax:](directive-dict.html#Syntax) | `KeepAlive On|Off` |\n"
        "| [Context:](directive-dict.html#Context) | server config, virtual host |\n"
        "| [Default:](directive-dict.html#Default) | `KeepAlive On` |\n"
        "| [Status:](directive-dict.html#Status) | Core |\n\nThe directive's text.\n"
    )
    shown = summarize(text, ContentKind.MARKDOWN, budget=400).text.splitlines()
    assert "| [Default:](directive-dict.html#Default) | `KeepAlive On` |" in shown


def test_a_pages_head_saying_which_release_it_documents_is_shown() -> None:
    # Failed before: SQLAlchemy's error reference dumped by lynx says "Release: 1.4.46 | Release
    # Date: January 3, 2023" on its fourth line, man2html's bash page "Updated: 2022 September
    # 19" on its fifth, above the first heading: neither was in stage 1, which showed the
    # navigation line above them.
    for name, tool, stamp in (
        (
            "webpage-lynx-dump-sqlalchemy-1446-errors.txt",
            "run_command",
            "Release: 1.4.46 | Release Date: January 3, 2023",
        ),
        ("webpage-fetch-bash-manpage.md", "fetch", "Updated: 2022 September 19"),
    ):
        assert stamp in bench_stage1(name, tool)


def test_a_readmes_badges_are_left_out_of_stage_1() -> None:
    # jsonwebtoken 9.0.3's README opens with a table of build and dependency badges: its header
    # and first row took 400 bytes of stage 1 as the page's opening, and the install line did not fit.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "markdown-capr-tar-xzof-jsonwebtoken-903-readme.md").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.MARKDOWN, budget=2800)
    assert "[![" not in extract.text and "| **Build**" not in extract.text
    assert "$ npm install jsonwebtoken" in extract.text.splitlines()
    assert is_badges(
        "[![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x) [![ci](https://x/b.svg)](https://x)"
    )
    assert is_badges(
        "| [![Build Status](https://x/b.svg?branch=master)](http://ci/x) | ![cov](https://x/c.svg) |"
    )
    assert not is_badges("| **Build** | **Dependency** |")
    assert not is_badges("The logo ![logo](logo.png) is drawn by the build, from the sources in `art/`.")


def test_a_tables_header_of_empty_cells_is_left_out() -> None:
    # GnuTLS's gtk-doc DTLS page through mcp-server-fetch: each function's parameter table has a
    # header of empty cells and a `| --- | --- | --- |` rule, two lines that said nothing, twelve times.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "webpage-capr-mcp-fetch-gnutls-379-gtkdoc-dtls-api.md").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.MARKDOWN, budget=2600)
    assert "|  |  |  |" not in extract.text and "| --- | --- | --- |" not in extract.text
    assert "| key | is a random key to be used at cookie generation |  |" in extract.text


def test_a_changelogs_breaking_changes_are_change_notes() -> None:
    # helmet 8.3.0's CHANGELOG.md (bat --plain): its "**Breaking:**" items are what an upgrade
    # needs, but only notes of a deprecation or removal counted as changes.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "markdown-capt-batcat-0221-plain-helmet-830-changelog.md").read_text(
        encoding="utf-8"
    )
    extract = summarize(text, ContentKind.MARKDOWN, budget=2800)
    assert any(
        line.startswith("- **Breaking:** `Strict-Transport-Security` now has a max-age of 365 days")
        for line in extract.text.splitlines()
    )
    assert change_lines(
        "- **Breaking:** Drop support for Node 16\nThis release is backwards incompatible.\n"
    ) == [0, 1]
    assert change_lines("Breaking the loop early saves a pass.\n") == []


def test_a_readmes_install_command_is_a_stated_fact() -> None:
    # zustand 5.0.10's README: `npm install zustand` sat in the first code block, below every
    # section's first sentence, and was left out of stage 1 (failed before).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "markdown-capv-git-show-zustand-510-readme.md").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.MARKDOWN, budget=2500)
    assert "npm install zustand" in extract.text.splitlines()


@pytest.mark.parametrize("stop", [":", "."])
def test_a_sections_first_line_of_one_sentence_is_shown_whole_up_to_the_sentence_width(stop: str) -> None:
    # A first line that is one sentence to its end (no space after its stop, or a colon over a
    # list) was cut at 120 chars like a line with no stop at all: Flask-Migrate's "Starting with
    # version 4.0, … disabled by default in Alembic:" lost its last words (failed before).
    said = (
        "Starting with version 4.0, the extension automatically enables the following options "
        "that are disabled by default in the underlying tool" + stop
    )
    sections = [
        f"## Section {n}\n\nSection {n} says what it holds in a few words.\n\n- item {n}\n" for n in range(6)
    ]
    text = (
        "# Guide\n\nThe guide.\n\n## Options\n\n"
        + said
        + "\n\n- `compare_type=True`\n\n"
        + "\n".join(sections)
    )
    extract = summarize(text * 1, ContentKind.MARKDOWN, budget=1500)
    assert said in extract.text.splitlines()


def test_a_sections_first_sentence_wrapped_onto_its_next_line_goes_on_there() -> None:
    # got's README (wrapped at 80 columns): under "Install", "**Warning:** This package is native
    # / [ESM](…) and / no longer provides a CommonJS export. …". Stage 1 stopped at "and".
    stage1 = bench_stage1("markdown-cqf-cmark-0302-t-commonmark-got-1466-npm-readme.md")
    lines = stage1.splitlines()
    assert "**Warning:** This package is native" in lines
    at = lines.index("**Warning:** This package is native")
    assert lines[at + 1 : at + 3] == [
        "[ESM](…) and",
        "no longer provides a CommonJS export. If your project uses CommonJS, you will",
    ]


@pytest.mark.parametrize(
    ("name", "headings"),
    [
        pytest.param(  # DocBook's text: ``Chapter 1. Protocol Formats``, its contents list above
            "x11-protocol-spec-head.txt",
            [
                "Chapter\xa01.\xa0Protocol Formats",
                "Chapter\xa04.\xa0Errors",
                "Chapter\xa08.\xa0Connection Setup",
            ],
            id="docbook",
        ),
        pytest.param(  # linuxdoc's text, indented two spaces: ``  1.1.  A Brief History of S-Lang``
            "slang-guide-linuxdoc-head.txt",
            ["  1.  Preface", "  1.1.  A Brief History of S-Lang", "  2.2.  Language Features"],
            id="linuxdoc",
        ),
        pytest.param(  # the sed FAQ: its contents list first, ``   # Double space a file`` in its examples
            "sed-faq-015-excerpt.txt",
            ["1. GENERAL INFORMATION", "1.1. Introduction - How this FAQ is organized"],
            id="faq",
        ),
        pytest.param(  # markitdown-mcp's text of a PDF: ``2. Warming up.``, its contents' dot leaders
            "markitdown-pari-tutorial-pdf-head.md",
            ["1. Greetings!.", "2. Warming up.", "4. Elementary Arithmetic Functions."],
            id="pdf",
        ),
    ],
)
def test_a_plain_text_documents_numbered_headings_are_its_outline(name: str, headings: list[str]) -> None:
    # A spec, a guide or a PDF's text has no Markdown heading; the word "error" in its prose made
    # each "text read as a log" ("log: 800 lines, 0 failed tests, 12 errors"), its headings unshown.
    page = PAGE.with_name(name).read_text(encoding="utf-8")
    decision = route(page, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("markdown: "), decision.extract.outline
    lines = decision.extract.text.splitlines()
    assert all(heading in lines for heading in headings), lines[:40]
    assert size(decision.extract.text) <= decision.budget


def test_contents_lines_and_list_items_are_no_numbered_headings() -> None:
    from context_mode.summaries.markdown_structure import numbered_headings
    from context_mode.summaries.packing import split_lines

    def found(text: str) -> list[str]:
        lines = split_lines(text)
        return [lines[index] for index, _, _ in numbered_headings("\n" + "\n".join(lines), lines)]

    spec = found(PAGE.with_name("x11-protocol-spec-head.txt").read_text(encoding="utf-8"))
    assert "1. Protocol Formats" not in spec  # its contents line: the chapter is found again below
    assert spec[0] == "Chapter\xa01.\xa0Protocol Formats"
    # Beautiful Soup's changelog: numbered items of three lists (``  1. Outputting a tree as a
    # string, e.g. with`` going on below it), whose numbers leap from one list to the next.
    changelog = (BENCH_CORPUS / "markdown-cat-bs4-4123-changelog.txt").read_text(encoding="utf-8")
    assert found(changelog) == []
    steps = "".join(f"{n}. Step {n} of the procedure\n" for n in range(1, 9))
    assert found(steps) == []  # a list's items, one to a line: no sections


def test_a_pdfs_lines_cut_into_cells_are_no_tables_that_crowd_out_its_outline() -> None:
    # markitdown-mcp's text of a PDF: a sentence's line comes cut into a header-only "table"
    # (``| that it | will be useful, | but WITHOUT | ANY WARRANTY | WHATSOEVER. |`` over its rule
    # line). Each ranked as a table's header: ten of them came before the sections' sentences.
    page = PAGE.with_name("markitdown-pari-tutorial-pdf-head.md").read_text(encoding="utf-8")
    decision = route(page, tool="convert_to_markdown", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "| that it | will be useful, | but WITHOUT | ANY WARRANTY | WHATSOEVER. |" not in lines
    assert "Another thing you better get used to pretty fast is error messages.…" in lines


def test_a_sections_first_sentence_goes_on_past_an_abbreviation() -> None:
    # "i.e." and "e.g." end no sentence: a section's first sentence was cut after "(e.g."
    said = (
        "Pick a storage mode (e.g. chunked) when the data is large, and keep the chunks between "
        "10 KiB and 1 MiB."
    )
    sections = [
        f"## Section {n}\n\nSection {n} says what it holds in a few words. It goes on.\n" for n in range(6)
    ]
    text = (
        "# Guide\n\nThe guide.\n\n## Storage\n\n"
        + said
        + " Then more words follow.\n\n"
        + "\n".join(sections)
    )
    extract = summarize(text, ContentKind.MARKDOWN, budget=1500)
    assert any(line.startswith(said) for line in extract.text.splitlines())
