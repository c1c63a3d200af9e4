"""A YAML document is summarised by its keys and who each list item is, not as Markdown or a Directive.

RuboCop's default config (``tests/data/rubocop-default-config-head.yml``) read as Markdown (its
comments as 500 headings); a GitHub issue list as YAML was text with nothing standing out.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.summaries.packing import is_marker
from context_mode.types import ContentKind
from tests.verbatim import clipped_from

DATA = Path(__file__).resolve().parents[2] / "data"


def test_a_config_file_in_yaml_shows_its_top_level_keys() -> None:
    text = (DATA / "rubocop-default-config-head.yml").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TEXT
    decision = route(text, tool="run_command", arguments={"command": "cat .rubocop.yml"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("yaml: 300 lines, ")
    tops = [line for line in text.splitlines() if line[:1].isalpha() and line.endswith(":")]
    shown = [line for line in tops if line in decision.extract.text.splitlines()]
    assert len(shown) >= len(tops) * 0.8, (len(shown), len(tops))


def test_a_list_of_records_in_yaml_names_every_record_by_number_and_title() -> None:
    issues = json.loads((DATA / "github-list-issues-betamax.json").read_text(encoding="utf-8"))
    text = yaml.safe_dump(issues, sort_keys=False, allow_unicode=True)
    decision = route(text, tool="get_resource", arguments={"kind": "issues"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    for issue in issues:
        assert f"  number: {issue['number']}" in lines, issue["number"]
    assert sum(line.startswith("  title: ") for line in lines) >= 8
    source = set(text.splitlines())
    assert all(is_marker(line) or clipped_from(line, source) for line in lines)


def test_lines_led_by_a_level_word_are_a_log_not_yaml() -> None:
    # isort --check-only: "ERROR: path Imports are incorrectly sorted …", one per file.
    paths = [f"src/pkg/module_{index}.py" for index in range(30)]
    text = "".join(f"ERROR: {path} Imports are incorrectly sorted and/or formatted.\n" for path in paths)
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG


def test_titles_at_the_margin_over_indented_keys_are_shown_first() -> None:
    # csv-diff's human report: "41 rows changed, 3 rows added, 37 rows removed", then each
    # section's title over its records' indented keys. The titles are neither keys nor values:
    # they were left out, the totals line first of all (failed before).
    from tests.corpora import BENCH_CORPUS

    name = "diff-cpc-csv-diff-12-airportsdata-20250224-20250811-airports-csv.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.TEXT, budget=1200).text.split("\n")
    assert shown[:2] == ["41 rows changed, 3 rows added, 37 rows removed", "41 rows changed"]
    assert "3 rows added" in shown and "37 rows removed" in shown
