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

if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools >/dev/null
fi
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "server on $1 did not start" >&2; exit 1; }

go build -o "$work/rekv" .
rport=$(free_port); kport=$(free_port)
redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >/dev/null 2>&1 &
pids+=("$!")
"$work/rekv" --port "$kport" --dir "$work/rekv-data" --log-level warn >"$work/rekv.log" 2>&1 &
pids+=("$!")
wait_port "$rport"; wait_port "$kport"
body="return redis.call('INCR', KEYS[1])"
sha=$(redis-cli -p "$rport" script load "$body")
[ "$(redis-cli -p "$kport" script load "$body")" = "$sha" ]

rps() { # port pipeline
  timeout 300 redis-benchmark -p "$1" -n "$requests" -c "$clients" -P "$2" -r 100000 --csv \
    evalsha "$sha" 1 'counter:__rand_int__' 2>/dev/null | python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 1 and r[0] != "test"]
print(rows[-1][1])'
}
echo "| pipeline | redis ops/s | rekv ops/s | rekv/redis |"
echo "| ---: | ---: | ---: | ---: |"
for p in 1 16; do
  r=(); k=()
  for _ in $(seq "$rounds"); do r+=("$(rps "$rport" "$p")"); k+=("$(rps "$kport" "$p")"); done
  python3 - "$p" "${r[*]}" "${k[*]}" <<'PY'
import statistics, sys
p, r, k = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
mr, mk = statistics.median(r), statistics.median(k)
print(f"| {p} | {mr:,.0f} | {mk:,.0f} | {mk/mr:.2f} |")
PY
done
