#!/usr/bin/env bash
# Reads of owned keys in cluster mode against shared mode, on the network
# TiKV cluster of ../shared/tikv: starts the cluster and two rekv nodes on
# it, each in a namespace of its own (one store, two keyspaces): one in
# shared mode (every read takes a timestamp and reads the store) and one
# with --cluster (it owns every slot, so its caches are authoritative and
# a read of a key it wrote is answered from memory). Both are loaded with
# the same keys (SET -P 16 of 1,000,000 requests over a 100,000-key space:
# every key), then redis-benchmark runs
# GET (and SET) against each in alternating rounds; it prints the median
# requests/s of each and the ratio, with redis-server's GET beside them as
# the machine's yardstick. NODES=3 adds three cluster-mode nodes (one
# namespace), benchmarked with redis-benchmark --cluster.
#
#   bench/owned.sh [rounds]            default 3
#   CLIENTS=50 REQUESTS=100000 (per redis-benchmark run)
#   PIN=1 (default): the servers (rekv, redis-server) run on every CPU but
#   the last, and redis-benchmark, PD and the store on the last, as when
#   the clients and the store are on other machines (bench/compare.sh's
#   pinning, with the store counted as elsewhere); PIN=0 shares every CPU.
#   PD_PORT / KV_PORT: the cluster's ports (default 22379 / 22160)
#
# Bounded: fixed request counts, a time limit per run; everything it
# starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/tools.sh
rounds=${1:-3}
clients=${CLIENTS:-50}
requests=${REQUESTS:-100000}
nodes=${NODES:-1}
tikv_bench_setup
srv=() cli=()
if [ "${PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ]; then
  last=$(($(nproc) - 1))
  srv=(taskset -c "0-$((last - 1))") cli=(taskset -c "$last")
fi
pd=$("${cli[@]}" bash "$cluster" start | tail -n 1)
run=$$
start() { # port namespace flags...
  local port=$1 ns=$2
  shift 2
  REKV_STORAGE__TIKV__NAMESPACE="$ns" "${srv[@]}" "$work/rekv" --driver tikv --pd "$pd" --port "$port" --log-level warn "$@" \
    >"$work/rekv$port.log" 2>&1 &
  pids+=($!)
  wait_port "$port"
}
sport=$(free_port); oport=$(free_port); rport=$(free_port)
start "$sport" "bench-owned/$run/shared/"
start "$oport" "bench-owned/$run/owned/" --cluster
"${srv[@]}" redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >/dev/null 2>&1 &
pids+=($!)
wait_port "$rport"

bench() { # port test pipeline [extra redis-benchmark flags]
  timeout 300 "${cli[@]}" redis-benchmark -h 127.0.0.1 -p "$1" -c "$clients" -n "$requests" -r 100000 -P "$3" -t "$2" --csv "${@:4}" 2>/dev/null | last_rps
}
for p in "$sport" "$oport" "$rport"; do requests=1000000 bench "$p" set 16 >/dev/null; done # every key, written
declare -A res
for r in $(seq "$rounds"); do
  for t in "get 1" "get 16" "set 1"; do
    set -- $t
    for p in "$rport" "$sport" "$oport"; do res["$1 $2 $p"]+="$(bench "$p" "$1" "$2") "; done
  done
done
echo "pinned: ${PIN:-1}; rounds: $rounds; $clients clients, $requests requests per run, keys over a 100,000-key space; PD $pd"
echo
echo "| test | redis-server | shared mode | cluster mode (owned) | owned / shared |"
echo "|---|---:|---:|---:|---:|"
for t in "get 1" "get 16" "set 1"; do
  set -- $t
  python3 - "${1^^} -P $2" "${res["$1 $2 $rport"]}" "${res["$1 $2 $sport"]}" "${res["$1 $2 $oport"]}" <<'PY'
import statistics, sys
label, r, s, o = sys.argv[1], *[[float(x) for x in a.split()] for a in sys.argv[2:]]
mr, ms, mo = statistics.median(r), statistics.median(s), statistics.median(o)
print(f"| {label} | {mr:,.0f} | {ms:,.0f} | {mo:,.0f} | {mo/ms:.2f}x |")
PY
done

if [ "$nodes" -gt 1 ]; then
  cports=()
  for _ in $(seq "$nodes"); do
    p=$(free_port)
    start "$p" "bench-owned/$run/cluster/" --cluster
    cports+=("$p")
  done
  for _ in $(seq 100); do # until the slots are handed over
    redis-cli -p "${cports[0]}" cluster info | grep -q "cluster_size:$nodes" && break
    sleep 0.2
  done
  sleep 3
  requests=1000000 bench "${cports[0]}" set 16 --cluster >/dev/null
  echo
  echo "$nodes nodes in cluster mode (redis-benchmark --cluster, median of $rounds):"
  echo
  echo "| test | requests/s |"
  echo "|---|---:|"
  for t in "get 1" "get 16" "set 1"; do
    set -- $t
    v=""
    for _ in $(seq "$rounds"); do v+="$(bench "${cports[0]}" "$1" "$2" --cluster) "; done
    python3 -c 'import statistics,sys; print(f"| {sys.argv[1]} | {statistics.median(float(x) for x in sys.argv[2].split()):,.0f} |")' "${1^^} -P $2" "$v"
  done
fi
