# Start a throwaway PostgreSQL on 127.0.0.1 and export HARKNESS_TEST_POSTGRES_URL.
# In CI a failure here fails the run: the PostgreSQL leg must never be skipped silently.
# The server is stopped and its data folder removed when the shell that started it exits.
#
# Port: HARKNESS_PG_PORT (default 54329), or the next free one above it when that port is
# taken (another run's server, or one left behind by a run that was killed).

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

stop_postgres() {
  if [ -n "${HARKNESS_PG_DATADIR:-}" ] && [ -d "$HARKNESS_PG_DATADIR" ]; then
    su postgres -c "$HARKNESS_PG_BIN/pg_ctl -D $HARKNESS_PG_DATADIR -m fast -w stop" \
      >/dev/null 2>&1 || true
    rm -rf "$HARKNESS_PG_DATADIR"
  fi
  HARKNESS_PG_DATADIR=
}

start_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
  fi
  local port tries=0
  HARKNESS_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  port=${HARKNESS_PG_PORT:-54329}
  while port_in_use "$port"; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || { echo "no free port from ${HARKNESS_PG_PORT:-54329} on" >&2; return 1; }
    port=$((port + 1))
  done
  HARKNESS_PG_DATADIR=$(mktemp -d /tmp/harkness-pg.XXXXXX)
  trap stop_postgres EXIT
  chown postgres "$HARKNESS_PG_DATADIR"
  su postgres -c "$HARKNESS_PG_BIN/initdb -D $HARKNESS_PG_DATADIR -A trust -U postgres" >/dev/null
  # On failure the server's log says why (it is removed with the data folder at exit).
  su postgres -c "$HARKNESS_PG_BIN/pg_ctl -D $HARKNESS_PG_DATADIR -o '-c listen_addresses=127.0.0.1 -p $port -k $HARKNESS_PG_DATADIR' -l $HARKNESS_PG_DATADIR/log -w start" >/dev/null \
    || { cat "$HARKNESS_PG_DATADIR/log" >&2; return 1; }
  su postgres -c "$HARKNESS_PG_BIN/createdb -h 127.0.0.1 -p $port harkness_test"
  export HARKNESS_TEST_POSTGRES_URL="postgresql+asyncpg://postgres@127.0.0.1:$port/harkness_test"
  export HARKNESS_TEST_POSTGRES_PORT=$port
  export PATH="$HARKNESS_PG_BIN:$PATH"  # pg_dump and pg_restore of the server's version
  echo "PostgreSQL $("$HARKNESS_PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}
