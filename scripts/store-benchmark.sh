#!/usr/bin/env bash
# store-benchmark.sh - SQLite vs PostgreSQL session store latency (StoreBenchmark in store-postgres).
#
#   scripts/store-benchmark.sh [runs]     # default 300
#
# Needs the test server (scripts/postgres-up.sh; the SF_PG_* knobs apply). Compiles store-postgres
# and the modules it needs (offline, nothing installed), takes the test class path from the reactor
# and runs the benchmark's main class: it prints one table and takes a minute or two.
set -euo pipefail
cd "$(dirname "$0")/.."
cp_file="$PWD/store-postgres/target/benchmark-classpath.txt"
# Every module of the reactor writes the file in turn; store-postgres comes last.
./mvnw -B -o -q -pl store-postgres -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null
exec java -cp "store-postgres/target/test-classes:store-postgres/target/classes:$(cat "$cp_file")" \
    io.sandboxfactory.store.postgres.StoreBenchmark "$@"
