"""The ``context_*`` native tools: an agent's working memory for long tasks, as plain functions.

Contract: ``context_tools(memory)`` returns seven ``NativeTool``s over one ``SessionMemory``. Each
``run`` checks its arguments (a bad one raises ``ToolInputError`` naming it), calls the core and
renders compact text. ``context_get`` over budget renders the core's ``WindowDirective``: counts,
what is protected (labels and key terms, never raw text) and the exact calls to make next. No MCP
server can see or trim the client's context window; these tools help only because the model
calls them, so their descriptions say when to call them, and ``context_guide`` gives the workflow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from context_mode.memory import (
    Entry,
    MemoryInputError,
    RecallHit,
    SessionMemory,
    SessionStatus,
    Window,
    WindowDirective,
)
from tools import context_arguments as check
from tools.context_project import guide_lines, render_block, render_project_line
from tools.errors import ToolInputError, ToolUnavailableError
from tools.registry import NativeTool, object_schema

_T = TypeVar("_T")
_SESSION = {"type": "string", "description": "Stable id for the task, e.g. 'fix-login-bug'."}
_SCOPE = {"type": "string", "enum": ["session", "project"], "default": "session"}


def context_tools(memory: SessionMemory) -> list[NativeTool]:
    """The seven session-memory tools over ``memory``."""
    session_only = object_schema({"session_id": _SESSION}, ("session_id",))

    def open_session(arguments: dict[str, Any]) -> str:
        session_id = check.text(arguments, "session_id")
        task = check.optional_text(arguments, "task")
        opened = _call(memory, lambda: memory.open(session_id, task=task))
        if opened.created:
            text = (
                f"Session {session_id!r} opened (new). Save goals, constraints, decisions and file plans "
                f"with context_append; pin what must survive every turn. Budget "
                f"{memory.policy.budget:,} tokens, window {memory.policy.window} entries. See context_guide."
            )
        else:
            snapshot = _call(memory, lambda: memory.get(session_id))
            text = f"Session {session_id!r} resumed.\n{render_snapshot(snapshot)}"
        if opened.project is not None:
            text += "\n" + render_block(opened.project, session_id, resumed=not opened.created)
        return text

    def append(arguments: dict[str, Any]) -> str:
        session_id = check.text(arguments, "session_id")
        text = check.text(arguments, "text")
        pinned = check.flag(arguments, "pinned")
        scope = check.scope(arguments)
        supersedes = check.refs(arguments, "supersedes")
        appended = _call(
            memory,
            lambda: memory.append(session_id, text, pinned=pinned, scope=scope, supersedes=supersedes),
        )
        entry = appended.entry
        tag = f" [protected: {entry.reason}]" if entry.protected else ""
        shared = f" In project memory ({appended.status.project})." if entry.promoted else ""
        lines = [f"Saved #{entry.id}{tag}.{shared} {_status_line(appended.status)}"]
        if appended.superseded:
            lines.append(
                f"Marked {', '.join(appended.superseded)} superseded by {session_id}#{entry.id} across the "
                "project (kept; recall shows them marked)."
            )
        if appended.demoted:
            ids = ", ".join(f"#{entry_id}" for entry_id in appended.demoted)
            lines.append(
                f"{ids} lost protection (at most {memory.policy.max_protected} protected); "
                "the text is kept and stays recallable."
            )
        if appended.status.over_budget:
            lines.append(f"context_get is over budget: call context_compact(session_id={session_id!r}).")
        return "\n".join(lines)

    def status(arguments: dict[str, Any]) -> str:
        session_id = check.text(arguments, "session_id")
        current = _call(memory, lambda: memory.status(session_id))
        project = render_project_line(current)
        return render_status(current) + (f"\n{project}" if project else "")

    def get(arguments: dict[str, Any]) -> str:
        session_id = check.text(arguments, "session_id")
        return render_snapshot(_call(memory, lambda: memory.get(session_id)))

    def compact(arguments: dict[str, Any]) -> str:
        session_id = check.text(arguments, "session_id")
        result = _call(memory, lambda: memory.compact(session_id))
        if result.summary is None:
            return (
                f"Nothing to compact in {session_id!r}: protected entries and the "
                f"{memory.policy.compact_keep} most recent are never folded. "
                f"context_get costs ~{result.tokens_after:,} of {memory.policy.budget:,} tokens."
            )
        return (
            f"Compacted {session_id!r}: {len(result.folded)} entries ({_span(result.folded)}) folded into "
            f"summary #{result.summary.id} ({result.method}); context_get ~{result.tokens_before:,} → "
            f"~{result.tokens_after:,} tokens (budget {memory.policy.budget:,}). The originals stay "
            "findable with context_recall."
        )

    def recall(arguments: dict[str, Any]) -> str:
        session_id = check.text(arguments, "session_id")
        query = check.text(arguments, "query")
        limit = check.limit(arguments)
        scope = check.scope(arguments)
        hits = _call(memory, lambda: memory.recall(session_id, query, limit=limit, scope=scope))
        where = (
            f"project {memory.project.project.name!r}"
            if scope == "project" and memory.project
            else repr(session_id)
        )
        if not hits:
            return (
                f"No entry in {where} matches {query!r}. Try other words (names, paths, "
                "keywords); context_get shows the current notes."
            )
        head = f"[recall {where} {query!r}] {len(hits)} match{'es' if len(hits) > 1 else ''}"
        return "\n".join([head, *(render_hit(hit) for hit in hits)])

    def guide(arguments: dict[str, Any]) -> str:
        check.text_keys(arguments, ())
        return render_guide(memory)

    return [
        NativeTool(
            "context_open",
            "Start or resume the working memory of a long task. Call it first with a stable id for the "
            "task; it returns your saved notes and the decisions earlier sessions of this project made. "
            "Read context_guide once.",
            object_schema(
                {
                    "session_id": _SESSION,
                    "task": {
                        "type": "string",
                        "description": "What the task is about (ranks earlier decisions).",
                    },
                },
                ("session_id",),
            ),
            check.checked(open_session, ("session_id", "task")),
            read_only=False,
        ),
        NativeTool(
            "context_append",
            "Save a note you must not lose: goal, constraint, decision, file plan, API signature, finding. "
            "Pin what must survive every turn (pinned=true); scope='project' shares it with later sessions "
            "(protected notes are shared automatically).",
            object_schema(
                {
                    "session_id": _SESSION,
                    "text": {"type": "string", "description": "The note; keep code and paths verbatim."},
                    "pinned": {"type": "boolean", "default": False, "description": "Keep in every turn."},
                    "scope": {**_SCOPE, "description": "'project': also keep it for later sessions."},
                    "supersedes": {
                        "type": "array",
                        "items": {"type": "string"},
                        "maxItems": check.MAX_SUPERSEDES,
                        "description": "Refs of project entries this note replaces, e.g. ['task-a#8'].",
                    },
                },
                ("session_id", "text"),
            ),
            check.checked(append, ("session_id", "text", "pinned", "scope", "supersedes")),
            read_only=False,
        ),
        NativeTool(
            "context_status",
            "Show a session's entries, the tokens context_get would use against the budget, and the "
            "protected count. Cheap: use it to decide whether to compact.",
            session_only,
            check.checked(status, ("session_id",)),
        ),
        NativeTool(
            "context_get",
            "Get your working notes for the next step (protected notes plus the most recent, within the "
            "budget). Call it at the start of each turn of a long task and work from it instead of "
            "scrolling back. Over budget, it says what to call instead.",
            session_only,
            check.checked(get, ("session_id",)),
        ),
        NativeTool(
            "context_compact",
            "Fold older unprotected notes into one summary to bring context_get under budget. Call it when "
            "context_get or context_status says over budget. Originals stay findable with context_recall.",
            session_only,
            check.checked(compact, ("session_id",)),
            read_only=False,
        ),
        NativeTool(
            "context_recall",
            "Find saved notes by words (BM25 + recency), including folded ones; scope='project' searches "
            "every session of this project. Use it before redoing work or when a detail is missing.",
            object_schema(
                {
                    "session_id": _SESSION,
                    "query": {"type": "string", "description": "Words, names or paths to look for."},
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": check.MAX_RECALL_LIMIT,
                        "default": 5,
                    },
                    "scope": {**_SCOPE, "description": "'project': every session of this project."},
                },
                ("session_id", "query"),
            ),
            check.checked(recall, ("session_id", "query", "limit", "scope")),
        ),
        NativeTool(
            "context_guide",
            "How to keep working notes for a long task with the context_* tools, in a few lines. Read it "
            "once when a task will take many steps.",
            object_schema({}),
            check.checked(guide, ()),
        ),
    ]


# -- rendering ----------------------------------------------------------------------------------------


def render_status(status: SessionStatus) -> str:
    state = "OVER budget: call context_compact" if status.over_budget else "within budget"
    return "\n".join(
        [
            f"Session {status.session_id!r}: {status.entries} entries ({status.live} live, "
            f"{status.superseded} superseded, {status.summaries} summaries).",
            f"context_get: {status.window_entries} entries, ~{status.window_tokens:,} of "
            f"{status.budget:,} tokens ({state}).",
            f"Protected {status.protected}/{status.max_protected}; context_compact would fold "
            f"{status.compactable} entries.",
        ]
    )


def render_snapshot(snapshot: Window | WindowDirective) -> str:
    match snapshot:
        case Window():
            return render_window(snapshot)
        case WindowDirective():
            return render_directive(snapshot)


def render_window(window: Window) -> str:
    notes = [
        f"[memory {window.session_id!r}] {len(window.entries)} entries, ~{window.tokens:,} of "
        f"{window.budget:,} tokens"
    ]
    if window.outside:
        notes.append(f"{window.outside} older entries outside the window (context_recall finds them)")
    if window.superseded:
        notes.append(f"{window.superseded} folded into summaries")
    lines = ["; ".join(notes) + "."]
    if not window.entries:
        lines.append("No notes yet: save goals, constraints and decisions with context_append.")
    replaced = dict(window.replaced)
    for entry in window.entries:
        state = f"SUPERSEDED by {replaced[entry.id]}" if entry.id in replaced else ""
        lines.append(f"{_label(entry, extra=state)} {entry.text}")
    return "\n".join(lines)


def render_directive(directive: WindowDirective) -> str:
    session = directive.session_id
    lines = [
        f"[memory {session!r}] context_get is over budget: {directive.window_entries} entries, "
        f"~{directive.tokens:,} tokens > {directive.budget:,}. Text withheld."
    ]
    if directive.protected:
        labels = " · ".join(
            f"#{digest.id} {digest.reason} ({', '.join(digest.terms)})" for digest in directive.protected
        )
        lines.append(
            f"Protected ({len(directive.protected)}, ~{directive.protected_tokens:,} tokens): {labels}"
        )
    if directive.terms:
        lines.append(f"Topics: {', '.join(directive.terms)}")
    if directive.compactable >= 2:
        lines.append(
            f"Next: context_compact(session_id={session!r}) folds {directive.compactable} older "
            f"unprotected entries into one summary; then context_get(session_id={session!r}) again."
        )
    else:
        lines.append(
            "Nothing left to fold: protected and recent entries alone exceed the budget. Keep new notes "
            "short, or raise memory.budget in config.yaml."
        )
    example = directive.terms[0] if directive.terms else "…"
    lines.append(
        f"Full text of any entry: context_recall(session_id={session!r}, query={example!r}) with the words "
        "you need."
    )
    return "\n".join(lines)


def render_hit(hit: RecallHit) -> str:
    entry = hit.entry
    states = [f"superseded by #{entry.superseded_by}"] if entry.superseded_by is not None else []
    if hit.replaced_by is not None:
        states.append(f"SUPERSEDED by {hit.replaced_by}")
    label = _label(entry, extra=" · ".join(states))
    if hit.session_id:  # project recall: "[task-a#8 ..." names the session
        label = f"[{hit.session_id}{label[1:]}"
    return f"{label[:-1]} · score {hit.score:.2f}] {entry.text}"


def render_guide(memory: SessionMemory) -> str:
    policy = memory.policy
    keywords = ", ".join(policy.protected_keywords)
    return "\n".join(
        [
            "Working memory for long tasks (you call these; nothing trims your context for you):",
            "1. context_open(session_id) with a stable id per task; a resumed session returns its notes.",
            "2. context_append(session_id, text) for goals, constraints, decisions, file plans, API "
            "signatures, findings; pinned=true for what every turn needs (the goal, hard rules).",
            "3. Each turn: context_get(session_id) and work from it instead of scrolling back.",
            "4. Over budget (context_get or context_status says so): context_compact(session_id), then "
            "context_get again.",
            "5. Missing a detail or about to redo work: context_recall(session_id, query).",
            f"Protected automatically (max {policy.max_protected}; the oldest non-pinned loses it first): "
            f"pinned notes, notes with {keywords}, API signatures, file-path plans.",
            f"Budget {policy.budget:,} tokens; window {policy.window} most recent notes.",
            *guide_lines(memory),
        ]
    )


def _label(entry: Entry, *, extra: str = "") -> str:
    parts = [f"#{entry.id}"]
    if entry.kind == "summary":
        parts.append(f"summary of {len(entry.covers)} ({_span(entry.covers)})")
    elif entry.protected:
        parts.append(entry.reason or "protected")
    if extra:
        parts.append(extra)
    return f"[{' '.join(parts)}]"


def _span(ids: tuple[int, ...]) -> str:
    return f"#{min(ids)}–#{max(ids)}" if len(ids) > 1 else f"#{ids[0]}"


def _status_line(status: SessionStatus) -> str:
    return (
        f"{status.live} live entries; context_get ~{status.window_tokens:,}/{status.budget:,} tokens; "
        f"protected {status.protected}/{status.max_protected}."
    )


# -- errors ---------------------------------------------------------------------------------------


def _call(memory: SessionMemory, operation: Callable[[], _T]) -> _T:
    try:
        return operation()
    except MemoryInputError as exc:
        raise ToolInputError(str(exc)) from exc
    except OSError as exc:
        raise ToolUnavailableError(
            f"session memory in {memory.directory} failed ({exc.strerror or exc}); check the disk and "
            "store.path in config.yaml"
        ) from exc
