"""The snapshot summariser on a real Playwright MCP snapshot: what the page says, and results."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS, bench_stage1, data

SEARCH = (Path(__file__).parents[2] / "data" / "snapshot-search-frame-refs.txt").read_text(encoding="utf-8")


def test_a_search_page_keeps_its_status_sentence_and_names_unnamed_result_links() -> None:
    # Before: a frame's refs ([ref=f1e23]) were not refs, so the page was read as markdown
    # (345 bytes of headings); paragraphs ranked below every link; a result link without a
    # name was dropped with the code and text that name it.
    assert detect_kind(SEARCH) is ContentKind.SNAPSHOT
    body = summarize(SEARCH, ContentKind.SNAPSHOT, budget=900).text
    lines = body.splitlines()
    assert "- paragraph [ref=f1e112]: Search finished, found 48 page(s) matching the search query." in lines
    assert '- textbox "Search" [ref=f1e23]: PYTHONPATH' in lines
    assert "- code [ref=f1e31]: cgi" in lines


def test_the_same_link_again_ranks_last() -> None:
    tree = "\n".join(
        ["- main [ref=e1]:", '  - heading "Results" [level=1] [ref=e2]']
        + [f'  - link "Same place" [ref=e{3 + i}]' for i in range(3)]
        + [f'  - link "Other {i}" [ref=e{10 + i}]' for i in range(3)]
    )
    body = summarize(tree, ContentKind.SNAPSHOT, budget=170).text
    assert body.count('link "Same place"') == 1
    assert 'link "Other 0"' in body


def test_links_are_shown_up_to_their_ref_with_no_marker_for_their_targets_and_wrappers() -> None:
    # Each link sits in a listitem with its /url line under it: a "…" after every link and
    # " [cursor=pointer]:" on each took a tenth of a snapshot's summary.
    tree = "\n".join(
        ["- main [ref=e1]:", '  - heading "Variables" [level=1] [ref=e2]', "  - list [ref=e3]:"]
        + [
            line
            for i in range(8)
            for line in (
                f"    - listitem [ref=e{10 + 3 * i}]:",
                f'      - link "CMAKE_VAR_{i}" [ref=e{11 + 3 * i}] [cursor=pointer]:',
                f"        - /url: ../variable/CMAKE_VAR_{i}.html",
            )
        ]
    )
    lines = summarize(tree, ContentKind.SNAPSHOT, budget=2000).text.splitlines()
    assert [line for line in lines if "CMAKE_VAR_" in line] == [
        f'- link "CMAKE_VAR_{i}" [ref=e{11 + 3 * i}]…' + (" [×8 link]" if i == 0 else "") for i in range(8)
    ]
    assert "…" not in lines  # the skipped lines are targets and wrappers only


def test_the_page_state_keeps_its_console_count() -> None:
    # "- Console: 2 errors, 0 warnings" (newer Playwright MCP's page state) was cut while the page's
    # URL and title, the lines around it, were kept.
    extract = summarize(SEARCH, ContentKind.SNAPSHOT, budget=1500)
    assert "- Console: 2 errors, 0 warnings" in extract.text.splitlines()


def test_a_reference_pages_terms_outrank_its_links_and_are_not_folded() -> None:
    # Exim's command-line chapter: its options are a definition list ("- term: "-bd""). Terms
    # ranked as prose below links, the links named by section numbers ("22.4") took the room, and
    # a run of terms was folded to its first two and last. (The examples its sentences introduce,
    # "For example:" > ``exim -bem /tmp/testmessage``, come before them: hence 2.2 kB.)
    text = (Path(__file__).parents[2] / "data" / "snapshot-exim4-command-line-head.txt").read_text(
        encoding="utf-8"
    )
    lines = summarize(text, ContentKind.SNAPSHOT, budget=2200).text.splitlines()
    terms = [line for line in lines if line.startswith("- term [ref=")]
    assert len(terms) >= 8, lines
    assert '- term [ref=e77]: "-bd"' in terms
    assert not any(line.startswith('- link "22.4"') for line in lines)


def test_a_page_without_headings_or_controls_is_summarised_with_its_lead_text() -> None:
    # Postfix's smtp(8) man page as HTML: text and links, no heading, no control. Nothing
    # "stood out", and the agent that asked for the page to act on got a Directive and no ref.
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route

    text = (Path(__file__).parents[2] / "data" / "snapshot-postfix-smtp-man-head.txt").read_text(
        encoding="utf-8"
    )
    decision = route(text, policy=RoutingPolicy(), tool="browser_snapshot", arguments={})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert any(
        line.startswith("- text: SMTP(8) SMTP(8) NAME smtp - Postfix SMTP+LMTP client") for line in lines
    )
    assert any(line.startswith('- link "master(8)" [ref=e3]…') for line in lines)


def test_a_search_box_s_suggestions_and_their_status_line_are_shown() -> None:
    # Javadoc's search box after typing "toStringStyle": its suggestions are YAML-quoted items
    # (their names hold ": "), which were not read as items at all, and the live region's
    # "9 results are available" sat in a wrapper under a bare "status" line and was dropped.
    text = (Path(__file__).parents[2] / "data" / "snapshot-javadoc-search-typed.txt").read_text(
        encoding="utf-8"
    )
    lines = summarize(text, ContentKind.SNAPSHOT, budget=4000).text.splitlines()
    assert "- generic [ref=e142]: 9 results are available, use up and down arrow keys to navigate." in lines
    assert any(line.startswith("""- 'listitem "Types : ToStringStyle" [ref=e123]""") for line in lines)


def test_every_message_of_an_alert_region_is_shown_unfolded() -> None:
    # A submitted form's alert lists its 13 errors as links: folded as a run of links, the
    # summary showed the first and the last, and none of the eleven between.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "snapshot-form-validation-alert.txt").read_text(encoding="utf-8")
    decision = route(text, tool="browser_snapshot", arguments={})
    assert isinstance(decision, Summary)
    shown = decision.extract.text
    for error in (
        'link "IPv4 address 203.0.113.300 has an octet outside 0-255." [ref=e119]',
        'link "Uplink of 5 Mbit/s is below the 100 Mbit/s minimum for push mirrors." [ref=e123]',
        'link "The administrator name is required." [ref=e135]',
    ):
        assert error in shown
    assert "[×13 link]" not in shown


def test_a_sections_first_text_has_words_not_a_lone_bracket() -> None:
    # ``shared_buffers (integer)`` is a term of code and text pieces: before, its ``- text: (``
    # was taken as the section's first sentence, and the definition's sentence ranked below links.
    text = (Path(__file__).parents[2] / "data" / "snapshot-pg-resource-consumption-head.txt").read_text(
        encoding="utf-8"
    )
    body = summarize(text, ContentKind.SNAPSHOT, budget=700).text.splitlines()
    assert "- text: (" not in body
    assert any(
        line.startswith(
            "- text: Sets the amount of memory the database server uses for shared memory buffers."
        )
        for line in body
    )


def test_an_unnamed_headings_own_text_names_it_and_its_sections_first_sentence_is_below() -> None:
    # Sphinx's headings have no name: ``heading [level=2]`` holds ``text: ALPN support`` beside its
    # ``¶`` link. Before, that text was taken as the section's first sentence, so the paragraph
    # under the heading ("ALPN support requires OpenSSL >= 1.0.2.") ranked as any other text.
    name = "snapshot-cpt-pwmcp-nghttp2-doc-152-nghttpx-howto.txt"
    body = bench_stage1(name, "browser_snapshot").splitlines()
    assert "- text: ALPN support" in body
    assert "- paragraph [ref=e206]: ALPN support requires OpenSSL >= 1.0.2." in body


def test_a_reference_pages_stated_defaults_are_shown_with_the_cell_naming_them() -> None:
    # Ant's javac page: a table of attributes whose third cell says "No; defaults to off". Stage 1
    # showed links such as "below" and "reference" and none of the defaults. (Its nine examples,
    # each introduced by a sentence ending in a colon, come first: hence 5 kB.)
    text = (Path(__file__).parents[2] / "data" / "playwright-snapshot-ant-javac.txt").read_text(
        encoding="utf-8"
    )
    lines = summarize(text, ContentKind.SNAPSHOT, budget=5000).text.splitlines()
    assert '- cell "No; defaults to all .java files" [ref=e76]' in lines
    default = lines.index('- cell "No; defaults to all .java files" [ref=e76]')
    assert lines[default - 2 : default] == ['- cell "includes" [ref=e74]', "…"]  # the attribute it is of
    assert '- cell "No; defaults to off" [ref=e137]' in lines  # nowarn's


def test_the_pages_footer_is_shown_as_its_title_is() -> None:
    # Failed before: a 180 kB GTK-Doc page's summary ended with its headings; its last line,
    # "Generated by GTK-Doc V1.33.1", names what made the page (Doxygen's names its version).
    for name, footer in (
        ("snapshot-playwright-glib-hash-tables.txt", "- text: Generated by GTK-Doc V1.33.1"),
        ("snapshot-playwright-sdl2-data-structures.txt", "- text: 1.9.4"),
    ):
        assert footer in bench_stage1(name, "browser_snapshot").splitlines()


def test_a_pages_rows_paragraphs_and_links_count_toward_its_budget() -> None:
    # Graphviz's attribute table (214 kB, a row per attribute) and Vim's digraph help (106 kB of
    # text and links) have few headings and no controls: only those counted, so stage 1 got the
    # minimum budget (1.3 kB, 0.6% of the table), as a page of a dozen lines would.
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route
    from tests.corpora import BENCH_CORPUS

    for name in ("snapshot-graphviz-242-attrs-table.txt", "snapshot-playwright-vim90-digraph.txt"):
        text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
        decision = route(text, tool="browser_snapshot", policy=RoutingPolicy())
        assert isinstance(decision, Summary)
        assert decision.budget >= 2 * RoutingPolicy().summary_budget, name


def test_a_wrappers_own_words_are_read_as_text() -> None:
    # Failed before: ``generic: Page 1 / 64`` (sqlite-web's pager) and pydoc's version banner
    # (``generic [ref=e2]: Python 3.11.7 …``) were dropped as wrappers; a lone "«" still says nothing.
    pages = bench_stage1("snapshot-sqlite-web-statsmodels-fair-content.txt", "browser_snapshot").splitlines()
    assert "- generic: Page 1 / 64" in pages
    assert "- generic: «" not in pages
    banner = bench_stage1("snapshot-playwright-pydoc-index.txt", "browser_snapshot")
    assert "- generic [ref=e2]: Python 3.11.7 [main, GCC 12.2.0]" in banner


def test_a_default_cut_by_an_inline_element_is_shown_with_its_value() -> None:
    # Failed before: gevent's "The default value is" was shown without the ``code`` that says it.
    lines = bench_stage1("snapshot-playwright-gevent-configuration.txt", "browser_snapshot").splitlines()
    value = lines.index('- code [ref=f1e213]: "5"')  # memory_monitor_period's
    assert lines[value - 1] == "- text: The default value is"


def test_the_cells_of_a_default_column_are_shown_with_their_rows_name() -> None:
    # Failed before: an option table's "Default" column says each option's default, in a cell or
    # in the code under an unnamed cell; stage 1 showed the options' names only.
    tree = "\n".join(
        [
            "- table [ref=e1]:",
            "  - row [ref=e2]:",
            '    - columnheader "Option" [ref=e3]',
            '    - columnheader "Type" [ref=e4]',
            '    - columnheader "Default" [ref=e5]',
            '    - columnheader "Description" [ref=e6]',
        ]
        + [
            line
            for i, (option, default) in enumerate((("linenums_style", "'table'"), ("guess_lang", "False")))
            for line in (
                f"  - row [ref=e{10 + 10 * i}]:",
                f"    - cell [ref=e{11 + 10 * i}]:",
                f"      - code [ref=e{12 + 10 * i}]: {option}",
                f'    - cell "string" [ref=e{13 + 10 * i}]',
                f"    - cell [ref=e{14 + 10 * i}]:",
                f'      - code [ref=e{15 + 10 * i}]: "{default}"',
                f'    - cell "What {option} does, in a sentence that costs more." [ref=e{16 + 10 * i}]',
            )
        ]
    )
    lines = summarize(tree, ContentKind.SNAPSHOT, budget=200).text.splitlines()
    assert "- code [ref=e12]: linenums_style" in lines
    assert "- code [ref=e15]: \"'table'\"" in lines
    graphviz = bench_stage1("snapshot-graphviz-242-attrs-table.txt", "browser_snapshot").splitlines()
    value = graphviz.index('- cell "14.0" [ref=e400]')
    assert graphviz[value - 2 : value] == ['- link "fontsize" [ref=e397]…', "…"]


def test_the_links_to_the_next_and_previous_page_are_shown_at_the_top_and_the_foot() -> None:
    # Failed before: a manual's pager (PostgreSQL's "Prev" / "Next", Texinfo's "Next:" before the
    # next node's link) was shown at the top at most; the foot's copy ranked as a link seen again.
    postgres = bench_stage1("snapshot-playwright-postgresql15-createtable.txt", "browser_snapshot")
    assert {'- link "Next" [ref=e16]…', '- link "Next" [ref=e1326]…'} <= set(postgres.splitlines())
    aspell = bench_stage1("snapshot-playwright-aspell-options.txt", "browser_snapshot").splitlines()
    foot = aspell.index('- link "Dumping Configuration Values" [ref=e368]…')
    assert aspell[foot - 1] == '- text: "Next:"'
    mkdocs = bench_stage1("snapshot-pymdown-extensions-1012-search-line-numbers.txt", "browser_snapshot")
    assert '- link "Next InlineHilite" [ref=e531]…' in mkdocs.splitlines()


def test_a_searchs_count_of_what_it_found_is_shown() -> None:
    # Failed before: MkDocs' search dialog says "23 matching documents" in a wrapper of its own,
    # ranked as any text; a listing's "6366 rows" too, when it is not its section's first text.
    lines = bench_stage1("snapshot-pymdown-extensions-1012-search-line-numbers.txt", "browser_snapshot")
    assert "- generic [ref=e33]: 23 matching documents" in lines.splitlines()
    tree = "\n".join(
        [
            "- main [ref=e1]:",
            '  - heading "Results" [level=1] [ref=e2]',
            "  - paragraph [ref=e3]: Filter the table below.",
            "  - text: 6366 rows, showing page 1",
        ]
        + [f'  - link "Record {i}" [ref=e{10 + i}]' for i in range(5)]
    )
    shown = summarize(tree, ContentKind.SNAPSHOT, budget=150).text.splitlines()
    assert "- text: 6366 rows, showing page 1" in shown


def test_a_reference_pages_change_notes_are_shown_with_the_elements_finishing_them() -> None:
    # Failed before: Sphinx's "Changed in version 3.14: …" and "Deprecated since version 3.3: Use"
    # ranked as any paragraph, below the page's links; a note an inline element cuts lost its end.
    # (aiohttp's page is read at 6 kB: the examples its sentences introduce come first.)
    aiohttp_page = (BENCH_CORPUS / "snapshot-playwright-aiohttp-client-reference.txt").read_text(
        encoding="utf-8"
    )
    aiohttp = summarize(aiohttp_page, ContentKind.SNAPSHOT, budget=6000).text.splitlines()
    assert (
        '- paragraph [ref=e1742]: "Changed in version 3.14: Now loads JSON format by default. Falls back to'
        ' restricted pickle for files saved by older versions."'
    ) in aiohttp
    tornado = bench_stage1("snapshot-playwright-tornado-httpserver.txt", "browser_snapshot").splitlines()
    note = tornado.index('- text: "Changed in version 4.1:"')
    assert tornado[note + 1 : note + 3] == [
        "- link [ref=e312]…",
        "- code [ref=e313]: HTTPServerConnectionDelegate.start_request",
    ]


def test_each_run_of_links_is_folded_not_only_the_last_of_its_depth() -> None:
    # Failed before: a Sphinx sidebar's 17 chapter links (Kea's ARM, fresh31b) were shown one by
    # one, as the 5 before them: a run of the same role and depth replaced the one further up
    # (here by the appendix's links), so only the last of them was ever folded.
    # (3,500 bytes: its sections' first sentences, under headings named by their text, come first.)
    text = (BENCH_CORPUS / "snapshot-cpb-pwmcp-kea-arm-220-keactrl.txt").read_text(encoding="utf-8")
    lines = summarize(text, ContentKind.SNAPSHOT, budget=3500).text.splitlines()
    assert '- link "7. The Kea Control Agent" [ref=e44]… [×17 link]' in lines
    assert '- link "23. Kea Security" [ref=e76]…' in lines
    assert not any('"15. Client Classification"' in line for line in lines)
    assert '- link "1. Introduction" [ref=e15]… [×6 link]' in lines


def test_a_rows_cells_and_a_paragraphs_pieces_are_not_folded() -> None:
    # A row's 14 cells are a record's fields and a paragraph's texts between its code elements
    # are one sentence: folded as runs, the middle fields and words went last.
    row = ["- table [ref=e1]:", "  - row [ref=e2]:"] + [
        f'    - cell "field {i}" [ref=e{10 + i}]' for i in range(14)
    ]
    prose = ["- paragraph [ref=e30]:"] + [
        line
        for i in range(7)
        for line in (f"  - text: part {i} of the sentence", f"  - code [ref=e{40 + i}]: name{i}")
    ]
    body = summarize("\n".join(row + prose), ContentKind.SNAPSHOT, budget=2000).text
    assert "×" not in body


def test_what_a_sentence_ending_in_a_colon_introduces_is_shown() -> None:
    # Failed before: Django's cache page says "to store cached data in /var/tmp/django_cache, use
    # this setting:" above its example, a ``generic`` line of code; Kea's keactrl page "…, type:"
    # above the command. Stage 1 showed the sentence's links and the next paragraphs, not the
    # setting or the command (a line a colon introduces holds a fact three times as often as a
    # heading does in the corpus' snapshots).
    django = bench_stage1(
        next(BENCH_CORPUS.glob("snapshot-kestrel-django-3225-cache*")).name, "browser_snapshot"
    )
    assert any("'LOCATION': '/var/tmp/django_cache'" in line for line in django.splitlines())
    kea = bench_stage1(
        next(BENCH_CORPUS.glob("snapshot-cpb-pwmcp-kea-arm-220-keactrl*")).name, "browser_snapshot"
    )
    assert any("keactrl stop -s dhcp4,dhcp6" in line for line in kea.splitlines())


def test_a_chrome_devtools_mcp_snapshot_is_a_snapshot_with_its_sections() -> None:
    # A real Chrome DevTools MCP 1.11 ``take_snapshot`` of a Rust book page (headless Chromium,
    # served on loopback): ``uid=1_272 link "…"`` nodes, text as ``uid=1_274 "One way to …"``.
    # Before, it read as a log of 600 lines; and Chrome leaves out a heading whose only content is
    # a link to itself (mdBook's sections), so the page had one heading.
    text = data("chrome-devtools-mcp-1.11-take-snapshot-rust-book-hash-maps.txt")
    assert detect_kind(text, tool_name="take_snapshot") is ContentKind.SNAPSHOT
    extract = summarize(text, ContentKind.SNAPSHOT, budget=1500)
    assert extract.outline.startswith("accessibility snapshot: 600 lines, 16 headings")
    lines = extract.text.splitlines()
    assert lines[1].startswith('uid=1_0 RootWebArea "Storing Keys with Associated Values in Hash Maps')
    # each section's heading (the link to itself), shown as sent up to its url, the first with its lead
    heading = lines.index('uid=1_272 link "Creating a New Hash Map"…')
    assert lines[heading + 1] == 'uid=1_274 "One way to create an empty hash map is to use "'
    assert 'uid=1_459 link "Updating a Hash Map"…' in lines
    # a reference to a section in the text, its name quoted, is no heading
    assert "uid=1_607 " not in extract.text
    assert all(line in text for line in lines if not line.endswith("…") and line not in ("…",))


def test_a_chrome_devtools_mcp_snapshots_sections_are_read_outside_its_navigation() -> None:
    # The Cargo book's manifest page: its table of contents links to the same sections by the same
    # names, inside ``navigation "Table of contents"``: those stay links, folded as a run.
    text = data("chrome-devtools-mcp-1.11-take-snapshot-cargo-manifest.txt")
    body = summarize(text, ContentKind.SNAPSHOT, budget=2000).text
    assert 'uid=2_506 link "The name field"…' in body  # the section, in the page's main
    assert 'uid=2_42 link "The name field"' not in body  # its entry in the table of contents
    assert 'uid=2_762 link "The license and license-file fields"…' in body


def test_a_row_headers_value_is_shown_with_it() -> None:
    # Playwright MCP 0.0.86's snapshot of Django 4.2's technical 500 page: a table of row
    # headers, each with its value in the cell beside it. The headers ranked above every cell
    # and filled the room: "Request URL:" showed, its URL did not.
    text = data("playwright-mcp-0.0.86-snapshot-django-4.2-500.txt")
    extract = summarize(text, ContentKind.SNAPSHOT, budget=2800)
    shown = extract.text.splitlines()
    for key, value in (
        ('- rowheader "Request URL:" [ref=e11]', '- cell "http://127.0.0.1:8765/orders/1/" [ref=e12]'),
        ('- rowheader "Django Version:" [ref=e14]', '- cell "4.2.17" [ref=e15]'),
        (
            '- rowheader "Exception Location:" [ref=e24]',
            '- cell "/tmp/cap/dj/app.py, line 10, in order_total" [ref=e25]',
        ),
    ):
        assert key in shown and shown[shown.index(key) + 1] == value
    # a row header is shown with its value or not at all
    headers = [index for index, line in enumerate(shown) if line.startswith("- rowheader ")]
    assert headers and all(shown[index + 1].lstrip("- '").startswith("cell ") for index in headers)


def test_a_reports_labelled_figures_are_shown_with_their_labels() -> None:
    # Failed before: the report's totals were wrappers (``listitem "Tests"`` over ``text: "14"``),
    # dropped, as was the pass rate in a generic's name; every suite's and test's heading came
    # first. Each suite repeats the labels (its own "Duration"): those rank low.
    text = data("playwright-mcp-0.0.86-snapshot-mochawesome-7.1-semver-7.6-report.txt")
    shown = summarize(text, ContentKind.SNAPSHOT, budget=2400).text.splitlines()
    for label, figure in (
        ('- listitem "Duration" [ref=e12]:', "- generic [ref=e14]: 17ms"),
        ('- listitem "Tests" [ref=e17]:', '- text: "14"'),
        ('- listitem "Failed" [ref=e23]:', '- text: "3"'),
    ):
        assert shown[shown.index(label) + 1 :][:4].count(figure) == 1, (label, shown)
    assert '- generic "78.57% Passing" [ref=e27]' in shown
    assert '- listitem "Duration" [ref=e50]:' not in shown  # the first suite's own


def test_a_test_reports_failed_rows_show_which_test_failed() -> None:
    # Failed before: the results table's cells ranked last; the summary showed the environment's
    # package list and the failures' code, not one failed test's name.
    text = data("playwright-mcp-0.0.86-snapshot-pytest-html-4.2-packaging-report.txt")
    shown = summarize(text, ContentKind.SNAPSHOT, budget=1900).text
    for name in (
        "test_specifier_contains[2.0.0rc1->=1.0-False]",
        "test_specifier_contains[0.3.1-~=0.2.0-True]",
        "test_local_versions",
    ):
        assert f'- cell "test_semverish.py::{name}" [ref=' in shown
    assert "test_sorting" not in shown  # a passed one


def test_a_tables_totals_row_is_shown_with_its_figures() -> None:
    # Failed before: coverage.py's report showed its files' links, and no figure of its totals
    # (``cell "Total"`` over unnamed cells of numbers, which ranked below everything).
    text = data("playwright-mcp-0.0.86-snapshot-coverage-7.18-packaging-html-index.txt")
    shown = summarize(text, ContentKind.SNAPSHOT, budget=2600).text.splitlines()
    start = shown.index('- cell "Total" [ref=e229]')
    assert shown[start + 1 : start + 7] == [
        "- cell [ref=e230]",
        '- cell "4835" [ref=e231]',
        '- cell "4280" [ref=e232]',
        '- cell "228" [ref=e233]',
        "- cell [ref=e234]",
        '- cell "11%" [ref=e235]',
    ]


def test_a_tables_rows_links_and_editors_are_runs_folded() -> None:
    # Failed before: each row's link was a run of its own (nine lines from the next, the row's
    # cells between), so thirty product links and their stock spinbuttons filled the summary one
    # by one; now the rows' links are one run, as are their spinbuttons: first and last shown,
    # the size noted, and room left for the page's count and its Save button.
    text = data("playwright-mcp-0.0.86-snapshot-django-4.2-admin-product-changelist.txt")
    shown = summarize(text, ContentKind.SNAPSHOT, budget=3300).text.splitlines()
    assert '- link "SKU-1056" [ref=e113]… [×60 link]' in shown
    assert '- spinbutton [ref=e117]: "-1" [×60 spinbutton]' in shown
    assert '- link "SKU-1019" [ref=e644]…' in shown  # the last row's
    assert "- text: 60 products" in shown and '- button "Save" [ref=e650]' in shown
