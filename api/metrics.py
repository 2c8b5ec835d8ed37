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
            "Requests refused or failed, by reason: saturated, shutting_down, "
            "worker_died, worker_hung, worker_failed, timeout (503); client_share, "
            "rate_limited (429); unauthorized (401); too_large (413); body_timeout (408); "
            "unsupported_media_type (415); invalid (400/422)",
            ["reason"],
            registry=self.registry,
        )
        self.refusals_held = Counter(
            "meldwise_refusals_held",
            "429s held until the client's previous Retry-After ran out (it came back "
            "early), then sent with Connection: close",
            registry=self.registry,
        )
        self.connections = Gauge(
            "meldwise_connections_open", "Open client connections", registry=self.registry
        )
        self.connections_closed = Counter(
            "meldwise_connections_closed_by_server",
            "Connections the server closed outside the app, by reason: "
            "header_timeout, idle_evicted (room for a new one), over_capacity, "
            "header_too_large (431), bad_request (400), pipeline_full (503: more than 8 "
            "requests queued), write_timeout (the client did not take its answer), "
            "stalled_evicted (room for a new one, from a client not reading), "
            "transfer_coding (501), unknown_method (501)",
            ["reason"],
            registry=self.registry,
        )
        self.rate_limit_errors = Counter(
            "meldwise_rate_limit_errors",
            "Rate limit checks that failed (the store could not be reached); the requests "
            "were let through",
            registry=self.registry,
        )
        self.workers_ready = Gauge(
            "meldwise_workers_ready", "Solver workers up and warm", registry=self.registry
        )
        self.worker_restarts = Counter(
            "meldwise_worker_restarts",
            "Solver workers replaced, by reason: died, hung (over its time cap by the "
            "margin), unresponsive (no answer to a ping), failed, failed_start, abandoned "
            "(its request went away: timed out, or its client left)",
            ["reason"],
            registry=self.registry,
        )
        self.solves_pending = Gauge(
            "meldwise_solves_pending",
            "Tasks (solves, checks, scores) running in or waiting for a solver worker",
            registry=self.registry,
        )

    def render(self) -> bytes:
        """The metrics in Prometheus text format."""
        return generate_latest(self.registry)
