"""Field pruning on real JSON (a GitHub REST search result, ``npm view express --json``, a filesystem
tree from the MCP filesystem server; trimmed copies of the shared corpus in tests/fixtures/json),
plus properties on generated JSON checked against a naive reference implementation."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.errors import PathGlobError
from context_mode.pruning import FieldPruner, check_glob

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "json"
GITHUB = (FIXTURES / "github-search-repositories.json").read_text(encoding="utf-8")
NPM = (FIXTURES / "npm-view-express.json").read_text(encoding="utf-8")
TREE = (FIXTURES / "tree-filesystem-click.json").read_text(encoding="utf-8")
GITHUB_EXCLUDE = ["**.node_id", "**.*_url", "**.url", "**.gravatar_id"]


def keys_at_every_depth(value: Any) -> list[str]:
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def strict(text: str) -> Any:
    def reject(name: str) -> Any:
        raise ValueError(name)

    return json.loads(text, parse_constant=reject)


# ------------------------------------------------------------------------- real JSON


def test_excluded_github_keys_are_gone_at_every_depth_and_the_rest_is_kept() -> None:
    pruned = FieldPruner(exclude=GITHUB_EXCLUDE).prune_text(GITHUB)
    value = strict(pruned.text)
    keys = keys_at_every_depth(value)
    assert not [key for key in keys if key in ("node_id", "url", "gravatar_id") or key.endswith("_url")]
    original = json.loads(GITHUB)
    assert value["total_count"] == 2723
    assert [item["full_name"] for item in value["items"]] == [item["full_name"] for item in original["items"]]
    assert value["items"][0]["owner"] == {
        key: val
        for key, val in original["items"][0]["owner"].items()
        if key not in ("url", "gravatar_id") and not key.endswith("_url")
    }
    assert pruned.pruned_bytes == len(GITHUB.encode()) - len(pruned.text.encode()) > len(GITHUB) // 2
    # the layout is the original's (two-space indentation), so facts read the same
    assert '\n  "total_count": 2723,' in pruned.text
    assert '"default_branch": "master"' in pruned.text


def test_include_only_keeps_the_matching_paths_and_their_parents() -> None:
    include = ["total_count", "items.*.full_name", "items.*.owner.login"]
    value = strict(FieldPruner(include=include).prune_text(GITHUB).text)
    original = json.loads(GITHUB)
    assert value == {
        "total_count": 2723,
        "items": [
            {"full_name": item["full_name"], "owner": {"login": item["owner"]["login"]}}
            for item in original["items"]
        ],
    }


def test_include_keeps_whole_subtrees_and_exclude_still_applies_inside_them() -> None:
    pruner = FieldPruner(include=["name", "dist-tags", "dist", "engines"], exclude=["dist.tarball"])
    value = strict(pruner.prune_text(NPM).text)
    original = json.loads(NPM)
    assert value == {
        "name": "express",
        "dist-tags": original["dist-tags"],
        "dist": {key: val for key, val in original["dist"].items() if key != "tarball"},
        "engines": {"node": ">= 18"},
    }


def test_npm_envelope_and_version_history_excluded_keep_the_facts() -> None:
    pruner = FieldPruner(
        exclude=["_*", "versions", "time", "contributors", "devDependencies", "dist.tarball"]
    )
    pruned = pruner.prune_text(NPM)
    value = strict(pruned.text)
    assert not {"_id", "_contentLength", "versions", "time", "contributors"} & set(value)
    for fact in ('"latest": "5.3.0"', '"node": ">= 18"', '"body-parser": "^2.3.0"'):
        assert fact in pruned.text
    assert len(pruned.text) < len(NPM) // 4


def test_nested_arrays_are_pruned_at_every_depth() -> None:
    original = json.loads(TREE)
    assert any("children" in node for node in original)  # the fixture nests arrays in arrays
    value = strict(FieldPruner(exclude=["**.type"]).prune_text(TREE).text)
    assert "type" not in keys_at_every_depth(value)
    assert sorted(set(keys_at_every_depth(value))) == ["children", "name"]

    names = strict(FieldPruner(include=["**.name"]).prune_text(TREE).text)
    assert names[0] == {"name": "CHANGES.md"}
    docs = next(node for node in names if node["name"] == "docs")
    assert docs["children"][0] == {"name": "advanced.md"}

    deep = json.dumps([[{"a": 1, "url": "x"}, [{"url": "y", "b": [{"url": "z"}]}]]])
    assert strict(FieldPruner(exclude=["**.url"]).prune_text(deep).text) == [[{"a": 1}, [{"b": [{}]}]]]
    by_index = json.dumps({"items": [{"a": 1}, {"a": 2}, {"a": 3}]})
    assert strict(FieldPruner(exclude=["items.1"]).prune_text(by_index).text) == {
        "items": [{"a": 1}, {"a": 3}]
    }
    assert strict(FieldPruner(exclude=["items.*.a"]).prune_text(by_index).text) == {"items": [{}, {}, {}]}


def test_drop_empty_removes_null_and_empty_members_but_keeps_array_positions() -> None:
    pruned = FieldPruner(drop_empty=True).prune_text(GITHUB)
    value = strict(pruned.text)
    assert "mirror_url" not in value["items"][0]  # null in the real response
    for item in value["items"]:
        assert all(member not in (None, "", [], {}) for member in item.values())
    assert (
        value["items"][0]["has_issues"] is True and value["items"][0]["fork"] is False
    )  # false is not empty

    text = json.dumps({"a": None, "b": "", "c": [], "d": {}, "e": 0, "f": [None, "", 1], "g": {"h": None}})
    assert strict(FieldPruner(drop_empty=True).prune_text(text).text) == {"e": 0, "f": [None, "", 1]}
    # a member emptied by pruning goes too
    text = json.dumps({"owner": {"url": "x"}, "name": "n"})
    assert strict(FieldPruner(exclude=["**.url"], drop_empty=True).prune_text(text).text) == {"name": "n"}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("2024-05-01 ERROR failed\nTraceback (most recent call last):\n", id="log"),
        pytest.param('{"url": "x", oops', id="broken-json"),
        pytest.param('"url"', id="bare-string"),
        pytest.param("42", id="bare-number"),
        pytest.param('[{"url": NaN}]', id="nan"),
        pytest.param("", id="empty"),
        pytest.param("[" * 2000 + "]" * 2000, id="too-deep"),
    ],
)
def test_text_that_is_not_a_json_object_or_array_passes_unchanged(text: str) -> None:
    pruned = FieldPruner(exclude=["**.url"], drop_empty=True).prune_text(text)
    assert pruned.text is text
    assert pruned.pruned_bytes == 0


def test_json_that_no_rule_touches_comes_back_byte_for_byte() -> None:
    pruned = FieldPruner(exclude=["**.no_such_key"]).prune_text(NPM)
    assert pruned.text is NPM and pruned.removed == 0


def test_compact_json_stays_compact() -> None:
    text = json.dumps({"a": 1, "url": "x", "b": [1, 2]}, separators=(",", ":"))
    assert FieldPruner(exclude=["url"]).prune_text(text).text == '{"a":1,"b":[1,2]}'


@pytest.mark.parametrize(
    ("glob", "fix"),
    [
        pytest.param("", "items.*.node_id", id="empty"),
        pytest.param("a..b", "single dots", id="empty-segment"),
        pytest.param(".a", "single dots", id="leading-dot"),
        pytest.param("**_url", "'**.*_url'", id="deep-inside-segment"),
        pytest.param("items[*].id", "'items.*.id'", id="bracket-index"),
        pytest.param("items[0].id", "'items.0.id'", id="bracket-number"),
        pytest.param("$.items", "'items'", id="jsonpath-root"),
        pytest.param("a.[bc", "never closed", id="open-class"),
    ],
)
def test_a_bad_glob_is_an_error_that_shows_how_to_write_it(glob: str, fix: str) -> None:
    with pytest.raises(PathGlobError, match="path glob") as raised:
        FieldPruner(exclude=[glob])
    assert fix in str(raised.value)


# ------------------------------------------------------------------------- properties

KEYS = ["a", "b", "id", "url", "html_url", "0", "1"]
SEGMENTS = ["a", "b", "id", "url", "*", "**", "*_url", "?", "0", "[ab]"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["", "x", "ü"]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=30,
)
documents = st.one_of(
    st.lists(values, max_size=4), st.dictionaries(st.sampled_from(KEYS), values, max_size=5)
)
globs = st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=3).map(".".join)
key_globs = st.lists(st.sampled_from([s for s in SEGMENTS if not s.isdigit()]), min_size=1, max_size=3).map(
    ".".join
)


def reference_match(segments: tuple[str, ...], path: tuple[str, ...]) -> bool:
    if not segments:
        return not path
    if segments[0] == "**":
        return reference_match(segments[1:], path) or (bool(path) and reference_match(segments, path[1:]))
    return (
        bool(path) and fnmatch.fnmatchcase(path[0], segments[0]) and reference_match(segments[1:], path[1:])
    )


DROP = object()


def reference_prune(
    value: Any,
    exclude: list[str],
    include: list[str],
    drop_empty: bool,
    path: tuple[str, ...] = (),
    up: bool = False,
) -> Any:
    """The spec, written the slow way: every path tested against every glob."""

    def matches(globs: list[str]) -> bool:
        return any(reference_match(tuple(glob.split(".")), path) for glob in globs)

    if path and matches(exclude):
        return DROP
    included = up or not include or matches(include)
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else ((str(i), v) for i, v in enumerate(value))
        kept = []
        for key, child in items:
            result = reference_prune(child, exclude, include, drop_empty, (*path, key), included)
            if result is DROP:
                continue
            if drop_empty and isinstance(value, dict) and (result is None or result in ("", [], {})):
                continue
            kept.append((key, result))
        if not included and not kept:
            return DROP if path else ({} if isinstance(value, dict) else [])
        return dict(kept) if isinstance(value, dict) else [item for _, item in kept]
    return value if included else DROP


@settings(max_examples=150)
@given(documents, st.lists(globs, max_size=3), st.lists(globs, max_size=2), st.booleans())
def test_pruning_equals_the_reference_and_stays_valid_json(
    document: Any, exclude: list[str], include: list[str], drop_empty: bool
) -> None:
    text = json.dumps(document, indent=1)
    pruned = FieldPruner(exclude=exclude, include=include, drop_empty=drop_empty).prune_text(text)
    assert strict(pruned.text) == reference_prune(document, exclude, include, drop_empty)
    assert pruned.pruned_bytes == max(0, len(text.encode()) - len(pruned.text.encode()))


def paths_of(value: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(paths_of(child, (*path, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(paths_of(child, (*path, str(index))))
    return found


@settings(max_examples=80)
@given(documents, st.lists(key_globs, min_size=1, max_size=3))
def test_no_path_of_the_output_matches_an_exclude_glob(document: Any, exclude: list[str]) -> None:
    value = strict(FieldPruner(exclude=exclude).prune_text(json.dumps(document)).text)
    for path in paths_of(value)[1:]:
        assert not any(reference_match(check_glob(glob), path) for glob in exclude), path


@settings(max_examples=80)
@given(documents, st.lists(key_globs, min_size=1, max_size=2))
def test_every_kept_leaf_lies_under_an_include_match(document: Any, include: list[str]) -> None:
    value = strict(FieldPruner(include=include).prune_text(json.dumps(document)).text)
    paths = paths_of(value)
    leaves = [
        path
        for path in paths[1:]
        if not any(len(other) > len(path) and other[: len(path)] == path for other in paths)
    ]
    for path in leaves:
        prefixes = [path[:end] for end in range(1, len(path) + 1)]
        assert any(reference_match(check_glob(glob), prefix) for glob in include for prefix in prefixes), path


ISSUES = (FIXTURES / "github-issues-betamax.json").read_text(encoding="utf-8")


def test_a_real_github_issue_list_keeps_its_links_and_loses_api_urls_at_every_depth() -> None:
    exclude = ["**.node_id", "**.url", "**.[!h]*_url", "**.hooks_url", "**.gravatar_id"]
    pruned = FieldPruner(exclude=exclude, drop_empty=True).prune_text(ISSUES)
    value = strict(pruned.text)
    keys = set(keys_at_every_depth(value))
    assert "url" not in keys and "node_id" not in keys and "avatar_url" not in keys
    assert not {key for key in keys if key.endswith("_url")} - {"html_url"}
    assert [issue["html_url"] for issue in value] == [issue["html_url"] for issue in json.loads(ISSUES)]
    assert (
        value[2]["labels"][0]["name"] == json.loads(ISSUES)[2]["labels"][0]["name"]
    )  # inside a nested array
    assert "assignee" not in value[0]  # null in the real response: dropped
    assert pruned.text.startswith('[{"') and '": ' not in pruned.text[:200]  # compact, as the API sent it

    titles = strict(FieldPruner(include=["*.number", "*.title", "*.labels.*.name"]).prune_text(ISSUES).text)
    original = json.loads(ISSUES)
    # an empty labels list holds no match, so it is not kept as a parent
    assert titles[0] == {"number": original[0]["number"], "title": original[0]["title"]}
    assert titles[2]["labels"] == [{"name": label["name"]} for label in original[2]["labels"]]
