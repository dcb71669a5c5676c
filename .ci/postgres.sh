# Start a throwaway PostgreSQL on 127.0.0.1 and export HARKNESS_TEST_POSTGRES_URL.
# In CI a failure here fails the run: the PostgreSQL leg must never be skipped silently.
start_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
  fi
  local bin port datadir
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  port=${HARKNESS_PG_PORT:-54329}
  datadir=$(mktemp -d /tmp/harkness-pg.XXXXXX)
  chown postgres "$datadir"
  su postgres -c "$bin/initdb -D $datadir -A trust -U postgres" >/dev/null
  su postgres -c "$bin/pg_ctl -D $datadir -o '-c listen_addresses=127.0.0.1 -p $port -k /tmp' -l $datadir/log -w start" >/dev/null
  su postgres -c "$bin/createdb -h 127.0.0.1 -p $port harkness_test"
  export HARKNESS_TEST_POSTGRES_URL="postgresql+asyncpg://postgres@127.0.0.1:$port/harkness_test"
  echo "PostgreSQL $($bin/postgres --version | awk '{print $3}') on 127.0.0.1:$port"
}
