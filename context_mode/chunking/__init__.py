"""Structure-aware chunking: a payload cut into pieces small enough to index and to read back.

``chunk(text, kind, max_chunk_bytes=4096)`` returns ``Chunk``s that join back to ``text`` exactly,
each within the byte cap, cut along the kind's structure (markdown sections, log records, JSON
element groups, diff hunks, grep files). Linear time whatever the shape. Details in
``chunking.split``; the line and JSON units are private. ``DRAWN_ENTRY`` matches a drawn tree's
entry up to its name (``│   ├── [  4096]  ``), where the search reads its depth too;
``atx_heading(line)`` a Markdown ``#`` heading's level and title as a heading path names it, which
the search uses to leave out a heading line its hit's path already shows.
"""

from __future__ import annotations

from context_mode.chunking.lines import DRAWN_ENTRY, atx_heading
from context_mode.chunking.split import Chunk, chunk

__all__ = ["Chunk", "DRAWN_ENTRY", "atx_heading", "chunk"]
