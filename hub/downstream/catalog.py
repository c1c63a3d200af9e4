"""Exposed resource URIs, URI templates and prompt names, and the routing of a URI back to its server.

Contract: ``Catalog.build(downstreams)`` maps every exposed name to its ``Entry`` (the server, its
own URI / template / name, and the listed item). Prompts are named like tools,
``<namespace>__<prompt>`` (``hub.downstream.naming``; a ``passthrough`` server's keep their names). Resource
URIs and URI templates are exposed **unchanged**, so a URI met anywhere (a listing, an embedded
resource or a resource link in a tool result, a prompt message) reads as is. When two servers list
the same URI or template, the first in config order keeps it and the others' is exposed as
``ctxhub://<server>/<original>``: the original is appended verbatim, so a wrapped template is
still an RFC 6570 template and removing the prefix (``unwrap``) gives the original back.

``Catalog.route(uri)`` lists the servers that may serve a URI, best first: the ``ctxhub://<server>/``
prefix; an exactly listed URI; a listed template the URI matches (``template_pattern``); else every
server that declares resources, those that listed a URI or template of the same scheme first, in
config order. Pure functions of the servers' lists: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote, unquote

import mcp.types as types

from hub.downstream.naming import assign_names
from hub.downstream.supervisor import Downstream

WRAP = "ctxhub://"
ItemT = TypeVar("ItemT")
_EXPRESSION = re.compile(r"\{([+#./;?&]?)[^}]*\}")
_OPERATORS = {
    "": r"[^/?#]*",
    "+": r".*",
    "#": r"(?:#.*)?",
    ".": r"(?:\.[^/?#]*)*",
    "/": r"(?:/[^/?#]*)*",
    ";": r"(?:;[^/?#]*)*",
    "?": r"(?:\?[^#]*)?",
    "&": r"(?:&[^#]*)?",
}


def template_pattern(template: str) -> re.Pattern[str]:
    """A regex matching every URI that an RFC 6570 ``template`` can expand to (for routing only)."""
    parts: list[str] = []
    position = 0
    for match in _EXPRESSION.finditer(template):
        parts.extend((re.escape(template[position : match.start()]), _OPERATORS[match.group(1)]))
        position = match.end()
    parts.append(re.escape(template[position:]))
    return re.compile("".join(parts), re.DOTALL)


def wrap(server: str, original: str) -> str:
    return f"{WRAP}{quote(server, safe='')}/{original}"


def unwrap(uri: str) -> tuple[str, str] | None:
    """``(server, original)`` for a ``ctxhub://<server>/<original>`` URI, else ``None``."""
    if not uri.startswith(WRAP) or "/" not in uri[len(WRAP) :]:
        return None
    server, _, original = uri[len(WRAP) :].partition("/")
    return unquote(server), original


@dataclass(frozen=True)
class Entry(Generic[ItemT]):
    downstream: Downstream
    original: str
    item: ItemT


@dataclass
class Catalog:
    """Exposed URI / template / prompt name → the server and its own URI / template / name."""

    resources: dict[str, Entry[types.Resource]] = field(default_factory=dict)
    templates: dict[str, Entry[types.ResourceTemplate]] = field(default_factory=dict)
    prompts: dict[str, Entry[types.Prompt]] = field(default_factory=dict)
    patterns: list[tuple[re.Pattern[str], Entry[types.ResourceTemplate]]] = field(default_factory=list)

    @classmethod
    def build(cls, downstreams: Iterable[Downstream]) -> Catalog:
        catalog = cls()
        servers = list(downstreams)
        for downstream in servers:
            for resource in downstream.resources:
                _claim(catalog.resources, downstream, str(resource.uri), resource)
            for template in downstream.resource_templates:
                _claim(catalog.templates, downstream, template.uri_template, template)
        catalog.patterns = [
            (template_pattern(entry.original), entry)
            for exposed, entry in catalog.templates.items()
            if exposed == entry.original  # a wrapped template is routed by its prefix
        ]
        keys = {
            (downstream.namespace, prompt.name, downstream.name): Entry(downstream, prompt.name, prompt)
            for downstream in servers
            for prompt in downstream.prompts
        }
        names = assign_names(keys)
        catalog.prompts = {names[key]: keys[key] for key in sorted(keys, key=names.__getitem__)}
        return catalog

    def route(self, uri: str, downstreams: dict[str, Downstream]) -> list[tuple[Downstream, str]]:
        """The servers that may serve ``uri`` (with the URI in their own terms), best first."""
        wrapped = unwrap(uri)
        if wrapped is not None:
            downstream = downstreams.get(wrapped[0])
            return [(downstream, wrapped[1])] if downstream is not None else []
        entry = self.resources.get(uri)
        if entry is not None:
            return [(entry.downstream, entry.original)]
        for pattern, template in self.patterns:
            if pattern.fullmatch(uri):
                return [(template.downstream, uri)]
        serving = [d for d in downstreams.values() if d.capabilities and d.capabilities.resources]
        scheme = uri.partition(":")[0]
        entries: list[Entry[Any]] = [*self.resources.values(), *self.templates.values()]
        same_scheme = {e.downstream.name for e in entries if e.original.startswith(scheme + ":")}
        serving.sort(key=lambda d: d.name not in same_scheme)  # stable: config order within each group
        return [(d, uri) for d in serving]

    def exposed_uri(self, downstream: Downstream, original: str) -> str:
        entry = self.resources.get(original)
        if entry is None or entry.downstream is downstream:
            return original
        return wrap(downstream.name, original)


def _claim(table: dict[str, Entry[ItemT]], downstream: Downstream, original: str, item: ItemT) -> None:
    if table.get(original, None) is None:
        table[original] = Entry(downstream, original, item)
    elif table[original].downstream is not downstream:
        table[wrap(downstream.name, original)] = Entry(downstream, original, item)
