"""Budgets and retention floors: which config level wins, what a payload gets, and the feedback book."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from context_mode.budgets import (
    Bounds,
    BudgetChoice,
    BudgetLevel,
    adjust,
    limit,
    next_factor,
    plan,
    resolve_budget,
)
from context_mode.feedback import FeedbackBook
from context_mode.policy import RoutingPolicy
from context_mode.router import Direct, Summary, route
from context_mode.stage1 import render

REPO = Path(__file__).resolve().parents[2]
T, S, G = "servers.gh.tools.list_*", "servers.gh", "routing"


@pytest.mark.parametrize(
    ("levels", "budget", "budget_key", "floor", "floor_key"),
    [
        pytest.param([], 1500, "routing.summary_budget", 0.0, None, id="nothing-set"),
        pytest.param([(G, 3000, None)], 3000, "routing.budget", 0.0, None, id="global"),
        pytest.param(
            [(S, 2000, None), (G, 3000, None)], 2000, "servers.gh.budget", 0.0, None, id="server-over-global"
        ),
        pytest.param(
            [(T, 800, None), (S, 2000, None), (G, 3000, None)],
            800,
            f"{T}.budget",
            0.0,
            None,
            id="tool-over-server",
        ),
        pytest.param(
            [(T, None, None), (S, 2000, None)], 2000, "servers.gh.budget", 0.0, None, id="tool-null-inherits"
        ),
        pytest.param(
            [(T, None, None), (S, None, None), (G, None, 0.5)],
            1500,
            "routing.summary_budget",
            0.5,
            "routing.retention_floor",
            id="floor-inherited-from-global",
        ),
        pytest.param(
            [(T, None, None), (S, None, 0.0), (G, None, 0.5)],
            1500,
            "routing.summary_budget",
            0.0,
            "servers.gh.retention_floor",
            id="server-0-turns-global-floor-off",
        ),
        pytest.param(
            [(T, None, 0.3), (S, None, 0.0), (G, None, 0.5)],
            1500,
            "routing.summary_budget",
            0.3,
            f"{T}.retention_floor",
            id="tool-floor-over-server-0",
        ),
        pytest.param(
            [(T, None, 0.0), (S, None, 0.8)],
            1500,
            "routing.summary_budget",
            0.0,
            f"{T}.retention_floor",
            id="tool-0-turns-server-floor-off",
        ),
        pytest.param(
            [("servers.gh.tools.list_issues", 900, None), (T, 700, 1.0), (S, 2000, 0.2)],
            900,
            "servers.gh.tools.list_issues.budget",
            1.0,
            f"{T}.retention_floor",
            id="first-glob-per-key",
        ),
    ],
)
def test_the_nearest_level_that_sets_a_key_wins(
    levels: list[tuple[str, int | None, float | None]],
    budget: int,
    budget_key: str,
    floor: float,
    floor_key: str | None,
) -> None:
    choice = resolve_budget(
        [BudgetLevel(where, b, f) for where, b, f in levels],
        default=1500,
        default_key="routing.summary_budget",
    )
    assert choice == BudgetChoice(budget, budget_key, floor, floor_key)


def test_the_floor_raises_the_budget_to_its_share_of_the_payload() -> None:
    half = BudgetChoice(1500, "routing.summary_budget", 0.5, "routing.retention_floor")
    assert plan(half, 10_001) == plan(half, 10_001, budget=1500)
    assert plan(half, 10_001).budget == math.ceil(10_001 * 0.5) and plan(half, 10_001).raised
    assert plan(half, 2_000).budget == 1500 and not plan(half, 2_000).raised  # the budget is already above
    whole = BudgetChoice(1500, "x", 1.0, "y")
    assert plan(whole, 90_000).whole and plan(whole, 90_000).budget == 90_000
    off = BudgetChoice(1500, "x", 0.0, "y")
    assert plan(off, 90_000).budget == 1500 and not plan(off, 90_000).whole


def test_floor_half_gives_a_summary_of_half_the_payload_and_floor_one_passes_it_whole() -> None:
    text = (REPO / "tests" / "fixtures" / "json" / "github-search-repositories.json").read_text(
        encoding="utf-8"
    )
    size = len(text.encode())
    base = RoutingPolicy()
    plain = route(text, policy=base)
    half = route(text, policy=limit(base, plan(BudgetChoice(1500, "k", 0.5, "f"), size)))
    assert isinstance(plain, Summary) and isinstance(half, Summary)
    stage1 = render(half, tool="gh__search", ref="r_1", original_bytes=size, spill_path=None)
    assert 0.45 * size <= len(stage1.encode()) <= 0.5 * size + 64
    assert (
        len(render(plain, tool="gh__search", ref="r_1", original_bytes=size, spill_path=None).encode())
        <= plain.budget
        < 0.2 * size
    )
    whole = route(text, policy=limit(base, plan(BudgetChoice(1500, "k", 1.0, "f"), size)))
    assert isinstance(whole, Direct) and "retention floor 1.0" in whole.reason


def test_a_floor_keeps_auto_output_from_becoming_a_directive() -> None:
    text = "\n".join(f"line {number} nothing to see here" for number in range(2000))
    policy = RoutingPolicy(directive_threshold=8192)
    assert type(route(text, policy=policy)).__name__ == "Directive"
    floored = limit(policy, plan(BudgetChoice(1500, "k", 0.2, "f"), len(text)))
    assert isinstance(route(text, policy=floored), Summary)


@pytest.mark.parametrize(
    ("budget", "factor", "expected"),
    [
        pytest.param(1500, 1.0, 1500, id="no-feedback"),
        pytest.param(1500, 1.5, 2250, id="raised"),
        pytest.param(1500, 0.1, 512, id="lower-bound"),
        pytest.param(1500, 100.0, 32768, id="upper-bound"),
        pytest.param(300, 0.5, 300, id="configured-below-the-bounds-is-not-raised-by-too-long"),
        pytest.param(65536, 2.0, 65536, id="configured-above-the-bounds-is-not-lowered-by-lost-info"),
    ],
)
def test_feedback_moves_the_budget_within_bounds(budget: int, factor: float, expected: int) -> None:
    assert adjust(budget, factor, Bounds()) == expected


def test_repeated_verdicts_stop_at_the_bounds_and_turn_back_at_once() -> None:
    bounds = Bounds(min_budget=600, max_budget=4000)
    factor = 1.0
    for _ in range(10):
        factor = next_factor(1500, factor, "lost_info", bounds)
    assert adjust(1500, factor, bounds) == 4000
    factor = next_factor(1500, factor, "too_long", bounds)
    assert adjust(1500, factor, bounds) == round(4000 * 0.67)
    for _ in range(10):
        factor = next_factor(1500, factor, "too_long", bounds)
    assert adjust(1500, factor, bounds) == 600


def test_the_feedback_book_survives_a_reopen_and_ignores_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "feedback.json"
    book = FeedbackBook(path, mask=lambda text: text.replace("hunter2", "[secret]"))
    entry = book.record("gh__list_issues", "lost_info", "labels missing; password=hunter2", budget=1500)
    assert (entry.lost_info, entry.too_long, entry.budget) == (1, 0, 2250)
    book.record("gh__list_issues", "too_long", budget=1500)
    reopened = FeedbackBook(path)
    again = reopened.get("gh__list_issues")
    assert again is not None and (again.lost_info, again.too_long) == (1, 1)
    assert again.scaled(1500, reopened.bounds) == round(2250 * 0.67)
    assert "hunter2" not in path.read_text() and "[secret]" in again.note
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    with pytest.raises(ValueError, match="lost_info, too_long"):
        reopened.record("gh__list_issues", "meh", budget=1500)

    path.write_text("{not json", encoding="utf-8")
    assert FeedbackBook(path).entries() == {}
    path.write_text(json.dumps({"tools": {"x": {"factor": "many"}}}), encoding="utf-8")
    assert FeedbackBook(path).entries() == {}
    memory = FeedbackBook(None)
    memory.record("a__b", "too_long", budget=1500)
    assert memory.factor("a__b") < 1.0
