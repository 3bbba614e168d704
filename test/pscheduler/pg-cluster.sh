#!/usr/bin/env bash
# The harness's own PostgreSQL 15 cluster (Debian's binaries, a data directory under the prefix, trust
# authentication on a Unix socket only, run as the `postgres` user: PostgreSQL refuses to run as root), and one
# pScheduler database per instance, built from the SQL build-pscheduler.sh made with pscheduler-server's Makefile.
#
#   pg-cluster.sh start                  initdb once, then start (no-op when running)
#   pg-cluster.sh stop
#   pg-cluster.sh create-db NAME HORIZON drop NAME if it exists, build it, set configurables.schedule_horizon
#   pg-cluster.sh drop-db NAME
#
# The postmaster's environment is what plpython3u sees: the database runs `pscheduler internal list ...` and
# imports python-pscheduler, so PATH and PYTHONPATH come from the prefix's env.sh.
set -euo pipefail
PREFIX=${PSCHEDULER_PREFIX:-/opt/psconfig-vscode-pscheduler}
# shellcheck source=/dev/null
. "$PREFIX/env.sh"
PGBIN=/usr/lib/postgresql/15/bin
DATA=$PREFIX/pgdata
SOCK=$PREFIX/pgrun
LOG=$PREFIX/log/postgresql.log
PGPORT_USED=${PSCHEDULER_PGPORT:-5477}

as_postgres() {
  runuser -u postgres -- env PATH="$PATH" PYTHONPATH="$PYTHONPATH" PYTHONDONTWRITEBYTECODE=1 LC_ALL=C.UTF-8 TZ=UTC \
    PGHOST="$SOCK" PGPORT="$PGPORT_USED" "$@"
}

case "${1:-}" in
  start)
    mkdir -p "$SOCK" "$PREFIX/log"
    chown postgres "$SOCK" "$PREFIX/log"
    if [ ! -s "$DATA/PG_VERSION" ]; then
      mkdir -p "$DATA"
      chown postgres "$DATA"
      chmod 700 "$DATA"
      as_postgres "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
      # No TCP listener: every client (daemons, API, psql) uses the socket directory.
      cat >>"$DATA/postgresql.conf" <<EOF
listen_addresses = ''
port = $PGPORT_USED
unix_socket_directories = '$SOCK'
max_connections = 400
timezone = 'UTC'
log_min_messages = warning
EOF
    fi
    if ! as_postgres "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
      # -w: pg_ctl itself waits (bounded by its -t) until the server accepts connections.
      as_postgres "$PGBIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start >/dev/null
    fi
    ;;
  stop)
    if [ -s "$DATA/PG_VERSION" ]; then
      as_postgres "$PGBIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >/dev/null 2>&1 || true
    fi
    ;;
  create-db)
    NAME=${2:?database name}
    HORIZON=${3:?schedule horizon, e.g. PT3M}
    [[ "$NAME" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "pg-cluster: bad database name $NAME" >&2; exit 2; }
    [[ "$HORIZON" =~ ^P[0-9TDHMS]+$ ]] || { echo "pg-cluster: bad horizon $HORIZON" >&2; exit 2; }
    # One build at a time: database-build-super.sql creates extensions (dblink, ...) in the cluster's `postgres`
    # database, and two first builds in parallel collide on them (duplicate key in pg_extension_name_index).
    exec 9>"$SOCK/create-db.lock"
    flock -w 600 9 || { echo "pg-cluster: another database build holds $SOCK/create-db.lock" >&2; exit 1; }
    W=$(mktemp -d)
    trap 'rm -rf "$W"' EXIT
    for f in database-build-super database-build; do sed "s/PSDBNAME/$NAME/g" "$PREFIX/db/$f.sql" >"$W/$f.sql"; done
    chmod -R a+rX "$W"
    as_postgres psql -q -d postgres -c "DROP DATABASE IF EXISTS $NAME WITH (FORCE)" >/dev/null
    for f in database-build-super database-build; do
      as_postgres psql -q -v ON_ERROR_STOP=1 -d postgres -f "$W/$f.sql" >"$W/$f.log" 2>&1 ||
        { echo "pg-cluster: $f.sql failed for $NAME:" >&2; tail -20 "$W/$f.log" >&2; exit 1; }
    done
    # warm_boot() is what the ticker runs at start (database/boot.sql); the horizon is the one configurable changed
    # (database/configurables.sql: schedule_horizon, P1D on a real host).
    as_postgres psql -qAt -v ON_ERROR_STOP=1 -d "$NAME" \
      -c "SELECT warm_boot()" -c "UPDATE configurables SET schedule_horizon = '$HORIZON'" >/dev/null
    ;;
  drop-db)
    NAME=${2:?database name}
    as_postgres psql -q -d postgres -c "DROP DATABASE IF EXISTS $NAME WITH (FORCE)" >/dev/null
    ;;
  *)
    echo "usage: $0 start|stop|create-db NAME HORIZON|drop-db NAME" >&2
    exit 2
    ;;
esac
