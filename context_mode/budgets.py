"""Per-tool stage-1 budgets and retention floors: which level of config wins, and what one payload gets.

Contract: ``resolve_budget(levels, default=...)`` takes the config levels nearest first (tool glob,
server, ``routing``) and returns a ``BudgetChoice``: for ``budget`` and for ``retention_floor``
separately, the nearest level that sets it wins; ``None`` inherits from the next level; an explicit
floor of ``0`` turns the floor off at that level (it does not inherit). Without any budget the
default (``routing.summary_budget``) applies.

A configured ``budget`` fixes stage 1 at that size; without one, the router's adaptive range
(``summary_budget`` to ``summary_budget_max``) applies, scaled as a whole by feedback.

``adjust(budget, factor, bounds)`` is the budget after the agent's feedback: ``budget × factor``
kept within ``bounds`` (widened to include the configured budget, so feedback never moves it the
wrong way). ``plan(choice, payload_bytes, budget=...)`` is what one payload gets: the floor raises the
budget to ``ceil(payload_bytes × floor)``; a floor of ``1.0`` passes the payload whole. ``limit``
turns a plan into the ``RoutingPolicy`` the router uses (with a floor in force, AUTO output is
summarised rather than answered with a Directive, which would keep none of it).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.policy import RoutingPolicy

LOST_INFO = "lost_info"
TOO_LONG = "too_long"
FACTORS = {LOST_INFO: 1.5, TOO_LONG: 0.67}  # how one verdict scales a tool's budget


@dataclass(frozen=True, slots=True)
class BudgetLevel:
    """One config level's settings; ``where`` is its key path (``servers.github.tools.list_*``)."""

    where: str
    budget: int | None = None
    retention_floor: float | None = None


@dataclass(frozen=True, slots=True)
class BudgetChoice:
    """The configured budget and floor of one tool, with the key each came from."""

    budget: int
    budget_key: str
    floor: float = 0.0
    floor_key: str | None = None


@dataclass(frozen=True, slots=True)
class Bounds:
    """The range the agent's feedback moves a budget within (bytes)."""

    min_budget: int = 512
    max_budget: int = 32 * 1024


@dataclass(frozen=True, slots=True)
class Plan:
    """The stage-1 budget one payload gets and why."""

    budget: int  # the least stage 1 may take (``RoutingPolicy.summary_budget``)
    whole: bool
    floor: float
    raised: bool  # the floor raised the budget
    ceiling: int = 0  # the most it may grow to with salient content (``summary_budget_max``; 0: budget)


def resolve_budget(levels: Sequence[BudgetLevel], *, default: int, default_key: str) -> BudgetChoice:
    """The nearest level's budget and floor (levels nearest first; ``None`` inherits)."""
    budget = next(((level.budget, level.where) for level in levels if level.budget is not None), None)
    floor = next(
        ((level.retention_floor, level.where) for level in levels if level.retention_floor is not None), None
    )
    value, key = budget if budget is not None else (default, default_key)
    if budget is not None:
        key = f"{key}.budget"
    if floor is None:
        return BudgetChoice(value, key)
    return BudgetChoice(value, key, float(floor[0]), f"{floor[1]}.retention_floor")


def adjust(budget: int, factor: float, bounds: Bounds) -> int:
    """``budget × factor`` within ``bounds`` (widened to include ``budget`` itself)."""
    if factor == 1.0:
        return budget
    low = min(bounds.min_budget, budget)
    high = max(bounds.max_budget, budget)
    return max(low, min(high, round(budget * factor)))


def next_factor(budget: int, factor: float, verdict: str, bounds: Bounds) -> float:
    """The factor after one more ``verdict``, such that ``budget × factor`` stays within ``bounds``."""
    current = adjust(budget, factor, bounds)
    low = min(bounds.min_budget, budget)
    high = max(bounds.max_budget, budget)
    return max(low, min(high, round(current * FACTORS[verdict]))) / budget


def plan(choice: BudgetChoice, payload_bytes: int, *, budget: int | None = None, ceiling: int = 0) -> Plan:
    """The budget for one payload: ``budget`` (default: the configured one) raised to the floor.

    ``ceiling`` is how far the router may grow it with salient content (0: not at all); it is
    never below the budget.
    """
    base = choice.budget if budget is None else budget
    if choice.floor >= 1.0:
        whole = max(base, payload_bytes)
        return Plan(whole, True, choice.floor, payload_bytes > base, max(ceiling, whole))
    if choice.floor <= 0.0:
        return Plan(base, False, 0.0, False, max(ceiling, base))
    minimum = math.ceil(payload_bytes * choice.floor)
    raised = max(base, minimum)
    return Plan(raised, False, choice.floor, minimum > base, max(ceiling, raised))


def limit(policy: RoutingPolicy, stage: Plan) -> RoutingPolicy:
    """``policy`` with the plan's budget (and its whole-pass and floor consequences) applied."""
    ceiling = max(stage.ceiling, stage.budget)
    if (
        stage.floor <= 0
        and not stage.whole
        and (stage.budget, ceiling) == (policy.summary_budget, policy.summary_budget_max)
    ):
        return policy  # the common case: nothing to change, no copy per call
    changes: dict[str, object] = {
        "summary_budget": stage.budget,
        "summary_budget_max": ceiling,
        "pass_whole": stage.whole,
    }
    if stage.floor > 0:
        changes["directive_threshold"] = None
        changes["error_cap"] = max(policy.error_cap, stage.budget)
    return dataclasses.replace(policy, **changes)  # type: ignore[arg-type]
