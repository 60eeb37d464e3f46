#!/usr/bin/env bash
# rekv (Badger) as a replica of Debian's redis-server (issue 38):
#   1. the master gets KEYS string keys of 100 bytes (DEBUG POPULATE), and
#      about KEYS/16 each of hashes, lists, sets and sorted sets (a tenth of
#      KEYS random keys, 3 members per write, KEYS/10 writes each);
#   2. REPLICAOF on rekv: the full sync's keys/s and MB/s, from the
#      command to the replica having applied the whole RDB file;
#   3. the standard load on the master (redis-benchmark, 50 clients, no
#      pipelining: SET, INCR, LPUSH, HSET, ZADD, REQUESTS each) while the
#      replication lag (master offset minus replica offset, in bytes and
#      as the master's ack lag) is sampled every 100 ms; then how long the
#      replica takes to catch up once the load ends.
#
#   bench/repl.sh     KEYS=1000000 REQUESTS=200000 (defaults)
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

go build -o "$work/rekv" .
mport=$(free_port); kport=$(free_port)
redis-server --port "$mport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" \
  --enable-debug-command yes --repl-diskless-sync-delay 0 --repl-backlog-size 256mb >/dev/null 2>&1 &
pids+=("$!")
"$work/rekv" --port "$kport" --dir "$work/rekv-data" --log-level info >"$work/rekv.log" 2>&1 &
pids+=("$!")
wait_port "$mport"; wait_port "$kport"

redis-cli -p "$mport" debug populate "$keys" key 100 >/dev/null
r=$((keys / 10))
for cmd in "HSET h:__rand_int__ a __rand_int__ b x c y" "RPUSH l:__rand_int__ __rand_int__ x y" \
  "SADD s:__rand_int__ __rand_int__ x y" "ZADD z:__rand_int__ 1 __rand_int__ 2 x 3 y"; do
  # shellcheck disable=SC2086
  redis-benchmark -p "$mport" -q -P 32 -r "$r" -n "$r" $cmd >/dev/null 2>&1
done
dbsize=$(redis-cli -p "$mport" dbsize)
echo "master: $dbsize keys, used_memory $(redis-cli -p "$mport" info memory | tr -d '\r' | awk -F: '$1=="used_memory_human"{print $2}')"

t0=$(date +%s.%N)
redis-cli -p "$kport" replicaof 127.0.0.1 "$mport" >/dev/null
for _ in $(seq 6000); do # at most 10 minutes
  [ "$(repl_field "$kport" master_link_status)" = up ] &&
    [ "$(repl_field "$mport" master_repl_offset)" = "$(repl_field "$kport" slave_repl_offset)" ] && break
  sleep 0.1
done
t1=$(date +%s.%N)
[ "$(redis-cli -p "$kport" dbsize)" = "$dbsize" ] || { echo "the replica has $(redis-cli -p "$kport" dbsize) keys, the master $dbsize" >&2; exit 1; }
bytes=$(grep -o 'sync finished.*bytes=[0-9]*' "$work/rekv.log" | grep -o '[0-9]*$' | tail -1)
python3 - "$t0" "$t1" "$dbsize" "$bytes" <<'PY'
import sys
t0, t1, n, b = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d = t1 - t0
print(f"full sync: {n:,} keys, RDB {b/1e6:.1f} MB in {d:.1f} s: {n/d:,.0f} keys/s, {b/1e6/d:.1f} MB/s")
PY

# The standard load, with the lag sampled meanwhile.
redis-benchmark -p "$mport" -q -c 50 -n "$requests" -r 100000 -t set,incr,lpush,hset,zadd >"$work/load.txt" 2>&1 &
load=$!
: >"$work/lag.txt"
while kill -0 "$load" 2>/dev/null; do
  k=$(repl_field "$kport" slave_repl_offset); m=$(repl_field "$mport" master_repl_offset) # an upper bound
  ack=$(repl_field "$mport" slave0 | grep -o 'lag=[0-9]*' | cut -d= -f2)
  echo "$((m - k)) ${ack:-0}" >>"$work/lag.txt"
  sleep 0.1
done
t2=$(date +%s.%N)
for _ in $(seq 3000); do
  [ "$(repl_field "$mport" master_repl_offset)" = "$(repl_field "$kport" slave_repl_offset)" ] && break
  sleep 0.1
done
t3=$(date +%s.%N)
tr '\r' '\n' <"$work/load.txt" | grep 'requests per second' | sed 's/^/master: /'
python3 - "$work/lag.txt" "$t2" "$t3" <<'PY'
import statistics, sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
lag = sorted(r[0] for r in rows); ack = [r[1] for r in rows]
p = lambda q: lag[min(len(lag) - 1, int(q * len(lag)))]
print(f"lag during the load ({len(rows)} samples): median {p(0.5):,} bytes, p99 {p(0.99):,}, max {lag[-1]:,}; "
      f"master's ack lag max {max(ack)} s")
print(f"caught up {float(sys.argv[3]) - float(sys.argv[2]):.1f} s after the load ended")
PY
