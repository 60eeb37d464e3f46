#!/usr/bin/env bash
# The bitmap, HyperLogLog, geo and SORT commands on rekv (Badger, default
# durability) beside Debian's redis-server, alternating servers each round,
# at -P 1 and -P 16; prints median requests/s and the rekv/Redis ratio.
#
#   bench/types.sh [rounds] [requests]     (defaults 3 and 50000)
#   CLIENTS=50 (default).
# SETBIT/GETBIT hit small bitmaps on random keys (redis-benchmark's random
# numbers are zero-padded, which offsets may not be); SETBIT big sets a bit
# of one 1 MiB bitmap (chunked) and BITCOUNT counts it whole; PFADD adds random elements to one HLL (dense after the
# first few thousand); PFCOUNT counts it; GEOADD adds random members to one
# geo set; GEOSEARCH searches 100 km around a fixed point of a set of
# 10,000 places; SORT sorts a 100-element list.
#
# Bounded: fixed request counts, a time limit per run; the servers it
# starts are stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-50000}
clients=${CLIENTS:-50}
source "$(dirname "$0")/lib.sh"

for port in "$rport" "$kport"; do
  redis-cli -p "$port" setbit big $((8 * 1024 * 1024 - 1)) 1 >/dev/null
  python3 - "$port" <<'PY'
import random, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
def cmd(*a):
    out = b"*%d\r\n" % len(a)
    for x in a:
        x = str(x).encode()
        out += b"$%d\r\n%s\r\n" % (len(x), x)
    return out
random.seed(7)
buf = b"".join(cmd("geoadd", "places", round(random.uniform(-10, 10), 6), round(random.uniform(40, 55), 6), "p%d" % i) for i in range(10000))
buf += cmd("rpush", "nums", *[random.randint(0, 10**6) for _ in range(100)])
s.sendall(buf)
got = 0
f = s.makefile("rb")
for _ in range(10001):
    f.readline()
PY
done

rps() { # port pipeline command...
  local port=$1 p=$2
  shift 2
  timeout 300 redis-benchmark -p "$port" -n "$requests" -c "$clients" -P "$p" -r 100000 --csv "$@" 2>/dev/null | last_rps
}
tests=(
  "setbit bm:__rand_int__ 1000 1"
  "getbit bm:__rand_int__ 1000"
  "setbit big 4194300 1"
  "bitcount big"
  "pfadd hll __rand_int__"
  "pfcount hll"
  "geoadd geo 2.35 48.85 m:__rand_int__"
  "geosearch places fromlonlat 2.35 48.85 byradius 100 km count 10"
  "sort nums limit 0 10"
)
echo "| test | redis ops/s | rekv ops/s | rekv/redis |"
echo "| --- | ---: | ---: | ---: |"
for p in 1 16; do
  for t in "${tests[@]}"; do
    read -r -a cmd <<<"$t"
    r=(); k=()
    for _ in $(seq "$rounds"); do r+=("$(rps "$rport" "$p" "${cmd[@]}")"); k+=("$(rps "$kport" "$p" "${cmd[@]}")"); done
    label=${cmd[0]}
    [ "${cmd[1]}" = big ] && label="$label big"
    median_row "$label -P $p" "${r[*]}" "${k[*]}"
  done
done
