#!/usr/bin/env bash
# EVALSHA of a one-redis.call('INCR') script on rekv (Badger, default
# durability) and Debian's redis-server, alternating servers each round,
# at -P 1 and -P 16; prints median requests/s and the rekv/Redis ratio.
#
#   bench/scripting.sh [rounds] [requests]     (defaults 3 and 50000)
#   CLIENTS=50 (default); keys are random over 100,000.
#
# Bounded: fixed request counts, a time limit per run; the servers it
# starts are stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-50000}
clients=${CLIENTS:-50}

source "$(dirname "$0")/lib.sh"
body="return redis.call('INCR', KEYS[1])"
sha=$(redis-cli -p "$rport" script load "$body")
[ "$(redis-cli -p "$kport" script load "$body")" = "$sha" ]

rps() { # port pipeline
  timeout 300 redis-benchmark -p "$1" -n "$requests" -c "$clients" -P "$2" -r 100000 --csv \
    evalsha "$sha" 1 'counter:__rand_int__' 2>/dev/null | last_rps
}
echo "| pipeline | redis ops/s | rekv ops/s | rekv/redis |"
echo "| ---: | ---: | ---: | ---: |"
for p in 1 16; do
  r=(); k=()
  for _ in $(seq "$rounds"); do r+=("$(rps "$rport" "$p")"); k+=("$(rps "$kport" "$p")"); done
  median_row "$p" "${r[*]}" "${k[*]}"
done
