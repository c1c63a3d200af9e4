"""What a tool result puts into the model's context, split into what is routed and what passes.

Contract: ``split_content(result)`` returns ``Content``:

- ``text``: everything textual the client would show the model, joined by newlines: the text
  blocks, the text of embedded text resources, and ``structuredContent`` as JSON unless the text
  blocks already carry the same value (servers often send both). ``None`` when there is none.
- ``media``: the blocks that pass through unrouted (images, audio, blob resources, resource
  links), in order, with ``media_bytes`` the size of their data as sent (base64 characters).

``cap_media(blocks, max_bytes)`` replaces each block whose data is over ``max_bytes`` by a text
note naming its type and size (a 20 MB image reaches the model as one line, not 20 MB); it
returns the blocks to send and how many were replaced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import mcp.types as types

MEDIA_MAX_BYTES = 5 * 2**20  # per block: the largest image most model APIs accept (base64 characters)


@dataclass(frozen=True)
class Content:
    text: str | None
    media: tuple[Any, ...]
    media_bytes: int


def split_content(result: types.CallToolResult) -> Content:
    texts: list[str] = []
    media: list[Any] = []
    for block in result.content:
        if isinstance(block, types.TextContent):
            texts.append(block.text)
        elif isinstance(block, types.EmbeddedResource) and isinstance(
            block.resource, types.TextResourceContents
        ):
            texts.append(block.resource.text)
        else:
            media.append(block)
    structured = result.structured_content
    if structured is not None and not _carries(texts, structured):
        texts.append(json.dumps(structured, ensure_ascii=False, indent=1))
    text = "\n".join(texts) if texts else ("" if not media else None)
    return Content(text, tuple(media), sum(media_size(block) for block in media))


def media_size(block: Any) -> int:
    data = getattr(block, "data", None)
    if data is None and isinstance(block, types.EmbeddedResource):
        data = getattr(block.resource, "blob", None)
    return len(data) if isinstance(data, str) else 0


def cap_media(blocks: tuple[Any, ...], max_bytes: int = MEDIA_MAX_BYTES) -> tuple[list[Any], int]:
    kept: list[Any] = []
    replaced = 0
    for block in blocks:
        size = media_size(block)
        if size <= max_bytes:
            kept.append(block)
            continue
        replaced += 1
        mime = getattr(block, "mime_type", None) or getattr(
            getattr(block, "resource", None), "mime_type", None
        )
        kept.append(
            types.TextContent(
                text=f"[ctxhub: {block.type} ({mime or 'unknown type'}, {format_size(size)}) not passed into "
                f"context: over {format_size(max_bytes)} per block; ask the tool for a smaller one]"
            )
        )
    return kept, replaced


def format_size(size: int) -> str:
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


def _carries(texts: list[str], structured: Any) -> bool:
    """Whether the text blocks already hold ``structured`` (one block of its JSON, as SDKs send it)."""
    if len(texts) != 1 or not texts[0].lstrip().startswith(("{", "[")):
        return False
    try:
        return bool(json.loads(texts[0]) == structured)
    except (ValueError, RecursionError):
        return False
