"""Prometheus metrics of one app instance (its own registry, served at ``/metrics``)."""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The service's counters; a fresh registry per app keeps test apps apart."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "meldwise_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "meldwise_http_request_duration_seconds",
            "Time from request to the end of the response, by method and route template",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.solves = Counter(
            "meldwise_solves",
            "Solves finished, by solver status (optimal, feasible, unknown)",
            ["status"],
            registry=self.registry,
        )
        self.rejected = Counter(
            "meldwise_rejected_requests",
            "Requests refused: saturated (503), too_large (413), invalid (400/422)",
            ["reason"],
            registry=self.registry,
        )
        self.solves_pending = Gauge(
            "meldwise_solves_pending",
            "Solves running or waiting for a solver worker",
            registry=self.registry,
        )

    def render(self) -> bytes:
        """The metrics in Prometheus text format."""
        return generate_latest(self.registry)
