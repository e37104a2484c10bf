#!/usr/bin/env bash
# Runs the test suite N times in a row (default 20) with a CPU-bound process
# beside it, and stops at the first red run. Each run's verdict line and wall
# time go to stdout and its whole output to $LOG_DIR/run-<i>.log. The servers'
# URLs are taken from the environment, as .ci/run sets them.
#   scripts/suite-under-load.sh [N]
set -u
runs="${1:-20}"
log_dir="${LOG_DIR:-$(mktemp -d)}"
mkdir -p "$log_dir"

node -e 'for (;;) {}' &
hog=$!
trap 'kill "$hog" 2>/dev/null' EXIT

echo "suite under load: $runs runs, hog pid $hog, logs in $log_dir"
for i in $(seq 1 "$runs"); do
  started=$(date +%s)
  npx vitest run >"$log_dir/run-$i.log" 2>&1
  code=$?
  seconds=$(($(date +%s) - started))
  tests=$(grep -a "Tests " "$log_dir/run-$i.log" | tail -1 | sed 's/\x1b\[[0-9;]*m//g' | tr -s ' ')
  echo "run $i: exit $code, ${seconds} s, load $(cut -d' ' -f1-3 /proc/loadavg),${tests}"
  if [ "$code" -ne 0 ]; then
    grep -a "FAIL" "$log_dir/run-$i.log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u
    exit 1
  fi
done
echo "$runs of $runs runs green"
