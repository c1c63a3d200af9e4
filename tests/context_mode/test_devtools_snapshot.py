"""Chrome DevTools MCP's snapshot lines read as Playwright MCP's (``context_mode.devtools_snapshot``)."""

from __future__ import annotations

from context_mode.devtools_snapshot import as_playwright, is_devtools_snapshot

PAGE = [
    "## Latest page snapshot",
    'uid=1_0 RootWebArea "Manifest" url="http://h/manifest.html"',
    '  uid=1_1 navigation "Table of contents"',
    '    uid=1_2 link "The name field" url="http://h/manifest.html#the-name-field"',
    "  uid=1_3 main",
    '    uid=1_4 heading "The Cargo Book" level="1"',
    '    uid=1_5 link "The name field" url="http://h/manifest.html#the-name-field"',
    '    uid=1_6 "The package name is an identifier."',
    '    uid=1_7 link "“The name field”" url="http://h/manifest.html#the-name-field"',
    '    uid=1_8 searchbox "Search" value="btree"',
    '    uid=1_9 button "Summary" description="Collapse" disableable disabled',
    '    uid=1_10 ""a""',
    '    uid=1_11 "The "',
    '    uid=1_12 "1.0.0"',
]


def test_each_line_is_read_as_playwright_would_say_it() -> None:
    assert is_devtools_snapshot(PAGE)
    assert not is_devtools_snapshot(['- link "x" [ref=e1]'] * 5)
    assert as_playwright(PAGE) == [
        "### Latest page snapshot",
        "- Page Title: Manifest",
        '  - navigation "Table of contents" [ref=1_1]',
        '    - link "The name field" [ref=1_2]',  # the table of contents' entry stays a link
        "  - main [ref=1_3]",
        '    - heading "The Cargo Book" [level=1] [ref=1_4]',
        '    - heading "The name field" [ref=1_5]',  # a link to itself: the section's heading
        "    - text: The package name is an identifier.",
        '    - link "“The name field”" [ref=1_7]',  # a reference to it in the text
        '    - searchbox "Search" [ref=1_8]: btree',
        '    - button "Summary" [disabled] [ref=1_9]',
        '    - text: "a"',
        "    - text:",  # a piece of a sentence that inline code cuts says nothing alone
        "    - text: 1.0.0",
    ]
