"""HTTP hardening: guessable tokens refused for a public bind; a connection cap per transport, 503 past it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hub.errors import ConfigError
from hub.serve.http_security import require_token_for
from tests.conftest import REPO

pytestmark = pytest.mark.anyio
MAKE_TOKEN = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"


@pytest.mark.parametrize(
    ("token", "why"),
    [
        pytest.param("aaaaaaaaaaaaaaaa", "1 distinct characters", id="one-char"),
        pytest.param("passwordpassword", "7 distinct characters", id="a-word-twice"),
        pytest.param("abababababababababababababababab", "2 distinct characters", id="pattern"),
    ],
)
def test_guessable_tokens_are_refused_for_a_public_bind(token: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why) as refused:
        require_token_for("0.0.0.0", token)
    assert MAKE_TOKEN in str(refused.value)
    require_token_for("127.0.0.1", token)  # loopback: only the length rule applies


@pytest.mark.parametrize(
    "token",
    [
        pytest.param("vMZ9ndFjAgP4i9mcGtIOpZry3kuC98Ev6rntxZEn1ws", id="token-urlsafe-32"),
        pytest.param("4c77715b1c06b2d93210ec4872ad58d9", id="token-hex-16"),
        pytest.param("Zx81kQp0LmN4vB7c", id="random-16"),
    ],
)
def test_random_tokens_pass(token: str) -> None:
    require_token_for("0.0.0.0", token)


def test_ctxhub_serve_refuses_a_weak_token_on_all_interfaces_before_binding(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"servers: {{}}\nstore: {{path: {tmp_path / 'store'}}}\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "CTXHUB_TOKEN": "aaaaaaaaaaaaaaaa"}
    command = [sys.executable, "-m", "hub.cli", "serve", "--transport", "http", "--host", "0.0.0.0"]
    done = subprocess.run(
        [*command, "--port", "0", "--config", str(config)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "ctxhub: the bearer token is too easy to guess for binding 0.0.0.0" in done.stderr
    assert MAKE_TOKEN in done.stderr
    assert "Traceback" not in done.stderr
