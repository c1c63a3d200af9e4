"""A JSON document inside a tool's framing lines is read, summarised and searched as JSON."""

from __future__ import annotations

from context_mode.framing import shown_head, unframe
from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS, REPO
from tests.searching import search

DATA = REPO / "tests" / "data"


def test_unframe_finds_the_document_after_a_few_short_lines_and_before_a_section() -> None:
    framed = unframe('### Result\n{"a": 1}\n\n### Ran Playwright code\n```js\nx\n```')
    assert framed is not None and framed.head == "### Result" and framed.body == '{"a": 1}'
    assert framed.tail.startswith("### Ran Playwright code")
    assert unframe('{"a": 1}') is None  # no frame: JSON as it is
    assert unframe("one\ntwo\nthree\nfour\n[1]") is None  # more than a frame's few lines
    assert unframe("Contents of x:\nnot json") is None
    assert unframe("x" * 500 + "\n[1]") is None


def test_fetchs_json_api_response_is_rows_in_stage_1_and_found_by_search() -> None:
    # mcp-server-fetch returns a JSON API's response after two lines of its own ("Content type
    # application/json cannot be simplified…", "Contents of http://…:"): it read as text, a
    # Directive, and a search for a package found the wrong records.
    text = (DATA / "fetch-json-api-packages-head.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="fetch") is ContentKind.ROWS
    decision = route(text, tool="fetch", arguments={"url": "http://127.0.0.1:8814/api/packages?section=libs"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 80 records × 11 columns")
    lines = decision.extract.text.splitlines()
    assert lines[0].startswith("Content type application/json cannot be simplified")
    assert lines[1] == "Contents of http://127.0.0.1:8814/api/packages?section=libs:"
    assert any(
        line.startswith('{"id":3,"name":"alsa-topology-conf","version":"1.2.5.1-2",') for line in lines
    )
    reply = search(text, ContentKind.ROWS, {"query": "version of libcc1-0"})
    assert '"name":"libcc1-0","version":"12.2.0-14+deb12u1"' in reply


def test_playwrights_evaluate_result_is_json() -> None:
    # browser_evaluate: "### Result", the value as JSON, then "### Ran Playwright code": it read
    # as Markdown, a Directive with no field of it.
    text = (DATA / "playwright-evaluate-app-state.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="browser_evaluate") is ContentKind.JSON
    decision = route(text, tool="browser_evaluate", arguments={})
    assert isinstance(decision, Summary)
    assert decision.extract.text.startswith("### Result\n{")
    assert '"packages": 1145' in decision.extract.text


def test_an_http_response_head_and_a_line_opening_the_document_are_frames() -> None:
    redirected = "HTTP/1.1 301 Moved\r\nLocation: /b\r\n\r\nHTTP/1.1 200 OK\r\nServer: x\r\n\r\n[1, 2]\r\n"
    framed = unframe(redirected)  # curl -iL: a head per response, CRLF lines
    assert framed is not None and framed.body == "[1, 2]" and framed.head.startswith("HTTP/1.1 301")
    assert shown_head(framed.head) == "HTTP/1.1 301 Moved\nLocation: /b\nHTTP/1.1 200 OK\n(1 more header)"
    inline = unframe('web1 | SUCCESS => {\n    "changed": false\n}')
    assert inline is not None and (inline.head, inline.joint) == ("web1 | SUCCESS =>", " ")
    assert unframe("HTTP/1.1 200 OK\nServer: x\n\nplain text") is None
    assert unframe("HTTP/1.1 200 OK\nServer: x") is None  # no body
    assert detect_kind('function f() {\n  return {"a": 1};\n}') is not ContentKind.JSON


def test_curl_i_of_a_json_api_is_json_after_its_status_and_content_type() -> None:
    # `curl -si -H 'Accept: application/vnd.pypi.simple.v1+json' https://pypi.org/simple/h11/`:
    # the response's head kept the body from parsing, so it read as text.
    text = (DATA / "curl-si-pypi-simple-json-h11.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.JSON
    decision = route(text, tool="run_command", arguments={"command": "curl -si https://pypi.org/simple/h11/"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert lines[:2] == ["HTTP/2 200 ", "content-type: application/vnd.pypi.simple.v1+json"]
    assert lines[2] == "(2 more headers)"
    assert '"filename": "h11-0.10.0-py2.py3-none-any.whl"' in decision.extract.text


def test_ansibles_ad_hoc_result_is_json_under_its_host_line() -> None:
    # `ansible localhost -m setup`: "localhost | SUCCESS => {" then the facts; it read as text.
    text = (BENCH_CORPUS / "json-cape-ansible-setup-facts-network-hardware.json").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.JSON
    decision = route(text, tool="run_command", arguments={"command": "ansible localhost -m setup"})
    assert isinstance(decision, Summary)
    assert decision.extract.text.startswith("localhost | SUCCESS => {\n")
    assert '"ansible_memtotal_mb": 24105' in decision.extract.text


def test_curl_i_of_a_page_is_the_page_under_its_head() -> None:
    # `curl -si` of a rustdoc page served by `python -m http.server`: the head kept the page from
    # being found, so it read as "log: 254 lines, 1 error".
    text = (DATA / "curl-si-http-server-rustdoc-page.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "curl -si http://127.0.0.1:8765/x.html"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("html: ")
    assert "title 'is_riscv_feature_detected in std_detect - Rust'" in decision.extract.outline


def test_curl_v_shows_its_request_and_the_responses_status_whatever_the_body() -> None:
    # `curl -sv … 2>&1` against `python -m http.server`: curl's own lines (``* Trying``, ``> GET``,
    # ``< HTTP/1.0 200 OK``, ``{ [9250 bytes data]``) above the body, one of them (``* Closing
    # connection 0``) written into the body where the pipe's buffer ended. Before, stage 1 showed
    # neither the request line nor the status: a page read as text, a JSON body as a log. That
    # line is taken out of the body, which then reads as its records (before: a log, its records'
    # lines folded ``[×110]``).
    for name, kind in (
        ("curl-v-json-body-python-http-server.txt", "rows: 110 records × 3 columns (id, name, tz)"),
        ("curl-v-html-directory-listing-python-http-server.txt", "html: "),
    ):
        text = (DATA / name).read_text(encoding="utf-8")
        decision = route(text, tool="run_command", arguments={"command": "curl -sv http://127.0.0.1/x"})
        assert isinstance(decision, Summary) and decision.extract.outline.startswith(kind)
        lines = decision.extract.text.splitlines()
        assert "< HTTP/1.0 200 OK" in lines
        assert any(line.startswith("> GET /") and line.endswith("HTTP/1.1") for line in lines)


def test_curl_vs_lines_are_a_frame_around_a_json_body() -> None:
    # The request, the status and the headers that describe the body are shown; the rest counted.
    text = (
        "*   Trying 127.0.0.1:18767...\n* Connected to 127.0.0.1 (127.0.0.1) port 18767 (#0)\n"
        "> GET /zones.json HTTP/1.1\r\n> Host: 127.0.0.1:18767\r\n> \r\n"
        "< HTTP/1.0 200 OK\r\n< Content-type: application/json\r\n< Content-Length: 20\r\n< \r\n"
        '{ [20 bytes data]\n[{"id": 0}, {"id": 1}]\n* Closing connection 0\n'
    )
    framed = unframe(text)
    assert framed is not None and framed.body == '[{"id": 0}, {"id": 1}]'
    assert shown_head(framed.head).splitlines() == [
        "> GET /zones.json HTTP/1.1",
        "< HTTP/1.0 200 OK",
        "< Content-type: application/json",
        "(5 more lines)",
    ]
    assert detect_kind(text) is ContentKind.JSON  # the body, not a log of curl's lines
    assert unframe("* one\n* two\n[1]") is None  # a Markdown list over a document: no exchange
    # curl's last line written between two chunks of the body (``2>&1``): out of the body, after it
    interleaved = text.replace('{"id": 0}, ', '{"id": 0* Closing connection 0\n}, ').rsplit("* Closing", 1)[0]
    framed = unframe(interleaved)
    assert framed is not None and framed.body == '[{"id": 0}, {"id": 1}]'
    assert framed.tail == "* Closing connection 0"


def test_chrome_devtools_mcps_script_result_is_rows_inside_its_fence() -> None:
    # A real ``evaluate_script`` of Chrome DevTools MCP 1.11 (a page's links as records):
    # ``Script ran on page and returned:``, then the JSON in a ```json fence. Before, the closing
    # fence kept it from parsing: a text of 61 lines, the records cut into pieces.
    text = (DATA / "chrome-devtools-mcp-1.11-evaluate-script-links.txt").read_text(encoding="utf-8")
    framed = unframe(text)
    assert framed is not None and framed.head == "Script ran on page and returned:\n```json"
    assert framed.body.startswith('[{"text":"Introduction"') and framed.body.endswith("}]")
    assert framed.tail == "```"
    assert detect_kind(text, tool_name="evaluate_script") is ContentKind.ROWS
    decision = route(text, tool="evaluate_script", arguments={})
    assert isinstance(decision, Summary)
    assert "262 rows × 2 columns" in decision.extract.text
    assert '{"text":"2.4. Dependencies"}' in decision.extract.text


def test_a_documents_last_lines_of_its_own_are_a_frame_below_it() -> None:
    framed = unframe("[1, 2]\n\n[notice] A new release\n[notice] To update")
    assert framed is not None and framed.body == "[1, 2]" and not framed.head and not framed.joint
    assert framed.tail == "[notice] A new release\n[notice] To update"
    assert unframe('{\n "a": {\n  "b": 1\n }\n}') is None  # a pretty document's own last lines
    assert unframe("[\n true,\n false\n]") is None
    assert unframe('[1]\n"more"') is None  # a string: no document's tail
    assert unframe("[1]\none\ntwo\nthree\nfour") is None  # more than a frame's few lines


def test_pips_json_with_its_notices_below_is_rows_ending_with_them() -> None:
    # Failed before: "text: 7 lines (1 long line read as 1 pieces)": pip's warning and notices on
    # standard error, after its JSON, kept the whole from parsing.
    text = (DATA / "pip-23.2-list-json-with-notice.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.ROWS
    decision = route(text, tool="run_command", arguments={"command": "pip list --format json 2>&1"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 95 records × 2 columns (name, version)")
    assert decision.extract.text.endswith(
        "[notice] To update, run: /tmp/p49/v/bin/python3 -m pip install --upgrade pip"
    )
    reply = search(text, ContentKind.ROWS, {"query": "version of uvicorn"})
    assert '{"name": "uvicorn", "version": "0.55.0"}' in reply


def test_gccs_json_diagnostics_with_its_last_line_below_are_json() -> None:
    # Failed before: "text: 2 lines": ``compilation terminated.`` below the JSON array.
    text = (DATA / "gcc-12-diagnostics-json-terminated.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.JSON
    decision = route(text, tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    assert '"message": "‘y’ undeclared (first use in this function)"' in decision.extract.text
    assert decision.extract.text.endswith("compilation terminated.")
