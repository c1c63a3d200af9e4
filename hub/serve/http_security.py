"""Request checks for the hub's HTTP transports: bind policy, Host/Origin allow-list, bearer token, body size.

Contract: ``require_token_for(host, token)`` raises ``ConfigError`` when the hub would listen on a
non-loopback address without a bearer token or with a guessable one (``token_weakness``: fewer than
``MIN_DISTINCT_CHARS`` distinct characters or under ``MIN_TOKEN_BITS`` bits estimated from its
character frequencies, so ``aaaaaaaaaaaaaaaa``, ``passwordpassword`` and ``abcdabcdabcdabcd`` are
refused), and for any bind when the token is too short or not printable ASCII. ``AccessPolicy`` is
a frozen value; ``check(policy, path, headers)`` is pure and returns the first ``Rejection`` or
``None``, in this order: Host not allowed → 421, Origin not allowed → 403 (DNS-rebinding
protection, as the MCP spec requires; a request without Origin is a non-browser client and passes),
missing or wrong bearer token → 401 (compared in constant time; ``OPEN_PATHS`` need none).
``Guard`` is a pure-ASGI middleware (``BaseHTTPMiddleware`` would buffer SSE streams) that applies
``check`` and then the body limit, counting the bytes actually received, not only
``Content-Length`` (→ 413). It records ``scope["ctxhub.authorized"]`` for endpoints that show more
to a caller holding the token. A browser cannot send the bearer header, so on
``DASHBOARD_PATH`` paths only the token is also taken from a ``?token=`` query or the
``DASHBOARD_COOKIE`` cookie (``dashboard_credentials``), and checked the same way.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import math
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl, urlsplit

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hub.errors import ConfigError

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
OPEN_PATHS = frozenset({"/healthz", "/readyz"})
MAX_BODY_BYTES = 4 * 2**20
MIN_TOKEN_LENGTH = 16
MIN_DISTINCT_CHARS = 8
MIN_TOKEN_BITS = 40.0  # random 16-character tokens measure about 60 (alphanumeric) or 55 (hex)
MAKE_TOKEN = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"
AUTHORIZED = "ctxhub.authorized"
DASHBOARD_PATH = "/dashboard"
DASHBOARD_COOKIE = "ctxhub_dashboard"


@dataclass(frozen=True, slots=True)
class Rejection:
    status: int
    message: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """Who may talk to the hub: allowed host names (any port) and the bearer token, if any."""

    hosts: frozenset[str]
    token: str | None = None
    max_body_bytes: int = MAX_BODY_BYTES

    @classmethod
    def build(
        cls, *, token: str | None, allowed_hosts: Iterable[str] = (), max_body_bytes: int = MAX_BODY_BYTES
    ) -> AccessPolicy:
        names = {normalize_host(name) for name in (*LOOPBACK_HOSTS, *allowed_hosts) if name.strip()}
        return cls(hosts=frozenset(names), token=token or None, max_body_bytes=max_body_bytes)

    def sdk_settings(self) -> TransportSecuritySettings:
        """The same allow-list in the SDK's shape, so its transports agree with ``Guard``."""
        bracketed = [f"[{name}]" if ":" in name else name for name in sorted(self.hosts)]
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[form for name in bracketed for form in (name, f"{name}:*")],
            allowed_origins=[
                form
                for name in bracketed
                for scheme in ("http", "https")
                for form in (f"{scheme}://{name}", f"{scheme}://{name}:*")
            ],
        )


def is_loopback(host: str) -> bool:
    name = normalize_host(host)
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def require_token_for(host: str, token: str | None) -> None:
    """Refuse a non-loopback bind without a token, and any token too weak to guess-proof."""
    if token is not None and (
        len(token) < MIN_TOKEN_LENGTH
        or not token.isascii()
        or not token.isprintable()
        or any(char.isspace() for char in token)
    ):
        raise ConfigError(
            f"the bearer token needs at least {MIN_TOKEN_LENGTH} printable ASCII characters and no spaces; "
            f"generate one with: {MAKE_TOKEN}"
        )
    if token is None and not is_loopback(host):
        raise ConfigError(f"binding {host} needs a bearer token: pass --token or set CTXHUB_TOKEN")
    weakness = token_weakness(token) if token is not None and not is_loopback(host) else None
    if weakness is not None:
        raise ConfigError(
            f"the bearer token is too easy to guess for binding {host} ({weakness}); "
            f"generate one with: {MAKE_TOKEN}"
        )


def token_weakness(token: str) -> str | None:
    """Why ``token`` is guessable (too few distinct characters, too few estimated bits), or None."""
    counts = [token.count(char) for char in set(token)]
    if len(counts) < MIN_DISTINCT_CHARS:
        return f"{len(counts)} distinct characters, needs {MIN_DISTINCT_CHARS}"
    size = len(token)
    bits = -sum(count * math.log2(count / size) for count in counts)
    if bits < MIN_TOKEN_BITS:
        return f"about {bits:.0f} bits, needs {MIN_TOKEN_BITS:.0f}"
    return None


def split_hosts(values: Iterable[str]) -> list[str]:
    """``["a,b", "c"]`` → ``["a", "b", "c"]`` (options and ``CTXHUB_ALLOWED_HOSTS`` are comma lists)."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def normalize_host(value: str) -> str:
    """A host name without port or IPv6 brackets, lower case: ``[::1]:8765`` → ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


def check(policy: AccessPolicy, path: str, headers: Mapping[str, str]) -> Rejection | None:
    host = headers.get("host")
    if not host or normalize_host(host) not in policy.hosts:
        name = normalize_host(host) if host else "(none)"
        return Rejection(
            421,
            f"Host {name!r} is not allowed; start ctxhub with --allow-host {name} "
            "(or add it to CTXHUB_ALLOWED_HOSTS)",
        )
    origin = headers.get("origin")
    if origin is not None and not _origin_allowed(policy, origin):
        return Rejection(
            403,
            f"Origin {origin!r} is not allowed; browsers may reach ctxhub only from "
            "an allowed host (--allow-host)",
        )
    if policy.token is not None and path not in OPEN_PATHS and not authorized(policy, headers):
        return Rejection(
            401,
            "missing or wrong bearer token: send 'Authorization: Bearer <token>' "
            "with the hub's --token / CTXHUB_TOKEN",
            (("www-authenticate", 'Bearer realm="ctxhub"'),),
        )
    return None


def authorized(policy: AccessPolicy, headers: Mapping[str, str]) -> bool:
    if policy.token is None:
        return True
    scheme, _, credentials = headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        credentials.strip().encode("utf-8", "surrogateescape"), policy.token.encode()
    )


def dashboard_credentials(path: str, query: bytes, headers: dict[str, str]) -> dict[str, str]:
    """On dashboard paths without an Authorization header: the token from ``?token=`` or the cookie."""
    if not (path == DASHBOARD_PATH or path.startswith(DASHBOARD_PATH + "/")) or "authorization" in headers:
        return headers
    token = next((value for key, value in parse_qsl(query.decode("latin-1")) if key == "token"), None)
    if token is None:
        cookies = SimpleCookie()
        try:
            cookies.load(headers.get("cookie", ""))
        except CookieError:
            return headers
        morsel = cookies.get(DASHBOARD_COOKIE)
        token = morsel.value if morsel is not None else None
    return {**headers, "authorization": f"Bearer {token}"} if token else headers


def _origin_allowed(policy: AccessPolicy, origin: str) -> bool:
    try:
        parts = urlsplit(origin)
        name = parts.hostname
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and name is not None and normalize_host(name) in policy.hosts


class Guard:
    """ASGI middleware applying an ``AccessPolicy`` to every HTTP request before the app sees it."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        headers = dashboard_credentials(scope["path"], scope.get("query_string", b""), headers)
        rejection = check(self.policy, scope["path"], headers)
        if rejection is None:
            rejection = _declared_too_large(self.policy, headers)
        if rejection is not None:
            await _reject(rejection, send)
            return
        scope[AUTHORIZED] = authorized(self.policy, headers)
        buffered: deque[Message] = deque()
        total = 0
        while True:  # read the body up to the limit before the app runs; streamed bytes count too
            message = await receive()
            buffered.append(message)
            if message["type"] != "http.request":
                break
            total += len(message.get("body", b""))
            if total > self.policy.max_body_bytes:
                await _reject(_too_large(self.policy), send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return buffered.popleft() if buffered else await receive()

        await self.app(scope, replay, send)


def _declared_too_large(policy: AccessPolicy, headers: Mapping[str, str]) -> Rejection | None:
    try:
        declared = int(headers.get("content-length", "0"))
    except ValueError:
        return Rejection(400, "Content-Length is not a number")
    return _too_large(policy) if declared > policy.max_body_bytes else None


def _too_large(policy: AccessPolicy) -> Rejection:
    return Rejection(413, f"request body larger than {policy.max_body_bytes} bytes")


async def _reject(rejection: Rejection, send: Send) -> None:
    body = json.dumps({"error": rejection.message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((name.encode(), value.encode()) for name, value in rejection.headers),
    ]
    await send({"type": "http.response.start", "status": rejection.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
