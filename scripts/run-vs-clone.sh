#!/bin/bash
# `factory run --repo <local bare> --branch b -- true` in a process of its own (cold: JVM, factory,
# clone) and through the factory daemon (warm factory; the clone is still made), against a plain
# `git clone` + `git checkout -b` of the same repository; ROUNDS interleaved rounds, then the medians
# and the ratios to git. Stops its daemon and removes its directory at the end.
#
#   scripts/run-vs-clone.sh [ROUNDS, default 7]
#
# Needs factory-cli/target/factory.jar (./mvnw -B -q package -DskipTests) and git.
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=$PWD/factory-cli/target/factory.jar
ROUNDS=${1:-7}
WORK=$(mktemp -d /tmp/sandbox-factory-run.XXXXXX)
trap 'rm -f "$WORK"/state/daemon/*.sock; rm -rf "$WORK"' EXIT
git init -q --bare -b main "$WORK/app.git"
git clone -q "$WORK/app.git" "$WORK/seed" 2>/dev/null
(cd "$WORK/seed" && echo hello > README.md && git add README.md \
  && git -c user.name=bench -c user.email=bench@example.invalid commit -qm init && git push -q origin main)
factory() { java -jar "$JAR" --state-dir "$WORK/state" "$@"; }
millis() { local start; start=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - start) / 1000000 )); }

# A session opened in its own process leaves a daemon behind for the warm rounds.
factory open warm-up --repo "$WORK/app.git" --branch w > /dev/null 2>&1
until ls "$WORK"/state/daemon/*.sock > /dev/null 2>&1; do sleep 0.1; done
for round in $(seq 1 "$ROUNDS"); do
  rm -rf "$WORK/clone"
  git=$(millis sh -c "git clone -q '$WORK/app.git' '$WORK/clone' && git -C '$WORK/clone' checkout -q -b b$round")
  cold=$(millis env FACTORY_DAEMON=off java -jar "$JAR" --state-dir "$WORK/state" run --repo "$WORK/app.git" --branch c$round -- true)
  warm=$(millis factory run --repo "$WORK/app.git" --branch w$round -- true)
  echo "$git $cold $warm"
done > "$WORK/times"
median() { cut -d' ' -f"$1" "$WORK/times" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
g=$(median 1); c=$(median 2); w=$(median 3)
echo "medians of $ROUNDS rounds (load $(cut -d' ' -f1 /proc/loadavg)):"
echo "  git clone + checkout -b          $g ms"
echo "  factory run, its own process     $c ms  ($(awk -v a="$c" -v b="$g" 'BEGIN {printf "%.1f", a / b}')x)"
echo "  factory run, through the daemon  $w ms  ($(awk -v a="$w" -v b="$g" 'BEGIN {printf "%.1f", a / b}')x)"
echo "  runs the daemon served: $(grep -c ' served run: exit 0' "$WORK"/state/daemon/*.log)"
