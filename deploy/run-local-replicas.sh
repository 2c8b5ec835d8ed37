#!/usr/bin/env bash
# Several `meldwise serve` replicas behind a local nginx, with rate limits shared in a
# local Redis: deploy/compose.yaml without Docker, on one machine.
#
#   deploy/run-local-replicas.sh [REPLICAS] [NGINX_PORT]     (defaults: 3, 8080)
#
# Needs nginx and redis-server (apt-get install nginx redis-server) and `meldwise` on
# PATH. Replicas listen on 127.0.0.1:8001.. with 1 solver worker each (set
# MELDWISE_WORKERS to change); nginx on 127.0.0.1:NGINX_PORT uses deploy/nginx.conf
# with them as its upstream's servers. Ctrl-C stops everything.
set -euo pipefail
replicas=${1:-3}
port=${2:-8080}
here=$(cd "$(dirname "$0")" && pwd)
run=$(mktemp -d /tmp/meldwise-replicas.XXXXXX)
pids=()

stop() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    echo "stopped; logs were in $run"
}
trap stop EXIT INT TERM

redis_port=$((port + 100))
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
    --daemonize no >"$run/redis.log" 2>&1 &
pids+=($!)

servers=""
for ((i = 1; i <= replicas; i++)); do
    replica_port=$((8000 + i))
    MELDWISE_PORT=$replica_port \
    MELDWISE_WORKERS=${MELDWISE_WORKERS:-1} \
    MELDWISE_RATE_LIMIT_STORAGE=redis://127.0.0.1:$redis_port/0 \
    MELDWISE_TRUSTED_PROXIES=127.0.0.1 \
        meldwise serve >"$run/replica-$i.log" 2>&1 &
    pids+=($!)
    servers+="        server 127.0.0.1:$replica_port max_fails=3 fail_timeout=5s;\n"
done

# deploy/nginx.conf with local replicas as its upstream's servers and a listen port of ours.
awk -v servers="$servers" '
    /# servers-begin/ { printf "%s", servers; skip = 1 }
    /# servers-end/ { skip = 0; next }
    !skip
' "$here/nginx.conf" | sed "s/listen 8080;/listen 127.0.0.1:$port;/" >"$run/nginx.conf"
mkdir -p "$run/nginx"
nginx -p "$run/nginx" -c "$run/nginx.conf" -g "daemon off;" 2>"$run/nginx.log" &
pids+=($!)

for ((i = 1; i <= replicas; i++)); do
    until curl -sf "http://127.0.0.1:$((8000 + i))/readyz" >/dev/null; do sleep 0.2; done
done
echo "ready: http://127.0.0.1:$port/ ($replicas replicas, Redis on $redis_port, logs in $run)"
wait
