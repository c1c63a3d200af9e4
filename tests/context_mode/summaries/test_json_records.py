"""Stage 1 of a JSON result spends its bytes on what tells its records apart.

On real outputs of the shared corpus: in license-checker's map of hundreds of packages, mostly
``"licenses": "MIT"``, the packages under a license few others have are shown, with that license.
"""

from __future__ import annotations

import json
from typing import Any

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.summaries.packing import size
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS


def _stage1(text: str, tool: str) -> str:
    decision = route(text, tool=tool, policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert size(decision.extract.text) <= decision.budget
    return decision.extract.text


def test_the_records_holding_a_rare_value_are_shown_with_it() -> None:
    # Before, the first 24 packages (in name order, nearly all MIT) took the whole budget.
    text = (BENCH_CORPUS / "json-license-checker-legacy-dashboard.json").read_text(encoding="utf-8")
    packages: dict[str, dict[str, Any]] = json.loads(text)
    body = _stage1(text, "run_command")
    licenses = [entry.get("licenses") for entry in packages.values()]
    rare = [name for name, entry in packages.items() if licenses.count(entry.get("licenses")) == 1]
    assert len(rare) >= 5
    for name in rare:
        assert f'"{name}": {{"licenses": {json.dumps(packages[name]["licenses"])}' in body, name


def test_what_a_package_requires_is_listed_further_than_its_other_lists() -> None:
    # pip's dry-run report: distributed's requires_dist showed seven requirements, as few as its
    # classifiers, and hid its tornado one.
    text = (BENCH_CORPUS / "json-pip-dry-run-report-dask-distributed.json").read_text(encoding="utf-8")
    body = _stage1(text, "run_command")
    assert '"tornado >=6.0.4"' in body


def test_a_map_of_versions_to_their_files_counts_its_entries_for_the_budget() -> None:
    # PyPI's JSON API: ``releases`` maps 149 versions to their lists of files. Only objects
    # counted as a map's records, so the budget was that of the 15 classifiers (3.3 kB), and the
    # package's requirements and its newest wheel's size were cut.
    text = (BENCH_CORPUS / "json-pypi-alembic.json").read_text(encoding="utf-8")
    decision = route(text, tool="pypi__get_package", policy=RoutingPolicy())
    assert isinstance(decision, Summary) and decision.budget >= RoutingPolicy().summary_budget_max
    body = decision.extract.text
    assert '"requires_dist": ["SQLAlchemy>=2.0", "Mako", "typing-extensions>=4.12"' in body


def test_a_list_of_versions_shows_where_each_release_line_ends() -> None:
    # ``pip index versions awscli``: 2498 versions, newest first. The first ones took the room, and
    # the last release of a line (what "the last 1.19" asks for) was shown for none of the older
    # lines; the releases past the thousandth were not even offered.
    text = (BENCH_CORPUS / "json-pip-index-versions-awscli.json").read_text(encoding="utf-8")
    body = _stage1(text, "run_command")
    for pair in ('"1.33.0", "1.32.117"', '"1.20.0", "1.19.112"', '"1.0.0", "0.16.0"'):
        assert pair in body, pair


def test_a_map_of_release_dates_shows_when_each_major_line_began() -> None:
    # ``npm view mongoose --json``: ``time`` maps 1033 versions to their dates. The newest release
    # of each minor line came first, and 9.0.0's date (when the major line began) was cut.
    text = (BENCH_CORPUS / "json-npm-view-mongoose.json").read_text(encoding="utf-8")
    body = _stage1(text, "run_command")
    assert '"9.0.0": "2025-11-22T14:21:42.415000+00:00"' in body
    assert '"9.12.2": ' in body  # the latest release still comes first


def test_a_key_few_records_hold_is_shown_on_those_records() -> None:
    # Failed before: detect-secrets' report (fresh31a) lists 27 plugins, each by its name alone
    # but two with an entropy "limit" and one with a "keyword_exclude": those were shown as
    # "…": "+1 key", so the thresholds the scan ran with were in no line of stage 1.
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind

    name = "json-cpa-detect-secrets-150-scan-all-files-python-jose-330-sdist.json"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    lines = summarize(text, ContentKind.JSON, budget=2500).text.splitlines()
    assert '  {"name": "Base64HighEntropyString", "limit": 4.5},' in lines
    assert '  {"name": "HexHighEntropyString", "limit": 3.0},' in lines
    assert '  {"name": "AWSKeyDetector"},' in lines  # the usual record as it is


def test_an_envelope_every_record_shares_is_shown_once() -> None:
    # Elasticsearch hits (and tshark -T json's packets): "_index", "_type", "_score" alike in every
    # record, what tells them apart nested in "_source". Records alike in every scalar were taken
    # for copies, so the envelope was repeated in each and the titles of later hits left out.
    hits = [
        {
            "_index": "books-2026",
            "_type": "_doc",
            "_score": 1.0,
            "_source": {
                "title": f"Book {i}",
                "author": f"Author {i}",
                "isbn": f"978-0-{i:04d}",
                "pages": 100 + i,
            },
        }
        for i in range(30)
    ]
    text = json.dumps(hits, indent=2)
    shown = summarize(text, ContentKind.JSON, budget=1500).text
    assert shown.count('"_index": "books-2026"') == 1
    assert '"title": "Book 14"' in shown
    json.loads(shown)
    # Copies of one record (no member tells them apart) still show their fields
    copies = json.dumps([{"id": 1, "name": "x"}] * 5)
    assert '"name": "x"' in summarize(copies, ContentKind.JSON, budget=400).text
