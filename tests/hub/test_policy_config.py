"""The policy keys of config.yaml: pruning globs checked at load, budgets and floors inherited per level."""

from __future__ import annotations

from typing import Any

import pytest

from hub.config import parse_config
from hub.errors import ConfigError
from hub.policy_config import base_policy
from hub.serve.policies import ToolPolicies


def server(**options: Any) -> dict[str, Any]:
    return {"command": "true", **options}


@pytest.mark.parametrize(
    ("raw", "budget", "key", "floor"),
    [
        pytest.param({}, 1500, "routing.summary_budget", 0.0, id="defaults"),
        pytest.param(
            {"routing": {"summary_budget": 900}}, 900, "routing.summary_budget", 0.0, id="summary-budget"
        ),
        pytest.param({"routing": {"budget": 2500}}, 2500, "routing.budget", 0.0, id="global"),
        pytest.param(
            {"routing": {"budget": 2500}, "srv": {"budget": 1800}},
            1800,
            "servers.gh.budget",
            0.0,
            id="server",
        ),
        pytest.param(
            {"routing": {"budget": 2500}, "srv": {"budget": 1800}, "tool": {"budget": 700}},
            700,
            "servers.gh.tools.list_*.budget",
            0.0,
            id="tool",
        ),
        pytest.param(
            {"routing": {"budget": 2500}, "srv": {"budget": None}, "tool": {"budget": None}},
            2500,
            "routing.budget",
            0.0,
            id="null-inherits",
        ),
        pytest.param(
            {"routing": {"retention_floor": 0.6}, "srv": {"retention_floor": None}},
            1500,
            "routing.summary_budget",
            0.6,
            id="floor-inherited",
        ),
        pytest.param(
            {"routing": {"retention_floor": 0.6}, "srv": {"retention_floor": 0}},
            1500,
            "routing.summary_budget",
            0.0,
            id="server-0-disables",
        ),
        pytest.param(
            {"srv": {"retention_floor": 0}, "tool": {"retention_floor": 1.0}},
            1500,
            "routing.summary_budget",
            1.0,
            id="tool-over-server-0",
        ),
    ],
)
def test_budget_and_floor_come_from_the_nearest_level(
    raw: dict[str, Any], budget: int, key: str, floor: float
) -> None:
    tools = {"list_*": raw["tool"]} if "tool" in raw else {}
    config = parse_config(
        {"servers": {"gh": server(tools=tools, **raw.get("srv", {}))}, "routing": raw.get("routing", {})}
    )
    choice = ToolPolicies(config).resolve("gh", config.servers["gh"], "list_issues").choice
    assert (choice.budget, choice.budget_key, choice.floor) == (budget, key, floor)
    assert ToolPolicies(config).resolve("gh", config.servers["gh"], "get_issue").choice.budget_key != (
        "servers.gh.tools.list_*.budget"
    )
    assert base_policy(config).summary_budget == raw.get("routing", {}).get("summary_budget", 1500)


def test_fields_and_drop_empty_come_from_the_first_matching_glob_that_sets_them() -> None:
    config = parse_config(
        {
            "servers": {
                "gh": server(
                    tools={
                        "list_issues": {"drop_empty": True},
                        "list_*": {"fields": {"exclude": ["**.node_id"]}, "drop_empty": False},
                        "*": {"fields": {"include": ["id"]}},
                    }
                )
            }
        }
    )
    pruner = ToolPolicies(config).resolve("gh", config.servers["gh"], "list_issues").pruner
    assert pruner is not None
    assert (pruner.exclude, pruner.include, pruner.drop_empty) == (("**.node_id",), (), True)
    assert ToolPolicies(config).resolve("gh", config.servers["gh"], "get_user").pruner.include == ("id",)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(
            {"servers": {"gh": server(tools={"list_*": {"fields": {"exclude": ["**node_id"]}}})}},
            "servers.gh.tools.list_*.fields.exclude: ['**node_id'] is not valid: path glob '**node_id': "
            "'**' must be a whole segment (write '**.*node_id')",
            id="bad-glob",
        ),
        pytest.param(
            {"servers": {"gh": server(tools={"list_*": {"fields": {"include": ["items[*].id"]}}})}},
            "write 'items.*.id'",
            id="bracket-glob",
        ),
        pytest.param(
            {"servers": {"gh": server(tools={"x": {"fields": {"exclud": ["a"]}}})}},
            "servers.gh.tools.x.fields.exclud: unknown key (remove it or use one of: exclude, include)",
            id="unknown-fields-key",
        ),
        pytest.param(
            {"servers": {"gh": server(retention_floor=1.5)}},
            "servers.gh.retention_floor: 1.5 is not valid",
            id="floor>1",
        ),
        pytest.param({"routing": {"budget": 10}}, "routing.budget: 10 is not valid", id="budget-too-small"),
        pytest.param(
            {"routing": {"feedback": {"min_budget": 5000, "max_budget": 1000}}},
            "min_budget 5000 is above max_budget 1000",
            id="feedback-bounds",
        ),
    ],
)
def test_bad_policy_keys_are_config_errors_naming_the_key_and_the_fix(
    raw: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(raw, source="config.yaml")
    assert expected in str(raised.value)
    assert str(raised.value).startswith("config.yaml: ")


def test_feedback_scales_the_adaptive_range_of_a_tool_without_a_configured_budget() -> None:
    import mcp.types as types

    from hub.downstream import Target

    config = parse_config(
        {"servers": {"gh": server()}, "routing": {"summary_budget": 1000, "summary_budget_max": 4000}}
    )

    class Downstream:
        name = "gh"

    Downstream.config = config.servers["gh"]  # type: ignore[attr-defined]
    target = Target(Downstream(), types.Tool(name="list_issues", input_schema={"type": "object"}))  # type: ignore[arg-type]
    policies = ToolPolicies(config)
    result = types.CallToolResult(content=[types.TextContent(text="x" * 10_000)])
    limits, outcome = policies.limits(base_policy(config), "gh__list_issues", policies.of(target), result)
    assert (limits.summary_budget, limits.summary_budget_max, outcome.budget_source) == (1000, 4000, "config")
    policies.feedback.record("gh__list_issues", "lost_info", budget=1000)
    limits, outcome = policies.limits(base_policy(config), "gh__list_issues", policies.of(target), result)
    assert (limits.summary_budget, limits.summary_budget_max, outcome.budget_source) == (
        1500,
        6000,
        "feedback",
    )


def test_a_reloaded_config_resolves_budgets_again_and_keeps_the_feedback() -> None:
    first = parse_config(
        {"servers": {"gh": server(budget=900)}, "routing": {"feedback": {"max_budget": 4000}}}
    )
    policies = ToolPolicies(first)
    assert policies.resolve("gh", first.servers["gh"], "x").choice.budget == 900
    policies.feedback.record("gh__x", "lost_info", budget=900)
    edited = parse_config(
        {"servers": {"gh": server(budget=1200)}, "routing": {"feedback": {"max_budget": 1500}}}
    )
    policies.reconfigure(edited)
    assert policies.resolve("gh", edited.servers["gh"], "x").choice.budget == 1200
    assert policies.feedback.bounds.max_budget == 1500 and policies.feedback.factor("gh__x") == 1.5
    assert base_policy(edited).summary_budget == 1500
