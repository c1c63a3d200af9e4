"""Errors that are one template with one word changed are one error said again."""

from __future__ import annotations

from context_mode.line_groups import templates
from tests.corpora import bench_stage1


def test_shapes_with_one_word_changed_share_a_template_once_three_do() -> None:
    users = [f"Failed password for invalid user {name} from #.#.#.# port # ssh#" for name in ("a", "b", "c")]
    found = templates([*users, "Failed password for deploy from #.#.#.# port # ssh#", "Server listening"])
    assert found == dict.fromkeys(users, "Failed password for invalid user * from #.#.#.# port # ssh#")
    assert templates(users[:2]) == {}  # two are not yet a template


def test_a_shape_in_two_templates_gets_the_larger() -> None:
    shapes = ["GET /a 404", "GET /b 404", *(f"GET /c {status}" for status in (404, 500, 502, 503, 504))]
    found = templates(shapes)
    assert found["GET /c 404"] == "GET /c *"
    assert found["GET /a 404"] == "GET * 404"


def test_a_login_failure_per_user_leaves_room_for_the_other_events() -> None:
    # Failed before: 25 "Failed password for invalid user <name>" lines, each its own shape, took
    # the room of the refused root login, the HTTP request on the ssh port and the last session.
    sshd = bench_stage1("log-sshd-92-foreground-failed-logins.log")
    assert "User root from 127.0.0.1 not allowed because not listed in AllowUsers" in sshd
    assert 'client sent invalid protocol identifier "GET / HTTP/1.1"' in sshd
    assert "User child is on pid 25532" in sshd
    assert sshd.count("Failed password for invalid user") <= 8
    # Caddy's proxy errors, below a run of "dial tcp" errors that differ in one port each.
    caddy = bench_stage1("log-caddy-262-reverse-proxy-debug-json.log")
    assert "connection reset by peer" in caddy
    assert "net/http: timeout awaiting response headers" in caddy


def test_failing_tests_named_alike_are_each_shown_with_their_message() -> None:
    # A go test run's "--- FAIL: TestX" lines differ in one word, the test's name: not one error.
    mux = bench_stage1("test-gotest-gorilla-mux.log")
    assert "vars length should be 3, got 0" in mux
