#!/usr/bin/env bash
# benchmark.sh - compile one module and what it needs (offline, nothing installed) and run one of
# its benchmark main classes on the module's test class path, taken from the reactor.
#
#   scripts/benchmark.sh MODULE MAIN-CLASS [args...]
#
# The named scripts (store-benchmark.sh, template-benchmark.sh) call this.
set -euo pipefail
cd "$(dirname "$0")/.."
module="$1"
main="$2"
shift 2
cp_file="$PWD/$module/target/benchmark-classpath.txt"
# Every module of the reactor writes the file in turn; the named module comes last.
./mvnw -B -o -q -pl "$module" -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null
exec java -cp "$module/target/test-classes:$module/target/classes:$(cat "$cp_file")" "$main" "$@"
