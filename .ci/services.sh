#!/usr/bin/env bash
# Real servers for the tests that need them: Debian's PostgreSQL and Redis, and Debian's chromium
# for the browser tests. Installs what is missing, starts the servers, and makes the test
# database; safe to run again. Prints the environment the tests read (TAVERN_TEST_*).
set -euo pipefail
# Only the export lines below may reach stdout (the caller evals it): everything the installers
# and servers print goes to stderr.
exec 3>&1 1>&2
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# Starts a server that outlives this script with no file descriptor of ours but a log file: a
# daemon that kept the caller's pipe (fd 3 here, or any pipe of the CI runner) open would make
# `$(bash .ci/services.sh)` wait for ever. That hung CI on a fresh machine.
log="${TMPDIR:-/tmp}/tavern-ci-services.log"
detached() {
  local sudo=(); [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" python3 -c '
import subprocess, sys
with open(sys.argv[1], "ab") as log:
    sys.exit(subprocess.call(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             close_fds=True, start_new_session=True))
' "$log" "$@"
}
need=()
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  # Detached too: a package's install script may start its server.
  detached apt-get update -q || { tail -n 30 "$log"; exit 1; }
  detached env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" \
    || { tail -n 30 "$log"; exit 1; }
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  as_root pg_createcluster "$version" main >/dev/null
fi
detached pg_ctlcluster "$version" main start || true
for _ in $(seq 50); do
  as_root su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1 && break
  sleep 0.2
done
as_root su postgres -c "psql -qAtc 'select 1'" >/dev/null || { echo "PostgreSQL did not start: see $log"; exit 1; }
as_root su postgres -c "psql -qAtc \"select 1 from pg_roles where rolname='tavern'\"" | grep -q 1 \
  || as_root su postgres -c "psql -qc \"create role tavern login superuser password 'tavern'\""
as_root su postgres -c "psql -qAtc \"select 1 from pg_database where datname='tavern'\"" | grep -q 1 \
  || as_root su postgres -c "createdb -O tavern tavern"
redis-cli -p 6379 ping >/dev/null 2>&1 \
  || detached redis-server --port 6379 --save '' --appendonly no --daemonize yes
for _ in $(seq 50); do redis-cli -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
redis-cli -p 6379 ping >/dev/null || { echo "Redis did not start: see $log"; exit 1; }
echo >&3 "export TAVERN_TEST_POSTGRES=postgresql+asyncpg://tavern:tavern@127.0.0.1:5432/tavern"
echo >&3 "export TAVERN_TEST_REDIS=redis://127.0.0.1:6379/0"
echo >&3 "export TAVERN_TEST_CHROMIUM=$(command -v chromium)"
