"""Which notes are protected, and why: keywords, API signatures, file-path plans."""

from __future__ import annotations

import pytest

from context_mode.memory.protection import DEFAULT_PROTECTED_KEYWORDS, protection_reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        pytest.param("Remember: tests run offline.", "keyword:remember", id="remember"),
        pytest.param("Two constraints apply here.", "keyword:constraint", id="plural"),
        pytest.param("We decided on serde.", "keyword:decided", id="past-tense"),
        pytest.param("务必保持兼容", "keyword:务必", id="cjk"),
        pytest.param("禁止直接写数据库", "keyword:禁止", id="cjk-forbid"),
        pytest.param("Mustard and nevertheless are not keywords.", None, id="not-a-whole-word"),
        pytest.param("pub async fn fetch(url: &str) -> Result<Bytes>", "api-signature", id="rust"),
        pytest.param("getUser(id: string): Promise<User>", "api-signature", id="typescript"),
        pytest.param("POST /v1/sessions/{id}/notes", "api-signature", id="http-endpoint"),
        pytest.param("class SessionMemory:", "api-signature", id="class"),
        pytest.param("Calling foo(): it fails sometimes.", None, id="call-in-prose"),
        pytest.param("Plan: create tools/context_tools.py, then edit hub/app.py", "file-plan", id="plan"),
        pytest.param("- context_mode/memory.py\n- context_mode/tokens.py", "file-plan", id="listed-paths"),
        pytest.param("I read hub/app.py and it looks fine.", None, id="path-without-plan"),
    ],
)
def test_a_note_is_protected_for_the_first_reason_that_applies(text: str, reason: str | None) -> None:
    assert protection_reason(text, pinned=False, keywords=DEFAULT_PROTECTED_KEYWORDS) == reason


def test_pinning_wins_over_every_other_reason() -> None:
    assert protection_reason("You must...", pinned=True, keywords=DEFAULT_PROTECTED_KEYWORDS) == "pinned"


def test_no_keywords_means_only_the_other_rules_apply() -> None:
    assert protection_reason("You must keep it.", pinned=False, keywords=()) is None
