"""What a tool result puts into the model's context, split into what is routed and what passes.

Contract: ``split_content(result)`` returns ``Content``:

- ``text``: everything textual the client would show the model, joined by newlines: the text
  blocks, the text of embedded text resources, and ``structuredContent`` as JSON unless the text
  blocks already carry the same value (servers often send both). ``None`` when there is none.
- ``shown``: the text blocks alone, the text a Direct result shows when replayed from the cache.
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

from context_mode.stage1 import format_size

MEDIA_MAX_BYTES = 5_000_000  # per block: about the largest image model APIs accept (base64 characters)


@dataclass(frozen=True)
class Content:
    text: str | None
    media: tuple[Any, ...]
    media_bytes: int
    shown: str | None = None  # the text blocks alone (what a replayed Direct result shows), if any


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
    shown = "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))
    has_blocks = any(isinstance(block, types.TextContent) for block in result.content)
    return Content(
        text, tuple(media), sum(media_size(block) for block in media), shown if has_blocks else None
    )


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


def _carries(texts: list[str], structured: Any) -> bool:
    """Whether the text blocks already hold ``structured``, as SDKs send it.

    Either one block of its JSON, or the SDK's wrapping of a plain return value:
    ``{"result": value}`` beside a block holding ``value`` (as text, or as JSON).
    """
    if len(texts) != 1:
        return False
    text = texts[0]
    if isinstance(structured, dict) and len(structured) == 1 and "result" in structured:
        value = structured["result"]
        if isinstance(value, str) and value == text:
            return True
        structured = value
    try:
        return bool(json.loads(text) == structured)
    except (ValueError, RecursionError):
        return False
