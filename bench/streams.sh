#!/usr/bin/env bash
# XADD and XREADGROUP on rekv (Badger, default durability) beside Debian's
# redis-server, alternating servers each round, at -P 1 and -P 16; prints
# median requests/s and the rekv/Redis ratio.
#
#   bench/streams.sh [rounds] [requests]     (defaults 3 and 50000)
#   CLIENTS=50 (default).
# XADD appends to random streams over 100,000 keys; XREADGROUP delivers one
# entry per call (COUNT 1, ">") to random consumers of one group, from a
# stream preloaded with enough entries for every round.
#
# Bounded: fixed request counts, a time limit per run; the servers it
# starts are stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-50000}
clients=${CLIENTS:-50}
source "$(dirname "$0")/lib.sh"

preload=$((requests * rounds * 2 + 1000))
for port in "$rport" "$kport"; do
  redis-cli -p "$port" xgroup create jobs g 0 mkstream >/dev/null
  timeout 600 redis-benchmark -p "$port" -n "$preload" -c 20 -P 64 xadd jobs '*' f payload >/dev/null 2>&1
done

rps() { # port pipeline command...
  local port=$1 p=$2
  shift 2
  timeout 300 redis-benchmark -p "$port" -n "$requests" -c "$clients" -P "$p" -r 100000 --csv "$@" 2>/dev/null | last_rps
}
echo "| test | redis ops/s | rekv ops/s | rekv/redis |"
echo "| --- | ---: | ---: | ---: |"
for p in 1 16; do
  for t in xadd xreadgroup; do
    if [ "$t" = xadd ]; then cmd=(xadd 'stream:__rand_int__' '*' f payload); else cmd=(xreadgroup group g 'c:__rand_int__' count 1 streams jobs '>'); fi
    r=(); k=()
    for _ in $(seq "$rounds"); do r+=("$(rps "$rport" "$p" "${cmd[@]}")"); k+=("$(rps "$kport" "$p" "${cmd[@]}")"); done
    median_row "$t -P $p" "${r[*]}" "${k[*]}"
  done
done
