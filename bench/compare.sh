#!/usr/bin/env bash
# Side-by-side throughput of rekv (Badger, default durability) and Debian's
# redis-server (no persistence) on loopback, alternating servers each round.
# Prints the median requests/s per test and the rekv/Redis ratio.
#
#   bench/compare.sh [rounds] [requests] [tests] [pipeline]
#   e.g. bench/compare.sh 3 200000 set,get 1
#   KEYSPACE=100000 bench/compare.sh ...   random keys (redis-benchmark -r)
#   CLIENTS=50 (default)
#
# Bounded: every redis-benchmark run has a fixed request count and a time
# limit; the servers it starts are stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-200000}
tests=${3:-set,get}
pipeline=${4:-1}
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
pids+=($!)
"$work/rekv" --port "$kport" --dir "$work/rekv-data" --log-level warn >/dev/null 2>&1 &
pids+=($!)
wait_port "$rport"; wait_port "$kport"

run() { # port -> lines "TEST rps"
  timeout 300 redis-benchmark -p "$1" -q -n "$requests" -c "$clients" -P "$pipeline" ${KEYSPACE:+-r "$KEYSPACE"} -t "$tests" 2>/dev/null \
    | tr '\r' '\n' | grep 'requests per second' | sed -E 's/^ *([^:]+): ([0-9.]+) requests per second.*/\1\t\2/'
}

for i in $(seq "$rounds"); do
  run "$kport" | sed 's/^/rekv\t/' >> "$work/results"
  run "$rport" | sed 's/^/redis\t/' >> "$work/results"
done

echo "rounds=$rounds requests=$requests clients=$clients pipeline=$pipeline keyspace=${KEYSPACE:-1} (median requests/s)"
printf "%-18s %12s %12s %8s\n" test rekv redis ratio
python3 - "$work/results" <<'PY'
import sys, statistics, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
order = []
for line in open(sys.argv[1]):
    srv, test, rps = line.rstrip("\n").split("\t")
    if test not in order: order.append(test)
    d[test][srv].append(float(rps))
for t in order:
    k, r = statistics.median(d[t]["rekv"]), statistics.median(d[t]["redis"])
    print(f"{t:<18} {k:12.0f} {r:12.0f} {k/r:8.2f}")
PY
