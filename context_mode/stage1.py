"""The text the agent sees first (stage 1) for Summary, Directive, repeat and delta results.

Contract: every stage-1 text names the stored result (``ref``) and the exact calls that read
more; a Directive holds no raw payload lines; a cache or repeat pointer stays under about 300
bytes; a delta starts with one header line naming the ref it is against and the new result's ref.
The header and footer together stay within ``router.FRAME_BYTES`` for refs and paths of usual
length, so a Summary fits the summary budget.
"""

from __future__ import annotations

from pathlib import Path

from context_mode.delta import Delta
from context_mode.router import Directive, Summary

NOT_STORED = "the full result could not be stored"


def _size(n: int) -> str:
    if n < 10_000:
        return f"{n} B"
    if n < 10_000_000:
        return f"{n / 1000:.1f} kB"
    return f"{n / 1_000_000:.1f} MB"


def _reads(ref: str | None, spill_path: Path | None) -> str:
    if ref is None:
        return f"More: {NOT_STORED}; call the tool again with narrower arguments."
    lines = [f'More: doc_search(query="…", ref="{ref}") · doc_window(ref="{ref}", start=0)']
    if spill_path is not None:
        lines.append(f"Full text: {spill_path} (read or grep it)")
    return "\n".join(lines)


def render(
    decision: Summary | Directive, *, tool: str, ref: str | None, original_bytes: int, spill_path: Path | None
) -> str:
    """Stage-1 text for a Summary or a Directive."""
    if isinstance(decision, Summary):
        return render_summary(
            decision, tool=tool, ref=ref, original_bytes=original_bytes, spill_path=spill_path
        )
    return render_directive(
        decision, tool=tool, ref=ref, original_bytes=original_bytes, spill_path=spill_path
    )


def render_summary(
    decision: Summary, *, tool: str, ref: str | None, original_bytes: int, spill_path: Path | None
) -> str:
    """Header, verbatim extract, and where the rest is."""
    stored = f"ref {ref}" if ref else "not stored"
    header = f"[ctxhub summary of {tool}: {decision.extract.outline}; {_size(original_bytes)}; {stored}]"
    return f"{header}\n{decision.extract.text}\n{_reads(ref, spill_path)}"


def render_directive(
    decision: Directive, *, tool: str, ref: str | None, original_bytes: int, spill_path: Path | None
) -> str:
    """What the output is and the exact next calls; no payload lines."""
    if ref is None:
        return (
            f"[ctxhub directive] {tool} returned {_size(original_bytes)} of {decision.kind.value} output "
            f"({decision.extract.outline}); {NOT_STORED}, so call it again with narrower arguments."
        )
    lines = [
        f"[ctxhub directive] {tool} returned {_size(original_bytes)} of {decision.kind.value} output; "
        "not shown, to save context.",
        f"What it is: {decision.extract.outline}.",
        f"It is stored as ref {ref}. Next calls:",
        f'- doc_search(query="<what you need>", ref="{ref}") finds the relevant chunks',
        f'- doc_window(ref="{ref}", start=0) reads it in order, a few chunks at a time',
    ]
    if spill_path is not None:
        lines.append(f"- or read/grep the full text at {spill_path}")
    return "\n".join(lines)


def render_pointer(*, tool: str, ref: str | None, age_seconds: float, ttl: float, original_bytes: int) -> str:
    """The short answer to a repeated read-only call."""
    ago = f"{age_seconds:.0f} s ago"
    if ref is None:
        return (
            f"[ctxhub] Same {tool} call as {ago}, same arguments: the result ({_size(original_bytes)}) "
            "is unchanged and already above in your context."
        )
    return (
        f"[ctxhub] Same {tool} call as {ago}; its result ({_size(original_bytes)}) is ref {ref}. "
        f'Re-read: doc_window(ref="{ref}") or doc_search(query="…", ref="{ref}"). '
        f"A write to this server or {ttl - age_seconds:.0f} s more makes the next call fresh."
    )


def render_repeat(*, tool: str, ref: str | None, age_seconds: float, original_bytes: int) -> str:
    """The answer to a verified repeat: the downstream was called again and returned the same result."""
    ago = f"{age_seconds:.0f} s ago"
    if ref is None:
        return (
            f"[ctxhub] {tool} returned the same result as {ago} ({_size(original_bytes)}, checked now); "
            "it is already above in your context."
        )
    return (
        f"[ctxhub] {tool} returned the same result as {ago} (checked now): ref {ref}, "
        f'{_size(original_bytes)}. Re-read: doc_window(ref="{ref}") or doc_search(query="…", ref="{ref}").'
    )


def render_delta(
    delta: Delta, *, tool: str, previous_ref: str, ref: str | None, age_seconds: float, original_bytes: int
) -> str:
    """A one-line header naming both refs, then the change itself."""
    stored = f"ref {ref}" if ref else NOT_STORED
    form = "unified diff" if delta.kind == "lines" else "changed JSON paths: - old, + new"
    header = (
        f"[ctxhub delta of {tool} vs ref {previous_ref} ({age_seconds:.0f} s ago): "
        f"+{delta.added} -{delta.removed} ({form}); new full result {_size(original_bytes)}: {stored}]"
    )
    return f"{header}\n{delta.text}"
