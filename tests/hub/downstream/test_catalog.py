"""Exposed resource URIs, templates and prompt names, and routing a URI back to its server (no I/O)."""

from __future__ import annotations

from typing import Any

import mcp.types as types
import pytest

from hub.config import ServerConfig
from hub.downstream.catalog import Catalog, template_pattern, unwrap, wrap
from hub.downstream.supervisor import Downstream


async def _unchanged() -> None:
    return None


def server(
    name: str,
    resources: tuple[str, ...] = (),
    templates: tuple[str, ...] = (),
    prompts: tuple[str, ...] = (),
    **config: Any,
) -> Downstream:
    downstream = Downstream(name, ServerConfig(command="unused", **config), on_change=_unchanged)
    downstream.resources = [types.Resource(uri=uri, name=uri) for uri in resources]
    downstream.resource_templates = [types.ResourceTemplate(uri_template=t, name=t) for t in templates]
    downstream.prompts = [types.Prompt(name=prompt) for prompt in prompts]
    downstream.capabilities = types.ServerCapabilities(resources=types.ResourcesCapability())
    return downstream


@pytest.mark.parametrize(
    ("template", "uri", "matches"),
    [
        pytest.param("test://template/{id}/data", "test://template/123/data", True, id="simple"),
        pytest.param("test://template/{id}/data", "test://template/1/2/data", False, id="simple-no-slash"),
        pytest.param("file:///{+path}", "file:///src/a.py", True, id="reserved"),
        pytest.param("repo://{owner}/{name}{?ref,depth}", "repo://me/x?ref=main&depth=1", True, id="query"),
        pytest.param("repo://{owner}/{name}{?ref,depth}", "repo://me/x", True, id="query-absent"),
        pytest.param("docs://{/path*}", "docs:///a/b/c", True, id="path-segments"),
        pytest.param("a+b://{x}", "a+b://1", True, id="literal-regex-characters"),
        pytest.param("a+b://{x}", "aab://1", False, id="literal-regex-characters-escaped"),
    ],
)
def test_template_patterns_match_exactly_the_uris_a_template_expands_to(
    template: str, uri: str, matches: bool
) -> None:
    assert bool(template_pattern(template).fullmatch(uri)) is matches


def test_wrapped_uris_unwrap_to_the_server_and_the_original() -> None:
    wrapped = wrap("my server", "file:///a b?x=1#f")
    assert wrapped == "ctxhub://my%20server/file:///a b?x=1#f"
    assert unwrap(wrapped) == ("my server", "file:///a b?x=1#f")
    assert unwrap("test://static") is None


def test_uris_stay_unchanged_and_a_collision_is_wrapped_for_the_later_server() -> None:
    first = server("first", resources=("test://a", "test://b"), templates=("test://t/{id}",))
    second = server("second", resources=("test://a", "other://c"), templates=("test://t/{id}",))
    catalog = Catalog.build([first, second])
    assert list(catalog.resources) == ["test://a", "test://b", "ctxhub://second/test://a", "other://c"]
    assert list(catalog.templates) == ["test://t/{id}", "ctxhub://second/test://t/{id}"]
    assert catalog.resources["ctxhub://second/test://a"].original == "test://a"
    assert catalog.exposed_uri(second, "test://a") == "ctxhub://second/test://a"
    assert catalog.exposed_uri(first, "test://a") == "test://a"


def test_a_uri_routes_by_prefix_then_listing_then_template_then_scheme() -> None:
    first = server("first", resources=("test://a",), templates=("test://t/{id}",))
    second = server("second", resources=("test://a", "other://c"))
    downstreams = {"first": first, "second": second}
    catalog = Catalog.build(downstreams.values())

    def route(uri: str) -> list[tuple[str, str]]:
        return [(d.name, original) for d, original in catalog.route(uri, downstreams)]

    assert route("ctxhub://second/test://a") == [("second", "test://a")]
    assert route("other://c") == [("second", "other://c")]
    assert route("test://t/42") == [("first", "test://t/42")]
    assert route("other://unlisted") == [("second", "other://unlisted"), ("first", "other://unlisted")]
    assert route("ctxhub://nobody/test://a") == []


def test_prompts_are_namespaced_unless_the_server_is_passthrough() -> None:
    named = server("git", prompts=("review", "summarize"))
    plain = server("plain", prompts=("review",), passthrough=True)
    catalog = Catalog.build([named, plain])
    assert {name: entry.original for name, entry in catalog.prompts.items()} == {
        "git__review": "review",
        "git__summarize": "summarize",
        "review": "review",
    }
