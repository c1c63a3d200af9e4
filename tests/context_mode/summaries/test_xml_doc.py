"""XML documents: their declaration, root, settings and runs of records (``summaries.xml_doc``)."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.shapes import is_xml
from context_mode.summaries.xml_doc import summarize_xml
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.verbatim import clipped_from

DATA = Path(__file__).resolve().parents[2] / "data"


def test_an_xml_result_set_is_read_by_its_records() -> None:
    # mariadb --xml: 49 <row>s of six <field>s under a <resultset>. Read as text, stage 1 was its
    # first lines and a few distinctive ones, with no count of rows; the last row was left out.
    text = next(BENCH_CORPUS.glob("rows-capv-mariadb-xml-101119-*")).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TEXT
    decision = route(text, tool="run_command")
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert extract.outline.startswith(
        "xml: 445 lines, root <resultset>, 344 elements (<field> ×294, <row> ×49"
    )
    lines = extract.text.splitlines()
    assert "  <row> [×49 <row>]" in lines  # the run of records, counted at its first
    assert '\t<field name="bic">MARKDEF1700</field>' in lines  # the first record's fields
    assert lines[-1] == "</resultset>"  # where the document ends
    written = text.splitlines()
    shown = [line.rsplit(" [×", 1)[0] for line in lines if not line.startswith("…")]
    assert all(clipped_from(line, written) for line in shown)


def test_a_setting_outranks_the_records_around_it() -> None:
    # A configuration: an element whose name is rare holds a setting (its value), shown before the
    # records of a long run.
    mappings = "".join(
        f"  <mime-mapping>\n    <extension>e{n}</extension>\n"
        f"    <mime-type>type/e{n}</mime-type>\n  </mime-mapping>\n"
        for n in range(300)
    )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<web-app version="6.0">\n'
        + mappings
        + "  <session-config>\n    <session-timeout>30</session-timeout>\n  </session-config>\n"
        + mappings
        + "</web-app>\n"
    )
    lines = summarize_xml(text.splitlines(), budget=600).text.splitlines()
    assert "    <session-timeout>30</session-timeout>" in lines
    assert "  <mime-mapping> [×600 <mime-mapping>]" in lines


def test_what_is_no_xml_document_stays_as_it_was() -> None:
    page = "<!DOCTYPE html>\n<html>\n" + "<p>text</p>\n" * 20 + "</html>\n"
    assert not is_xml(page.splitlines())
    junit = (DATA / "junit-pytest-failures.xml").read_text(encoding="utf-8")
    assert detect_kind(junit, tool_name="run_command") is ContentKind.LOG  # a test report: its failures
    assert not is_xml(["just", "a few", "lines"])
