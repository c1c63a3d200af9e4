"""The shipped corpus (``bench/corpus``) passes its verifier, and the verifier catches what it should.

The verifier (``bench/corpus/build.py verify``) checks sizes and checksums, verbatim answers,
queries free of their answers, fact counts, ids, breadth, the holdout split and the total size.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.corpus.build import FORMAT, build, main, measure, merged, verify
from tests.corpora import BENCH_CORPUS


def test_the_shipped_corpus_passes_the_verifier_and_it_prints_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # one run of the whole verifier (it reads all of the corpus): its problems are printed on failure
    code = main(["verify", "--dir", str(BENCH_CORPUS)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "| kind | items | dev | holdout | facts | bytes |" in out
    assert "corpus OK" in out


PAYLOAD = "\n".join(f"line {n}: nothing to see" for n in range(40)) + "\nERROR disk quota exceeded on /srv\n"


def _record(ident: str, kind: str = "log", split: str = "dev", **changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": ident,
        "kind": kind,
        "set": split,
        "file": f"{ident}.log",
        "tool": "ci__get_job_log",
        "args": {"job_id": "1"},
        "source": "a test",
        "project": "test",
        "command": "true",
        "description": "a small log",
        "facts": [
            {"question": "Which error?", "answer": "disk quota exceeded", "query": "storage limit error"},
            {"question": "Which path?", "answer": "on /srv", "query": "mount point that filled"},
            {"question": "First line?", "answer": "line 0:", "query": "first numbered entry"},
        ],
    }
    record.update(changes)
    return record


def _corpus(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    (tmp_path / "parts").mkdir()
    for record in records:
        (tmp_path / record["file"]).write_text(PAYLOAD, encoding="utf-8")
    (tmp_path / "parts" / "test.yaml").write_text(yaml.safe_dump({"items": records}), encoding="utf-8")
    build(tmp_path)
    return tmp_path


def test_build_merges_the_parts_sorted_and_measured(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [_record("log-b-x"), _record("log-a-x")])
    document = yaml.safe_load((corpus / "corpus.yaml").read_text(encoding="utf-8"))
    assert document["format"] == FORMAT
    assert [item["id"] for item in document["items"]] == ["log-a-x", "log-b-x"]
    first = document["items"][0]
    assert list(first)[:7] == ["id", "kind", "set", "file", "bytes", "lines", "sha256"]
    assert {key: first[key] for key in ("bytes", "lines", "sha256")} == measure(corpus / "log-a-x.log")
    assert verify(corpus, minimal=True).problems == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        pytest.param(
            {"facts": [{"question": "q", "answer": "not in the payload", "query": "x"}] * 3},
            "is not verbatim",
            id="answer-not-verbatim",
        ),
        pytest.param(
            {"facts": [{"question": "q", "answer": "disk quota", "query": "the DISK QUOTA error"}] * 3},
            "contains its answer",
            id="query-holds-answer",
        ),
        pytest.param(
            {"facts": [{"question": "q", "answer": "disk quota", "query": "x"}] * 2}, "2 facts", id="too-few"
        ),
        pytest.param({"kind": "logs"}, "is not one of", id="unknown-kind"),
        pytest.param({"set": "public"}, "must be 'dev' or 'holdout'", id="unknown-set"),
        pytest.param({"id": "json-log-a"}, "must start with its kind", id="id-without-kind"),
    ],
)
def test_a_bad_record_is_reported(tmp_path: Path, change: dict[str, Any], problem: str) -> None:
    record = _record("log-a-x")
    record.update(change)
    record["file"] = f"{record['id']}.log"
    corpus = _corpus(tmp_path, [record])
    problems = verify(corpus).problems
    assert any(problem in p for p in problems), problems


def test_a_changed_payload_is_reported_with_the_fix(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [_record("log-a-x")])
    (corpus / "log-a-x.log").write_text(PAYLOAD + "one more line\n", encoding="utf-8")
    problems = verify(corpus, minimal=True).problems
    assert any("recorded sha256" in p and "run build" in p for p in problems), problems
    assert any("recorded bytes" in p for p in problems), problems


def test_a_missing_payload_is_reported(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [_record("log-a-x")])
    (corpus / "log-a-x.log").unlink()
    assert any("is missing" in p for p in verify(corpus, minimal=True).problems)


def test_a_stale_corpus_yaml_is_reported(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [_record("log-a-x")])
    parts = yaml.safe_load((corpus / "parts" / "test.yaml").read_text(encoding="utf-8"))
    parts["items"].append(_record("log-b-x"))
    (corpus / "log-b-x.log").write_text(PAYLOAD, encoding="utf-8")
    (corpus / "parts" / "test.yaml").write_text(yaml.safe_dump(parts), encoding="utf-8")
    problems = verify(corpus).problems
    assert any("differs from parts" in p and "log-b-x" in p for p in problems), problems


def test_the_corpus_wide_rules_are_checked(tmp_path: Path) -> None:
    records = [_record(f"log-{n}-x") for n in range(3)] + [_record("json-a-x", kind="json")]
    problems = verify(_corpus(tmp_path, records)).problems
    assert any("4 items, expected at least 40" in p for p in problems), problems
    assert any("2 kinds" in p for p in problems), problems
    assert any("0 of 4 items are holdout" in p for p in problems), problems
    assert any("kind 'log' has 3 items but none in holdout" in p for p in problems), problems


def test_duplicate_ids_are_reported(tmp_path: Path) -> None:
    records = [_record("log-a-x"), copy.deepcopy(_record("log-a-x"))]
    assert any("used 2 times" in p for p in verify(_corpus(tmp_path, records)).problems)


def test_the_cli_exits_non_zero_with_the_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record("log-a-x", facts=[{"question": "q", "answer": "absent text", "query": "x"}] * 3)
    corpus = _corpus(tmp_path, [record])
    assert main(["verify", "--dir", str(corpus), "--minimal"]) == 1
    assert "'absent text' is not verbatim in log-a-x.log" in capsys.readouterr().err


def test_the_merge_keeps_every_field_of_a_record(tmp_path: Path) -> None:
    record = _record("log-a-x", injected_change="--- a/x\n+++ b/x\n", inputs={"req.txt": "x==1"})
    corpus = _corpus(tmp_path, [record])
    (item,) = merged(corpus)["items"]
    assert {key: item[key] for key in record} == record
