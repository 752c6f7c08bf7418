#!/usr/bin/env bash
# test-times.sh - test time per module, unit tests and integration tests apart, read from the JUnit
# XML reports of the last build (target/surefire-reports, target/failsafe-reports*).
#
#   scripts/test-times.sh [ROOT]                 the table (ROOT: the repository, default: this one)
#   scripts/test-times.sh --failed [ROOT]        the failed tests, one per line
#   scripts/test-times.sh --since EPOCH_MS ...   ignore reports older than that (left by earlier builds)
#
# Only needs the JDK the build uses (a single-file Java program, scripts/TestTimes.java).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_given=false
for arg in "$@"; do
  case "$arg" in
    -*) ;;
    *) root_given=true ;;
  esac
done
java_bin=java
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java_bin="$JAVA_HOME/bin/java"
fi
if [ "$root_given" = true ]; then
  exec "$java_bin" "$here/TestTimes.java" "$@"
else
  exec "$java_bin" "$here/TestTimes.java" "$@" "$(dirname "$here")"
fi
