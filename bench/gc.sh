#!/usr/bin/env bash
# How fast rekv's GC gives storage back (issue 36's yardstick), on Badger
# with the default configuration:
#   - members: HASHES hashes of FIELDS fields each are written, then deleted
#     (DEL is O(1): each hash's version becomes garbage); it reports the
#     time until INFO gc's backlog is empty and the members reclaimed per
#     second (gc_subkeys_deleted);
#   - expiry: KEYS keys with a 2 s TTL are written; it reports the time
#     from their expiry until gc_keys_expired counted them all, and keys
#     expired per second.
#
#   - foreground: the members case again, with 50 clients' SETs
#     (redis-benchmark) running while the GC reclaims; their p99 beside
#     the same load's p99 with nothing to reclaim (the GC yields to
#     clients: at most 2x is the goal).
#
#   bench/gc.sh         HASHES=20000 FIELDS=50 KEYS=200000 (defaults)
#   LIMIT=300 (seconds to wait for each phase before giving up)
#
# Bounded: fixed counts, a time limit per phase; the server it starts is
# stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/tools.sh
hashes=${HASHES:-20000}
fields=${FIELDS:-50}
keys=${KEYS:-200000}
limit=${LIMIT:-300}
start_rekv

gcfield() { redis-cli -p "$port" info gc | tr -d '\r' | awk -F: -v f="$1" '$1 == f {print $2}'; }
now() { date +%s.%N; }
# waitfor field target: until the counter reaches target (or the limit).
waitfor() {
  local t0; t0=$(now)
  while :; do
    local v; v=$(gcfield "$1")
    if [ "${v:-0}" -ge "$2" ]; then break; fi
    if awk -v a="$t0" -v b="$(now)" -v l="$limit" 'BEGIN {exit !(b - a > l)}'; then
      echo "gave up after ${limit}s: $1 = $v of $2" >&2; return 1
    fi
    sleep 0.1
  done
}

# resp kind n [fields]: n commands of kind (hset, del or setpx) as RESP.
resp() {
  python3 - "$@" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
fields = int(sys.argv[3]) if len(sys.argv) > 3 else 0
out = sys.stdout.buffer
for i in range(n):
    if kind == "hset":
        args = [b"HSET", b"h:%d" % i] + [x for j in range(fields) for x in (b"f%d" % j, b"v")]
    elif kind == "del":
        args = [b"DEL", b"h:%d" % i]
    else:
        args = [b"SET", b"e:%d" % i, b"v", b"PX", b"2000"]
    out.write(b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args))
PY
}

# Members.
resp hset "$hashes" "$fields" >"$work/hset.resp"
resp del "$hashes" >"$work/del.resp"
redis-cli -p "$port" --pipe <"$work/hset.resp" >/dev/null
before=$(gcfield gc_subkeys_deleted)
t0=$(now)
redis-cli -p "$port" --pipe <"$work/del.resp" >/dev/null
members=$((hashes * fields))
waitfor gc_subkeys_deleted $((before + members))
t1=$(now)
awk -v n="$members" -v a="$t0" -v b="$t1" 'BEGIN {printf "members: %d deleted in %d hashes, reclaimed in %.1f s: %.0f members/s\n", n, n/'"$fields"', b-a, n/(b-a)}'

# Expiry.
resp setpx "$keys" >"$work/set.resp"
before=$(gcfield gc_keys_expired)
t0=$(now)
redis-cli -p "$port" --pipe <"$work/set.resp" >/dev/null
t0=$(awk -v a="$t0" 'BEGIN {printf "%.3f", a + 2}') # the first keys expire 2 s after the load began
waitfor gc_keys_expired $((before + keys))
t1=$(now)
awk -v n="$keys" -v a="$t0" -v b="$t1" 'BEGIN {printf "expiry: %d keys with a 2 s TTL removed %.1f s after the first expired: %.0f keys/s\n", n, b-a, n/(b-a)}'

# Foreground: clients' SET p99 without, then with, a reclaim running.
p99() { redis-benchmark -p "$port" -t set -n "$1" -c 50 -r 100000 2>&1 | awk '/latency summary/ {getline; getline; print $5}'; }
redis-cli -p "$port" --pipe <"$work/hset.resp" >/dev/null
quiet=$(p99 100000)
before=$(gcfield gc_subkeys_deleted)
redis-cli -p "$port" --pipe <"$work/del.resp" >/dev/null
busy=$(p99 100000)
during=$(( $(gcfield gc_subkeys_deleted) - before ))
waitfor gc_subkeys_deleted $((before + members))
awk -v q="$quiet" -v b="$busy" -v d="$during" 'BEGIN {printf "foreground: SET p99 %.2f ms without GC, %.2f ms while it reclaimed (%d members meanwhile): %.1fx\n", q, b, d, b/q}'
