"""Prometheus metrics of a running hub, served at ``/metrics`` on the HTTP transport.

``HubMetrics(service)`` owns a private ``CollectorRegistry``. Counters of calls, errors, bytes and
modes are read from the hub's own per-tool ``Stats`` at scrape time (one source of truth with
``hub_status`` and ``ctxhub stats``), as are downstream states and restarts and the store's
totals; call latency is a histogram observed by the served side around each ``tools/call``.
Exposition is ``prometheus_client``'s own. Series (all prefixed ``ctxhub_``):

- ``tool_calls_total{server,tool,mode}``, ``tool_errors_total{server,tool}``,
  ``tool_cache_hits_total{server,tool}``, ``tool_bytes_in_total`` / ``tool_bytes_out_total`` /
  ``tool_bytes_saved_total{server,tool}``;
- ``tool_call_seconds{server,tool}`` (histogram);
- ``downstream_up{server}`` (1 when ready), ``downstream_restarts_total{server}``;
- ``store_bytes``, ``store_max_bytes``, ``store_refs``, ``store_chunks``, ``store_evictions_total``,
  ``store_pending``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class HubMetrics:
    """The registry of one hub and the latency histogram its served side observes."""

    def __init__(self, service: Any) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(_HubCollector(service))
        self._latency = Histogram(
            "ctxhub_tool_call_seconds",
            "Time from a tools/call arriving to its reply, per exposed tool.",
            ["server", "tool"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._service = service

    def observe_call(self, name: str, seconds: float) -> None:
        server, tool = _split(name, self._service)
        self._latency.labels(server=server, tool=tool).observe(seconds)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class _HubCollector(Collector):
    def __init__(self, service: Any) -> None:
        self._service = service

    def collect(self) -> Iterator[Any]:
        service = self._service
        calls = CounterMetricFamily(
            "ctxhub_tool_calls", "Tool calls by routing mode.", labels=["server", "tool", "mode"]
        )
        errors = CounterMetricFamily(
            "ctxhub_tool_errors", "Tool calls that ended in isError.", labels=["server", "tool"]
        )
        hits = CounterMetricFamily(
            "ctxhub_tool_cache_hits", "Repeats answered from the cache.", labels=["server", "tool"]
        )
        bytes_in = CounterMetricFamily(
            "ctxhub_tool_bytes_in", "Bytes of results as the servers sent them.", labels=["server", "tool"]
        )
        bytes_out = CounterMetricFamily(
            "ctxhub_tool_bytes_out", "Bytes of replies sent to the agent.", labels=["server", "tool"]
        )
        saved = CounterMetricFamily(
            "ctxhub_tool_bytes_saved", "Bytes kept out of the agent's context.", labels=["server", "tool"]
        )
        for name, entry in service.stats.per_tool().items():
            server, tool = _split(name, service)
            for mode, count in entry.modes.items():
                calls.add_metric([server, tool, mode], count)
            errors.add_metric([server, tool], entry.errors)
            hits.add_metric([server, tool], entry.cache_hits)
            bytes_in.add_metric([server, tool], entry.bytes_in)
            bytes_out.add_metric([server, tool], entry.bytes_out)
            saved.add_metric([server, tool], entry.bytes_saved)
        yield from (calls, errors, hits, bytes_in, bytes_out, saved)
        up = GaugeMetricFamily(
            "ctxhub_downstream_up", "1 when the downstream server is ready.", labels=["server"]
        )
        restarts = CounterMetricFamily(
            "ctxhub_downstream_restarts", "Restarts of a downstream server.", labels=["server"]
        )
        for downstream in service.pool.downstreams.values():
            up.add_metric([downstream.name], 1.0 if downstream.state == "ready" else 0.0)
            restarts.add_metric([downstream.name], downstream.restarts)
        yield from (up, restarts)
        store = getattr(service, "store", None)
        if store is None:
            return
        stats = store.stats()
        for metric, help_text, value in (
            ("ctxhub_store_bytes", "Bytes of payloads held by the store.", stats.bytes),
            ("ctxhub_store_max_bytes", "The store's configured bound (store.max_bytes).", stats.max_bytes),
            ("ctxhub_store_refs", "Payloads (refs) held by the store.", stats.refs),
            ("ctxhub_store_chunks", "Indexed chunks in the store.", stats.chunks),
            ("ctxhub_store_pending", "Payloads waiting to be indexed.", stats.pending),
        ):
            yield GaugeMetricFamily(metric, help_text, value=value)
        yield CounterMetricFamily(
            "ctxhub_store_evictions", "Payloads evicted (LRU or age).", value=stats.evictions
        )


def _split(name: str, service: Any) -> tuple[str, str]:
    if name in service.native:
        return "ctxhub", name
    target = service.pool.tool_table().get(name)
    if target is not None:
        return target.downstream.name, target.tool.name
    server, _, tool = name.partition("__")
    return (server, tool) if tool else ("", name)
