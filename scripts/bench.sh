#!/usr/bin/env bash
# `./factory bench [options]` (or this script): builds the command-line jar and the factory-bench
# module when a source changed, then runs the bench (io.sandboxfactory.bench.Bench) in one JVM.
# Options: ./factory bench --help. Needs git and a JDK 17+; the Docker paths need an engine
# (scripts/docker-up.sh) and are skipped with a line without one. Testcontainers runs without its
# Ryuk container (Docker Hub is not needed): TESTCONTAINERS_RYUK_DISABLED=true; and, since an engine
# without a bridge network (as scripts/docker-up.sh starts it) gives it no host address to find,
# TESTCONTAINERS_HOST_OVERRIDE=localhost (the bench maps no ports, so nothing connects to it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
classpath="$here/factory-bench/target/bench.classpath"
# The build log stays with this checkout (as ./factory keeps its own), not in a shared /tmp.
log="$here/factory-bench/target/bench-build.log"

stale() {
  [ ! -f "$classpath" ] || [ ! -f "$here/factory-cli/target/factory.jar" ] && return 0
  [ -n "$(find "$here" \( -name target -o -name .git -o -path "$here/examples" \) -prune -o \
    \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$classpath" -print -quit 2>/dev/null)" ]
}

if stale; then
  mkdir -p "$here/factory-bench/target"
  echo "factory bench: building the command line and the bench (a minute or two); log: $log" >&2
  if ! (cd "$here" && ./mvnw -B -q -DskipTests -Dmaven.javadoc.skip=true -pl factory-cli,factory-bench -am package >"$log" 2>&1); then
    echo "factory bench: the build failed; see $log" >&2
    exit 1
  fi
  touch "$classpath"
fi

export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE="${TESTCONTAINERS_HOST_OVERRIDE:-localhost}"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$java_bin" -Dbench.factory="$here/factory" -Dbench.markdown="$here/docs/performance.md" -cp "$here/factory-bench/target/classes:$(cat "$classpath")" \
  io.sandboxfactory.bench.Bench "$@"
