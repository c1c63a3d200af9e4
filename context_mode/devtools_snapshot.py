"""Chrome DevTools MCP's accessibility snapshot, read in Playwright MCP's terms.

Chrome DevTools MCP's ``take_snapshot`` (and the snapshot ``navigate_page``, ``click`` … append)
prints one node a line, indented two spaces a level: ``uid=1_4 link "logo" url="http://…"``, a
text node as ``uid=1_8 "1.95.0"`` (no role), attributes as ``level="2"`` or bare flags
(``expandable expanded``), under ``## Latest page snapshot`` (and ``## Pages`` with
``1: title (url) [selected]`` lines). Playwright MCP's ``browser_snapshot`` says the same as YAML:
``- link "logo" [ref=e4]``, ``- text: 1.95.0``, ``- heading "Examples" [level=2]``.

``is_devtools_snapshot(lines)`` says whether a sample of lines reads as the former (at least
three nodes, a third of the non-blank lines); ``as_playwright(lines)`` rewrites its lines as the
latter, one for one, indentation kept, so that one reader ranks both (the summary shows the
payload's own lines: the rewrite is for reading only); a short piece of a sentence that inline
code cuts (``"The "``) is read as no text. A line that is no node comes back as it was, but for a
``## `` heading (``### ``, as Playwright's headers are) and a page list's ``1: …`` line (``- 1: …``).
Pure and linear in the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# The name is quoted without escapes (``""a""`` is the text ``"a"``): it ends at the quote after
# which only attributes follow.
_NODE = re.compile(
    r"(?P<indent>\s*)uid=(?P<uid>\d+_\d+)(?: (?P<role>[A-Za-z]\w*))?"
    r'(?: "(?P<name>.*?)")?(?P<attrs>(?: [a-z][\w-]*(?:="[^"]*")?)*)\s*\Z'
)
_ATTRIBUTE = re.compile(r' (?P<key>[a-z][\w-]*)(?:="(?P<value>[^"]*)")?')
_URL = re.compile(r' url="(?P<url>[^"]*)"')
_SLUG_WORD = re.compile(r"[a-z0-9]+")
_NODE_START = re.compile(r"\s*uid=\d+_\d+(?: |\Z)")
_PAGE = re.compile(r"\d+: \S")
_ROLES = {"image": "img", "statictext": "text", "rootwebarea": "document"}
# Chrome cuts a sentence into text nodes around its inline code: a short piece with a space at its
# edge (``"The "`` before ``code "version"``) says nothing alone.
_PIECE = 12
_FLAGS = frozenset("checked disabled expanded selected pressed required focused".split())


def is_devtools_snapshot(lines: Sequence[str]) -> bool:
    """Whether ``lines`` (a sample) are mostly Chrome DevTools MCP snapshot nodes."""
    said = [line for line in lines if line.strip()]
    nodes = sum(1 for line in said if _NODE_START.match(line))
    return nodes >= 3 and nodes * 3 >= len(said)


def as_playwright(lines: Sequence[str]) -> list[str]:
    """``lines`` as Playwright MCP's snapshot would say them (see the module docstring), one for
    one. Chrome leaves out a heading whose only content is a link to itself (mdBook's, rustdoc's
    sections: ``link "The name field" url="…manifest.html#the-name-field"``): such a link, to its
    own page's anchor named as it is, outside a navigation landmark, is read as the heading (not a
    reference to a section in the text, which quotes its name: ``link "“Accessing Values”"``)."""
    page = ""
    navigation: int | None = None  # the indent of the navigation landmark the lines are in
    read: list[str] = []
    for line in lines:
        node = _NODE.match(line)
        if node is None:
            read.append(_as_playwright(line, None))
            continue
        depth = len(node["indent"])
        if navigation is not None and depth <= navigation:
            navigation = None
        role = (node["role"] or "").lower()
        url = _URL.search(node["attrs"])
        if role == "rootwebarea" and url:
            page = url["url"].partition("#")[0]
        elif role == "navigation" and navigation is None:
            navigation = depth
        elif role == "link" and page and url and navigation is None and (node["name"] or "")[:1].isalnum():
            target, _, anchor = url["url"].partition("#")
            if target == page and anchor and anchor == _slug(node["name"]):
                read.append(f'{node["indent"]}- heading "{node["name"]}" [ref={node["uid"]}]')
                continue
        read.append(_as_playwright(line, node))
    return read


def _slug(name: str) -> str:
    """``name`` as a page's anchor spells it: ``The [package] section`` is ``the-package-section``."""
    return "-".join(_SLUG_WORD.findall(name.lower()))


def _as_playwright(line: str, node: re.Match[str] | None) -> str:
    """One line as Playwright MCP's snapshot would say it; ``node`` is its ``_NODE`` match."""
    if node is None:
        stripped = line.lstrip()
        if stripped.startswith("## "):
            return "#" + stripped
        return "- " + stripped if _PAGE.match(stripped) else line
    indent, role, name = node["indent"], (node["role"] or "").lower(), node["name"]
    attributes = {m["key"]: m["value"] for m in _ATTRIBUTE.finditer(node["attrs"])}
    if role == "rootwebarea":  # the page itself: its title, as Playwright's header says it
        return f"{indent}- Page Title: {name or ''}"
    if not role or role == "statictext":
        if name and len(name) < _PIECE and name != name.strip():
            return f"{indent}- text:"  # a piece of a sentence cut by inline code ("The ", "use "): no text
        return f"{indent}- text: {name or ''}"
    role = _ROLES.get(role, role)
    said = f' "{name}"' if name else ""
    marks = "".join(f" [{key}]" for key in attributes if key in _FLAGS)
    level = f" [level={attributes['level']}]" if attributes.get("level") else ""
    value = f": {attributes['value']}" if attributes.get("value") else ""
    return f"{indent}- {role}{said}{level}{marks} [ref={node['uid']}]{value}"
