"""An OpenAI-compatible chat endpoint as the core's ``Summarizer``, with a circuit breaker.

Contract: ``LLMSummarizer.summarize(text, max_tokens=...)`` POSTs ``{base_url}/chat/completions``
once (sync ``httpx.Client``; the hub calls it from a worker thread) and returns the answer, or
``None`` so the caller uses its extractive summary: on a timeout, a transport or HTTP error, an
unreadable reply, an empty answer, or while the breaker is open. Any failure except an empty
answer opens the breaker for ``breaker_seconds``: no request is sent until it has passed, then one
request probes the endpoint again. There are no retries, and neither prompts nor answers are logged.

``calibrate()`` measures characters per token from the slope of ``usage.prompt_tokens`` between
two prompts of different length (which cancels the chat template's overhead), shaved and clamped
by ``context_mode.tokens.chars_per_token_from_usage``, and caches it on the instance; when the
endpoint cannot tell, it returns the default without caching.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN, chars_per_token_from_usage

log = logging.getLogger("ctxhub.llm")

SYSTEM_PROMPT = (
    "You shorten working notes and tool output for an AI coding agent. Keep every code block, file "
    "path, identifier, number, decision and constraint verbatim; drop repetition and chatter. Answer "
    "with the summary only, in at most {max_tokens} tokens."
)
# Prose plus a little code, like the notes being measured; repeated to make the two probe lengths.
CALIBRATION_TEXT = (
    "The parser reads config.yaml, validates each server entry and starts one supervisor per "
    "downstream; a failing server is restarted with back-off. def load(path: Path) -> Config: ... "
)


class LLMSummarizer:
    """Summaries from an OpenAI-compatible ``/chat/completions`` endpoint, or ``None`` to fall back."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        timeout: float = 60.0,
        api_key: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        breaker_seconds: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.breaker_seconds = breaker_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None
        self._probing = False  # one request is testing the endpoint after the back-off
        self._chars_per_token: float | None = None
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=httpx.Timeout(timeout), headers=headers, transport=transport)

    @property
    def breaker_open(self) -> bool:
        """True while requests are skipped (back-off running, or another call is probing)."""
        with self._lock:
            return self._open_until is not None and (self._probing or self._clock() < self._open_until)

    def summarize(self, text: str, *, max_tokens: int) -> str | None:
        """The endpoint's summary of ``text``, or ``None`` (the caller falls back)."""
        reply = self._complete(
            [
                {"role": "system", "content": SYSTEM_PROMPT.format(max_tokens=max_tokens)},
                {"role": "user", "content": text},
            ],
            max_tokens=max_tokens,
        )
        if reply is None:
            return None
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            self._fail("reply without choices[0].message.content")
            return None
        if not isinstance(content, str) or not content.strip():
            return None  # the endpoint works; this answer is just unusable
        return content.strip()

    def calibrate(self) -> float:
        """Characters per token for this endpoint's model, measured once and cached."""
        if self._chars_per_token is not None:
            return self._chars_per_token
        samples: list[tuple[int, int]] = []
        for repeats in (2, 8):
            prompt = CALIBRATION_TEXT * repeats
            reply = self._complete([{"role": "user", "content": prompt}], max_tokens=1)
            tokens = _prompt_tokens(reply)
            if tokens is None:
                return DEFAULT_CHARS_PER_TOKEN
            samples.append((len(prompt), tokens))
        try:
            value = chars_per_token_from_usage(samples[0], samples[1])
        except ValueError:
            log.warning(
                "LLM endpoint %s gave unusable token counts; using %.1f chars/token",
                self.url,
                DEFAULT_CHARS_PER_TOKEN,
            )
            return DEFAULT_CHARS_PER_TOKEN
        self._chars_per_token = value
        return value

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> LLMSummarizer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _complete(self, messages: list[dict[str, str]], *, max_tokens: int) -> dict[str, Any] | None:
        with self._lock:
            if self._open_until is not None:
                if self._probing or self._clock() < self._open_until:
                    return None
                self._probing = True
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": 0}
        try:
            return self._exchange(body)
        finally:
            with self._lock:
                self._probing = False  # also after an unexpected error, so the breaker cannot stick

    def _exchange(self, body: dict[str, Any]) -> dict[str, Any] | None:
        try:
            response = self._client.post(self.url, json=body)
            response.raise_for_status()
            reply = response.json()
        except httpx.TimeoutException:
            self._fail("timed out")
            return None
        except httpx.HTTPStatusError as exc:
            self._fail(f"answered HTTP {exc.response.status_code}")
            return None
        except httpx.HTTPError as exc:
            self._fail(f"failed ({type(exc).__name__})")
            return None
        except ValueError:
            self._fail("answered with invalid JSON")
            return None
        if not isinstance(reply, dict):
            self._fail("answered with a non-object JSON")
            return None
        with self._lock:
            self._open_until = None
        return reply

    def _fail(self, what: str) -> None:
        with self._lock:
            self._open_until = self._clock() + self.breaker_seconds
        log.warning(
            "LLM summariser %s %s; using extractive summaries for %.0f s",
            self.url,
            what,
            self.breaker_seconds,
        )


def _prompt_tokens(reply: dict[str, Any] | None) -> int | None:
    usage = reply.get("usage") if reply else None
    tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
    return tokens if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens > 0 else None
