"""Plain-text manuals (man pages, ``--help`` listings, pydoc) are summarised by their skeleton and entries.

Before, each was "text: N lines … nothing stands out": a Directive with nothing of the manual.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.manual import is_manual
from context_mode.summaries.packing import is_marker, size
from context_mode.types import ContentKind
from tests.verbatim import clipped_from

DATA = Path(__file__).parents[2] / "data"
CURL = (DATA / "curl-help-all.txt").read_text(encoding="utf-8")
SSH_CONFIG = (DATA / "man-ssh-config-head.txt").read_text(encoding="utf-8")


def _summary(text: str, tool: str = "run_command") -> Summary:
    decision = route(text, tool=tool, arguments={"command": "man"})
    assert isinstance(decision, Summary), decision
    assert size(decision.extract.text) <= decision.budget
    return decision


def test_a_help_listing_shows_its_usage_line_and_as_many_options_as_fit() -> None:
    assert is_manual(CURL.splitlines())
    decision = _summary(CURL)
    assert decision.extract.outline.startswith("manual: ")
    body = decision.extract.text.splitlines()
    assert body[0] == "Usage: curl [options...] <url>"
    options = [line for line in body if line.lstrip().startswith("-")]
    assert len(options) >= 30
    assert all(line in CURL.splitlines() for line in options)


def test_a_man_pages_default_comes_with_the_keyword_it_belongs_to() -> None:
    assert is_manual(SSH_CONFIG.splitlines())
    body = _summary(SSH_CONFIG).extract.text.splitlines()
    assert body[0].startswith("SSH_CONFIG(5)")
    assert "DESCRIPTION" in body
    # The keyword and its first line of description, where the default is stated.
    at = body.index("     Compression")
    assert body[at + 1].strip().startswith("Specifies whether to use compression.")
    assert "(the default)" in body[at + 1]


def test_every_line_of_a_manuals_summary_is_a_line_of_it_or_a_clipped_one() -> None:
    for text in (CURL, SSH_CONFIG):
        source = set(text.splitlines())
        for line in _summary(text).extract.text.splitlines():
            assert is_marker(line) or clipped_from(line, source), line


def test_prose_and_logs_are_no_manual() -> None:
    prose = "\n".join(
        f"This is sentence {i} of a plain paragraph about nothing in particular." for i in range(50)
    )
    log = "\n".join(f"2026-12-02 10:00:{i % 60:02d} INFO worker started job {i}" for i in range(50))
    assert not is_manual(prose.splitlines())
    assert not is_manual(log.splitlines())


def test_a_default_said_as_this_is_the_default_is_a_stated_default() -> None:
    # find(1): "-P  Never follow symbolic links.  This is the default behaviour." and "`b' for
    # 512-byte blocks (this is the default if no suffix is used)" state defaults as "is the
    # default", which no pattern read ("default is", "defaults to", "(the default)", "by default").
    text = (DATA / "man-find-4-9-0.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "man find"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "       -P     Never  follow  symbolic  links.   This is the default behaviour." in lines
    assert "              `b'    for  512-byte blocks (this is the default if no suffix is" in lines


def test_a_pandoc_man_pages_option_comes_with_its_default_stated_as_default_n() -> None:
    # pandoc writes a man page's options as a loose definition list (a blank line between the term
    # and ``:   …``): the terms were not found, so defaults showed without their options, and
    # "The port number, default 53," was no stated default at all
    text = (DATA / "pandoc-unbound-conf-head.md").read_text(encoding="utf-8")
    shown = _summary(text).extract.text.split("\n")
    port = shown.index("**port: *\\<port* number\\>**")
    assert shown[port + 1] == ":   The port number, default 53, on which the server responds to"
    default = next(i for i, line in enumerate(shown) if "Default is 4 megabytes." in line)
    assert shown[default - 2] == "**stream-wait-size: *\\<number\\>***"


def test_the_room_a_reports_titles_leave_is_filled_in_order() -> None:
    # ldd then objdump -p of gdb (11 kB): three titled sections, and stage 1 showed their titles
    # and first lines in 545 bytes of its 1.5 kB (its extract 357), without the libraries the
    # loader resolved.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "table-ldd-objdump-p-gdb.txt").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    stage1 = decision.extract.text
    assert "libpython3.11.so.1.0 => /lib/x86_64-linux-gnu/libpython3.11.so.1.0" in stage1
    assert "Dynamic Section:" in stage1
    # the extract: 357 bytes of 1.5 kB before
    assert 2 / 3 * decision.budget <= len(stage1.encode()) <= decision.budget


def test_a_default_comes_with_its_keywords_line_alone_so_more_defaults_fit() -> None:
    # sshd_config(5): each default brought its keyword and the keyword's first line of
    # description, and the budget ran out around the C options (failed before: 16 lines saying
    # a default; now the keyword line alone goes with its default, and the G options' are in).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "webpage-man-sshd-config-5.txt").read_text(encoding="utf-8")
    body = _summary(text).extract.text
    assert sum("default" in line for line in body.splitlines()) >= 24
    assert "     GSSAPICleanupCredentials\n" in body
    assert "The default is sha256." in body


def test_an_entrys_first_default_comes_before_defaults_said_in_prose_or_again() -> None:
    # sudoers(5): its prose sections say "By default, …" some twenty times before SUDOERS OPTIONS
    # and its entries state a default in several lines; taken in document order, they filled the
    # budget before timestamp_timeout's "The default is 15." (failed before).
    from tests.corpora import bench_stage1

    stage1 = bench_stage1("markdown-man-sudoers-1913p3.txt").splitlines()
    at = next(i for i, line in enumerate(stage1) if "The default is 15." in line)
    assert "     timestamp_timeout" in stage1[at - 2 : at]
    assert not any("By default, sudoers logs both successful" in line for line in stage1)


def test_the_last_line_of_a_wrapped_paragraph_over_an_example_names_no_entry() -> None:
    # perldoc -T of Getopt::Long (a dev corpus item): the ends of wrapped sentences over an
    # indented example ("option name:", "name:") were read as entries' terms and shown above
    # the paragraphs they end; 97 "entries" for a page of some 60 (failed before).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "markdown-cph-perldoc-t-otext-perl-5360-getopt-long-252.txt").read_text(
        encoding="utf-8"
    )
    decision = _summary(text)
    body = decision.extract.text.splitlines()
    assert decision.extract.outline.startswith("manual: 1103 lines, 4 sections, 60 entries")
    assert "    name:" not in body and "    option name:" not in body
    assert "    pass_through (default: disabled)" in body


PYDOC_STR = (DATA / "pydoc-python311-str.txt").read_text(encoding="utf-8")
PYDOC_CLIENT = (DATA / "pydoc-httpx-0.29-client.txt").read_text(encoding="utf-8")
PYDOC_JSON = (DATA / "pydoc-python311-json-module.txt").read_text(encoding="utf-8")


def _members(text: str) -> list[str]:
    """The signature lines of the public members a pydoc class page defines (not inherited)."""
    names: list[str] = []
    defined = False
    for line in text.splitlines():
        label = line.startswith(" |  ") and line.rstrip().endswith(":")
        if label and (" defined here:" in line or " inherited from " in line):
            defined = " defined here:" in line
        elif defined and line.startswith(" |  ") and line[4:5].isalpha() and "(" in line:
            names.append(line)
    return names


@pytest.mark.parametrize(("text", "before"), [(PYDOC_STR, "table"), (PYDOC_CLIENT, "markdown")])
def test_pydocs_text_of_a_class_shows_every_public_members_signature(text: str, before: str) -> None:
    # Failed before: ``python -m pydoc str`` was "table: 414 rows × 7 columns (Help, on, class, …)",
    # its gutter of bars read as column separators, and showed its first 80 lines: ``__add__`` to
    # ``center``; ``pydoc httpx.Client`` was "markdown: no headings", without ``send`` or ``stream``.
    assert detect_kind(text, tool_name="run_command") is ContentKind.TEXT, before
    decision = _summary(text)
    assert decision.extract.outline.startswith("manual: ")
    body = decision.extract.text.splitlines()
    members = _members(text)
    assert len(members) >= 10
    shown = [line for line in members if any(shown.startswith(line[:60]) for shown in body)]
    assert shown == members  # long signatures are shown with their start and end
    source = set(text.splitlines())
    assert all(is_marker(line) or clipped_from(line, source) for line in body)


def test_pydocs_special_methods_but_init_rank_below_a_classs_public_members() -> None:
    body = _summary(PYDOC_CLIENT).extract.text
    assert " |  __init__(self, *, auth:" in body  # the constructor's arguments
    assert " |  __add__(self, value, /)" not in _summary(PYDOC_STR).extract.text


def test_a_pydoc_module_page_shows_its_classes_and_every_functions_signature() -> None:
    # Failed before: "manual: 561 lines, 10 sections, 8 entries": a class's members in its gutter
    # were no entries, and the docstrings' defaults took the room of ``load`` and ``loads``.
    decision = _summary(PYDOC_JSON)
    body = [line.lstrip(" |") for line in decision.extract.text.splitlines()]  # past the gutter
    for name in ("class JSONDecodeError(", "class JSONDecoder(", "class JSONEncoder("):
        assert any(line.startswith(name) for line in body), name
    for name in ("dump(obj, fp,", "dumps(obj,", "load(fp,", "loads(s,", "raw_decode(self, s, idx=0)"):
        assert any(line.startswith(name) for line in body), name
