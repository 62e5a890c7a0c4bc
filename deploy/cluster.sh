#!/usr/bin/env bash
# Several `tavern serve` processes on this machine, from Debian's packages (docs/scaling.md):
# PostgreSQL and Redis (started by .ci/services.sh), N server processes on ports 8001..,
# and nginx on 127.0.0.1:8000 in front of them.
#
#   deploy/cluster.sh start [N]   (default 2)   then open http://127.0.0.1:8000/
#   deploy/cluster.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."
run=/tmp/tavern-cluster
tavern=${TAVERN:-.venv/bin/tavern}
database=${TAVERN_DATABASE:-postgresql+asyncpg://tavern:tavern@127.0.0.1:5432/tavern}
redis=${TAVERN_REDIS:-redis://127.0.0.1:6379/0}

case "${1:-}" in
  start)
    n=${2:-2}
    mkdir -p "$run"
    eval "$(bash .ci/services.sh)"
    command -v nginx >/dev/null || { echo "install nginx (apt-get install nginx-light)"; exit 1; }
    servers=""
    for k in $(seq 1 "$n"); do
      port=$((8000 + k))
      "$tavern" serve --port "$port" --database "$database" --redis "$redis" \
        >"$run/server-$k.log" 2>&1 &
      echo $! >"$run/server-$k.pid"
      servers+="        server 127.0.0.1:$port max_fails=1 fail_timeout=5s;\n"
    done
    # deploy/nginx.conf with this run's upstream lines.
    awk -v servers="$servers" '
      /server 127.0.0.1:800[1-9]/ { if (!done) { printf "%s", servers; done = 1 } next }
      { print }' deploy/nginx.conf >"$run/nginx.conf"
    nginx -c "$run/nginx.conf"
    for _ in $(seq 100); do
      curl -fs http://127.0.0.1:8000/healthz >/dev/null && break
      sleep 0.2
    done
    echo "Tavern Table: http://127.0.0.1:8000/ ($n processes; logs in $run)"
    ;;
  stop)
    [ -f /tmp/tavern-nginx.pid ] && kill "$(cat /tmp/tavern-nginx.pid)" 2>/dev/null || true
    for pid in "$run"/server-*.pid; do
      [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
      rm -f "$pid"
    done
    ;;
  *)
    echo "usage: deploy/cluster.sh start [N] | stop" >&2
    exit 2
    ;;
esac
