#!/usr/bin/env bash
# Side-by-side speed of rekv (Badger, default durability), Debian's
# redis-server (no persistence) and ledisdb (a Go peer on goleveldb, built
# from the Go module proxy; skipped with a message if it cannot be built)
# on loopback, alternating servers each round. Prints a markdown table of
# median requests/s with each server's ratio to Redis and p50/p99
# latencies per test and pipeline depth, then rekv's and Redis's RSS after
# loading 1,000,000 100-byte values: into the servers that ran the
# benchmark (after FLUSHALL), and into fresh ones; right after the load
# and 3 s later.
#
#   bench/compare.sh [rounds] [requests] [tests] [pipelines]
#   e.g. bench/compare.sh 3 100000 set,get "1 16"
#   KEYSPACE=100000 (default; random keys, redis-benchmark -r; 0 = one key)
#   CLIENTS=50 (default)   RSS_KEYS=1000000 (default; 0 skips the RSS step)
#   BENCH_REKV_FLAGS="--driver tikv --pd mock://" runs rekv on another driver
#   (not REKV_*: rekv reads those variables as settings)
#   CPU=0 leaves out the last section, bench/cpu-per-op.sh (CPU time per
#   command beside Redis's, median of the same rounds; default 1)
#   LEDIS=0 leaves ledisdb out (default 1); its binary is cached in
#   ${XDG_CACHE_HOME:-~/.cache}/rekv-bench
#   PIN=1 (default) gives redis-benchmark the last CPU and every server the
#   others (taskset), as when clients run on other machines; PIN=0 lets
#   them all share every CPU. On a 2-core machine a multi-threaded server
#   otherwise loses time slices to the benchmark: unpinned, rekv's -P 1
#   rates drop 15-25% and its p99 triples, while Redis (one thread) does
#   not change. Needs 2 or more CPUs and taskset; without them, no pinning.
#
# Bounded: every redis-benchmark run has a fixed request count and a time
# limit; the servers it starts are stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-100000}
tests=${3:-set,get,incr,mset,lpush,rpop,sadd,hset,zadd,lrange_100}
pipelines=${4:-1 16}
clients=${CLIENTS:-50}
keyspace=${KEYSPACE:-100000}
rsskeys=${RSS_KEYS:-1000000}

source bench/tools.sh # the working directory is the repository

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

wait_port() { for _ in $(seq 100); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "server on $1 did not start" >&2; cat "$work"/*.log >&2; exit 1; }

go build -o "$work/rekv" .

# ledisdb at a pinned commit (the proxy serves no @latest), built once.
ledis_version=v0.0.0-20200510135210-d35789ec47e6
ledis_bin=""
if [ "${LEDIS:-1}" != 0 ]; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/rekv-bench"
  ledis_bin="$cache/ledis-server-$ledis_version"
  if [ ! -x "$ledis_bin" ]; then
    mkdir -p "$cache" "$work/ledis-build"
    if ! (cd "$work/ledis-build" && go mod init ledisbuild >/dev/null 2>&1 &&
          timeout 600 go get "github.com/ledisdb/ledisdb/cmd/ledis-server@$ledis_version" >/dev/null 2>&1 &&
          timeout 600 go build -o "$ledis_bin" github.com/ledisdb/ledisdb/cmd/ledis-server >/dev/null 2>&1); then
      echo "ledisdb could not be built from the module proxy: comparing rekv and Redis only" >&2
      ledis_bin=""
    fi
  fi
fi

# Pinning: servers on CPUs 0..n-2, redis-benchmark on CPU n-1.
ncpu=$(nproc)
srv_pin=(); bench_pin=()
if [ "${PIN:-1}" != 0 ] && [ "$ncpu" -ge 2 ] && command -v taskset >/dev/null; then
  srv_pin=(taskset -c "0-$((ncpu - 2))"); bench_pin=(taskset -c "$((ncpu - 1))")
  pinning="servers on CPUs 0-$((ncpu - 2)), redis-benchmark on CPU $((ncpu - 1))"
else
  pinning="no CPU pinning"
fi

rport=$(free_port); kport=$(free_port); lport=$(free_port)
"${srv_pin[@]}" redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >/dev/null 2>&1 &
rpid=$!; pids+=("$rpid")
# shellcheck disable=SC2086 # BENCH_REKV_FLAGS is a list of flags
"${srv_pin[@]}" "$work/rekv" --port "$kport" --dir "$work/rekv-data" --log-level warn ${BENCH_REKV_FLAGS:-} >"$work/rekv.log" 2>&1 &
kpid=$!; pids+=("$kpid")
wait_port "$rport"; wait_port "$kport"
servers="rekv:$kport redis:$rport"
if [ -n "$ledis_bin" ]; then
  "${srv_pin[@]}" "$ledis_bin" -addr "127.0.0.1:$lport" -data_dir "$work/ledis-data" -db_name goleveldb >"$work/ledis.log" 2>&1 &
  lpid=$!; pids+=("$lpid")
  wait_port "$lport"
  servers="$servers ledis:$lport"
fi

# run port pipeline -> lines "TEST<TAB>rps<TAB>p50<TAB>p99" for the asked tests
run() {
  local r=()
  [ "$keyspace" != 0 ] && r=(-r "$keyspace")
  timeout 600 "${bench_pin[@]}" redis-benchmark -p "$1" -n "$requests" -c "$clients" -P "$2" "${r[@]}" -t "$tests" --csv 2>/dev/null \
    | python3 -c '
import csv, sys
for row in csv.reader(sys.stdin):
    if len(row) < 7 or row[0] == "test" or "needed to benchmark" in row[0]:
        continue
    print("\t".join([row[0].split(" ")[0], row[1], row[4], row[6]]))'
}

for i in $(seq "$rounds"); do
  for p in $pipelines; do
    for s in $servers; do
      run "${s#*:}" "$p" | sed "s/^/${s%%:*}\t$p\t/" >> "$work/results"
    done
  done
done

echo "rounds=$rounds requests=$requests clients=$clients keyspace=$keyspace; medians; $ncpu cores, $(uname -m); $pinning"
echo
python3 - "$work/results" <<'PY'
import sys, statistics, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
order, names = [], []
for line in open(sys.argv[1]):
    srv, p, test, rps, p50, p99 = line.rstrip("\n").split("\t")
    key = (test, int(p))
    if key not in order: order.append(key)
    if srv not in names: names.append(srv)
    d[key][srv].append((float(rps), float(p50), float(p99)))
med = lambda xs, i: statistics.median(x[i] for x in xs)
others = [n for n in names if n not in ("redis", "rekv")]
cols = ["rekv"] + others
print("| test | P | redis ops/s | " + " | ".join(f"{n} ops/s (x redis)" for n in cols) +
      " | redis p50/p99 ms | " + " | ".join(f"{n} p50/p99 ms" for n in cols) + " |")
print("| --- | ---: | ---: | " + " | ".join("---:" for _ in cols) + " | ---: | " + " | ".join("---:" for _ in cols) + " |")
for key in sorted(order, key=lambda k: (k[1], order.index(k))):
    r = d[key]["redis"]
    if not r: continue
    cells = []
    for n in cols:
        x = d[key][n]
        cells.append(f"{med(x,0):,.0f} ({med(x,0)/med(r,0):.2f})" if x else "-")
    lat = [f"{med(d[key][n],1):.2f} / {med(d[key][n],2):.2f}" if d[key][n] else "-" for n in cols]
    print(f"| {key[0]} | {key[1]} | {med(r,0):,.0f} | " + " | ".join(cells) +
          f" | {med(r,1):.2f} / {med(r,2):.2f} | " + " | ".join(lat) + " |")
PY

if [ "$rsskeys" != 0 ]; then
  # Load exactly RSS_KEYS distinct 100-byte values into each, then read RSS.
  python3 -c '
import sys
n, v = int(sys.argv[1]), b"x" * 100
out = sys.stdout.buffer
for i in range(n):
    k = b"rss:%d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$100\r\n%s\r\n" % (len(k), k, v))
' "$rsskeys" > "$work/load.resp"
  rss() { awk '/VmRSS/ {printf "%.0f MiB", $2/1024}' "/proc/$1/status"; }
  load() { # name port pid
    redis-cli -p "$2" flushall >/dev/null
    timeout 600 redis-cli -p "$2" --pipe < "$work/load.resp" >/dev/null
    echo "$1: RSS $(rss "$3") after loading $rsskeys 100-byte values (dbsize $(redis-cli -p "$2" dbsize))"
    sleep 3 # idle: rekv returns a burst's free heap (runtime.idle_release_mib)
    echo "$1: RSS $(rss "$3") 3 s later"
    sleep 2
    echo "$1: RSS $(rss "$3") 5 s later"
  }
  echo
  # ledisdb is left out: it does not get through redis-cli --pipe (no
  # key stored after 120 s).
  # First in the servers that ran the benchmark (their caches and heaps
  # as the tests left them, then FLUSHALL), then in fresh ones.
  echo "After the benchmark and FLUSHALL:"
  for s in "rekv $kport $kpid" "redis $rport $rpid"; do
    # shellcheck disable=SC2086 # name port pid
    load $s
  done
  echo "Fresh servers:"
  kill "$kpid" "$rpid" 2>/dev/null || true
  fport=$(free_port)
  "${srv_pin[@]}" redis-server --port "$fport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >/dev/null 2>&1 &
  fpid=$!; pids+=("$fpid")
  wait_port "$fport"
  gport=$(free_port)
  # shellcheck disable=SC2086 # BENCH_REKV_FLAGS is a list of flags
  "${srv_pin[@]}" "$work/rekv" --port "$gport" --dir "$work/rekv-fresh" --log-level warn ${BENCH_REKV_FLAGS:-} >"$work/rekv-fresh.log" 2>&1 &
  gpid=$!; pids+=("$gpid")
  wait_port "$gport"
  for s in "rekv $gport $gpid" "redis $fport $fpid"; do
    # shellcheck disable=SC2086 # name port pid
    load $s
  done
fi

if [ "${CPU:-1}" != 0 ]; then
  echo
  bash bench/cpu-per-op.sh "$rounds" "$((requests * 4))" "${tests//,lrange_100/}" "$pipelines"
fi
