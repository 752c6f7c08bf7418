#!/usr/bin/env bash
# store-benchmark.sh - SQLite vs PostgreSQL session store latency (StoreBenchmark in store-postgres).
#
#   scripts/store-benchmark.sh [runs]     # default 300
#
# Needs the test server (scripts/postgres-up.sh; the SF_PG_* knobs apply). Compiles store-postgres
# and the modules it needs (offline, nothing installed), takes the test class path from the reactor
# and runs the benchmark's main class: it prints one table and takes a minute or two.
set -euo pipefail
exec "$(dirname "$0")/benchmark.sh" store-postgres io.sandboxfactory.store.postgres.StoreBenchmark "$@"
