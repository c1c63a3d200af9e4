"""The newest or oldest version of a list of versions (``store.releases``)."""

from __future__ import annotations

import pytest

from context_mode.store.releases import Release, release_asked, release_passage
from context_mode.types import ContentKind
from tests.searching import bench_reply


def test_a_query_asks_for_a_release_by_superlative_and_line_or_bound() -> None:
    assert release_asked("newest 2.x version in the versions array") == Release(True, (2,))
    assert release_asked("final release of the 4 major line") == Release(True, (4,))
    assert release_asked("last release before 1.20") == Release(True, below=(1, 20))
    assert release_asked("first version after 3.0") == Release(False, above=(3, 0))
    assert release_asked("oldest available awscli version") == Release(False)
    assert release_asked("latest beta version") == Release(True, pre=True)
    # a release's date, file or link is no version; positions and other extremes are not either
    assert release_asked("date of the oldest release commit") is None
    assert release_asked("the process with the highest cpu") is None
    assert release_asked("version of the bundled openssl") is None


VERSIONS = ["0.9.0", "1.0.0", "1.2.0", "2.0.0-beta.1", "1.10.0", "2.0.0", "2.1.3", "3.0.0rc1", "1.9.9"]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("newest version", "2.1.3"),
        ("newest 1.x version", "1.10.0"),  # compared as versions: 1.10 is above 1.9.9
        ("last version before 2.0", "1.10.0"),
        ("oldest version", "0.9.0"),
        ("latest pre-release version", "3.0.0rc1"),
    ],
)
def test_the_asked_release_is_compared_as_a_version(query: str, answer: str) -> None:
    text = "\n".join(f'  "{version}",' for version in VERSIONS)
    release = release_asked(query)
    assert release is not None
    found = release_passage([text], release, 1.0)
    assert found is not None and found[1].text == f'"{answer}",'


def test_dates_ranges_and_a_short_list_hold_no_release() -> None:
    text = '"time": "2026-05-18T12:59:02.938000+00:00",\n"memfs": "^4.57.6",\n"1.0.0": "x"'
    assert release_passage([text], Release(True, (4,)), 1.0) is None
    assert release_passage([text], Release(True, (2,)), 1.0) is None


@pytest.mark.parametrize(
    ("name", "query", "answer"),
    [
        # npm view vue: 2.7.16 among 500 versions and their publish times (2.x, not the newest date)
        ("json-npm-view-vue.json", "newest 2.x version in the versions array", '"2.7.16",'),
        # pip index versions: one line of 600 versions, newest first
        ("json-pip-index-versions-awscli.json", "last release before 1.20", '"1.19.112"'),
        ("json-pip-index-versions-awscli.json", "oldest available awscli version", '"0.4.1"]'),
    ],
)
def test_a_search_finds_the_release_asked_for_in_a_real_list(name: str, query: str, answer: str) -> None:
    assert answer in bench_reply(name, ContentKind.JSON, query)
