"""ctxhub's pure core: routing decisions, summaries, chunking, the store and the cache.

This package never imports the MCP SDK, anyio or network code and has no ``async def``;
the hub (``hub/``) does the I/O and applies the decisions made here.
"""
