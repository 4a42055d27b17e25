#!/bin/bash
# First start: create the cluster with the real image's variables, accept password logins from
# other hosts, create POSTGRES_DB. Then run the server as the postgres user, in the foreground.
set -euo pipefail
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$PGDATA"
chown postgres:postgres "$PGDATA"
chmod 700 "$PGDATA"
if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
  chown postgres /tmp/pwfile
  as_postgres initdb --username="$user" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.auto.conf"
  if [[ "$db" != postgres ]]; then
    as_postgres postgres --single -D "$PGDATA" postgres <<<"CREATE DATABASE \"$db\" OWNER \"$user\";" >/dev/null
  fi
  echo "docker-entrypoint.sh: cluster created for $user, database $db"
fi
if [[ "$1" == postgres ]]; then
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$@"
fi
exec "$@"
