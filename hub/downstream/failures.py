"""What a failing downstream request or connection becomes: ``DownstreamError`` sentences.

Contract: ``failures(server, what, timeout)`` wraps one request to downstream ``server`` (``what``
names it: a tool, ``resources/read <uri>``, …) and translates the SDK's errors into
``DownstreamError`` subclasses with one sentence naming the server, the request and the fix; the
original exception is the ``__cause__``:

    MCPError REQUEST_TIMEOUT            → DownstreamTimeout (raise servers.<name>.timeout)
    MCPError CONNECTION_CLOSED          → DownstreamCrashed (ctxhub restarts it — call again)
    any other MCPError                  → DownstreamError with the server's code and message
                                          (``hub.serve.proxy`` keeps that code for the client)
    pydantic.ValidationError            → DownstreamError (the result is not valid MCP; the server
                                          is at fault)
    closed, broken or ended stream      → DownstreamCrashed

``describe(exc)`` is the short reason a failed start or listing is logged and shown with
(``last_error``); ``unwrap(exc)`` finds the exception inside the one-member exception groups task
groups wrap around what they raise.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import mcp.types as types
import pydantic
from mcp.shared.exceptions import MCPError

from hub.errors import DownstreamCrashed, DownstreamError, DownstreamTimeout


@contextmanager
def failures(server: str, what: str, timeout: float) -> Iterator[None]:
    """Translate the SDK's errors for one request into ``DownstreamError`` subclasses."""
    try:
        yield
    except MCPError as exc:
        raise _translate(exc, server, what, timeout) from exc
    except pydantic.ValidationError as exc:  # a well-formed answer whose result is not valid MCP
        raise DownstreamError(
            f"downstream '{server}' answered {what} with a result that is not valid MCP "
            f"({_validation_summary(exc)}); the server is at fault: report it to its authors"
        ) from exc
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
        raise DownstreamCrashed(
            f"downstream '{server}' closed the connection during {what}; ctxhub restarts it — call again"
        ) from exc


def unwrap(exc: BaseException) -> BaseException:
    """The exception inside nested one-member exception groups (task groups wrap what they raise)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def describe(exc: BaseException) -> str:
    """A short reason for a failed start or listing (at most 300 characters)."""
    exc = unwrap(exc)
    if isinstance(exc, FileNotFoundError):
        return f"command not found ({exc.filename or exc}); check 'command' and PATH"
    if isinstance(exc, MCPError):
        return f"error {exc.code}: {exc.message}"
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def _translate(exc: MCPError, server: str, tool: str, timeout: float) -> DownstreamError:
    if exc.code == types.REQUEST_TIMEOUT:
        return DownstreamTimeout(
            f"downstream '{server}' did not answer {tool} within {timeout:g} s and the call was cancelled "
            f"(raise servers.{server}.timeout in config.yaml if it needs longer)"
        )
    if exc.code == types.CONNECTION_CLOSED:
        return DownstreamCrashed(
            f"downstream '{server}' closed the connection during {tool} (it crashed or exited); "
            "ctxhub restarts it — call again"
        )
    return DownstreamError(f"downstream '{server}' answered {tool} with error {exc.code}: {exc.message}")


def _validation_summary(exc: pydantic.ValidationError) -> str:
    """``content: Input should be a valid list; isError: …`` for the first few errors."""
    parts = [
        f"{'.'.join(str(part) for part in error['loc']) or 'result'}: {error['msg']}"
        for error in exc.errors()[:3]
    ]
    return "; ".join(parts)
