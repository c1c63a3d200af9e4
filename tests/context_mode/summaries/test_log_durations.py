"""A log's slowest record is in its summary: the request that stood out by its time.

Servers time their requests (pino's ``"responseTime"``, hapi's ``500 155ms``, npm's ``11168ms``);
after the errors, the one that took far longer than the rest is what an agent reads the log for.
"""

from __future__ import annotations

from context_mode.summaries.log_durations import slowest_lines
from tests.corpora import bench_stage1


def test_the_longest_of_durations_written_alike_is_found() -> None:
    lines = [
        "npm http fetch GET 200 https://registry.npmjs.org/a 12ms (cache miss)",
        "npm http fetch GET 200 https://registry.npmjs.org/b 15ms (cache miss)",
        "npm http fetch GET 200 https://registry.npmjs.org/c/-/c-1.0.0.tgz 11168ms (cache miss)",
        "npm http fetch GET 200 https://registry.npmjs.org/d 9ms (cache miss)",
        "npm http fetch GET 200 https://registry.npmjs.org/e 14ms (cache miss)",
        "added 5 packages in 12s",
    ]
    assert slowest_lines("\n".join(lines)) == [2]


def test_a_named_duration_field_is_read_and_a_timestamp_is_not() -> None:
    lines = [
        f'{{"level":30,"time":17963062{index}0000,"reqId":"req-{index}","responseTime":{time},'
        '"msg":"request completed"}'
        for index, time in enumerate((3.2, 4.1, 1500.79, 2.9, 5.0, 3.3))
    ]
    assert slowest_lines("\n".join(lines)) == [2]


def test_durations_alike_have_no_slowest_line() -> None:
    lines = [f"GET /item/{index} 200 in {10 + index % 3} ms" for index in range(12)]
    assert slowest_lines("\n".join(lines)) == []


def test_a_services_slowest_request_is_in_its_summary() -> None:
    # Both failed before: the pino log showed its errors but not the 1.5 s request among 50
    # completed in milliseconds; hapi's log not its first failing forecast, which took 155 ms.
    fastify = bench_stage1("log-fastify-pino-books-api-log.log")
    assert '"responseTime":1500.795931999999' in fastify
    hapi = bench_stage1("log-hapi-21-weather-ingest-stack-traces.log")
    assert '"GET /stations/LFPG/forecast" 500 155ms' in hapi
