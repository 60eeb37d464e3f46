#!/usr/bin/env bash
# A long run of what a cache or session store lives through (issue 36), on
# Badger with the default configuration; it asks whether disk and memory
# stay flat:
#   - LIVE keys of 100 bytes without a TTL (the live data);
#   - 10 clients pipelining 4 deep write fresh keys with a TTL of TTL ms
#     the whole time;
#   - every 20 s, 20 hashes of 5,000 fields are written and deleted (half
#     DEL, half UNLINK): 100,000 members for the GC to reclaim;
#   - 20 clients that reconnect for every request (INCR and GET);
#   - every minute a row: RSS (and its anonymous part), disk, keys, the
#     GC's backlogs, connections received so far.
# After DURATION seconds the load stops; a last row AFTER seconds later.
# It ends by comparing the second half's largest RSS and disk with the
# first half's.
#
#   bench/soak.sh    DURATION=1800 LIVE=200000 TTL=2000 AFTER=60 (defaults)
#
# Bounded: every load runs under timeout and a request count; the server
# it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/tools.sh
duration=${DURATION:-1800}
live=${LIVE:-200000}
ttl=${TTL:-2000}
after=${AFTER:-60}
start_rekv
bg=()
trap 'for j in "${bg[@]}"; do kill "$j" 2>/dev/null || true; done; kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

field() { redis-cli -p "$port" info "$1" | tr -d '\r' | awk -F: -v f="$2" '$1 == f {print $2}'; }
disk() { du -sk "$work/data" | awk '{printf "%.0f", $1/1024}'; } # MiB in blocks
rss() { awk '/VmRSS/ {r=$2} /RssAnon/ {a=$2} END {printf "%.0f %.0f\n", r/1024, a/1024}' "/proc/$pid/status"; }
value=$(printf 'v%.0s' $(seq 100))

python3 - "$live" "$value" "$work" <<'PY'
import sys
n, v, work = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]
with open(work + "/live.resp", "wb") as out:
    for i in range(n):
        k = b"live:%d" % i
        out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(k), k, len(v), v))
# 20 hashes of 5,000 fields, HSET 500 fields at a time.
with open(work + "/big.resp", "wb") as out:
    for h in range(20):
        k = b"big:%d" % h
        for start in range(0, 5000, 500):
            args = [b"HSET", k]
            for f in range(start, start + 500):
                args += [b"f%d" % f, v[:20]]
            out.write(b"*%d\r\n" % len(args))
            for a in args:
                out.write(b"$%d\r\n%s\r\n" % (len(a), a))
    for h in range(20):
        cmd = b"DEL" if h % 2 == 0 else b"UNLINK"
        k = b"big:%d" % h
        out.write(b"*2\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(cmd), cmd, len(k), k))
PY
redis-cli -p "$port" --pipe <"$work/live.resp" >/dev/null
sleep 5
echo "live data: $live keys of 100 bytes; disk $(disk) MiB; RSS (anon) $(rss | tr ' ' '/') MiB; load for ${duration}s"

end=$(( $(date +%s) + duration ))
timeout "$duration" redis-benchmark -p "$port" -c 10 -P 4 -n 2000000000 -r 1000000000 \
  SET "ttl:__rand_int__" "$value" PX "$ttl" >/dev/null 2>&1 &
ttlload=$!; bg+=("$ttlload")
(
  while [ "$(date +%s)" -lt "$end" ]; do
    timeout 60 redis-cli -p "$port" --pipe <"$work/big.resp" >/dev/null 2>&1 || true
    sleep 20
  done
) &
bigload=$!; bg+=("$bigload")
(
  while [ "$(date +%s)" -lt "$end" ]; do
    timeout 30 redis-benchmark -p "$port" -c 20 -k 0 -n 20000 -r 10000 -t incr,get -q >/dev/null 2>&1 || true
  done
) &
connload=$!; bg+=("$connload")

printf '| min | RSS MiB | anon MiB | disk MiB | keys | expiry backlog | dead versions | connections |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n'
t0=$(date +%s)
rows=()
row() {
  read -r r a < <(rss)
  d=$(disk)
  rows+=("$r $d")
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$r" "$a" "$d" "$(field keyspace db0 | cut -d, -f1 | cut -d= -f2)" \
    "$(field gc gc_backlog_expired)" "$(field gc gc_backlog_versions)" "$(field stats total_connections_received)"
}
while [ "$(date +%s)" -lt "$end" ]; do
  sleep 60
  row $(( ($(date +%s) - t0) / 60 ))
done
wait "$ttlload" "$bigload" "$connload" 2>/dev/null || true
sleep "$after"
row "+${after}s"
python3 - "${rows[@]}" <<'PY'
import sys
rows = [tuple(map(float, r.split())) for r in sys.argv[1:-1]]  # the load's rows
if len(rows) >= 2:
    h = len(rows) // 2
    a, b = rows[:h], rows[h:]
    print("largest RSS: first half %.0f MiB, second half %.0f MiB (%.2fx); largest disk: %.0f / %.0f MiB (%.2fx)" % (
        max(r[0] for r in a), max(r[0] for r in b), max(r[0] for r in b) / max(r[0] for r in a),
        max(r[1] for r in a), max(r[1] for r in b), max(r[1] for r in b) / max(r[1] for r in a)))
PY
