#!/usr/bin/env bash
# rekv (Badger) as a replication master (issue 38):
#   1. rekv gets KEYS string keys of 100 bytes (redis-cli --pipe), and
#      about KEYS/16 each of hashes, lists, sets and sorted sets;
#   2. Debian's redis-server, then a second rekv, REPLICAOF it: each full
#      sync's keys/s and MB/s, from the command to the replica having
#      acknowledged the stream's offset;
#   3. the standard load (redis-benchmark, 50 clients, no pipelining: SET,
#      INCR, LPUSH, HSET, ZADD, REQUESTS each) on rekv with its two
#      replicas, the lag (the master's offset minus each replica's
#      acknowledged offset, in bytes) sampled every 100 ms; then the same
#      load on rekv without replicas, on redis-server with a redis-server
#      replica, and on redis-server alone, for the ratios.
#
#   bench/repl-master.sh     KEYS=1000000 REQUESTS=200000 (defaults)
#
# Bounded: every load has a request count, every wait a deadline; the
# servers it starts are stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/tools.sh
keys=${KEYS:-1000000}
requests=${REQUESTS:-200000}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
# acked prints the offset the master on $1 says replica number $2 acknowledged.
acked() { repl_field "$1" "slave$2" | grep -o 'offset=[0-9]*' | cut -d= -f2; }
rekv_at() { "$work/rekv" --port "$1" --dir "$work/data-$1" --log-level info >"$work/rekv-$1.log" 2>&1 & pids+=("$!"); wait_port "$1"; }
redis_at() { redis-server --port "$1" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" --repl-diskless-load disabled "${@:2}" >/dev/null 2>&1 & pids+=("$!"); wait_port "$1"; }
load() { redis-benchmark -p "$1" -q -c 50 -n "$requests" -r 100000 -t set,incr,lpush,hset,zadd 2>&1 | tr '\r' '\n' | grep 'requests per second'; }

go build -o "$work/rekv" .
mport=$(free_port); rport=$(free_port); kport=$(free_port)
rekv_at "$mport"
python3 -c "
import sys
v = 'x' * 100
w = sys.stdout.write
for i in range($keys):
    w('*3\r\n\$3\r\nSET\r\n\$%d\r\nkey:%d\r\n\$100\r\n%s\r\n' % (len('key:%d' % i), i, v))
" | redis-cli -p "$mport" --pipe >/dev/null
r=$((keys / 10))
for cmd in "HSET h:__rand_int__ a __rand_int__ b x c y" "RPUSH l:__rand_int__ __rand_int__ x y" \
  "SADD s:__rand_int__ __rand_int__ x y" "ZADD z:__rand_int__ 1 __rand_int__ 2 x 3 y"; do
  # shellcheck disable=SC2086
  redis-benchmark -p "$mport" -q -P 32 -r "$r" -n "$r" $cmd >/dev/null 2>&1
done
dbsize=$(redis-cli -p "$mport" dbsize)
echo "rekv master: $dbsize keys"

# sync port kind index: REPLICAOF on the server at port, timed until the
# master has its acknowledgement of the whole stream.
sync() {
  local t0 t1 bytes
  dbsize=$(redis-cli -p "$mport" dbsize)
  t0=$(date +%s.%N)
  redis-cli -p "$1" replicaof 127.0.0.1 "$mport" >/dev/null
  for _ in $(seq 6000); do # at most 10 minutes
    [ "$(redis-cli -p "$1" dbsize)" = "$dbsize" ] && [ "$(acked "$mport" "$3")" = "$(repl_field "$mport" master_repl_offset)" ] && break
    sleep 0.1
  done
  t1=$(date +%s.%N)
  [ "$(redis-cli -p "$1" dbsize)" = "$dbsize" ] || { echo "the $2 replica has $(redis-cli -p "$1" dbsize) keys, the master $dbsize" >&2; exit 1; }
  bytes=$(grep -o 'full sync sent.*bytes=[0-9]*' "$work/rekv-$mport.log" | grep -o '[0-9]*$' | tail -1)
  python3 - "$t0" "$t1" "$dbsize" "$bytes" "$2" <<'PY'
import sys
t0, t1, n, b = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d = t1 - t0
print(f"full sync to {sys.argv[5]}: {n:,} keys, RDB {b/1e6:.1f} MB in {d:.1f} s: {n/d:,.0f} keys/s, {b/1e6/d:.1f} MB/s")
PY
}
# lagged port name: the standard load on the master while the lag of the
# replica on port (the master's offset minus the replica's own) is
# sampled every 100 ms.
lagged() {
  load "$mport" >"$work/load.txt" &
  local lp=$!
  : >"$work/lag.txt"
  while kill -0 "$lp" 2>/dev/null; do
    k=$(repl_field "$1" slave_repl_offset); m=$(repl_field "$mport" master_repl_offset) # an upper bound
    echo "$((m - k))" >>"$work/lag.txt"
    sleep 0.1
  done
  wait "$lp"
  sed "s/^/rekv + a $2 replica: /" "$work/load.txt"
  python3 - "$work/lag.txt" "$2" <<'PY'
import sys
lag = sorted(int(l) for l in open(sys.argv[1]) if l.strip())
p = lambda q: lag[min(len(lag) - 1, int(q * len(lag)))]
print(f"lag of the {sys.argv[2]} replica ({len(lag)} samples): median {p(0.5):,} bytes, p99 {p(0.99):,}, max {lag[-1]:,}")
PY
}
redis_at "$rport"
sync "$rport" redis-server 0
lagged "$rport" redis-server
redis-cli -p "$rport" replicaof no one >/dev/null
sleep 1
rekv_at "$kport"
sync "$kport" rekv 0
lagged "$kport" rekv
redis-cli -p "$kport" replicaof no one >/dev/null
sleep 1
load "$mport" | sed 's/^/rekv alone: /'
p2=$(free_port); p3=$(free_port)
redis_at "$p2"
redis_at "$p3" --replicaof 127.0.0.1 "$p2"
sleep 1
load "$p2" | sed 's/^/redis + a redis-server replica: /'
redis-cli -p "$p3" replicaof no one >/dev/null
sleep 1
load "$p2" | sed 's/^/redis alone: /'
