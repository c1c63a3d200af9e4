"""Masking of high-confidence secrets before anything is written to disk.

``mask_secrets(text) -> (masked, count)`` is pure, idempotent, linear and keeps line structure;
the rules are in ``secrets.masking`` and the literal-led patterns in ``secrets.patterns``.
"""

from __future__ import annotations

from context_mode.secrets.masking import mask_secrets

__all__ = ["mask_secrets"]
