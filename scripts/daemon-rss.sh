#!/bin/bash
# The factory daemon's resident memory, read from /proc: opens a session on a fresh local bare
# repository (which starts a daemon), runs ten execs through it and one more from a caller with
# another HOME (the same daemon must serve it), waits IDLE seconds without requests, prints VmRSS
# and the daemon count, then stops the daemon by removing its socket.
#
#   scripts/daemon-rss.sh [IDLE seconds, default 60] [JVM option...]
#
# JVM options, when given, replace the client's DAEMON_JVM_OPTIONS (for comparing settings): the
# daemon the client started is stopped and one with those options is started on the same socket.
# Needs factory-cli/target/factory.jar (./mvnw -B -q package -DskipTests) and git.
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=$PWD/factory-cli/target/factory.jar
IDLE=${1:-60}
[ $# -gt 0 ] && shift
WORK=$(mktemp -d /tmp/sandbox-factory-rss.XXXXXX)
trap 'rm -f "$WORK"/state/daemon/*.sock; sleep 2; rm -rf "$WORK"' EXIT
git init -q --bare -b main "$WORK/app.git"
git clone -q "$WORK/app.git" "$WORK/seed" 2>/dev/null
(cd "$WORK/seed" && echo hi > README.md && git add README.md && git -c user.email=a@b -c user.name=a commit -qm init && git push -q origin main)
factory() { java -jar "$JAR" --state-dir "$WORK/state" "$@"; }
factory open s1 --repo "$WORK/app.git" --branch work > /dev/null 2>&1
for _ in $(seq 1 40); do ls "$WORK"/state/daemon/*.sock > /dev/null 2>&1 && break; sleep 0.25; done
sock=$(ls "$WORK"/state/daemon/*.sock)
pid=$(pgrep -f "FactoryDaemon $sock" | head -1)
if [ $# -gt 0 ]; then
  kill "$pid"; while kill -0 "$pid" 2> /dev/null; do sleep 0.2; done
  rm -f "$sock"
  setsid java "$@" -cp "$JAR" io.sandboxfactory.cli.daemon.FactoryDaemon "$sock" < /dev/null >> "$WORK/daemon.log" 2>&1 &
  for _ in $(seq 1 40); do [ -S "$sock" ] && break; sleep 0.25; done
  pid=$(pgrep -f "FactoryDaemon $sock" | head -1)
fi
for _ in $(seq 1 10); do factory exec s1 -- true > /dev/null; done
HOME=$WORK/other-home factory exec s1 -- true > /dev/null
echo "daemon $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" | grep -o -- ' -X[^ ]*' | tr -d '\n')"
echo "daemons for the state directory: $(ls "$WORK"/state/daemon/*.sock | wc -l)"
echo "after the requests: $(grep VmRSS "/proc/$pid/status" | tr -s ' \t' ' ')"
sleep "$IDLE"
echo "after ${IDLE} s idle: $(grep VmRSS "/proc/$pid/status" | tr -s ' \t' ' '), $(ls "/proc/$pid/task" | wc -l) threads"
