#!/usr/bin/env bash
# template-benchmark.sh - cold opens with and without a template, a warm reopen, and a clone
# through the host git object cache against a full clone (TemplateBenchmark in factory-core).
#
#   scripts/template-benchmark.sh
#
# Local provider, a loopback http:// git server (git http-backend behind a token), a 48 MB
# repository and a 10 s setup, one run of each. Compiles factory-core and what it needs (offline,
# nothing installed), takes the test class path from the reactor and runs the benchmark's main
# class, which prints the load average, the times, the ratios against the goals of issue 21 and
# where the templated open and the warm reopen spend their time. Takes about a minute.
set -euo pipefail
exec "$(dirname "$0")/benchmark.sh" factory-core io.sandboxfactory.core.template.TemplateBenchmark "$@"
