"""Text for project memory in the ``context_*`` tools: the open block and project lines.

Contract: ``render_block(block, session_id, resumed=...)`` renders the core's ``ProjectBlock`` as the
"From earlier sessions of this project:" block, one line per entry labelled with why it is kept
and every session that noted it (``[decision · task-a#8, task-c#2]``), then what was left out and
the exact calls that find it or replace a decision. ``render_project_line`` is the status line.
"""

from __future__ import annotations

from context_mode.memory import ProjectBlock, SessionMemory, SessionStatus

BLOCK_TITLE = "From earlier sessions of this project:"


def render_block(block: ProjectBlock, session_id: str, *, resumed: bool) -> str:
    news = f", {block.new} new since you last looked" if resumed and block.new else ""
    lines = [
        f"{BLOCK_TITLE} {block.project!r}, {_count(len(block.items), 'entry', 'entries')} from "
        f"{_count(block.sessions, 'session', 'sessions')} "
        f"(~{block.tokens:,} of {block.budget:,} tokens{news})."
    ]
    for item in block.items:
        tag = " · new" if resumed and item.new else ""
        lines.append(f"- [{item.label} · {', '.join(item.sources)}{tag}] {item.text}")
    left = []
    if block.superseded:
        left.append(f"{block.superseded} superseded")
    if block.left_out:
        left.append(f"{block.left_out} beyond the budget")
    if left:
        lines.append(
            f"Left out: {' and '.join(left)}; context_recall(session_id={session_id!r}, query='…', "
            "scope='project') finds them."
        )
    decision = next((item for item in block.items if item.label == "decision"), None)
    if decision is not None:
        lines.append(
            f"If you change a decision: context_append(session_id={session_id!r}, text='Decision: …', "
            f"supersedes=[{decision.sources[-1]!r}])."
        )
    return "\n".join(lines)


def render_project_line(status: SessionStatus) -> str | None:
    if status.project is None:
        return None
    return (
        f"Project {status.project!r}: {status.promoted} of this session's entries in project memory "
        "(context_recall with scope='project' searches every session)."
    )


def guide_lines(memory: SessionMemory) -> list[str]:
    if memory.project is None:
        return []
    policy = memory.policy
    automatic = {
        "protected": "protected notes join it automatically",
        "pinned": "pinned notes join it automatically",
        "none": "only notes appended with scope='project' join it",
    }[policy.promote]
    return [
        f"Project memory ({memory.project.project.name!r}, shared by every session of the project): "
        f"{automatic}, or append with scope='project'. A new session opens with them "
        f"(~{policy.project_budget:,} tokens); context_recall(..., scope='project') searches all sessions; "
        "a new decision that replaces one: context_append(..., supersedes=['other-session#8']).",
    ]


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
