"""Per-tool policies applied around routing: field pruning, stage-1 budgets, floors and the agent's feedback.

Contract: ``ToolPolicies(config, feedback=...)`` resolves, once per downstream tool, its
``FieldPruner`` (the first matching ``tools.<glob>`` that sets ``fields``, and the first that sets
``drop_empty``) and its ``BudgetChoice`` (tool globs in file order, then the server, then
``routing``; ``context_mode.budgets``). Per call, before the router runs:

- ``prune(result, policy)`` prunes every text block and the structured content of a successful
  result (off the event loop for big ones) and returns the pruned result and the bytes removed;
- ``limits(base, name, policy, result)`` is the ``RoutingPolicy`` for this result: the configured
  budget scaled by the tool's feedback factor (within ``routing.feedback``), raised to the floor;
- ``annotate(routed, name, outcome, stats)`` adds ``pruned_bytes``, ``budget`` (unless the router
  set the one a summary was given), ``budget_max``, ``budget_source``
  (``config``, ``feedback`` or ``retention_floor``), ``budget_key`` and ``retention_floor`` to the
  route ``_meta`` and records them in the per-tool stats.

``give_feedback`` serves ``hub_feedback``: it checks the tool name, records the verdict in the
``FeedbackBook`` (persisted in the store directory) and clears the tool's server's cached reads,
so the next call is routed with the new budget. ``rows`` gives ``hub_status`` its per-tool lines.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import mcp.types as types

from context_mode.budgets import BudgetChoice, BudgetLevel, adjust, limit, plan, resolve_budget
from context_mode.feedback import FeedbackBook
from context_mode.policy import RoutingPolicy
from context_mode.pruning import FieldPruner
from context_mode.stats import Stats
from hub.config import HubConfig, ServerConfig
from hub.downstream import Target
from hub.policy_config import feedback_bounds
from hub.serve.convert import META_ROUTE, with_meta
from tools.errors import ToolInputError
from tools.status import PolicyRow

PRUNE_OFF_LOOP_BYTES = 64 * 1024
DEFAULT_KEY = "routing.summary_budget"
MAX_POLICIES = 4096


@dataclass(frozen=True, slots=True)
class ToolPolicy:
    pruner: FieldPruner | None
    choice: BudgetChoice


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the policies did to one result, for its route ``_meta`` and the stats."""

    budget: int
    budget_max: int
    budget_source: str
    budget_key: str
    retention_floor: float | None


class ToolPolicies:
    """Pruning rules and budgets per downstream tool, and the agent's feedback on them."""

    def __init__(self, config: HubConfig, *, feedback: FeedbackBook | None = None) -> None:
        self.config = config
        self.feedback = feedback or FeedbackBook(None, bounds=feedback_bounds(config))
        self._cache: dict[tuple[str, str], ToolPolicy] = {}

    def reconfigure(self, config: HubConfig) -> None:
        """Use an edited config (a hot reload): rules and budgets are resolved again, feedback is kept."""
        self.config = config
        self.feedback.bounds = feedback_bounds(config)
        self._cache.clear()

    def of(self, target: Target) -> ToolPolicy:
        key = (target.downstream.name, target.tool.name)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) >= MAX_POLICIES:
                self._cache.clear()
            found = self._cache[key] = self.resolve(target.downstream.name, target.downstream.config, key[1])
        return found

    def resolve(self, server: str, settings: ServerConfig, tool: str) -> ToolPolicy:
        matching = [
            (glob, entry) for glob, entry in settings.tools.items() if fnmatch.fnmatchcase(tool, glob)
        ]
        fields = next((entry.fields for _, entry in matching if entry.fields is not None), None)
        drop_empty = next((entry.drop_empty for _, entry in matching if entry.drop_empty is not None), False)
        pruner = None
        if (fields is not None and (fields.exclude or fields.include)) or drop_empty:
            pruner = FieldPruner(
                exclude=fields.exclude if fields else (),
                include=fields.include if fields else (),
                drop_empty=drop_empty,
            )
        routing = self.config.routing
        levels = [
            *(
                BudgetLevel(f"servers.{server}.tools.{glob}", e.budget, e.retention_floor)
                for glob, e in matching
            ),
            BudgetLevel(f"servers.{server}", settings.budget, settings.retention_floor),
            BudgetLevel("routing", routing.budget, routing.retention_floor),
        ]
        choice = resolve_budget(levels, default=routing.summary_budget, default_key=DEFAULT_KEY)
        return ToolPolicy(pruner, choice)

    def current_budget(self, name: str, policy: ToolPolicy) -> tuple[int, str]:
        """The budget of exposed tool ``name`` before any floor, and whether config or feedback set it."""
        factor = self.feedback.factor(name)
        budget = self.feedback.get(name)
        if budget is None or factor == 1.0:
            return policy.choice.budget, "config"
        return budget.scaled(policy.choice.budget, self.feedback.bounds), "feedback"

    # ----------------------------------------------------------------- per call

    async def prune(
        self, result: types.CallToolResult, policy: ToolPolicy
    ) -> tuple[types.CallToolResult, int]:
        pruner = policy.pruner
        if pruner is None or result.is_error:
            return result, 0
        size = sum(len(block.text) for block in result.content if isinstance(block, types.TextContent))
        if size > PRUNE_OFF_LOOP_BYTES:
            return await anyio.to_thread.run_sync(_prune_result, result, pruner)
        return _prune_result(result, pruner)

    def limits(
        self, base: RoutingPolicy, name: str, policy: ToolPolicy, result: types.CallToolResult
    ) -> tuple[RoutingPolicy, Outcome]:
        budget, source = self.current_budget(name, policy)
        choice = policy.choice
        if choice.budget_key == DEFAULT_KEY:  # no budget configured: the router's adaptive range, scaled
            factor = self.feedback.factor(name)
            budget = adjust(base.summary_budget, factor, self.feedback.bounds)
            ceiling = adjust(base.summary_budget_max, factor, self.feedback.bounds)
        else:  # a configured budget is the size of stage 1
            ceiling = budget
        size = _payload_bytes(result) if choice.floor > 0 else 0
        stage = plan(choice, size, budget=budget, ceiling=ceiling)
        outcome = Outcome(
            budget=stage.budget,
            budget_max=stage.ceiling,
            budget_source="retention_floor" if stage.raised else source,
            budget_key=choice.floor_key if stage.raised and choice.floor_key else choice.budget_key,
            retention_floor=choice.floor if choice.floor_key else None,
        )
        return limit(base, stage), outcome

    def annotate(
        self, routed: types.CallToolResult, name: str, outcome: Outcome, pruned: int, stats: Stats
    ) -> types.CallToolResult:
        stats.note_policy(
            name, pruned_bytes=pruned, budget=outcome.budget, budget_source=outcome.budget_source
        )
        route = dict((routed.meta or {}).get(META_ROUTE) or {})
        given = route.get("budget")  # the router's: the stage-1 budget a summary was actually given
        route.update(dataclasses.asdict(outcome), pruned_bytes=pruned)
        if given is not None:
            route["budget"] = given
        return with_meta(routed, {META_ROUTE: route})

    # ----------------------------------------------------------------- feedback

    def give_feedback(
        self,
        tool: str,
        verdict: str,
        note: str | None,
        *,
        table: Mapping[str, Target],
        native: Mapping[str, Any],
        forget: Callable[[str], object],
    ) -> str:
        """Record the agent's verdict on ``tool``'s results; the sentence to answer ``hub_feedback`` with."""
        target = table.get(tool)
        if target is None:
            if tool in native:
                raise ToolInputError(
                    f"{tool!r} is one of ctxhub's own tools, whose output is not summarised; "
                    "give feedback on a downstream tool such as 'server__tool'"
                )
            near = sorted(name for name in table if name.endswith(tool) or tool in name)[:3]
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise ToolInputError(
                f"ctxhub has no tool named {tool!r}{hint}; pass the exposed name from tools/list, "
                "such as 'server__tool'"
            )
        policy = self.of(target)
        before, _ = self.current_budget(tool, policy)
        try:
            entry = self.feedback.record(tool, verdict, note, budget=policy.choice.budget)
        except ValueError as exc:
            raise ToolInputError(str(exc)) from None
        after, _ = self.current_budget(tool, policy)
        forget(target.downstream.name)
        bounds = self.feedback.bounds
        edge = ""
        if after == before:
            edge = f" (already at the {'upper' if verdict == 'lost_info' else 'lower'} bound)"
        floor = f"; retention floor {policy.choice.floor:g} still applies" if policy.choice.floor else ""
        return (
            f"{tool}: stage-1 budget {before} B → {after} B{edge}, within {bounds.min_budget}–"
            f"{bounds.max_budget} B; feedback so far: lost_info {entry.lost_info}, too_long "
            f"{entry.too_long}{floor}. Its next results use it: call the tool again for a "
            f"{'fuller' if verdict == 'lost_info' else 'shorter'} reply."
        )

    def rows(self, table: Mapping[str, Target], stats: Stats) -> list[PolicyRow]:
        """Per-tool budget, feedback and pruning, for every tool called or given feedback."""
        per_tool = stats.per_tool()
        feedback = self.feedback.entries()
        rows = []
        for name in sorted(set(per_tool) | set(feedback)):
            target = table.get(name)
            if target is None and name not in feedback:
                continue
            entry = feedback.get(name)
            budget, source = (None, "")
            if target is not None:
                policy = self.of(target)
                budget, source = self.current_budget(name, policy)
                source = f"{source} ({policy.choice.budget_key})" if source == "config" else source
            counted = per_tool.get(name)
            rows.append(
                PolicyRow(
                    tool=name,
                    budget=budget,
                    budget_source=source,
                    lost_info=entry.lost_info if entry else 0,
                    too_long=entry.too_long if entry else 0,
                    pruned_bytes=counted.pruned_bytes if counted else 0,
                    context_saved=counted.context_saved if counted else 0,
                )
            )
        return rows


def _prune_result(result: types.CallToolResult, pruner: FieldPruner) -> tuple[types.CallToolResult, int]:
    content: list[Any] = []
    pruned = 0
    texts = 0
    changed = False
    replaced: dict[str, str] = {}  # original text → pruned text, for structured copies of it
    for block in result.content:
        if isinstance(block, types.TextContent):
            texts += 1
            outcome = pruner.prune_text(block.text)
            pruned += outcome.pruned_bytes
            changed = changed or bool(outcome.removed)
            if outcome.removed:
                replaced[block.text] = outcome.text
            content.append(block.model_copy(update={"text": outcome.text}) if outcome.removed else block)
        else:
            content.append(block)
    structured = result.structured_content
    if structured is not None and replaced:
        # The SDK wraps a text result as {"result": text}: its copy is pruned the same way.
        structured = {
            key: replaced.get(val, val) if isinstance(val, str) else val for key, val in structured.items()
        }
        changed = True
    if structured is not None:
        value, removed = pruner.prune_value(structured)
        if removed:
            if not texts:  # the routed text is the structured content itself
                pruned += max(0, _json_bytes(structured) - _json_bytes(value))
            structured = value
            changed = True
    if not changed:
        return result, 0
    return result.model_copy(update={"content": content, "structured_content": structured}), pruned


def _json_bytes(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, indent=1).encode("utf-8", "surrogatepass"))


def _payload_bytes(result: types.CallToolResult) -> int:
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    if texts:
        return sum(len(text.encode("utf-8", "surrogatepass")) for text in texts) + len(texts) - 1
    if result.structured_content is not None:
        return _json_bytes(result.structured_content)
    return 0
