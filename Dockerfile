# The Meldwise HTTP service: `docker build -t meldwise .`, then
# `docker run -p 8000:8000 meldwise`. Several replicas behind nginx: deploy/compose.yaml.
# Every MELDWISE_* setting (docs/http.md, Settings) can be passed with -e.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY solver ./solver
COPY api ./api
COPY meldwise ./meldwise
COPY benchmarks ./benchmarks
# The dependencies at the versions the tests passed with (constraints.txt), not the newest.
RUN pip install --constraint constraints.txt '.[redis]' && rm -rf /app/*

# Not root: a user of its own, with no home to write to and no shell; named by
# number so that a runtime can check it is not root (Kubernetes runAsNonRoot).
RUN useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin meldwise
USER 10001:10001

# Listen on every interface of the container; the number of solver workers follows
# the container's CPU limit (docker run --cpus 2) unless MELDWISE_WORKERS is set.
ENV MELDWISE_HOST=0.0.0.0 \
    MELDWISE_PORT=8000
EXPOSE 8000

# Healthy while every solver worker is up, warm and within its time cap (/readyz);
# load balancers that read Docker health (Traefik) send traffic only to healthy ones.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2).status != 200)"]

# SIGTERM (docker stop) shuts down gracefully: running solves finish, then the
# workers stop. docker stop waits 10 s by default: give it --time 25 (the default
# MELDWISE_TIMEOUT_SHUTDOWN_S is 20).
STOPSIGNAL SIGTERM
CMD ["meldwise", "serve"]
