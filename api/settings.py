"""Service settings, read from ``MELDWISE_*`` environment variables.

Every setting has a default that suits one machine; ``meldwise serve`` flags
override the environment. A bad value stops the service at start-up with a
message naming the variable.
"""

from __future__ import annotations

import ipaddress
import math
import os
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from limits import parse_many
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from solver.i18n import _
from solver.rummikub import DEFAULT_DISRUPTION_TIME_LIMIT, DEFAULT_TIME_LIMIT
from solver.wire import MAX_TIME_LIMIT_MS

ENV_PREFIX = "MELDWISE_"


def available_cores(
    cgroup_root: Path = Path("/sys/fs/cgroup"), own_cgroup: Path = Path("/proc/self/cgroup")
) -> int:
    """The cores this process may use: those it is allowed to run on, and no more
    than a container's CPU limit (cgroup v2 ``cpu.max`` or v1 CFS quota), rounded
    down, at least 1."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    limit = _cgroup_cpu_limit(cgroup_root, own_cgroup)
    if limit is not None:
        return max(1, min(cores or 1, math.floor(limit)))
    return cores or 1


def _cgroup_cpu_limit(root: Path, own_cgroup: Path) -> float | None:
    """The CPU limit (in cores) of the cgroup this process runs in, or None: cgroup v2
    ``cpu.max`` ("200000 100000" is 2 cores), or v1 ``cpu.cfs_quota_us`` over
    ``cpu.cfs_period_us``. In a container the process's own cgroup is the root."""
    try:
        lines = own_cgroup.read_text().splitlines()
    except OSError:
        lines = []
    places: dict[str, str] = {}  # "v2" or "v1" -> the process's cgroup path
    for line in lines:
        _, controllers, group = line.split(":", 2)
        if not controllers:
            places["v2"] = group
        elif "cpu" in controllers.split(","):
            places["v1"] = group
    candidates = [
        (root / places.get("v2", "/").lstrip("/") / "cpu.max", None),
        (root / "cpu.max", None),
        (
            root / "cpu" / places.get("v1", "/").lstrip("/") / "cpu.cfs_quota_us",
            "cpu.cfs_period_us",
        ),
        (root / "cpu" / "cpu.cfs_quota_us", "cpu.cfs_period_us"),
    ]
    for path, period_name in candidates:
        try:
            if period_name is None:
                quota, period = path.read_text().split()
            else:
                quota = path.read_text().strip()
                period = (path.parent / period_name).read_text().strip()
        except (OSError, ValueError):
            continue
        if quota == "max" or int(quota) < 0:
            return None
        return int(quota) / int(period)
    return None


def _split(value: object) -> object:
    """A comma-separated environment variable as a list ('' for none). Commas or
    spaces alone are refused: an API key list that reads as none would leave /v1 open."""
    if isinstance(value, str):
        items = [item.strip() for item in value.split(",") if item.strip()]
        if value and not items:
            raise ValueError(_("{value} holds no item ('' for none)", value=repr(value[:20])))
        return items
    return value


def _origin(url: str) -> str | None:
    """``url``'s origin as a browser sends it in ``Origin`` (scheme and host in lower
    case, the port only when it is not the scheme's default, no path); None when
    ``url`` names no http(s) host."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port that is no number, or out of range
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def _origin_problem(item: str) -> str | None:
    """What keeps ``item`` (an entry of ``MELDWISE_CORS_ORIGINS``) from matching the
    ``Origin`` a browser sends, or None: ``*``, or an origin written as sent."""
    origin = _origin(item)
    if item == "*" or origin == item:
        return None
    if origin is None:
        return _(
            "{item} is not an origin (scheme://host[:port], e.g. https://game.example)",
            item=repr(item[:60]),
        )
    return _(
        "{item} is not an origin as a browser sends it: write {origin}",
        item=repr(item[:60]),
        origin=repr(origin[:60]),
    )


class Settings(BaseSettings):
    """What an operator may tune. Names are the environment variables without the prefix."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", description="address to listen on")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on")
    workers: int = Field(
        default_factory=available_cores,
        ge=1,
        le=64,
        description="solver processes, so the most solves running at once (default: the "
        "cores this process may use, within a container's CPU limit)",
    )
    queue: int = Field(
        default=16,
        ge=0,
        le=10_000,
        description="requests (solves, checks, scores) that may wait for a free worker; "
        "beyond, 503",
    )
    time_cap_ms: int = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        ge=1,
        le=MAX_TIME_LIMIT_MS,
        description="longest a solve may run; a request's time_limit_ms can only lower it",
    )
    max_solve_tiles: int = Field(
        default=300,
        ge=10,
        le=10_000,
        description="most tiles (rack and table together) a solve or repair request may "
        "hold; more get 422: building the model of a position takes time that grows with "
        "its size and that no time limit bounds",
    )
    disruption_cap_ms: int = Field(
        default=round(DEFAULT_DISRUPTION_TIME_LIMIT * 1000),
        ge=0,
        le=MAX_TIME_LIMIT_MS,
        description="longest a solve may search for the least disruptive play (0: never: the "
        "score stage alone, whose answers may rearrange more of the table; on a few "
        "house-rule variants it needs more time to prove the score)",
    )
    body_limit_bytes: int = Field(
        default=16 * 1024, ge=1024, le=1024 * 1024, description="largest request body (413 beyond)"
    )
    record_body_limit_bytes: int = Field(
        default=512 * 1024,
        ge=1024,
        le=16 * 1024 * 1024,
        description="largest request body of a game review (a whole game record)",
    )
    game_budget_ms: int = Field(
        default=120_000,
        ge=1000,
        le=3_600_000,
        description="longest a bot move (a solve's advice, given opponents, is one too) "
        "may run before the watchdog replaces its worker; a whole bot game's work, in ms of "
        "about an idle machine's CPU time (CP-SAT's deterministic time of its solves, the "
        "size of their models and a charge per move: the same on any load), past which it "
        "is refused (422; its watchdog budget is twice this); a review's "
        "turns share it (each turn's solve stops within this over the turns reviewed; its "
        "watchdog budget is twice this: the replay, plus the turns' solves)",
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["*"],
        description="origins a browser may call from, comma-separated ('*' for any)",
    )
    retry_after_s: int = Field(
        default=1,
        ge=1,
        le=3600,
        description="Retry-After seconds on a 503 or a 429; the shortest one when the pool "
        "is full (then: the clients refused lately over the rate tasks finish)",
    )
    client_share: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="requests one client may have running or waiting at once; beyond, 429 "
        "(default: the number of workers, at least 2)",
    )
    rate_limit: str = Field(
        default="30/second",
        description="requests per client, in the notation of the limits library "
        "('30/second', '600/minute;20/second'); beyond, 429 with Retry-After; "
        "'' for none",
    )
    rate_limit_storage: str = Field(
        default="memory://",
        description="where the rate limits count: memory:// (this process) or "
        "redis://host:port/db (shared by every replica)",
    )
    api_keys: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="comma-separated API keys; when set, /v1 requests need one "
        "(Authorization: Bearer KEY or X-API-Key: KEY) and each key is a client",
        repr=False,
    )
    trusted_proxies: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="comma-separated IP addresses or networks (or '*') of load balancers whose "
        "X-Forwarded-For and X-Forwarded-Proto name the real client, and whose "
        "X-Forwarded-Prefix names the path prefix they serve the service under",
    )
    timeout_headers_s: float = Field(
        default=10,
        gt=0,
        le=600,
        description="a connection's request line and headers must arrive within this "
        "many seconds of opening it (or of the previous answer); else 408 and close "
        "(after 1 to 1.25 times this, spread over connections)",
    )
    timeout_body_s: float = Field(
        default=10,
        gt=0,
        le=600,
        description="a request body must arrive within this many seconds of its headers; "
        "else 408 and close",
    )
    timeout_keep_alive_s: int = Field(
        default=5,
        ge=1,
        le=600,
        description="an idle kept-alive connection is closed after this many seconds",
    )
    timeout_write_s: float = Field(
        default=10,
        gt=0,
        le=600,
        description="a client must take the answer the server sends within this many "
        "seconds (once the server holds more than 64 KiB of it unsent, or once the "
        "connection is closing); else the connection is dropped",
    )
    timeout_request_s: float = Field(
        default=30,
        gt=0,
        le=3600,
        description="longest a request may take from its headers to its answer, waiting "
        "for a worker included; else 503",
    )
    timeout_shutdown_s: int = Field(
        default=20,
        ge=0,
        le=3600,
        description="on SIGTERM or SIGINT, how long running requests may finish before "
        "they are cut",
    )
    watchdog_margin_ms: int = Field(
        default=3000,
        ge=100,
        le=600_000,
        description="a worker running this long past its task's time limits is killed "
        "and replaced (its request gets 503)",
    )
    max_answer_bytes: int = Field(
        default=4 * 1024 * 1024,
        ge=4 * 1024,
        le=64 * 1024 * 1024,
        # A review answers each turn with the record's rack and tables and the best
        # play's (docs/games.md): at most 7 times the record (plus ~250 bytes a turn)
        # when its turns are legal, so 4 MiB holds the review of any legal record of
        # 400 turns in 512 KiB.
        description="largest answer body; a bigger one is refused with 422",
    )
    max_header_bytes: int = Field(
        default=16 * 1024,
        ge=1024,
        le=1024 * 1024,
        description="largest request line plus headers; beyond, 431 and close",
    )
    max_connections: int = Field(
        default=4096,
        ge=1,
        description="open connections; one more closes the connection that has waited "
        "longest for a request, else the one whose client has longest left its answer "
        "unread, else itself",
    )
    access_log: bool = Field(default=True, description="log one line per request (never the body)")
    log_format: Literal["text", "json"] = Field(
        default="text", description="text, or json: one JSON object per log line"
    )

    def capped_ms(self, time_limit_ms: int) -> int:
        """A request's ``time_limit_ms``, never above the server's :attr:`time_cap_ms`."""
        return min(time_limit_ms, self.time_cap_ms)

    @property
    def share(self) -> int:
        """Requests one client may have in the solver pool at once."""
        return self.client_share or max(2, self.workers)

    _split_origins = field_validator("cors_origins", "api_keys", "trusted_proxies", mode="before")(
        _split
    )

    @field_validator("host")
    @classmethod
    def _check_host(cls, value: str) -> str:
        # An empty host is every interface to uvicorn: an empty line of an env file
        # would put the service on the internet.
        if not value.strip():
            raise ValueError(_("must name an address (127.0.0.1; 0.0.0.0 for every interface)"))
        return value.strip()

    @field_validator("rate_limit")
    @classmethod
    def _check_rate_limit(cls, value: str) -> str:
        if not value.strip():
            return ""
        try:
            limits = parse_many(value)
        except ValueError:  # the limits library's words: "couldn't parse rate limit string"
            raise ValueError(
                _(
                    "cannot read {value} as rate limits ('30/second', "
                    "'600/minute;20/second'; '' for none)",
                    value=repr(value[:60]),
                )
            ) from None
        if any(item.amount < 1 for item in limits):  # 0 a second locks everyone out
            raise ValueError(_("each limit allows at least 1 request ('' for none)"))
        return value.strip()

    @field_validator("trusted_proxies")
    @classmethod
    def _check_proxies(cls, value: list[str]) -> list[str]:
        # Uvicorn takes what is not an address as a name it never meets: a typo would
        # trust no proxy, and every client would share the proxy's rate limit.
        if "*" in value:
            if len(value) > 1:
                raise ValueError(_("'*' (trust every address) must stand alone"))
            return value
        for item in value:
            try:
                if "/" in item:
                    ipaddress.ip_network(item)
                else:
                    ipaddress.ip_address(item)
            except ValueError:
                raise ValueError(
                    _(
                        "{item} is not an IP address or network (e.g. 10.0.0.1, 10.0.0.0/8)",
                        item=repr(item[:60]),
                    )
                ) from None
        return value

    @field_validator("cors_origins")
    @classmethod
    def _check_origins(cls, value: list[str]) -> list[str]:
        # A browser's Origin is compared as written: an entry with a path, a trailing
        # slash, capitals or the default port matches no page, and every embed of the
        # hint button would be refused by CORS while the server ran as if all was well.
        if "*" in value and len(value) > 1:
            raise ValueError(_("'*' (any origin) must stand alone"))
        for problem in map(_origin_problem, value):
            if problem:
                raise ValueError(problem)
        return value

    @field_validator("rate_limit_storage")
    @classmethod
    def _check_storage(cls, value: str) -> str:
        if not value.startswith(("memory://", "redis://", "rediss://")):
            raise ValueError(_("must start with memory://, redis:// or rediss://"))
        return value
