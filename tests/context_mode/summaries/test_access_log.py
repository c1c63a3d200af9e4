"""Access logs: the error responses, one per method and status, instead of a bare Directive."""

from __future__ import annotations

from pathlib import Path

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.access_log import access_picks
from context_mode.types import OutputStyle

CORPUS = Path(__file__).resolve().parents[3] / "bench" / "corpus"


def test_an_nginx_access_log_shows_each_error_response_and_the_status_counts() -> None:
    # 126 requests, 35 of them failing: the hub answered "nothing stands out" with no content.
    text = (CORPUS / "log-nginx-access-pypi-mirror.log").read_text(encoding="utf-8")
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="read_log", arguments={})
    assert isinstance(decision, Summary)
    summary = decision.extract.text
    for request in ('"POST /simple/ HTTP/1.1" 413 183', '"OPTIONS /simple/ HTTP/1.1" 405 735', '" 404 '):
        assert request in summary
    assert "access log: 126 requests (200 ×91, 502 ×13" in decision.extract.outline


def test_other_logs_are_not_access_logs() -> None:
    lines = ["2024-05-01 10:00:00 INFO started", 'GET "/x" done', "ERROR boom"] * 10
    assert access_picks(lines) is None
    assert access_picks([]) is None


def test_haproxy_lines_put_the_status_before_the_request_and_a_few_among_other_lines_count() -> None:
    other = [f"vm memcached[1]: <{n} new auto-negotiating client connection" for n in range(40)]
    requests = [
        f"vm haproxy[2]: 127.0.0.1:{n} [01/Dec/2026:09:13:07.694] fe be/app-a 0/0/0/4/4 200 610 - - ---- "
        f'1/1/0/0/0 0/0 "GET /simple/x/ HTTP/1.1"'
        for n in range(4)
    ]
    failing = (
        "vm haproxy[2]: 127.0.0.1:41002 [01/Dec/2026:09:13:14.894] fe be/<NOSRV> 0/-1/-1/-1/0 "
        '503 217 - - SC-- 1/1/0/0/0 0/0 "GET /simple/urllib3/ HTTP/1.1"'
    )
    found = access_picks([*other, *requests, failing])
    assert found is not None and found.statuses == {"200": 4, "503": 1}
    [pick] = found.picks
    assert pick.start == 44 and pick.width >= len(failing) - len("vm haproxy[2]: ")
    assert access_picks([*other, *requests]) is None  # four requests among forty lines: no
    assert access_picks(requests) is not None  # but a log of them is an access log


def test_a_browsers_network_requests_are_an_access_log_with_their_failures() -> None:
    # Playwright MCP's browser_network_requests: "32. [GET] http://… => [404] File not found".
    # Its numbered lines read as a Markdown list: its first and last requests, none of the 404s.
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "playwright-network-requests-graphviz.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="browser_network_requests") is ContentKind.LOG
    decision = route(text, tool="browser_network_requests", arguments={"static": True})
    assert isinstance(decision, Summary)
    assert "access log: 72 requests (200 ×49, 404 ×23)" in decision.extract.outline
    lines = [line.split(" [×")[0] for line in decision.extract.text.splitlines()]
    assert "32. [GET] http://127.0.0.1:8795/graphviz/info/star.gif => [404] File not found" in lines


def test_coloured_and_json_wrapped_requests_without_a_size_count_and_show_where_the_server_listens() -> None:
    # Werkzeug colours a failing request ("\x1b[33mGET /x HTTP/1.1\x1b[0m" 404 -): the outline
    # counted "5 requests (200 ×5)" of eleven. uvicorn writes no size, and as a JSON record's
    # message its quotes are escaped: none of its requests counted. Neither summary said where
    # the server listened (" * Running on http://127.0.0.1:5077").
    from tests.corpora import REPO

    def summary(name: str) -> Summary:
        text = (REPO / "tests" / "data" / name).read_text(encoding="utf-8")
        decision = route(
            text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run_command", arguments={}
        )
        assert isinstance(decision, Summary)
        return decision

    flask = summary("flask-dev-server-coloured.log")
    assert "access log: 11 requests (200 ×5, 500 ×3, 404 ×2, 405 ×1)" in flask.extract.outline
    assert " * Running on http://127.0.0.1:5077" in flask.extract.text
    assert '\x1b[33mGET /items/sprocket HTTP/1.1\x1b[0m" 404 -' in flask.extract.text

    uvicorn = summary("uvicorn-fastapi-json.log")
    assert "access log: 9 requests (200 ×3, 404 ×2, 422 ×2, 201 ×1, 500 ×1)" in uvicorn.extract.outline
    for shown in ('GET /invoices/abc HTTP/1.1\\" 422', "Uvicorn running on http://127.0.0.1:8077"):
        assert shown in uvicorn.extract.text


def test_a_log_of_requests_that_all_passed_is_summarised_with_its_first_and_last() -> None:
    # Playwright MCP's browser_network_requests of a page whose 121 requests all returned 200:
    # nothing stood out, and the agent got a Directive with none of them.
    lines = ["### Result"] + [
        f"{n}. [GET] http://127.0.0.1:8811/maxima/figures/draw_{n:03d}.png => [200] OK" for n in range(1, 122)
    ]
    decision = route(
        "\n".join(lines),
        style=OutputStyle.AUTO,
        policy=RoutingPolicy(),
        tool="browser_network_requests",
        arguments={},
    )
    assert isinstance(decision, Summary)
    assert "access log: 121 requests (200 ×121)" in decision.extract.outline
    shown = decision.extract.text.splitlines()
    for request in (lines[1], lines[-1]):  # a fold count may follow
        assert any(line.startswith(request) for line in shown), request


def test_an_application_servers_request_lines_without_the_protocol_are_requests() -> None:
    # hapi's request log (and morgan's "dev" format) names method, path and status, no "HTTP/1.1":
    # the first 500 of a forecast among 150 created readings was not shown.
    lines = [
        "weather-ingest listening on http://127.0.0.1:20604 (hapi 21.4.13, node v20.20.2)",
        '2026-12-03T17:50:42.633Z 127.0.0.1 "GET /health" 200 27ms ua="curl/7.88.1"',
        *['2026-12-03T17:50:42.663Z 127.0.0.1 "POST /readings" 201 19ms ua="station-agent/2.3.1"'] * 6,
        '2026-12-03T17:50:42.939Z 127.0.0.1 "GET /stations/LFPG/forecast" 500 155ms ua="curl/7.88.1"',
        "GET /books/2 404 3.150 ms - 139",
        "GET /books?page=2 200 1.021 ms - 812",
        "sent GET /health to 127.0.0.1 200 times",
    ]
    access = access_picks(lines)
    assert access is not None
    assert access.statuses == {"201": 6, "200": 2, "500": 1, "404": 1}
    assert sorted(pick.start for pick in access.picks) == [8, 9]


def test_a_request_line_cut_in_a_log_keeps_its_status_and_size() -> None:
    # Failed before: influxd's log (fresh31a) mixes its own lines with access lines that end with
    # a user agent, a request id and a duration; a log line is cut keeping its start and its end,
    # so the 404 of a write to a missing database was cut out ('"POST /write?db=metrics… HTTP/1.1"
    # 4…f-f0f6-11f1-8012-000000000000 71797'), and a size was cut one character short.
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS

    name = "log-cpa-influxd-167-auth-http-query-log-vega-weather-stocks.log"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    lines = summarize(text, ContentKind.LOG, budget=2000).text.splitlines()
    request = '"POST /write?db=metrics&precision=s HTTP/1.1" 404 44 '
    assert any(request in line for line in lines)
    assert any(line.endswith('+GROUP+BY+symbol HTTP/1.1" 403 155…') for line in lines)


def test_chrome_devtools_mcps_network_requests_are_an_access_log_with_their_failures() -> None:
    # A real list_network_requests of Chrome DevTools MCP 1.11 (a catalogue page on loopback with
    # missing images): ``reqid=5 GET http://127.0.0.1:8766/img/p000.png [404]``. Before, its
    # ``reqid=`` lines read as 166 properties, its first and last lines: 5 of its 21 failed requests.
    from context_mode.kinds import detect_kind
    from context_mode.types import ContentKind
    from tests.corpora import data

    text = data("chrome-devtools-mcp-1.11-list-network-requests.txt")
    assert detect_kind(text, tool_name="list_network_requests") is ContentKind.LOG
    decision = route(text, tool="list_network_requests", arguments={})
    assert isinstance(decision, Summary)
    assert "access log: 166 requests (200 ×145, 404 ×21)" in decision.extract.outline
    lines = [line.split(" [×")[0] for line in decision.extract.text.splitlines()]
    assert "reqid=4 GET http://127.0.0.1:8766/js/missing-analytics.js [404]" in lines
    assert sum(line.endswith("[404]") for line in lines) >= 10
