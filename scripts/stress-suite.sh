#!/usr/bin/env bash
# stress-suite.sh - run the whole test suite N times under CPU pressure, to find flaky tests.
#
#   scripts/stress-suite.sh N
#
# Clones this repository's HEAD (committed code only: uncommitted changes are not tested) into a
# temporary directory, starts the Docker engine and test image (scripts/docker-up.sh) and PostgreSQL
# (scripts/postgres-up.sh), installs the MCP TypeScript client before every run (as .ci/run does), starts two
# CPU-bound processes that run beside the suite for the whole loop, then runs the README's test
# command, `./mvnw -B verify` with CI=true, N times, each time from a clean tree (git clean -fdx,
# so every run compiles and tests from scratch, as CI does). One line per run: its number,
# PASS/FAIL, its duration and, on failure, the failed tests (from target/surefire-reports and
# target/failsafe-reports*/TEST-*.xml). At the end a summary: runs, passed, failed, and every
# failing test with the number of runs it failed in. Exits 1 if any run failed.
#
# Everything stays in one directory (printed at the start): logs/run-NN.log (the build's output),
# logs/run-NN-times.txt (scripts/test-times.sh), logs/run-NN-reports/ (the report directories of
# a failed run: the tests' own output is there, not in the build log), summary.txt.
#
# Environment knobs (all optional):
#   STRESS_DIR         where to keep the clone and the logs    (a new /tmp/stress-suite.XXXXXX)
#   STRESS_BURNERS     how many CPU-bound processes beside the suite (2)
#   STRESS_KEEP_CLONE  1: keep the clone at the end            (removed; the logs are kept)
#   STRESS_RUN_TIMEOUT seconds one run may take before it counts as failed (hung) and is killed (3600)
#
# Needs only what CI needs: git, a JDK 17+, root or a running Docker engine, and the Maven cache
# (or Maven Central) for the build; it does not use the network itself.
set -euo pipefail

usage() { echo "usage: $0 N   (N: how many times to run the suite, 1 or more)" >&2; exit 2; }
[ "$#" -eq 1 ] || usage
case "$1" in
  '' | *[!0-9]*) usage ;;
esac
runs=$((10#$1))
[ "$runs" -ge 1 ] || usage

burners=${STRESS_BURNERS:-2}
run_timeout=${STRESS_RUN_TIMEOUT:-3600}
for knob in "STRESS_BURNERS=$burners" "STRESS_RUN_TIMEOUT=$run_timeout"; do
  case "${knob#*=}" in
    '' | *[!0-9]*) echo "stress-suite: ${knob%%=*} must be a number, not '${knob#*=}'" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_repo="$(git -C "$here" rev-parse --show-toplevel)"
head="$(git -C "$source_repo" rev-parse HEAD)"
if [ -n "$(git -C "$source_repo" status --porcelain --untracked-files=no)" ]; then
  echo "stress-suite: note: uncommitted changes in $source_repo are not tested (it tests HEAD ${head:0:12})" >&2
fi

if [ -n "${STRESS_DIR:-}" ]; then
  mkdir -p "$STRESS_DIR"
  dir="$(cd "$STRESS_DIR" && pwd)"
else
  dir="$(mktemp -d "${TMPDIR:-/tmp}/stress-suite.XXXXXX")"
fi
clone="$dir/clone"
logs="$dir/logs"
failures="$dir/failed-tests.txt"
summary="$dir/summary.txt"
[ ! -e "$clone" ] || { echo "stress-suite: $clone already exists; use an empty STRESS_DIR" >&2; exit 2; }
mkdir -p "$logs"
: >"$failures"

burner_pids=()
build_pid=""

cleanup() {
  local pid
  for pid in "${burner_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  if [ -n "$build_pid" ] && kill -0 "$build_pid" 2>/dev/null; then
    echo "stress-suite: stopping the running build (pid $build_pid)" >&2
    kill "$build_pid" 2>/dev/null || true
    # Maven ends its test JVMs when it goes; give it a moment to do so.
    for _ in $(seq 1 30); do
      kill -0 "$build_pid" 2>/dev/null || break
      sleep 1
    done
    kill -9 "$build_pid" 2>/dev/null || true
  fi
  for pid in "${burner_pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ "${STRESS_KEEP_CLONE:-0}" != 1 ] && [ -d "$clone" ]; then
    rm -rf "$clone"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

duration() { # seconds -> 7m05s
  printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

echo "stress-suite: $runs run(s) of './mvnw -B verify' (CI=true) on ${head:0:12} with $burners CPU burner(s); logs in $logs"
git clone -q --no-hardlinks "$source_repo" "$clone"
git -C "$clone" checkout -q --detach "$head"

# What the tests need, prepared as .ci/run prepares it: the Docker engine and the offline image, the
# PostgreSQL server; the MCP TypeScript client is installed into each clean tree below.
for prerequisite in docker-up postgres-up; do
  if ! (cd "$clone" && bash "scripts/$prerequisite.sh") >"$logs/$prerequisite.log" 2>&1; then
    echo "stress-suite: scripts/$prerequisite.sh failed:" >&2
    tail -n 20 "$logs/$prerequisite.log" >&2
    exit 1
  fi
done

for _ in $(seq 1 "$burners"); do
  # Pure CPU, no I/O: a busy loop in its own bash.
  bash -c 'while :; do :; done' &
  burner_pids+=("$!")
done

passed=0
failed=0
for run in $(seq 1 "$runs"); do
  tag=$(printf '%02d' "$run")
  log="$logs/run-$tag.log"
  git -C "$clone" clean -ffdxq
  git -C "$clone" reset -q --hard "$head"
  # Into target/, which the clean removed (npm ci from the local cache: seconds).
  (cd "$clone" && bash scripts/mcp-ts-client.sh) >"$logs/run-$tag-mcp-ts-client.log" 2>&1 || true
  start=$(date +%s)
  start_ms=$(date +%s%3N)
  rc=0
  # In the background, so that a signal to this script reaches the trap (and the build is ended).
  # timeout(1) leads a process group of its own and ends all of it (the test JVMs too) on expiry.
  (cd "$clone" && export CI=true && exec timeout --kill-after=60 "$run_timeout" ./mvnw -B verify) </dev/null >"$log" 2>&1 &
  build_pid=$!
  wait "$build_pid" || rc=$?
  build_pid=""
  elapsed=$(($(date +%s) - start))

  bash "$clone/scripts/test-times.sh" --since "$start_ms" "$clone" >"$logs/run-$tag-times.txt" 2>&1 || true
  failed_tests="$(bash "$clone/scripts/test-times.sh" --failed --since "$start_ms" "$clone" 2>/dev/null || true)"
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'run %s/%s  PASS  %s\n' "$run" "$runs" "$(duration "$elapsed")"
  else
    failed=$((failed + 1))
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      failed_tests="$(printf '%s\n(the run timed out after %ss: STRESS_RUN_TIMEOUT)' "$failed_tests" "$run_timeout" | sed '/^$/d')"
    elif [ -z "$failed_tests" ]; then
      # No test failed in the reports: a compile error, a crashed or timed-out test JVM, ...
      failed_tests="(no failed test in the reports; build exit code $rc: see run-$tag.log)"
    fi
    printf '%s\n' "$failed_tests" >>"$failures"
    printf 'run %s/%s  FAIL  %s  %s\n' "$run" "$runs" "$(duration "$elapsed")" "$(printf '%s\n' "$failed_tests" | awk 'NR > 1 { printf ", " } { printf "%s", $0 }')"
    # The tests' own output is only in the report directories; the next run's clean removes them.
    mkdir -p "$logs/run-$tag-reports"
    (cd "$clone" && find . -path ./examples -prune -o -type d \( -name surefire-reports -o -name 'failsafe-reports*' \) -path '*/target/*' -print) \
      | while read -r reports; do
          mkdir -p "$logs/run-$tag-reports/$(dirname "$reports")"
          cp -r "$clone/$reports" "$logs/run-$tag-reports/$(dirname "$reports")/"
        done
  fi
done

{
  echo "stress-suite summary: ${head:0:12}, $burners CPU burner(s)"
  echo "runs: $runs  passed: $passed  failed: $failed"
  if [ "$failed" -gt 0 ]; then
    echo "failing tests (runs failed in):"
    sort "$failures" | uniq -c | sort -k1,1nr -k2 | sed 's/^ *\([0-9]*\) /  \1  /'
  fi
  echo "logs: $logs"
} | tee "$summary"

[ "$failed" -eq 0 ]
