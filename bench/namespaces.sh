#!/usr/bin/env bash
# What namespaces cost per command: the server CPU time per command (utime
# + stime from /proc over the requests, as ../shared/bench/cpu-per-op.sh
# measures it) of
#   base      a build of BASE_REV (default: the last commit before
#             namespaces), in its only namespace
#   default   this tree, a client in the default namespace
#   named     this tree, a client in a named namespace (AUTH <token>)
# beside redis-server (the reference, its ops/s shown too). Each server is
# pinned to CPU 0 and redis-benchmark to CPU 1; the servers take turns
# within each round, and the table shows each column's median over the
# rounds with its ratio to base and to Redis.
#
#   bench/namespaces.sh [rounds] [requests] [tests] [pipelines]
#   e.g. bench/namespaces.sh 3 200000 get,set "1 16"
#   BASE_REV=00ab761 (default)
#
# Bounded: each redis-benchmark run has a request count and a 300 s
# limit; the servers it starts are stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-200000}
tests=${3:-get,set,incr,lpush,sadd,hset,zadd,mset}
pipelines=${4:-1 16}
base_rev=${BASE_REV:-00ab761}
source bench/tools.sh

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  git worktree remove --force "$work/base-src" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/rekv" .
git worktree add --detach "$work/base-src" "$base_rev" >/dev/null 2>&1
(cd "$work/base-src" && go build -o "$work/rekv-base" .)

rport=$(free_port); bport=$(free_port); kport=$(free_port)
taskset -c 0 redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >/dev/null 2>&1 &
rpid=$!; pids+=("$rpid")
taskset -c 0 "$work/rekv-base" --port "$bport" --dir "$work/base-data" --log-level warn >"$work/base.log" 2>&1 &
bpid=$!; pids+=("$bpid")
taskset -c 0 "$work/rekv" --port "$kport" --dir "$work/data" --log-level warn >"$work/rekv.log" 2>&1 &
kpid=$!; pids+=("$kpid")
wait_port "$rport"; wait_port "$bport"; wait_port "$kport"
redis-cli -p "$kport" NAMESPACE ADD bench bench-token >/dev/null

cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# run pid port test P [token]: prints "us_per_op ops_per_s"; with a
# token, the clients enter its namespace (AUTH <token>).
run() {
  local pid=$1 port=$2 t=$3 P=$4 auth=()
  if [ $# -gt 4 ]; then auth=(-a "$5"); fi
  redis-cli -p "$port" "${auth[@]}" --no-auth-warning FLUSHALL >/dev/null
  local c0 c1 ops
  c0=$(cpu "$pid")
  ops=$(taskset -c 1 timeout 300 redis-benchmark -p "$port" "${auth[@]}" -n "$requests" -c 50 -r 100000 -P "$P" -t "$t" --csv 2>/dev/null | last_rps)
  c1=$(cpu "$pid")
  awk -v c=$((c1 - c0)) -v hz="$hz" -v n="$requests" -v ops="$ops" 'BEGIN{printf "%.3f %s\n", c/hz*1e6/n, ops}'
}

results=$(mktemp)
for round in $(seq "$rounds"); do
  for t in ${tests//,/ }; do for P in $pipelines; do
    echo "$t P$P redis $(run $rpid $rport "$t" "$P")" >>"$results"
    echo "$t P$P base $(run $bpid $bport "$t" "$P")" >>"$results"
    echo "$t P$P default $(run $kpid $kport "$t" "$P")" >>"$results"
    echo "$t P$P named $(run $kpid $kport "$t" "$P" bench-token)" >>"$results"
  done; done
  echo "round $round done" >&2
done

trap 'cleanup; rm -f "$results"' EXIT
python3 - "$results" "$rounds" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(lambda: collections.defaultdict(list))
order = []
for line in open(sys.argv[1]):
    t, p, who, us, ops = line.split()
    key = (t, p)
    if key not in order:
        order.append(key)
    rows[key][who].append((float(us), float(ops)))
print(f"server CPU per command, microseconds, median of {sys.argv[2]} rounds (ratio to base; to Redis)\n")
print("| test | redis us (ops/s) | base us | default us | named us | default/base | named/default | named/redis |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for key in order:
    r = rows[key]
    m = {w: statistics.median(u for u, _ in r[w]) for w in r}
    rops = statistics.median(o for _, o in r["redis"])
    print(f"| {key[0]} {key[1]} | {m['redis']:.2f} ({rops:,.0f}) | {m['base']:.2f} | {m['default']:.2f} | {m['named']:.2f} | "
          f"{m['default']/m['base']:.2f} | {m['named']/m['default']:.2f} | {m['named']/m['redis']:.1f}x |")
PY
rm -f "$results"
