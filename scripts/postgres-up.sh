#!/usr/bin/env bash
# postgres-up.sh - a PostgreSQL server on loopback for the store-postgres tests (CI and developers).
#
# Run as root on Debian 12 (or as any non-root user that has the server binaries). Idempotent:
# a server already answering on the port is kept as it is.
#
#   1. installs Debian's `postgresql` package when its binaries are missing (root only);
#   2. initializes a cluster in $SF_PG_DIR (owned by the `postgres` user when run as root:
#      initdb refuses root) that listens on 127.0.0.1:$SF_PG_PORT only, password auth;
#   3. starts it with pg_ctl and waits until it accepts connections;
#   4. creates the role and database the tests use, and prints how to reach them.
#
# The tests read the same knobs (defaults below), so a plain `./mvnw verify` finds this server.
#   SF_PG_PORT      port                                   (55432)
#   SF_PG_DIR       cluster directory                      (/var/tmp/sandbox-factory-postgres)
#   SF_PG_USER      role the tests connect as              (sandbox_factory)
#   SF_PG_PASSWORD  its password (a loopback test server)  (sandbox-factory-test)
#   SF_PG_DATABASE  database                               (sandbox_factory)
# `scripts/postgres-up.sh stop` stops the server; `restart` restarts it.
set -euo pipefail

PORT="${SF_PG_PORT:-55432}"
DIR="${SF_PG_DIR:-/var/tmp/sandbox-factory-postgres}"
ROLE="${SF_PG_USER:-sandbox_factory}"
PASSWORD="${SF_PG_PASSWORD:-sandbox-factory-test}"
DATABASE="${SF_PG_DATABASE:-sandbox_factory}"
say() { echo "postgres-up: $*" >&2; }

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

BIN="$(bindir || true)"
if [ -z "$BIN" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "no PostgreSQL server binaries under /usr/lib/postgresql; run as root to install Debian's postgresql package"
    exit 1
  fi
  say "installing postgresql (Debian package)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  BIN="$(bindir)"
fi

# As root, every server command runs as the postgres user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    su -s /bin/sh postgres -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

ready() { "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; }

case "${1:-up}" in
  stop)
    as_owner "$BIN/pg_ctl" -D "$DIR" -m fast -w stop >/dev/null && say "stopped" ; exit 0 ;;
  restart)
    as_owner "$BIN/pg_ctl" -D "$DIR" -m fast -w -l "$DIR/server.log" restart >/dev/null && say "restarted"; exit 0 ;;
  up) ;;
  *) say "unknown command '$1'; use up, stop or restart"; exit 2 ;;
esac

if ! ready; then
  if [ ! -s "$DIR/PG_VERSION" ]; then
    mkdir -p "$DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"
    chmod 700 "$DIR"
    pwfile="$(mktemp)"
    printf '%s\n' "$PASSWORD" >"$pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres "$pwfile"
    # The superuser gets the test password too; the cluster listens on loopback only.
    as_owner "$BIN/initdb" -D "$DIR" -U postgres --pwfile="$pwfile" --auth=scram-sha-256 -E UTF8 >/dev/null
    rm -f "$pwfile"
    {
      echo "listen_addresses = '127.0.0.1'"
      echo "port = $PORT"
      echo "unix_socket_directories = '$DIR'"
      echo "max_connections = 200"
      echo "fsync = off"
    } | as_owner tee -a "$DIR/postgresql.conf" >/dev/null
  fi
  as_owner "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 start >/dev/null
fi
for _ in $(seq 1 60); do ready && break; sleep 1; done
ready || { say "the server did not come up; see $DIR/server.log"; exit 1; }

export PGPASSWORD="$PASSWORD"
psql() { "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ "$(psql -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != "1" ]; then
  psql -c "CREATE ROLE \"$ROLE\" LOGIN PASSWORD '$PASSWORD'"
fi
if [ "$(psql -c "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != "1" ]; then
  psql -c "CREATE DATABASE \"$DATABASE\" OWNER \"$ROLE\""
fi
say "ready: jdbc:postgresql://127.0.0.1:$PORT/$DATABASE user $ROLE (password in SF_PG_PASSWORD, default the test one); cluster $DIR"
