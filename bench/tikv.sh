#!/usr/bin/env bash
# rekv on a network TiKV cluster beside the raw store: starts the cluster
# of ../shared/tikv (PD + TiKV-protocol store on loopback), a rekv node on
# it, then for each client count runs redis-benchmark (SET, GET, INCR at
# -P 1 and -P 16) against rekv and bench/tikvload (one-key read and write
# transactions of client-go) against the same cluster, and prints a
# markdown table: rekv's requests/s, the raw transactions/s at the same
# concurrency, and their ratio (GET against reads; SET and INCR against
# writes).
#
#   bench/tikv.sh [clients...]        default: 1 10 50 200
#   REQUESTS=20000 (per redis-benchmark run)   SECONDS_RAW=8 (per raw run)
#   NODES=1 (rekv nodes on the cluster; with more, the benchmark runs
#   against each node at once and the table shows their sum)
#   PD_PORT / KV_PORT: the cluster's ports (default 22379 / 22160)
#
# Bounded: fixed request counts, a time limit per run; everything it
# starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${*:-1 10 50 200}
requests=${REQUESTS:-20000}
raw_seconds=${SECONDS_RAW:-8}
nodes=${NODES:-1}
source bench/tools.sh
tikv_bench_setup
go build -o "$work/tikvload" ./bench/tikvload
pd=$(bash "$cluster" start | tail -n 1)
ports=()
for i in $(seq "$nodes"); do
  port=$((16400 + i))
  "$work/rekv" --driver tikv --pd "$pd" --port "$port" >"$work/rekv$i.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
  for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done

# rps test pipeline clients: the summed requests/s of the nodes
rps() {
  local out=() p
  for p in "${ports[@]}"; do
    timeout 300 redis-benchmark -h 127.0.0.1 -p "$p" -c "$3" -n "$requests" -r 100000 -P "$2" -t "$1" -q 2>/dev/null \
      | tr '\r' '\n' | grep 'requests per second' | awk '{print $2}' >"$work/out.$p" &
    out+=($!)
  done
  wait "${out[@]}"
  cat "$work"/out.* | awk '{s+=$1} END {printf "%.0f", s}'
  rm -f "$work"/out.*
}
raw() { # op clients
  timeout 120 "$work/tikvload" -pd "$pd" -op "$1" -c "$2" -d "${raw_seconds}s" 2>/dev/null | grep " txn/s" | awk '{print $3}'
}

echo "rekv nodes: $nodes; cluster PD $pd; requests per run: $requests"
echo
echo "| clients | raw reads/s | raw writes/s | GET | GET -P16 | SET | SET -P16 | INCR | GET/raw | SET/raw | INCR/raw |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in $clients; do
  rr=$(raw read "$c"); rw=$(raw write "$c")
  get=$(rps get 1 "$c"); getp=$(rps get 16 "$c")
  set=$(rps set 1 "$c"); setp=$(rps set 16 "$c")
  incr=$(rps incr 1 "$c")
  awk -v c="$c" -v rr="$rr" -v rw="$rw" -v g="$get" -v gp="$getp" -v s="$set" -v sp="$setp" -v i="$incr" 'BEGIN {
    printf "| %d | %d | %d | %d | %d | %d | %d | %d | %.2fx | %.2fx | %.2fx |\n", c, rr, rw, g, gp, s, sp, i, g/rr, s/rw, i/rw }'
done
