"""Drawn trees (npm ls, tree, cargo tree) are trees: root, top level first, problems flagged."""

from __future__ import annotations

from pathlib import Path

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.types import ContentKind, OutputStyle
from tests.corpora import own_summary

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "trees"


def test_npm_ls_is_a_tree_with_its_root_and_unmet_dependencies() -> None:
    # `npm ls --all` in npm's own folder (a real capture): it was a Directive with no content.
    text = (FIXTURES / "npm-ls-npm.txt").read_text(encoding="utf-8")
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run", arguments={})
    assert isinstance(decision, Summary)
    assert decision.kind is ContentKind.TREE
    summary = decision.extract.text
    assert summary.startswith("npm@11.19.1 /usr/lib/node_modules/npm")
    assert "├── UNMET DEPENDENCY" in summary
    assert decision.extract.outline.startswith("tree: 370 items, depth 5, 85 top-level")


def test_ascii_trees_fold_to_the_top_level_first() -> None:
    lines = ["project"]
    for top in range(30):
        lines.append(f"|-- package{top}")
        lines.extend(f"|   `-- child{top}-{child}" for child in range(6))
    decision = route(
        "\n".join(lines), style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run", arguments={}
    )
    assert isinstance(decision, Summary) and decision.kind is ContentKind.TREE
    summary = own_summary("\n".join(lines), decision)  # the tree's own picks, not its last lines
    assert all(f"|-- package{top}" in summary for top in range(30))
    assert "child29-5" not in summary
