#!/usr/bin/env bash
# Does the GC keep up with a TTL workload, and does the disk come back?
# (issue 36), on Badger with the default configuration:
#   1. LIVE keys of 100 bytes without a TTL are written: the live data;
#      its disk use, once settled, is the baseline;
#   2. for DURATION seconds, 50 clients pipelining 16 deep (the highest SET
#      rate the server sustains here) write fresh keys of 100 bytes with a
#      TTL of TTL ms; every 5 s it prints the GC's expiry backlog and rate,
#      RSS and disk use;
#   3. for AFTER seconds after the load stops it prints the disk use every
#      10 s, and reports when it came within 1.5x of the baseline.
#
#   bench/ttl.sh     LIVE=200000 DURATION=60 TTL=1000 AFTER=60 (defaults)
#
# Bounded: the load runs for DURATION seconds (and at most 500M commands);
# the server it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/tools.sh
live=${LIVE:-200000}
duration=${DURATION:-60}
ttl=${TTL:-1000}
after=${AFTER:-60}
start_rekv

field() { redis-cli -p "$port" info "$1" | tr -d '\r' | awk -F: -v f="$2" '$1 == f {print $2}'; }
disk() { du -sk "$work/data" | awk '{printf "%.1f", $1/1024}'; } # MiB in blocks
rss() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status"; }
value=$(printf 'v%.0s' $(seq 100))

python3 - "$live" "$value" >"$work/live.resp" <<'PY'
import sys
n, v = int(sys.argv[1]), sys.argv[2].encode()
out = sys.stdout.buffer
for i in range(n):
    k = b"live:%d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(k), k, len(v), v))
PY
redis-cli -p "$port" --pipe <"$work/live.resp" >/dev/null
sleep 5
base=$(disk)
echo "live data: $live keys of 100 bytes, disk ${base} MiB, RSS $(rss) MiB"

cmds0=$(field stats total_commands_processed)
timeout "$duration" redis-benchmark -p "$port" -c 50 -P 16 -n 500000000 -r 1000000000 \
  SET "ttl:__rand_int__" "$value" PX "$ttl" >/dev/null 2>&1 &
load=$!
t0=$(date +%s)
maxback=0
while kill -0 "$load" 2>/dev/null; do
  sleep 5
  back=$(field gc gc_backlog_expired)
  [ "${back:-0}" -gt "$maxback" ] && maxback=$back
  echo "  t=$(( $(date +%s) - t0 ))s expiry backlog ${back} keys, expired $(field gc gc_keys_expired_per_sec)/s, RSS $(rss) MiB, disk $(disk) MiB"
done
wait "$load" || true
cmds=$(( $(field stats total_commands_processed) - cmds0 ))
echo "load: $cmds SETs with PX $ttl in ${duration}s: $(( cmds / duration ))/s; largest expiry backlog seen ${maxback} keys"

t1=$(date +%s)
back_at=
while [ $(( $(date +%s) - t1 )) -lt "$after" ]; do
  sleep 10
  d=$(disk)
  echo "  +$(( $(date +%s) - t1 ))s disk ${d} MiB, expiry backlog $(field gc gc_backlog_expired), keys $(field keyspace db0 | cut -d, -f1), RSS $(rss) MiB"
  if [ -z "$back_at" ] && awk -v d="$d" -v b="$base" 'BEGIN {exit !(d <= 1.5 * b)}'; then back_at=$(( $(date +%s) - t1 )); fi
done
echo "after the load: disk $(disk) MiB against ${base} MiB of live data; within 1.5x after: ${back_at:-more than ${after}} s"
