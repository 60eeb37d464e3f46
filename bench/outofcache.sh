#!/usr/bin/env bash
# GET of uniformly random keys from a data set several times larger than
# the memory rekv may use for its caches, against GET of a key space that
# fits in them, on one rekv (Badger, default durability) on loopback.
#
#   bench/outofcache.sh [requests]
#   CACHE_MIB=48 (default): the cache budget, split into Badger's block
#     cache (half), memtable (a quarter) and the meta cache (a quarter,
#     as entries of VALUE bytes)
#   FACTOR=5 (default): the data set is FACTOR x CACHE_MIB of values
#   VALUE=1000 (default): value bytes (under Badger's value threshold, so
#     values live in the LSM tree with their keys)
#   MEM_MIB=2*CACHE_MIB+160 (default): where a memory cgroup can be made
#     (cgroup v1 or v2, as root), rekv runs in one limited to this, page
#     cache included, so the kernel cannot keep the data set in memory for
#     it either (Go's heap is held under it with GOMEMLIMIT); MEM_MIB=0
#     runs it without
#
# Prints the in-cache and out-of-cache GET rates (-P 1 and -P 16, 50
# clients) and their ratio. Bounded: fixed request counts, time limits,
# and the server it starts is stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-100000}
cache_mib=${CACHE_MIB:-48}
factor=${FACTOR:-5}
value=${VALUE:-1000}

source bench/tools.sh # the working directory is the repository
work=$(mktemp -d)
pid=""
cg=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; fi
  if [ -n "$cg" ]; then rmdir "$cg" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/rekv" .
port=$(free_port)
block=$((cache_mib / 2)); memtable=$((cache_mib / 4)); metas=$(((cache_mib << 20) / 4 / (value + 100)))
keys=$(((cache_mib << 20) * factor / value))
hot=$((metas / 2)) # fits in the meta cache and the block cache alike
mem_mib=${MEM_MIB:-$((2 * cache_mib + 160))}
goheap=0
if [ "$mem_mib" != 0 ]; then
  if grep -qs memory /sys/fs/cgroup/cgroup.controllers && mkdir "/sys/fs/cgroup/rekv-ooc-$$" 2>/dev/null; then
    cg=/sys/fs/cgroup/rekv-ooc-$$; echo $((mem_mib << 20)) > "$cg/memory.max"
  elif mkdir "/sys/fs/cgroup/memory/rekv-ooc-$$" 2>/dev/null; then
    cg=/sys/fs/cgroup/memory/rekv-ooc-$$; echo $((mem_mib << 20)) > "$cg/memory.limit_in_bytes"
  else
    echo "no writable memory cgroup: rekv runs without a memory limit (the page cache may hold the data)" >&2
  fi
  [ -n "$cg" ] && goheap=$((mem_mib - 64))
fi
# The cgroup is joined by a shell that then becomes rekv, so every byte
# rekv ever uses is charged to it.
REKV_STORAGE__BADGER__BLOCK_CACHE_MIB=$block REKV_STORAGE__BADGER__MEMTABLE_MIB=$memtable \
  REKV_ACTORS__META_CACHE_SIZE=$metas REKV_RUNTIME__MEMORY_LIMIT_MIB=$goheap \
  bash -c '[ -z "$1" ] || echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
  "$work/rekv" --port "$port" --dir "$work/data" --log-level warn >"$work/rekv.log" 2>&1 &
pid=$!
for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done

echo "caches: block ${block} MiB, memtable ${memtable} MiB, meta cache ${metas} entries;" \
  "data: $keys values of $value bytes ($(((keys * value) >> 20)) MiB, ${factor}x the caches);" \
  "memory limit: $([ -n "$cg" ] && echo "$mem_mib MiB (cgroup $cg)" || echo none)"
# Keys as redis-benchmark's __rand_int__ names them (key:%012d).
python3 - "$keys" "$value" > "$work/load.resp" <<'PY'
import sys
n, size = int(sys.argv[1]), int(sys.argv[2])
out = sys.stdout.buffer
val = b"v" * size
for i in range(n):
    k = b"key:%012d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(k), k, len(val), val))
PY
timeout 900 redis-cli -p "$port" --pipe < "$work/load.resp" >/dev/null
rm -f "$work/load.resp"
echo "loaded: dbsize $(redis-cli -p "$port" dbsize)"

rate() { # space pipeline -> requests/s of GET over key:0..space-1
  timeout 300 redis-benchmark -p "$port" -n "$requests" -c 50 -P "$2" -r "$1" -t get --csv 2>/dev/null |
    last_rps
}
echo "| P | in-cache GET/s ($hot keys) | out-of-cache GET/s ($keys keys) | ratio |"
echo "| ---: | ---: | ---: | ---: |"
for p in 1 16; do
  rate "$hot" "$p" >/dev/null # warm the hot set
  in=$(rate "$hot" "$p")
  out=$(rate "$keys" "$p")
  python3 -c "import sys; i, o = float(sys.argv[2]), float(sys.argv[3]); print(f'| {sys.argv[1]} | {i:,.0f} | {o:,.0f} | {o/i:.2f} |')" "$p" "$in" "$out"
done
echo "rekv RSS $(awk '/VmRSS/ {printf "%.0f MiB", $2/1024}' "/proc/$pid/status")"
if [ -n "$cg" ]; then
  for f in memory.peak memory.max_usage_in_bytes; do
    [ -r "$cg/$f" ] && echo "cgroup peak (page cache included): $(($(cat "$cg/$f") >> 20)) MiB"
  done
  for f in memory.events memory.oom_control; do
    [ -r "$cg/$f" ] && grep -E "^oom_kill " "$cg/$f" | sed 's/^/cgroup /'
  done
fi
