"""Config models of the per-tool policies: field pruning globs and the feedback bounds.

Contract: ``FieldsSettings`` (``servers.<name>.tools.<glob>.fields``) holds ``exclude`` and
``include`` path globs, each checked when the config loads (``context_mode.pruning.check_glob``), so
a bad glob stops the hub with the key path, the glob and how to write it. ``FeedbackSettings``
(``routing.feedback``) bounds the budgets ``hub_feedback`` moves. ``hub.config`` uses both; the
budget and floor keys themselves are plain fields there. ``base_policy`` is the global
``RoutingPolicy`` of ``routing:``, ``feedback_bounds`` the core's ``Bounds`` of ``routing.feedback``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from context_mode.budgets import Bounds
from context_mode.errors import PathGlobError
from context_mode.policy import RoutingPolicy
from context_mode.pruning import check_glob

if TYPE_CHECKING:
    from hub.config import HubConfig

_LIMIT_FIELDS = frozenset(f.name for f in dataclasses.fields(RoutingPolicy) if f.name != "pass_whole")


def base_policy(config: HubConfig) -> RoutingPolicy:
    """The global routing limits of ``routing:`` (without the per-tool budget and feedback keys)."""
    return RoutingPolicy(**config.routing.model_dump(include=set(_LIMIT_FIELDS)))


def feedback_bounds(config: HubConfig) -> Bounds:
    """``routing.feedback`` as the core's ``Bounds``."""
    settings = config.routing.feedback
    return Bounds(min_budget=settings.min_budget, max_budget=settings.max_budget)


class FieldsSettings(BaseModel):
    """``fields: {exclude: [...], include: [...]}`` of matching tools (path globs, see README)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    exclude: list[str] = Field(default_factory=list)
    include: list[str] = Field(default_factory=list)

    @field_validator("exclude", "include")
    @classmethod
    def _globs(cls, globs: list[str]) -> list[str]:
        for glob in globs:
            try:
                check_glob(glob)
            except PathGlobError as exc:
                raise ValueError(str(exc)) from None
        return globs


class FeedbackSettings(BaseModel):
    """``routing.feedback``: the range ``hub_feedback`` moves a tool's budget within (bytes)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_budget: int = Field(default=512, ge=200)
    max_budget: int = Field(default=32 * 1024, ge=200)

    @model_validator(mode="after")
    def _ordered(self) -> FeedbackSettings:
        if self.min_budget > self.max_budget:
            raise ValueError(
                f"min_budget {self.min_budget} is above max_budget {self.max_budget}; "
                "swap them or raise max_budget"
            )
        return self
