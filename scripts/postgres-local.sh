#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on this machine, for the history store's
# tests, CI and trying `benchrig history --db postgres://…`.
#
# Usage: scripts/postgres-local.sh start|stop|status|env
#   start   installs the Debian package postgresql when missing (as root),
#           creates a cluster in $BENCHRIG_PG_DIR (default /tmp/benchrig-pg),
#           starts it on 127.0.0.1 and a free port, creates the database
#           "benchrig", and prints the export line; does nothing more when
#           the cluster already runs (idempotent)
#   stop    stops the cluster this script started (the one in its folder)
#   status  says whether it runs (exit 0) or not (exit 3)
#   env     prints `export BENCHRIG_DB=postgres://…`: eval "$(scripts/postgres-local.sh env)"
#
# The server refuses to run as root, so as root the cluster belongs to the
# "postgres" user of the Debian package (or $BENCHRIG_PG_USER); otherwise to
# the calling user. Authentication is trust on 127.0.0.1 and the folder's
# socket only: a test cluster, never a shared one. fsync is off: its data is
# thrown away, and the tests measure behaviour, not durability across power
# cuts (a client killed mid-transaction is still rolled back by the server).
# The system-wide cluster of the package, if any, is left alone.
set -euo pipefail

DIR=${BENCHRIG_PG_DIR:-/tmp/benchrig-pg}
DATA=$DIR/data
DBNAME=benchrig
DBUSER=benchrig

log () { echo "postgres-local: $*" >&2; }

bindir () {
  local d
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  return 1
}

install_missing () {
  bindir >/dev/null && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    log "PostgreSQL is missing: install the Debian/Ubuntu package postgresql (as root: apt-get install postgresql)"
    exit 1
  fi
  log "installing postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  # the package may start its own cluster on 5432; ours has its own folder and port
}

# runs a command as the cluster's owner
as_owner () {
  if [ "$(id -u)" -eq 0 ]; then
    local user=${BENCHRIG_PG_USER:-postgres}
    id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
    # from /: the caller's folder may be closed to that user (initdb and pg_ctl check it)
    (cd / && runuser -u "$user" -- "$@")
  else
    "$@"
  fi
}

owner () { if [ "$(id -u)" -eq 0 ]; then echo "${BENCHRIG_PG_USER:-postgres}"; else id -un; fi; }

port () { cat "$DIR/port" 2>/dev/null; }

running () {
  [ -s "$DATA/postmaster.pid" ] || return 1
  local pid
  pid=$(head -n1 "$DATA/postmaster.pid")
  kill -0 "$pid" 2>/dev/null || return 1
  grep -q postgres "/proc/$pid/comm" 2>/dev/null
}

free_port () {
  # the kernel's choice of a free port on 127.0.0.1 (node is always here)
  node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

url () { echo "postgres://$DBUSER@127.0.0.1:$(port)/$DBNAME"; }

start () {
  install_missing
  local bin
  bin=$(bindir)
  if running; then
    log "already running ($DIR, port $(port))"
    echo "export BENCHRIG_DB=$(url)"
    return 0
  fi
  mkdir -p "$DIR"
  chown "$(owner)" "$DIR"
  chmod 700 "$DIR"
  if [ ! -s "$DATA/PG_VERSION" ]; then
    as_owner "$bin/initdb" -D "$DATA" -U "$DBUSER" --auth=trust -E UTF8 --no-locale >"$DIR/initdb.log" 2>&1 \
      || { log "initdb failed; see $DIR/initdb.log"; exit 1; }
  fi
  free_port > "$DIR/port"
  as_owner "$bin/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $(port) -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null 9>&- \
    || { log "the server did not start; see $DIR/server.log"; exit 1; }
  if ! as_owner "$bin/psql" -h 127.0.0.1 -p "$(port)" -U "$DBUSER" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DBNAME'" | grep -q 1; then
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$(port)" -U "$DBUSER" "$DBNAME"
  fi
  log "up on 127.0.0.1:$(port) ($DIR)"
  echo "export BENCHRIG_DB=$(url)"
}

stop () {
  if running; then
    as_owner "$(bindir)/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
    log "stopped ($DIR)"
  fi
}

status () {
  if running; then echo "postgres: running on 127.0.0.1:$(port) ($DIR)"; return 0; fi
  echo "postgres: stopped"
  return 3
}

# start and stop of parallel callers (test files) take turns; the server is
# started with the lock's descriptor closed (it would hold the lock for its
# whole life), and a lock held past a minute is not waited for any longer
lock () {
  mkdir -p "$(dirname "$DIR")"
  exec 9>"$DIR.lock"
  flock -w 60 9 || log "another start or stop held $DIR.lock for 60 s; going on"
}

case "${1:-}" in
  start) lock; start ;;
  stop) lock; stop ;;
  status) status ;;
  env)
    if ! running; then log "not running: scripts/postgres-local.sh start"; exit 3; fi
    echo "export BENCHRIG_DB=$(url)" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
