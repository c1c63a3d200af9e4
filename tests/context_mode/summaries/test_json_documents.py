"""JSON records whose content is nested are documents, not rows; a stream of JSON values is JSON.

On real outputs of the shared corpus: pipdeptree's ``--json-tree`` is four top packages holding
their dependencies' subtrees, and jq's output of API exchanges is a stream of pretty-printed
objects, each with its response; the one call that failed shows what it answered.
"""

from __future__ import annotations

import pytest

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.json_outline import analyse
from context_mode.summaries.json_siblings import failed_records
from context_mode.summaries.packing import size
from context_mode.summaries.row_parsing import DOCUMENTS, read_rows
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS


def _stage1(text: str, tool: str) -> Summary:
    decision = route(text, tool=tool, policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert size(decision.extract.text) <= decision.budget
    return decision


def test_a_dependency_tree_shows_its_nested_packages_versions_not_a_table_of_its_roots() -> None:
    # Before, a table of the four roots' cells (`pipdeptree | pipdeptree | 4.2.16`): none of the
    # 44 kB of subtrees, and no member as the payload spells it.
    text = (BENCH_CORPUS / "json-pipdeptree-json-tree-dbt-postgres-182.json").read_text(encoding="utf-8")
    assert read_rows(text) is DOCUMENTS
    decision = _stage1(text, "run_command")
    assert decision.extract.kind is ContentKind.JSON
    body = decision.extract.text
    assert '"installed_version": "4.2.16"' in body  # pipdeptree itself, a root
    assert '"installed_version": "2.9.13"' in body  # psycopg2-binary, under dbt-postgres


def test_flat_records_stay_rows() -> None:
    text = '[\n  {"id": 1, "name": "alpha", "tags": ["a"]},\n  {"id": 2, "name": "beta", "tags": []}\n]'
    found = read_rows(text)
    assert isinstance(found, tuple)
    assert found[0][1]["name"] == "beta"


def test_a_stream_of_pretty_printed_objects_is_read_as_an_array_of_them() -> None:
    stream = '{\n  "method": "get",\n  "status": 404,\n  "response": {\n    "message": "Not Found"\n  }\n}\n'
    analysis = analyse(stream + stream.replace("get", "put").replace("404", "200"))
    assert analysis is not None
    value, outline, _ = analysis
    assert [record["status"] for record in value] == [404, 200]
    assert outline.startswith("json: array of 2 items")


def test_jq_output_of_api_exchanges_is_summarised_as_json() -> None:
    # Before, read as plain text ("not JSON"), each exchange's path and status cut from its lines.
    path = BENCH_CORPUS / "json-jq-octokit-fixtures-23-release-branch-status.json"
    text = path.read_text(encoding="utf-8")
    decision = _stage1(text, "run_command")
    assert decision.extract.kind is ContentKind.JSON
    assert '"status": 404' in decision.extract.text


def test_a_failed_api_call_among_others_shows_what_it_answered() -> None:
    # Before, the 404 was shown as its method, path and status, like the calls that succeeded:
    # its response's message was left out.
    path = BENCH_CORPUS / "json-jq-octokit-fixtures-23-release-branch-status.json"
    body = _stage1(path.read_text(encoding="utf-8"), "run_command").extract.text
    assert '"message": "Branch not protected"' in body


@pytest.mark.parametrize(
    ("record", "failed"),
    [
        pytest.param({"status": 404, "response": {}}, True, id="http-not-found"),
        pytest.param({"status": 201}, False, id="http-created"),
        pytest.param({"state": "failure", "context": "ci"}, True, id="commit-status-failure"),
        pytest.param({"code": True}, False, id="a-flag-is-no-status"),
    ],
)
def test_a_record_failed_when_its_status_says_so(record: dict[str, object], failed: bool) -> None:
    assert (0 in failed_records([record])) is failed
